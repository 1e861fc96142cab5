"""Card effects in a battle: the vocabulary of `deckquest.cards.oracle`, executed.

`deckquest.cards.oracle.recognise` reads what a card does; this module does it.
It lists an ability's legal targets (`target_options`), chooses targets where
the engine decides (`choose_picks`: the horde at random, T-6.8; bosses and the
triggers of the PCs' permanents greedily), judges what an ability is worth to
its controller (`ability_value`, the greedy policies' yardstick) and resolves
abilities (`resolve`). A card whose text is not understood has no abilities
here: it plays as its type with its stats.

Targets are references `(side id, card id)`: a permanent in that side's card
table, `(side id, PLAYER)` the player itself (a PC, a boss or the horde, whose
"damage" mills its library, T-6.10), `(STACK, i)` the i-th item on the stack.
Triggered abilities resolve at once instead of using the stack (a simplification
docs/battles.md states); spells and activated abilities use the stack.
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple, Sequence

from deckquest.cards.model import Card
from deckquest.cards.oracle import Ability, Amount, Condition, Effect, Recognition, Target, Token, recognise
from deckquest.engine.combat.mana import Requirement
from deckquest.engine.combat.profile import (
    ANY_PROTECTION, DEATHTOUCH, HEXPROOF, INDESTRUCTIBLE, KEYWORD_FLAGS, LIFELINK, TRAMPLE, profile, protected_from,
)
from deckquest.engine.combat.state import (
    HORDE, Battle, Side, StackItem, enter_battlefield, facts_of, find_permanent, keywords_of, permanent_of, power,
    toughness,
)
from deckquest.engine.combat.statics import fall_unconscious, is_pc_creature, refresh_statics
from deckquest.engine.game import Events
from deckquest.engine.pc import DEAD, OK, draw, gain_life, lose_life, randbelow, shuffle
from deckquest.engine.permanents import Permanent

Ref = tuple[str, int]
#: What one decision's weighing of many plays on an unchanged battle keeps (`casting.play_value`):
#: the worth of N damage to an object, ("damage", controller, target owner, target card, N), and the penalty of a
#: play's cost, (action kind, player, card, mode).
WorthMemo = dict[tuple[str, str, str, int, int] | tuple[str, str, int, int], float]
PLAYER: Final = -1
STACK: Final = "stack"

_RECOGNITIONS: Final[dict[int, tuple[Card, Recognition]]] = {}


def recognition(card: Card) -> Recognition:
    """The card's recognised abilities, cached by object identity (see profile.profile)."""
    entry = _RECOGNITIONS.get(id(card))
    if entry is not None and entry[0] is card:
        return entry[1]
    if len(_RECOGNITIONS) > 50_000:
        _RECOGNITIONS.clear()
    found = recognise(card)
    _RECOGNITIONS[id(card)] = (card, found)
    return found


_SPELLS: Final[dict[int, tuple[Card, Ability | None]]] = {}


def spell_ability(card: Card) -> Ability | None:
    """What an instant or sorcery does when it resolves, if its text is understood: a modal
    ability, or the effects of all its spell lines in order ("Electrolyze deals 2 damage …" /
    "Draw a card." are one spell)."""
    entry = _SPELLS.get(id(card))
    if entry is not None and entry[0] is card:
        return entry[1]
    found = [a for a in recognition(card).abilities if a.timing == "spell" and (a.effects or a.modes)]
    modal = next((a for a in found if a.modes), None)
    if modal is not None or len(found) < 2:
        ability = modal or (found[0] if found else None)
    else:
        ability = Ability("spell", tuple(e for a in found for e in a.effects), found[0].cost,
                          text=" ".join(a.text for a in found))
    if len(_SPELLS) > 50_000:
        _SPELLS.clear()
    _SPELLS[id(card)] = (card, ability)
    return ability


_TRIGGERED: Final[dict[tuple[int, str], tuple[Card, tuple[Ability, ...]]]] = {}


def triggered(card: Card, timing: str) -> tuple[Ability, ...]:
    """The card's triggered abilities of a timing (enters, dies, upkeep, …), cached by the
    card's identity: every upkeep and end step asks it of every permanent."""
    entry = _TRIGGERED.get((id(card), timing))
    if entry is not None and entry[0] is card:
        return entry[1]
    if len(_TRIGGERED) > 50_000:
        _TRIGGERED.clear()
    found = tuple(a for a in recognition(card).abilities if a.timing == timing)
    _TRIGGERED[(id(card), timing)] = (card, found)
    return found


_ACTIVATED: Final[dict[int, tuple[Card, tuple[Ability, ...]]]] = {}


def activated_abilities(card: Card) -> tuple[Ability, ...]:
    """Activated and loyalty abilities, in the order printed (an ability's index is its
    position here); cached by the card's identity."""
    entry = _ACTIVATED.get(id(card))
    if entry is not None and entry[0] is card:
        return entry[1]
    if len(_ACTIVATED) > 50_000:
        _ACTIVATED.clear()
    found = tuple(a for a in recognition(card).abilities if a.timing in ("activated", "loyalty"))
    _ACTIVATED[id(card)] = (card, found)
    return found


def modes_of(ability: Ability) -> tuple[tuple[Effect, ...], ...]:
    return ability.modes or (ability.effects,)


_SLOTS: Final[dict[int, tuple[tuple[Effect, ...], tuple[Target, ...]]]] = {}


def slots(effects: tuple[Effect, ...]) -> tuple[Target, ...]:
    """The targets to choose, in order: each distinct "target" phrase once per target it
    names ("two target lands": twice); an effect that repeats a phrase shares its choice.
    Cached by the identity of the effects (an ability's, which the recognition cache keeps)."""
    entry = _SLOTS.get(id(effects))
    if entry is not None and entry[0] is effects:
        return entry[1]
    found: list[Target] = []
    for effect in effects:
        for target in (effect.target, effect.other):
            if target is not None and target.scope == "target" and target not in found:
                found.append(target)
    wanted = tuple(t for t in found for _ in range(t.count))
    if len(_SLOTS) > 50_000:
        _SLOTS.clear()
    _SLOTS[id(effects)] = (effects, wanted)
    return wanted


# --- who is what ----------------------------------------------------------------------------


def opposing(battle: Battle, one: str, other: str) -> bool:
    return battle.is_enemy(one) != battle.is_enemy(other)


def _controller_ok(battle: Battle, controller: str, owner: str, wanted: str) -> bool:
    if wanted == "you":
        return owner == controller
    if wanted == "opponent":
        return opposing(battle, controller, owner)
    return True


