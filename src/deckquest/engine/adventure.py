"""MTG-TRPG's adventure-part rules outside battles, as plain functions of the engine's state.

What a PC may do between statements (T-2.3 to T-2.6, T-2.10), a fight outside combat
scenes (T-3.4, T-8.1) and paying for a spell from untapped mana sources: pure rules on
``deckquest.engine.pc.PC`` and its permanents, no run, no events. The game system
(``deckquest.systems.trpg``) applies them to a run; agents read them to answer decisions.
"""

from __future__ import annotations

from typing import Protocol

from deckquest.cards.database import card_name
from deckquest.cards.model import Card
from deckquest.i18n import _
from deckquest.engine import pc as pcs
from deckquest.engine.combat.mana import Source, pay
from deckquest.engine.combat.profile import (
    DEATHTOUCH, DOUBLE_STRIKE, FIRST_STRIKE, INDESTRUCTIBLE, KEYWORD_FLAGS, profile,
)
from deckquest.engine.permanents import Permanent

SORCERY_MINUTES = 1  # T-2.3
CONCENTRATE_MINUTES = 1  # T-2.4
REST_MINUTES = 1  # T-2.6
SLEEP_MINUTES = 6 * 60  # T-2.8

# What became of an NPC; T-3.4 holding back leaves it unconscious instead of dead.
NPC_ABSENT = "absent"
NPC_PRESENT = "present"
NPC_UNCONSCIOUS = "unconscious"
NPC_DEAD = "dead"


def ready_creatures(pc: pcs.PC) -> list[int]:
    """Battlefield indexes of the PC's untapped creatures that can tap (T-2.10, T-3.3)."""
    return [i for i, p in enumerate(pc.battlefield)
            if not p.tapped and not p.summoning_sick and pc.cards[p.card].is_creature]


def untapped_creatures(pc: pcs.PC) -> list[int]:
    """Battlefield indexes of the PC's untapped creatures, summoning sick or not: those that
    may block (T-3.2, T-2.10: summoning sickness stops tapping and attacking only)."""
    return [i for i, p in enumerate(pc.battlefield) if not p.tapped and pc.cards[p.card].is_creature]


def creature_power(pc: pcs.PC, permanent: Permanent) -> int:
    return max(0, profile(pc.cards[permanent.card]).power + permanent.plus_counters)


def mana_sources(pc: pcs.PC) -> list[Source]:
    """The PC's untapped permanents that make mana and may tap (summoning sickness, T-2.10,
    holds creatures only: a land taps the turn it is played)."""
    sources = []
    for index, permanent in enumerate(pc.battlefield):
        made = profile(pc.cards[permanent.card]).mana
        if made and not permanent.tapped and not permanent.summoning_sick:
            sources.append((index, made))
    return sources


def payment(pc: pcs.PC, card: Card) -> list[int] | None:
    """The battlefield indexes to tap to pay the card's cost, or None (X is 0)."""
    return pay(mana_sources(pc), profile(card).cost)


class NpcFigures(Protocol):
    """What a fight reads of an NPC (the compiled scenario's NPC record)."""

    kind: str  # creature, planeswalker, player, horde
    keywords: tuple[str, ...]
    power: int | None
    toughness: int | None
    loyalty: int | None
    life: int | None


def npc_stats(decl: NpcFigures) -> tuple[int, int, int]:
    """Power, toughness and keyword flags of an NPC in a fight (T-8.1).

    A planeswalker fights as 0 power with its loyalty as toughness, a player NPC with its life.
    """
    keywords = 0
    for word in decl.keywords:
        keywords |= KEYWORD_FLAGS.get(word.lower(), 0)
    if decl.kind == "creature":
        return decl.power or 0, decl.toughness or 0, keywords
    if decl.kind == "planeswalker":
        return 0, decl.loyalty or 0, keywords
    return 0, decl.life or 20, keywords


