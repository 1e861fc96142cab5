"""Continuous effects of static abilities (CR 611.3, 613), and the unconscious PC (T-7.2).

Lords and anthems ("Other Goblin creatures you control get +1/+1 and have haste.",
"Creatures you control get +1/+1.") are read by `deckquest.cards.oracle` as `anthem`
effects of `static` abilities; a card's profile lists them (`Profile.statics`). Their
effects are not stored as changes: `refresh_statics` recomputes every permanent's
`static_power`, `static_toughness` and `static_keywords` from the static abilities on the
battlefield now. The engine calls it whenever the battlefield may have changed (a permanent
entered, tokens were made, state-based actions, the start of the battle), so a lord's
bonus is there as soon as the lord (or the creature) enters and gone as soon as it leaves.

Layers are simplified: power and toughness are printed + static effects + counters +
"until end of turn" changes, all added (CR 613.4 sublayers 7c and 7d, in any order, give
the same sums; no card in the vocabulary sets P/T to a number or switches it); keywords are
printed | static | until end of turn. Static abilities of the card itself ("~ can't block.")
are part of its profile.

T-7.2: a PC that must draw from an empty library falls unconscious: "no actions, treated as
a 0/1 defender creature". In a battle the engine puts that creature on the PC's battlefield
(`fall_unconscious`): it has no abilities, no static effect changes it, it never blocks (it
takes no actions) and, being a creature, it is never attacked (CR 508.1b: players,
planeswalkers and battles are attacked); the enemies' spells and abilities can target it or
hit it ("each creature"). Damage to it, destroying or exiling it is the further harm of
T-7.4: the PC dies. When the battle ends the creature leaves with the battle.
"""

from __future__ import annotations

from typing import Final, Iterable

from deckquest.cards.model import Card
from deckquest.cards.oracle import Effect
from deckquest.engine.combat.profile import STATIC_FLAGS
from deckquest.engine.combat.state import Battle, Side, enter_battlefield, facts_of
from deckquest.engine.game import Events
from deckquest.engine.pc import DEAD, PC, UNCONSCIOUS
from deckquest.engine.permanents import Permanent

_FLAGS: Final[dict[Effect, int]] = {}  # anthem effect -> its keyword flags


def _flags(effect: Effect) -> int:
    flags = _FLAGS.get(effect)
    if flags is None:
        flags = 0
        for word in effect.keywords:
            flags |= STATIC_FLAGS[word]
        _FLAGS[effect] = flags
    return flags


def _applies(effect: Effect, source: Permanent, side: Side, permanent: Permanent) -> bool:
    """Whether the anthem `effect` of `source` applies to the permanent: a creature (not an
    unconscious PC's, T-7.2) that meets its conditions. The PC's creature is looked up (by
    its id, boxed and hashed) only for a creature that meets them."""
    if not facts_of(side, permanent.card).is_creature:
        return False
    card = side.cards[permanent.card]
    for condition in effect.target.conditions:
        kind = condition.kind
        if kind == "another":
            if permanent is source:
                return False
        elif kind == "subtype":
            if condition.value not in card.subtypes:
                return False
        elif kind == "color":
            if condition.value not in card.colors:
                return False
        elif kind == "colorless":
            if card.colors:
                return False
        else:
            return False
    return not is_pc_creature(card)


def refresh_statics(battle: Battle) -> None:
    """Recompute the static effects on every permanent of the battle (see the module doc)."""
    sides = battle.sides()
    sources = []
    for side in sides:
        for permanent in side.battlefield:
            statics = facts_of(side, permanent.card).statics
            if statics:
                sources.append((side, permanent, statics))
    if not sources and not battle.statics_applied:
        return
    for side in sides:
        for permanent in side.battlefield:
            permanent.static_power = permanent.static_toughness = permanent.static_keywords = 0
    for source_side, source, effects in sources:
        for effect in effects:
            mine_only = effect.target.controller == "you"
            flags = _flags(effect)
            for side in sides:
                if mine_only and side is not source_side:
                    continue
                for permanent in side.battlefield:
                    if _applies(effect, source, side, permanent):
                        permanent.static_power += effect.power
                        permanent.static_toughness += effect.toughness
                        permanent.static_keywords |= flags
    battle.statics_applied = bool(sources)


def clear_statics(permanents: Iterable[Permanent]) -> None:
    """Static effects end with the battle (outside it the engine does not apply them)."""
    for permanent in permanents:
        permanent.static_power = permanent.static_toughness = permanent.static_keywords = 0


# --- T-7.2: the unconscious PC as a 0/1 defender creature -----------------------------------

_PC_CREATURES: Final[dict[int, Card]] = {}


def is_pc_creature(card: Card) -> bool:
    return _PC_CREATURES.get(id(card)) is card


def pc_creature_card(name: str) -> Card:
    card = Card.build(f"{name} (unconscious)", None, "Creature", power="0", toughness="1",
                      keywords=("Defender",), oracle_text="Defender")
    _PC_CREATURES[id(card)] = card
    return card


def fall_unconscious(battle: Battle, pc: PC, events: Events) -> None:
    """T-7.2: the PC that just fell unconscious becomes a 0/1 defender creature on its own
    battlefield (once)."""
    if pc.status != UNCONSCIOUS or pc.id in battle.pc_creatures:
        return
    pc.cards = pc.cards + (pc_creature_card(pc.name),)
    card = len(pc.cards) - 1
    enter_battlefield(pc, card).summoning_sick = False
    battle.pc_creatures[pc.id] = card
    if events is not None:
        events.append({"event": "battle_unconscious", "player": pc.id, "card": pc.cards[card].name, "id": card})


def pc_creature_leaves(side: PC, events: Events) -> None:
    """T-7.4: the unconscious PC's creature was destroyed, died of damage or was exiled:
    the PC dies."""
    side.status = DEAD
    if events is not None:
        events.append({"event": "battle_life", "player": side.id, "change": 0, "life": side.life,
                       "status": DEAD})