def players(battle: Battle, kind: str) -> list[str]:
    """Players an effect can reach: PCs and bosses in the fight; the horde for damage and
    mill only (it has no life or hand, T-6.8; damage mills it, T-6.10)."""
    found = [pc.id for pc in battle.fighting()] + [b.id for b in battle.fighting_bosses()]
    if kind in ("damage", "mill") and battle.horde_deck and battle.horde.library:
        found.append(HORDE)
    return found


_TYPE_WORDS: Final = {"artifact": "Artifact", "enchantment": "Enchantment", "land": "Land",
               "planeswalker": "Planeswalker", "creature": "Creature", "instant": "Instant", "sorcery": "Sorcery"}


def _condition_ok(battle: Battle, side: Side, permanent: Permanent, condition: Condition, source: Ref) -> bool:
    card = side.cards[permanent.card]
    kind, value = condition.kind, condition.value
    key = (side.id, permanent.card)
    if kind == "not_color":
        return value not in card.colors
    if kind == "not_type":
        return card.is_token is False if value == "token" else not card.is_type(_type_word(value))
    if kind == "type":
        return card.is_type(_type_word(value))
    if kind == "nonbasic":
        return "Basic" not in card.supertypes
    if kind in ("tapped", "untapped"):
        return permanent.tapped == (kind == "tapped")
    attacking = any((a.owner, a.card) == key for a in battle.attacks)
    blocking = any(key in a.blockers for a in battle.attacks)
    if kind == "attacking":
        return attacking
    if kind == "blocking":
        return blocking
    if kind == "attacking_or_blocking":
        return attacking or blocking
    if kind == "another":
        return key != source
    if kind == "keyword":
        return bool(keywords_of(side, permanent) & KEYWORD_FLAGS[str(value)])
    if kind == "no_keyword":
        return not keywords_of(side, permanent) & KEYWORD_FLAGS[str(value)]
    stat, _, direction = kind.rpartition("_at_")
    number = {"power": lambda: power(side, permanent), "toughness": lambda: toughness(side, permanent),
              "mana_value": lambda: card.mana_value}[stat]()
    limit = int(value)  # "with power N or greater": the condition's value is a number
    return number >= limit if direction == "least" else number <= limit


def _type_word(value: str | int) -> str:
    """The card type a condition's word names ("creature" -> "Creature")."""
    return _TYPE_WORDS.get(str(value), str(value))


def _spell_ok(battle: Battle, controller: str, item: StackItem | None, target: Target) -> bool:
    if item is None or item.ability is not None or not _controller_ok(battle, controller, item.controller, target.controller):
        return False
    card = battle.side(item.controller).cards[item.card]
    for condition in target.conditions:
        if condition.kind == "type" and not card.is_type(_TYPE_WORDS[str(condition.value)]):
            return False
        if condition.kind == "not_type" and card.is_type(_TYPE_WORDS.get(str(condition.value), str(condition.value))):
            return False
    return True


def target_options(battle: Battle, controller: str, target: Target, source: Ref, kind: str) -> list[Ref]:
    """Every object `target` can mean for `controller`'s ability from `source`."""
    if "spell" in target.kinds:
        return [(STACK, i) for i, item in enumerate(battle.stack) if _spell_ok(battle, controller, item, target)]
    found: list[Ref] = []
    if "player" in target.kinds:
        found += [(p, PLAYER) for p in players(battle, kind) if _controller_ok(battle, controller, p, target.controller)]
    wanted = _wanted_types(target.kinds)
    if wanted is None:
        return found
    targeted = target.scope == "target"
    source_card = battle.side(source[0]).cards[source[1]] if targeted and source[1] >= 0 and source[0] else None
    coloured = source_card if source_card is not None and source_card.colors else None  # protection is from colours
    conditions = target.conditions
    for side in battle.sides():
        if not _controller_ok(battle, controller, side.id, target.controller):
            continue
        shielded = targeted and opposing(battle, controller, side.id)  # hexproof counts (CR 702.11b)
        cards = side.cards
        for permanent in side.battlefield:
            card = cards[permanent.card]
            if wanted:  # one of its types wanted (not `wanted.isdisjoint`: a method call by name, compiled too)
                for card_type in card.type_line.card_types:
                    if card_type in wanted:
                        break
                else:
                    continue
            if conditions and not all(_condition_ok(battle, side, permanent, c, source) for c in conditions):
                continue
            if targeted and (coloured is not None or shielded):
                flags = keywords_of(side, permanent)
                if coloured is not None and flags & ANY_PROTECTION and protected_from(flags, coloured):
                    continue  # CR 702.16b: not a legal target
                if shielded and flags & HEXPROOF:
                    continue  # CR 702.11b
            found.append((side.id, permanent.card))
    return found


_WANTED: Final[dict[tuple[str, ...], frozenset[str] | None]] = {}
_UNREAD: Final = frozenset(("?",))


def _wanted_types(kinds: tuple[str, ...]) -> frozenset[str] | None:
    """The card types a target's kinds (other than "player") accept: None when none does
    (only players), the empty set when any permanent does."""
    wanted = _WANTED.get(kinds, _UNREAD)
    if wanted is not _UNREAD:
        return wanted
    others = [k for k in kinds if k != "player"]
    found: frozenset[str] | None
    if not others:
        found = None
    elif "permanent" in others:
        found = frozenset()
    else:
        found = frozenset(_TYPE_WORDS.get(k, "") for k in others)
    _WANTED[kinds] = found
    return found


# --- choosing targets -----------------------------------------------------------------------


class _Phrases(NamedTuple):
    """The "target" phrases of some effects: `owners` the phrase of each slot (see `slots`),
    `phrases` how many distinct phrases, `of_effect` each effect's target and other phrase
    (-1: not a "target" phrase)."""

    owners: tuple[int, ...]
    phrases: int
    of_effect: tuple[tuple[int, int], ...]


_PHRASES: Final[dict[int, tuple[tuple[Effect, ...], _Phrases]]] = {}


def _phrases(effects: tuple[Effect, ...]) -> _Phrases:
    """The effects' phrases, worked out once (cached by the effects' identity, as `slots`):
    comparing and hashing the frozen `Target`s at every valuation was most of its cost."""
    entry = _PHRASES.get(id(effects))
    if entry is not None and entry[0] is effects:
        return entry[1]
    distinct: list[Target] = []
    for effect in effects:
        for target in (effect.target, effect.other):
            if target is not None and target.scope == "target" and target not in distinct:
                distinct.append(target)

    def phrase(target: Target | None) -> int:
        return distinct.index(target) if target is not None and target in distinct else -1

    found = _Phrases(tuple(i for i, t in enumerate(distinct) for _ in range(t.count)), len(distinct),
                     tuple((phrase(e.target), phrase(e.other)) for e in effects))
    if len(_PHRASES) > 50_000:
        _PHRASES.clear()
    _PHRASES[id(effects)] = (effects, found)
    return found