def exchange_damage(my_power: int, my_keys: int, my_toughness: int, their_power: int, their_keys: int,
                    their_toughness: int) -> tuple[int, int]:
    """Damage each side deals in a one-on-one fight, with first and double strike (CR 510).

    Returns (dealt to the NPC, taken by the creature). First-strike damage comes first; a
    side destroyed by it deals no regular damage.
    """
    my_first = bool(my_keys & (FIRST_STRIKE | DOUBLE_STRIKE))
    their_first = bool(their_keys & (FIRST_STRIKE | DOUBLE_STRIKE))
    dealt = my_power if my_first else 0
    taken = their_power if their_first else 0
    me_alive = not destroyed(taken, my_toughness, their_keys, my_keys)
    them_alive = not destroyed(dealt, their_toughness, my_keys, their_keys)
    if me_alive and (not my_first or my_keys & DOUBLE_STRIKE):
        dealt += my_power
    if them_alive and (not their_first or their_keys & DOUBLE_STRIKE):
        taken += their_power
    return dealt, taken


def destroyed(damage: int, toughness: int, source_keys: int, own_keys: int) -> bool:
    """Lethal damage, or any damage from deathtouch, destroys what is not indestructible."""
    if own_keys & INDESTRUCTIBLE or damage <= 0:
        return False
    return damage >= toughness or bool(source_keys & DEATHTOUCH)


def cast_permanent(pc: pcs.PC, card_id: int) -> None:
    """T-2.3, T-2.5: cast a permanent spell from hand, paying with untapped mana sources."""
    card = pc.cards[card_id]
    if not pc.concentration_counter:
        raise pcs.RuleError(f"{pc.name} must concentrate before casting {card.name}", "T-2.5")
    taps = payment(pc, card)
    if card_id not in pc.hand or taps is None:
        raise pcs.RuleError(f"{pc.name} cannot cast {card.name} now", "T-2.5")
    for index in taps:
        pc.battlefield[index].tapped = True
    pc.hand.remove(card_id)
    pc.battlefield.append(Permanent(card=card_id, owner=pc.id, summoning_sick=card.is_creature))


def legal_actions(pc: pcs.PC) -> list[tuple[str, int | None, str]]:
    """What one PC may do now outside combat: (action, card id, description). Resting needs no
    concentration counter (T-2.6: it removes the creatures' damage too)."""
    if not pc.can_act:
        return []
    rest = ("rest", None, _("{pc}: rest (1 minute, T-2.6)", pc=pc.name))
    if not pc.concentration_counter:
        return [("concentrate", None, _("{pc}: concentrate (1 minute, T-2.4)", pc=pc.name)), rest]
    found: list[tuple[str, int | None, str]] = []
    hand = _one_of_each(pc)
    if not pc.land_played:
        found += [("play_land", card_id, _("{pc}: play {card}", pc=pc.name, card=card_name(pc.cards[card_id].name)))
                  for card_id in hand if pc.cards[card_id].is_land]
    found += [("cast", card_id, _("{pc}: cast {card}", pc=pc.name, card=card_name(pc.cards[card_id].name)))
              for card_id in hand if _castable_outside_combat(pc, card_id)]
    found.append(rest)
    return found


def allows(pc: pcs.PC, action: str, card_id: int | None) -> bool:
    """Whether the PC may take ``action`` now outside combat: ``legal_actions``' rules, for
    any copy of a card in hand (checked alone, without listing what else it may do)."""
    if pc.status not in pcs.ABLE:  # (``pc.can_act``, without the property's call)
        return False
    if action in ("concentrate", "rest"):
        return card_id is None and (action == "rest" or not pc.concentration_counter)
    if not pc.concentration_counter:
        return False
    if card_id is None or card_id not in pc.hand:
        return False
    if action == "play_land":
        return not pc.land_played and pc.cards[card_id].is_land
    return action == "cast" and _castable_outside_combat(pc, card_id)


def _one_of_each(pc: pcs.PC) -> list[int]:
    """One card id per card name in hand: copies of a card are interchangeable, so a person
    is offered "play Forest" once, not once per Forest."""
    first: dict[str, int] = {}
    for card_id in pc.hand:
        first.setdefault(pc.cards[card_id].name, card_id)
    return list(first.values())


def _castable_outside_combat(pc: pcs.PC, card_id: int) -> bool:
    """A permanent spell that needs no target (no Auras: their targets are not modelled)."""
    card = pc.cards[card_id]
    return (profile(card).is_permanent and not card.is_land and "Aura" not in card.subtypes
            and payment(pc, card) is not None)