def _assign(phrases: _Phrases, picks: tuple[Ref, ...]) -> list[list[Ref]]:
    """Which chosen refs belong to which "target" phrase (see `slots`), by phrase number."""
    if phrases.phrases == 1:  # most abilities: every slot is the one phrase's
        return [list(picks[:len(phrases.owners)])]
    assignment: list[list[Ref]] = [[] for _ in range(phrases.phrases)]
    for owner, ref in zip(phrases.owners, picks):
        assignment[owner].append(ref)
    return assignment


def _chosen(assignment: list[list[Ref]], phrase: int) -> list[Ref]:
    return assignment[phrase] if phrase >= 0 else []


def choose_picks(battle: Battle, controller: str, ability: Ability, mode: int, x: int, source: Ref,
                 rng: random.Random | None, first: Ref | None = None,
                 at_random: bool = False) -> tuple[Ref, ...] | None:
    """Targets for every slot of the ability (the first one given when `first` is: a legal
    target the caller listed), chosen at random from `rng` (the horde, T-6.8) or greedily
    (then `rng` may be None), one slot after the other; None when a slot has no legal target
    (the ability cannot be put on the stack, CR 601.2c)."""
    effects = modes_of(ability)[mode]
    picks: list[Ref] = []
    for number, target in enumerate(slots(effects)):
        if number == 0 and first is not None:
            picks.append(first)  # one of the legal first targets the action was listed with
            continue
        kind = next(e.kind for e in effects if target in (e.target, e.other))
        options = [o for o in target_options(battle, controller, target, source, kind) if o not in picks]
        if not options:
            return None
        if at_random:
            assert rng is not None  # the horde's random choices come from the battle's generator
            picks.append(options[randbelow(rng, len(options))])
        else:
            picks.append(max(options, key=lambda o: ability_value(battle, controller, ability, tuple(picks) + (o,), x,
                                                                  mode, source)))
    return tuple(picks)


# --- what an ability is worth ---------------------------------------------------------------


def permanent_value(side: Side, permanent: Permanent) -> float:
    """A rough worth in mana: a creature's power and toughness and keywords, a planeswalker's
    loyalty, other permanents half their mana value."""
    card = side.cards[permanent.card]
    facts = facts_of(side, permanent.card)
    if is_pc_creature(card):
        return 10.0  # an unconscious PC (T-7.2): destroying it kills the PC (T-7.4)
    lord = _lord_value(side, permanent, facts.statics) if facts.statics else 0.0
    if facts.is_creature:  # power, toughness and keywords_of, written out (a hot path)
        flags = facts.keywords | permanent.granted | permanent.static_keywords
        counters = permanent.plus_counters
        return (max(0, facts.power + counters + permanent.power_bonus + permanent.static_power)
                + max(0, facts.toughness + counters + permanent.toughness_bonus + permanent.static_toughness)
                + 0.7 * flags.bit_count() + lord)
    if lord:
        return 0.5 * card.mana_value + 0.5 + lord
    if card.is_type("Planeswalker"):
        return 2 + permanent.loyalty
    if facts.is_land:
        return 1.0
    return 0.5 * card.mana_value + 0.5


def _lord_value(side: Side, source: Permanent, statics: tuple[Effect, ...]) -> float:
    """What a lord's or an anthem's bonus is worth to its own side's creatures now."""
    value = 0.0
    for effect in statics:
        gain = effect.power + effect.toughness + 0.5 * len(effect.keywords)
        for permanent in side.battlefield:
            if permanent is source and any(c.kind == "another" for c in effect.target.conditions):
                continue
            card = side.cards[permanent.card]
            if profile(card).is_creature and all(
                    c.kind == "another" or (c.kind == "subtype" and c.value in card.subtypes)
                    or (c.kind == "color" and c.value in card.colors) or (c.kind == "colorless" and not card.colors)
                    for c in effect.target.conditions):
                value += gain
    return value


def _amount(battle: Battle, controller: str, amount: Amount, x: int) -> int:
    """`Amount.value` with the count it needs (written out: the valuations ask it at every
    weighing, and `cards.oracle` is not compiled)."""
    if amount.is_x:
        return x
    if amount.count_of is not None:
        return counted(battle, controller, amount.count_of)
    return amount.fixed


def counted(battle: Battle, controller: str, what: str | None) -> int:
    """How many permanents of a type or subtype the controller has ("the number of Goblins")."""
    if what is None:
        return 0
    side = battle.side(controller)
    word = what.capitalize()
    return sum(1 for p in side.battlefield if word in side.cards[p.card].subtypes
               or side.cards[p.card].is_type(word))


def ability_value(battle: Battle, controller: str, ability: Ability, picks: tuple[Ref, ...], x: int,
                  mode: int = 0, source: Ref = ("", -1), memo: WorthMemo | None = None) -> float:
    """What resolving the ability with these targets is worth to its controller (greedy).

    `memo`: a dict kept while one decision weighs many plays on the same battle (nothing
    changes between them): the worth of N damage to an object, which every burn spell and
    every value of X asks again, is worked out once."""
    effects = modes_of(ability)[mode]
    phrases = _phrases(effects)
    if phrases.owners == (0,) and phrases.of_effect == _ONE_TARGET and effects[0].kind not in ("fight", "token"):
        return 0.0 + _one_target_value(battle, controller, effects[0], picks, x, memo)
    assignment = _assign(phrases, picks)
    total = 0.0
    for effect, (target, other) in zip(effects, phrases.of_effect):
        amount = _amount(battle, controller, effect.amount, x)
        if effect.kind == "fight":
            total += _fight_value(battle, controller, _chosen(assignment, target), _chosen(assignment, other))
            continue
        if effect.kind == "token":
            total += token_value(effect, amount)
            continue
        refs = _refs(battle, controller, effect, _chosen(assignment, target), source, ())
        if memo is None or effect.kind != "damage":
            for ref in refs:
                total += _effect_value(battle, controller, effect, ref, amount, x)
            continue
        for ref in refs:
            key = ("damage", controller, ref[0], ref[1], amount)  # flat: hashed and compared at once
            worth = memo.get(key)
            if worth is None:
                worth = memo[key] = _effect_value(battle, controller, effect, ref, amount, x)
            total += worth
    return total


#: The phrases of an ability whose one effect acts on its one "target" phrase (with one
#: target: Shock, Giant Growth, Mogg Fanatic's ability, Fireball): most of what the greedy
#: policies weigh.
_ONE_TARGET: Final = ((0, -1),)

_ONE_TARGET_EFFECT: Final[dict[int, tuple[tuple[Effect, ...], Effect | None]]] = {}


def one_target_effect(effects: tuple[Effect, ...]) -> Effect | None:
    """The effect of a mode with one target whose one effect acts on it (Shock, Mogg Fanatic's
    ability, Fireball; not a fight or a token), else None: with the action's target as its
    only pick, what `ability_value` is worth is `one_target_value` of it. Cached by the
    effects' identity (as `slots`): the greedy policies weigh such plays at every decision."""
    entry = _ONE_TARGET_EFFECT.get(id(effects))
    if entry is not None and entry[0] is effects:
        return entry[1]
    phrases = _phrases(effects)
    found = effects[0] if len(slots(effects)) == 1 and phrases.owners == (0,) and \
        phrases.of_effect == _ONE_TARGET and effects[0].kind not in ("fight", "token") else None
    if len(_ONE_TARGET_EFFECT) > 50_000:
        _ONE_TARGET_EFFECT.clear()
    _ONE_TARGET_EFFECT[id(effects)] = (effects, found)
    return found


def _one_target_value(battle: Battle, controller: str, effect: Effect, picks: tuple[Ref, ...], x: int,
                      memo: WorthMemo | None) -> float:
    """`ability_value` of one effect on the first pick (nothing without one), as its loop
    works it out, without assigning picks to phrases."""
    if not picks:
        return 0.0
    return one_target_value(battle, controller, effect, picks[0], x, memo)


def one_target_value(battle: Battle, controller: str, effect: Effect, ref: Ref, x: int,
                     memo: WorthMemo | None) -> float:
    """What the effect of `one_target_effect` is worth on `ref` (see `ability_value`)."""
    amount = _amount(battle, controller, effect.amount, x)
    if memo is None or effect.kind != "damage":
        return _effect_value(battle, controller, effect, ref, amount, x)
    key = ("damage", controller, ref[0], ref[1], amount)  # flat: hashed and compared at once
    worth = memo.get(key)
    if worth is None:
        worth = memo[key] = _effect_value(battle, controller, effect, ref, amount, x)
    return worth


def _effect_value(battle: Battle, controller: str, effect: Effect, ref: Ref, amount: int, x: int) -> float:
    owner, card = ref
    kind = effect.kind
    if owner == STACK:
        item = battle.stack[card] if card < len(battle.stack) else None
        if item is None:
            return 0.0
        worth = battle.side(item.controller).cards[item.card].mana_value + 1.0
        return worth if opposing(battle, controller, item.controller) else -worth
    sign = 1.0 if opposing(battle, controller, owner) else -1.0
    if card == PLAYER:
        return _player_value(battle, owner, kind, amount, sign)
    side = battle.side(owner)
    permanent = find_permanent(side, card)
    if permanent is None:
        return 0.0
    physical = side.cards[card]
    is_creature = facts_of(side, card).is_creature
    if kind == "damage":  # the most asked: the permanent's worth only when the damage is lethal
        if physical.is_type("Planeswalker"):
            return sign * (min(amount, permanent.loyalty) + (3 if amount >= permanent.loyalty else 0))
        if is_creature and amount >= toughness(side, permanent) - permanent.damage:
            return sign * permanent_value(side, permanent)
        return sign * 0.1 * amount
    worth = permanent_value(side, permanent)
    if kind == "destroy":
        return 0.0 if keywords_of(side, permanent) & INDESTRUCTIBLE else sign * worth
    if kind == "exile":
        return sign * worth
    if kind == "bounce":
        if is_pc_creature(side.cards[card]):
            return 0.0
        return sign * (worth if side.cards[card].is_token else 0.6 * worth)
    if kind == "pump":
        power_change = x if effect.x_power else effect.power
        if effect.power < 0 or effect.toughness < 0:
            dies = toughness(side, permanent) - permanent.damage + effect.toughness <= 0
            return sign * (worth if dies else 0.2 * -(effect.power + effect.toughness))
        in_combat = any((a.owner, a.card) == ref or ref in a.blockers for a in battle.attacks)
        if in_combat and battle.step == "after_blockers":  # blocks are known: what it changes
            flags = 0
            for keyword in effect.keywords:
                flags |= KEYWORD_FLAGS[keyword]
            return -sign * combat_swing(battle, ref, power_change, effect.toughness, flags)
        gain = power_change + effect.toughness + 0.5 * len(effect.keywords)
        return -sign * gain * (0.8 if in_combat else 0.3 if _before_its_attack(battle, side, permanent) else 0.0)
    if kind == "counters":
        return -sign * 1.2 * amount if is_creature else 0.0
    if kind == "regenerate":
        return -sign * worth if not battle.shields.get(ref) and _at_risk(battle, ref) else 0.0
    if kind == "tap":
        return sign * (0.3 * max(0, power(side, permanent)) if not permanent.tapped and is_creature else 0.0)
    if kind == "untap":
        return -sign * (0.5 if permanent.tapped else 0.0)
    return 0.0


def _at_risk(battle: Battle, ref: Ref) -> bool:
    """Whether the creature is about to be destroyed: in combat after blocks and losing, or the
    target of a destroy or lethal damage on the stack."""
    if battle.step == "after_blockers" and any((a.owner, a.card) == ref or ref in a.blockers
                                               for a in battle.attacks):
        return _combat_result(battle, ref)[0]
    side = battle.side(ref[0])
    permanent = permanent_of(side, ref[1])
    for item in battle.stack:
        if item is None or ref not in item.picks:
            continue
        card = battle.side(item.controller).cards[item.card]
        ability = item.ability or spell_ability(card)
        if ability is None:
            continue
        for effect in modes_of(ability)[item.mode]:
            if effect.kind == "destroy" and not effect.no_regenerate:
                return True
            if effect.kind == "damage" and effect.amount.value(item.x) >= toughness(side, permanent) - permanent.damage:
                return True
    return False


def _combat_result(battle: Battle, ref: Ref) -> tuple[bool, float, int]:
    """For a creature in combat, once blocks are declared (a simplified damage step, first
    strike ignored): (whether it dies, the worth of the opposing creatures it kills, the damage
    it deals to a player or the horde unblocked or trampling over)."""
    owner, card = ref
    side = battle.side(owner)
    me = permanent_of(side, card)
    mine = keywords_of(side, me)
    attack = next((a for a in battle.attacks if (a.owner, a.card) == ref), None)
    if attack is not None:
        fighting = [(battle.side(o), c) for o, c in attack.blockers]
    else:
        attack = next(a for a in battle.attacks if ref in a.blockers)
        fighting = [(battle.side(attack.owner), attack.card)]
    opponents = [(s, p) for s, c in fighting if (p := find_permanent(s, c)) is not None]
    incoming = sum(max(0, power(s, p)) for s, p in opponents)
    deadly = any(keywords_of(s, p) & DEATHTOUCH and power(s, p) > 0 for s, p in opponents)
    left = toughness(side, me) - me.damage
    dies = left <= 0 or (not mine & INDESTRUCTIBLE and (incoming >= left or deadly))
    damage = max(0, power(side, me))
    killed = 0.0
    if not opponents:
        return dies, 0.0, damage if (attack.owner, attack.card) == ref else 0
    helpers = 0
    if (attack.owner, attack.card) != ref:  # a blocker: the other blockers' damage helps
        helpers = sum(max(0, power(battle.side(o), p)) for o, c in attack.blockers
                      if (o, c) != ref and (p := find_permanent(battle.side(o), c)) is not None)
    for their_side, theirs in sorted(opponents, key=lambda o: toughness(o[0], o[1]) - o[1].damage):
        need = toughness(their_side, theirs) - theirs.damage - helpers
        if mine & DEATHTOUCH and damage > 0:
            need = min(need, 1)
        if damage >= need and not keywords_of(their_side, theirs) & INDESTRUCTIBLE:
            killed += permanent_value(their_side, theirs)
            damage -= max(0, need)
        else:
            damage = 0
            break
    over = damage if mine & TRAMPLE and (attack.owner, attack.card) == ref else 0
    return dies, killed, over


def combat_swing(battle: Battle, ref: Ref, power_gain: int, toughness_gain: int, flags: int) -> float:
    """What +N/+N (and keywords) on a creature in combat after blocks is worth: the creature
    saved, the opposing creatures it now kills, the extra damage it deals (half a point each)."""
    side = battle.side(ref[0])
    me = find_permanent(side, ref[1])
    if me is None:
        return 0.0
    before = _combat_result(battle, ref)
    me.power_bonus += power_gain
    me.toughness_bonus += toughness_gain
    granted = me.granted
    me.granted |= flags
    after = _combat_result(battle, ref)
    me.power_bonus -= power_gain
    me.toughness_bonus -= toughness_gain
    me.granted = granted
    value = after[1] - before[1] + 0.5 * (after[2] - before[2])
    if before[0] and not after[0]:
        value += permanent_value(side, me)
    return value


def _before_its_attack(battle: Battle, side: Side, permanent: Permanent) -> bool:
    """A pump before combat is worth something only to a creature that can attack this turn."""
    from deckquest.engine.combat.combat import can_attack

    return battle.step in ("main1", "enemy_main") and can_attack(side, permanent)


def _player_value(battle: Battle, owner: str, kind: str, amount: int, sign: float) -> float:
    """Effects on a player: life, cards, library (for the horde, damage and mill are progress)."""
    if owner == HORDE:
        return sign * 0.5 * min(amount, len(battle.horde.library)) if kind in ("damage", "mill") else 0.0
    player = battle.player(owner)
    if kind in ("damage", "lose_life"):
        lethal = amount >= player.life
        return sign * (0.4 * amount + (20 if lethal else 0))
    if kind == "gain_life":
        return -sign * (0.6 if player.life < 8 else 0.25) * amount
    if kind == "draw":
        return -sign * min(amount, len(player.library))
    if kind == "discard":
        return sign * 0.8 * min(amount, len(player.hand))
    if kind == "mill":
        return sign * 0.1 * amount
    if kind == "search_land":
        return -sign * 1.5
    if kind == "scry":
        return -sign * 0.3 * amount
    return 0.0


def _fight_value(battle: Battle, controller: str, mine: list[Ref], theirs: list[Ref]) -> float:
    if not mine or not theirs:
        return 0.0
    (a_owner, a_card), (b_owner, b_card) = mine[0], theirs[0]
    a_side, b_side = battle.side(a_owner), battle.side(b_owner)
    a, b = find_permanent(a_side, a_card), find_permanent(b_side, b_card)
    if a is None or b is None:
        return 0.0
    value = 0.0
    if power(a_side, a) >= toughness(b_side, b) - b.damage:
        value += permanent_value(b_side, b) * (1 if opposing(battle, controller, b_owner) else -1)
    if power(b_side, b) >= toughness(a_side, a) - a.damage:
        value -= permanent_value(a_side, a) * (1 if opposing(battle, controller, a_owner) else -1) * -1
    return value


def token_value(effect: Effect, amount: int) -> float:
    token = effect.token
    return amount * 0.6 * (token.power + token.toughness + 0.5 * len(token.keywords)) if token else 0.0


# --- resolving ------------------------------------------------------------------------------


def _refs(battle: Battle, controller: str, effect: Effect, chosen: list[Ref], source: Ref,
          previous: tuple[Ref, ...]) -> list[Ref]:
    """The objects an effect acts on, from its target phrase (`chosen`: the targets chosen
    for it, when it is a "target" phrase)."""
    target = effect.target
    if target.scope == "target":
        return list(chosen)
    if target.scope == "self":
        return [source] if source[1] >= 0 else []
    if target.scope == "you":
        return [(controller, PLAYER)]
    if target.scope == "its_controller":
        return [(previous[0][0], PLAYER)] if previous and previous[0][0] != STACK else []
    if target.scope == "defending":  # "defending player": whom the source attacks
        attack = next((a for a in battle.attacks if (a.owner, a.card) == source), None)
        return [(attack.defender, PLAYER)] if attack is not None else []
    return target_options(battle, controller, target, source, effect.kind)  # each


def resolve(battle: Battle, controller: str, source: int, ability: Ability, picks: tuple[Ref, ...], x: int,
            rng: random.Random, events: Events, mode: int = 0, context: tuple[Ref, ...] = ()) -> None:
    """Do what the ability says, effect by effect, then state-based actions (CR 704).

    A chosen target that is gone by now is skipped (CR 608.2b); "each" effects act on what
    matches at resolution. `context`: what "that player" means before any effect named one
    (the player a "whenever ~ deals damage to a player" ability's source hit)."""
    from deckquest.engine.combat.combat import state_based_actions

    effects = modes_of(ability)[mode]
    phrases = _phrases(effects)
    assignment = _assign(phrases, picks)
    previous: tuple[Ref, ...] = context
    for effect, (target, other) in zip(effects, phrases.of_effect):
        if battle.outcome:
            return
        amount = _amount(battle, controller, effect.amount, x)
        refs = _refs(battle, controller, effect, _chosen(assignment, target), (controller, source), previous)
        if effect.kind == "fight":
            _fight(battle, _chosen(assignment, target), _chosen(assignment, other), events)
        elif effect.kind == "token":
            assert effect.token is not None  # the recogniser gives every token effect its token
            create_tokens(battle, controller, effect.token, amount, events)
        elif effect.kind == "search_land":
            _search_land(battle, controller, effect, rng, events)
        else:
            for ref in refs:
                _apply(battle, controller, source, effect, ref, amount, x, rng, events)
        previous = tuple(refs)
    state_based_actions(battle, events, rng)


def _apply(battle: Battle, controller: str, source: int, effect: Effect, ref: Ref, amount: int, x: int,
           rng: random.Random, events: Events) -> None:
    owner, card = ref
    kind = effect.kind
    if owner == STACK:
        if kind == "counter":
            counter_spell(battle, card, effect.unless_pays, events)
        return
    if card == PLAYER:
        _player_effect(battle, controller, source, kind, owner, amount, effect.at_random, rng, events)
        return
    side = battle.side(owner)
    permanent = find_permanent(side, card)
    if permanent is None:
        return
    if kind == "damage":
        deal_damage(battle, controller, source, ref, amount, events)
    elif kind == "regenerate":
        battle.shields[ref] = battle.shields.get(ref, 0) + 1
        if events is not None:
            events.append({"event": "battle_shield", "player": owner, "card": side.cards[card].name, "id": card})
    elif kind in ("destroy", "exile", "bounce"):
        if kind == "destroy" and keywords_of(side, permanent) & INDESTRUCTIBLE:
            return
        if kind == "destroy" and not effect.no_regenerate and regenerate(battle, side, permanent, events):
            return
        leave_battlefield(battle, side, permanent, {"destroy": "graveyard", "exile": "exile", "bounce": "hand"}[kind],
                          rng, events)
    elif kind == "pump":
        permanent.power_bonus += x if effect.x_power else effect.power
        permanent.toughness_bonus += effect.toughness
        for keyword in effect.keywords:
            permanent.granted |= KEYWORD_FLAGS[keyword]
    elif kind == "counters":
        permanent.plus_counters += amount
    elif kind in ("tap", "untap"):
        permanent.tapped = kind == "tap"
    if events is not None and kind in ("pump", "counters", "tap", "untap"):
        events.append({"event": f"battle_{kind}", "player": owner, "card": side.cards[card].name, "id": card,
                       "source": battle.side(controller).cards[source].name if source >= 0 else ""})


def _player_effect(battle: Battle, controller: str, source: int, kind: str, owner: str, amount: int,
                   at_random: bool, rng: random.Random, events: Events) -> None:
    if kind == "damage":
        deal_damage(battle, controller, source, (owner, PLAYER), amount, events)
    elif kind == "mill":
        mill(battle, owner, amount, events)
    elif owner == HORDE:
        return  # the horde has no life and no hand of its own (T-6.8)
    elif kind in ("gain_life", "lose_life"):
        change_life(battle, owner, amount if kind == "gain_life" else -amount, events)
    elif kind == "draw":
        player = battle.player(owner)
        drawn = draw(player, amount)
        if events is not None:
            events.append({"event": "battle_draw", "player": owner, "cards": len(drawn), "status": player.status})
        if not battle.is_enemy(owner):
            fall_unconscious(battle, player, events)  # T-7.2
    elif kind == "discard":
        discard(battle, owner, amount, at_random, rng, events)
    elif kind == "scry":
        scry(battle.side(owner), amount)
    elif kind == "reveal_land":
        player = battle.player(owner)
        if player.library and player.cards[player.library[0]].is_land:
            player.hand.append(player.library.pop(0))
            if events is not None:
                events.append({"event": "battle_draw", "player": owner, "cards": 1, "status": player.status})


def scry(player: Side, amount: int) -> None:
    """CR 701.22: look at the top N cards, put any on the bottom. The engine keeps lands on top
    while the player has fewer than 4 lands out and none in hand, spells otherwise; the rest
    go to the bottom in their order."""
    lands_out = sum(1 for p in player.battlefield if facts_of(player, p.card).is_land)
    wants_land = lands_out < 4 and not any(facts_of(player, c).is_land for c in player.hand)
    top = player.library[:amount]
    keep = [c for c in top if facts_of(player, c).is_land == wants_land]
    bottom = [c for c in top if c not in keep]
    player.library[:amount] = keep
    player.library.extend(bottom)


def deal_damage(battle: Battle, controller: str, source: int, ref: Ref, amount: int, events: Events) -> None:
    """Non-combat damage from a card: a PC or boss loses life, the horde mills (T-6.10), a
    planeswalker loses loyalty (T-8.2), a creature is marked (deathtouch and lifelink apply)."""
    from deckquest.engine.combat.combat import mill_horde

    if amount <= 0:
        return
    owner, card = ref
    source_side = battle.side(controller)
    source_permanent = find_permanent(source_side, source) if source >= 0 else None
    flags = keywords_of(source_side, source_permanent) if source_permanent else (
        facts_of(source_side, source).keywords if source >= 0 else 0)
    target_side = battle.side(owner)
    if card == PLAYER:
        if owner == HORDE:
            milled = mill_horde(battle, amount, events)
            if controller in battle.tallies and not battle.is_enemy(controller):
                battle.tallies[controller].cards_milled += milled
        elif battle.player(owner).status == OK:
            change_life(battle, owner, -amount, events, damage=True)
        else:
            return
    else:
        permanent = find_permanent(target_side, card)
        if permanent is None:
            return
        if source >= 0 and protected_from(keywords_of(target_side, permanent), source_side.cards[source]):
            return  # CR 702.16e: the damage is prevented
        if target_side.cards[card].is_type("Planeswalker"):
            permanent.loyalty -= amount
        else:
            permanent.damage += amount
            if flags & DEATHTOUCH:
                battle.deathtouched.append(ref)
    if controller in battle.tallies:
        battle.tallies[controller].damage_dealt += amount
    if flags & LIFELINK:
        change_life(battle, controller, amount, events)
    if events is not None:
        events.append({"event": "battle_damage", "source": source_side.cards[source].name if source >= 0 else controller,
                       "source_owner": controller, "target": target_side.cards[card].name if card >= 0 else owner,
                       "target_owner": owner, "amount": amount})


def change_life(battle: Battle, owner: str, change: int, events: Events, damage: bool = False) -> None:
    """Life gained or lost by a PC or a boss, with the T-7 consequences and the tallies."""
    if owner == HORDE or change == 0:
        return
    player = battle.player(owner)
    if player.status == DEAD:
        return
    tally = battle.tallies.get(owner)
    if change > 0:
        gain_life(player, change)
        if tally:
            tally.life_gained += change
    else:
        lose_life(player, -change)
        if tally:
            tally.life_lost += -change
            if damage:
                tally.damage_taken += -change
    if events is not None:
        events.append({"event": "battle_life", "player": owner, "change": change, "life": player.life,
                       "status": player.status})


def mill(battle: Battle, owner: str, amount: int, events: Events) -> None:
    from deckquest.engine.combat.combat import mill_horde

    if owner == HORDE:
        mill_horde(battle, amount, events)
        return
    player = battle.side(owner)
    milled = player.library[:amount]
    del player.library[:amount]
    player.graveyard.extend(milled)
    if events is not None and milled:
        events.append({"event": "battle_mill", "player": owner, "cards": [player.cards[c].name for c in milled]})


def discard(battle: Battle, owner: str, amount: int, at_random: bool, rng: random.Random, events: Events) -> None:
    """Discard: at random, or the player's choice (the engine discards the costliest cards,
    as at cleanup)."""
    player = battle.side(owner)
    for _ in range(min(amount, len(player.hand))):
        if at_random:
            card = player.hand[randbelow(rng, len(player.hand))]
        else:
            card = max(player.hand, key=lambda c: player.cards[c].mana_value)
        player.hand.remove(card)
        player.graveyard.append(card)
        if events is not None:
            events.append({"event": "battle_discard", "player": owner, "card": player.cards[card].name})


def leave_battlefield(battle: Battle, side: Side, permanent: Permanent, zone: str, rng: random.Random, events: Events) -> None:
    """Destroy (graveyard), exile or return to hand; a creature put into the graveyard dies."""
    from deckquest.engine.combat.combat import _to_graveyard

    dies = zone == "graveyard" and facts_of(side, permanent.card).is_creature
    _to_graveyard(battle, side, permanent, events, zone)
    if dies:
        dies_triggers(battle, [(side.id, permanent.card)], rng, events)


def counter_spell(battle: Battle, index: int, unless_pays: int, events: Events) -> None:
    """CR 701.5: the spell leaves the stack for its owner's graveyard, unless its controller
    pays {N} (a player always pays when their untapped mana sources can)."""
    from deckquest.engine.combat.mana import pay
    from deckquest.engine.combat.turns import mana_sources

    item = battle.stack[index] if index < len(battle.stack) else None
    if item is None:
        return
    side = battle.side(item.controller)
    if unless_pays:
        sources = mana_sources(side)
        tapped = pay(sources, requirement_generic(unless_pays))
        if tapped is not None:
            for i in tapped:
                side.battlefield[i].tapped = True
            if events is not None:
                events.append({"event": "battle_pay", "player": item.controller, "amount": unless_pays})
            return
    battle.stack[index] = None  # removed when the stack resolves down to it
    if item.ability is None:
        side.graveyard.append(item.card)
    if events is not None:
        events.append({"event": "battle_counter", "player": item.controller, "card": side.cards[item.card].name})


def requirement_generic(amount: int) -> Requirement:
    from deckquest.cards.model import ManaCost
    from deckquest.engine.combat.mana import requirement

    return requirement(ManaCost.parse("{%d}" % amount))


_TOKENS: Final[dict[Token, Card]] = {}


def token_card(token: Token) -> Card:
    """The card a created token is (one object per kind of token, so profiles are cached)."""
    card = _TOKENS.get(token)
    if card is None:
        types = ("Artifact " if token.is_artifact else "") + "Creature — " + " ".join(token.subtypes)
        card = Card.build(token.name, None, "Token " + types, colors=token.colors, power=str(token.power),
                          toughness=str(token.toughness), keywords=tuple(k.capitalize() for k in token.keywords),
                          oracle_text=", ".join(token.keywords), is_token=True)
        _TOKENS[token] = card
    return card


def create_tokens(battle: Battle, owner: str, token: Token, amount: int, events: Events) -> None:
    """Tokens enter under the controller's control, each with a card id of its own (summoning
    sick; the horde's creatures have haste anyway, T-6.9)."""
    side = battle.side(owner)
    card = token_card(token)
    for _ in range(amount):
        side.cards = side.cards + (card,)
        enter_battlefield(side, len(side.cards) - 1)
    refresh_statics(battle)
    if events is not None and amount > 0:
        events.append({"event": "battle_tokens", "player": owner, "card": card.name, "count": amount})


def _search_land(battle: Battle, controller: str, effect: Effect, rng: random.Random, events: Events) -> None:
    side = battle.side(controller)
    if controller == HORDE:
        return
    for card_id in side.library:
        card = side.cards[card_id]
        wanted = ("Basic" in card.supertypes) if effect.land_type == "basic" else effect.land_type in card.subtypes
        if card.is_land and wanted:
            side.library.remove(card_id)
            if effect.to_hand:
                side.hand.append(card_id)
            else:
                enter_battlefield(side, card_id).tapped = effect.tapped or profile(card).enters_tapped
            if events is not None:
                events.append({"event": "battle_search", "player": controller, "card": card.name,
                               "to": "hand" if effect.to_hand else "battlefield"})
            break
    shuffle(side.library, rng)


def _fight(battle: Battle, mine: list[Ref], theirs: list[Ref], events: Events) -> None:
    """CR 701.12: each creature deals damage equal to its power to the other."""
    if not mine or not theirs:
        return
    a_side, b_side = battle.side(mine[0][0]), battle.side(theirs[0][0])
    a, b = find_permanent(a_side, mine[0][1]), find_permanent(b_side, theirs[0][1])
    if a is None or b is None:
        return
    a_power, b_power = power(a_side, a), power(b_side, b)
    deal_damage(battle, a_side.id, a.card, (b_side.id, b.card), a_power, events)
    deal_damage(battle, b_side.id, b.card, (a_side.id, a.card), b_power, events)


# --- triggers -------------------------------------------------------------------------------


def run_trigger(battle: Battle, owner: str, card: int, ability: Ability, rng: random.Random, events: Events,
                context: tuple[Ref, ...] = ()) -> None:
    """A triggered ability resolves at once; the horde picks targets at random (T-6.8), the
    others greedily; an optional ability ("you may") is used when it is worth it."""
    if battle.outcome:
        return
    source = (owner, card)
    picks = choose_picks(battle, owner, ability, 0, 0, source, rng, at_random=owner == HORDE)
    if picks is None:
        return
    if ability.optional and owner != HORDE and ability_value(battle, owner, ability, picks, 0, 0, source) < 0:
        return
    if events is not None:
        events.append({"event": "battle_trigger", "player": owner, "card": battle.side(owner).cards[card].name,
                       "ability": ability.timing})
    resolve(battle, owner, card, ability, picks, 0, rng, events, context=context)


def hits_triggers(battle: Battle, hits: list[tuple[str, int, str]], rng: random.Random, events: Events) -> None:
    """"Whenever ~ deals (combat) damage to a player / an opponent" abilities, once per source
    and player hit (PCs and bosses; the horde's "damage" is a mill, T-6.10)."""
    for owner, card, player in hits:
        for ability in triggers_of(battle.side(owner), card, "hits"):
            run_trigger(battle, owner, card, ability, rng, events, context=((player, PLAYER),))


def enters_triggers(battle: Battle, owner: str, card: int, rng: random.Random, events: Events,
                    kicked: bool = False) -> None:
    """"When ~ enters" abilities; "if it was kicked" ones only when it was (CR 702.33d)."""
    for ability in triggers_of(battle.side(owner), card, "enters"):
        if kicked or not ability.kicked:
            run_trigger(battle, owner, card, ability, rng, events)


#: A PC or boss pays echo only for a permanent worth this many times the echo's mana.
ECHO_WORTH: Final = 2.0


def echo_upkeep(battle: Battle, sides: Sequence[Side], rng: random.Random, events: Events) -> None:
    """CR 702.30: at its controller's first upkeep after it entered, a permanent with echo is
    sacrificed unless the echo cost is paid. The engine pays (PCs and bosses alike) when the
    untapped mana sources can and the permanent is worth at least ECHO_WORTH times the mana."""
    from deckquest.cards.model import ManaCost
    from deckquest.engine.combat.casting import _sacrifice_event
    from deckquest.engine.combat.combat import state_based_actions
    from deckquest.engine.combat.mana import pay, requirement
    from deckquest.engine.combat.turns import mana_sources

    for side in sides:
        due = [key for key in battle.echo_due if key[0] == side.id]
        for key in due:
            battle.echo_due.remove(key)
            permanent = find_permanent(side, key[1])
            if permanent is None:
                continue
            cost = requirement(ManaCost.parse(recognition(side.cards[key[1]]).echo))
            tapped = pay(mana_sources(side), cost)
            if tapped is not None and permanent_value(side, permanent) >= ECHO_WORTH * cost.total():
                for index in tapped:
                    side.battlefield[index].tapped = True
                if events is not None:
                    events.append({"event": "battle_pay", "player": side.id, "amount": cost.total()})
                continue
            _sacrifice_event(side, key[1], events)
            leave_battlefield(battle, side, permanent, "graveyard", rng, events)
            state_based_actions(battle, events, rng)


def triggers_of(side: Side, card: int, timing: str) -> tuple[Ability, ...]:
    """`triggered` for the side's card, its profile asked first: most permanents (lands,
    vanilla creatures) have no triggered ability, and the profile says so for less than a
    lookup in the cache of `triggered` (keyed by the card's `id` and the timing)."""
    if timing not in facts_of(side, card).timings:
        return ()
    return triggered(side.cards[card], timing)


def beginning_triggers(battle: Battle, sides: Sequence[Side], timing: str, rng: random.Random, events: Events) -> None:
    """"At the beginning of your upkeep / end step" abilities of the active sides' permanents
    (`timing` upkeep or end_step), in battlefield order."""
    for side in sides:
        for permanent in list(side.battlefield):
            abilities = triggers_of(side, permanent.card, timing)
            for ability in abilities:
                if permanent in side.battlefield:
                    run_trigger(battle, side.id, permanent.card, ability, rng, events)


def dies_triggers(battle: Battle, died: list[Ref], rng: random.Random, events: Events) -> None:
    for owner, card in died:
        for ability in triggers_of(battle.side(owner), card, "dies"):
            run_trigger(battle, owner, card, ability, rng, events)


def attack_triggers(battle: Battle, rng: random.Random, events: Events) -> None:
    for attack in list(battle.attacks):
        for ability in triggers_of(battle.side(attack.owner), attack.card, "attacks"):
            run_trigger(battle, attack.owner, attack.card, ability, rng, events)


def regenerate(battle: Battle, side: Side, permanent: Permanent, events: Events) -> bool:
    """CR 701.19: a creature with a regeneration shield that would be destroyed is instead
    tapped, its damage removed, and removed from combat; the shield is used up. False when it
    has no shield."""
    key = (side.id, permanent.card)
    if not battle.shields.get(key):
        return False
    battle.shields[key] -= 1
    permanent.tapped = True
    permanent.damage = 0
    for attack in battle.attacks:
        if key in attack.blockers:
            attack.blockers.remove(key)
    battle.attacks = [a for a in battle.attacks if (a.owner, a.card) != key]
    battle.deathtouched = [d for d in battle.deathtouched if d != key]
    if events is not None:
        events.append({"event": "battle_regenerate", "player": side.id, "card": side.cards[permanent.card].name,
                       "id": permanent.card})
    return True


def end_of_turn(battle: Battle) -> None:
    """Cleanup (CR 514.2): damage and "until end of turn" effects (regeneration shields too)
    wear off."""
    for side in battle.sides():
        for permanent in side.battlefield:
            permanent.damage = 0
            if permanent.power_bonus or permanent.toughness_bonus or permanent.granted:
                permanent.power_bonus = permanent.toughness_bonus = permanent.granted = 0
    battle.activated.clear()
    battle.shields.clear()


__all__ = [
    "PLAYER", "STACK", "Ref", "ability_value", "activated_abilities", "attack_triggers", "choose_picks",
    "counter_spell", "create_tokens", "deal_damage", "dies_triggers", "end_of_turn", "enters_triggers",
    "modes_of", "permanent_value", "recognition", "resolve", "slots", "spell_ability", "target_options",
    "token_value",
]
