"""Card programs: what a card can do in a battle, worked out once per card.

A battle asks the same questions of the cards in a hand and on the battlefield at every
decision: is it a land, can it be cast at instant speed, what does the spell do, what does
it cost (kicked too), must something be sacrificed, which targets does each mode choose
first, which abilities can be activated and what mana they cost. The answers depend on the
card only, so they are read once into a `CardProgram` (cached by the card's identity, as
`profile.profile` is) and what changes at each decision (mana, zones, permanents) is all
that `casting.castable` and `casting.activations` still work out.

A card registered in `effects.REGISTRY` resolves its registered effect instead of its text
(tests register and unregister cards at will): a program remembers the registered effect it
was made with and is made again when the registry says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from deckquest.cards.model import Card, ManaCost
from deckquest.cards.oracle import Ability, Cost, Target
from deckquest.cards.oracle import Effect as TextEffect
from deckquest.engine.combat.effects import REGISTRY, Effect
from deckquest.engine.combat.mana import Requirement, requirement
from deckquest.engine.combat.profile import CardTables, Profile, profile
from deckquest.engine.combat.resolve import (
    activated_abilities, modes_of, one_target_effect, recognition, slots, spell_ability,
)


class Mode(NamedTuple):
    """One mode of a spell: its targets to choose (`slots`) and the effect kind of the first;
    `one`: its `resolve.one_target_effect` (how the greedy policies weigh it)."""

    number: int
    slots: tuple[Target, ...]
    first_kind: str  # the kind of the effect the first slot belongs to ("" without a slot)
    one: TextEffect | None


class Activated(NamedTuple):
    """An activated or loyalty ability: its index on the card, its cost, the mana part of
    the cost read for payment (None without mana), its targets and the first one's kind, and
    its `resolve.one_target_effect`."""

    number: int
    ability: Ability
    cost: Cost
    mana: Requirement | None
    slots: tuple[Target, ...]
    first_kind: str
    one: TextEffect | None


@dataclass(frozen=True, slots=True)
class CardProgram:
    """What a card can do in a battle (see the module doc).

    `offered`: a cast is listed at all (it has a mana cost and does something: a permanent,
    a registered effect, a spell whose text is understood). `spell` is the ability an instant
    or sorcery resolves (None for a permanent or a registered card). `sacrifice`: the spell's
    additional sacrifice ("" for none). `kicked`: a permanent's cost with its kicker."""

    card: Card
    name: str
    facts: Profile
    registered: Effect | None
    instant: bool
    offered: bool
    spell: Ability | None
    sacrifice: str
    cost: Requirement
    kicked: Requirement | None
    modes: tuple[Mode, ...]
    activated: tuple[Activated, ...]
    kicked_abilities: tuple[Ability, ...]  # "when ~ enters, if it was kicked" abilities without targets
    colors: tuple[str, ...]  # its mana cost's colours (what a land must make for it)
    combat_trick: bool  # an instant-speed spell that only pumps (the greedy policies keep it for after blockers)


_PROGRAMS: Final[dict[int, CardProgram]] = {}
_PROGRAMS_MAX: Final = 50_000


def program(card: Card) -> CardProgram:
    """The card's program, cached by object identity (and by the registered effect)."""
    entry = _PROGRAMS.get(id(card))  # the entry holds the card: no other object has its id
    if entry is not None and entry.registered is (REGISTRY.get(card.name) if REGISTRY else None):
        return entry
    if len(_PROGRAMS) >= _PROGRAMS_MAX:
        _PROGRAMS.clear()
    made = read_program(card)
    _PROGRAMS[id(card)] = made
    return made


#: A battle's sides' programs (`programs_of`).
PROGRAM_TABLES: Final[CardTables[CardProgram]] = CardTables()


def programs_of(cards: tuple[Card, ...]) -> list[CardProgram | None]:
    """The programs of a card table's cards by card id, filled as `program_in` asks for them."""
    return PROGRAM_TABLES.of(cards)


def program_in(cards: tuple[Card, ...], known: list[CardProgram | None], number: int) -> CardProgram:
    """The program of card `number` of the table, from `known = programs_of(cards)`; made again,
    as `program` does, when the effects registry says otherwise than when it was made."""
    code = known[number]
    if code is None or code.registered is not (REGISTRY.get(code.name) if REGISTRY else None):
        code = known[number] = program(cards[number])
    return code


def program_at(cards: tuple[Card, ...], number: int) -> CardProgram:
    """The program of card `number` of a side's table (`program_in` of `programs_of`): the
    battle and its agents ask it at every weighing of a play."""
    return program_in(cards, programs_of(cards), number)


def first_kind(effects: tuple[TextEffect, ...], wanted: tuple[Target, ...]) -> str:
    """The kind of the effect the first target belongs to."""
    if not wanted:
        return ""
    return next(e.kind for e in effects if wanted[0] in (e.target, e.other))


def kicked_cost(card: Card) -> ManaCost | None:
    """The mana cost plus the kicker (CR 702.33), or None when the card has no kicker."""
    kicker = recognition(card).kicker
    if not kicker or card.mana_cost is None:
        return None
    return ManaCost(card.mana_cost.symbols + ManaCost.parse(kicker).symbols)


def read_program(card: Card) -> CardProgram:
    facts = profile(card)
    registered = REGISTRY.get(card.name)
    spell = None if facts.is_permanent or registered else spell_ability(card)
    modes: list[Mode] = []
    if spell is not None:
        for index, effects in enumerate(modes_of(spell)):
            wanted = slots(effects)
            modes.append(Mode(index, wanted, first_kind(effects, wanted), one_target_effect(effects)))
    activated = []
    for index, ability in enumerate(activated_abilities(card)):
        cost = ability.cost
        assert cost is not None  # activated and loyalty abilities always have one
        wanted = slots(ability.effects)
        mana = requirement(ManaCost.parse(cost.mana)) if cost.mana else None
        activated.append(Activated(index, ability, cost, mana, wanted, first_kind(ability.effects, wanted),
                                   one_target_effect(modes_of(ability)[0])))
    kicked = kicked_cost(card) if facts.is_permanent else None
    instant = card.is_type("Instant") or facts.flash
    return CardProgram(
        card=card, name=card.name, facts=facts, registered=registered,
        instant=instant,
        offered=card.mana_cost is not None and bool(facts.is_permanent or registered or spell),
        spell=spell,
        sacrifice=spell.cost.sacrifice if spell is not None and spell.cost is not None else "",
        cost=facts.cost if facts.cost is not None else requirement(card.mana_cost),
        kicked=requirement(kicked) if kicked is not None else None,
        modes=tuple(modes), activated=tuple(activated),
        kicked_abilities=tuple(a for a in recognition(card).abilities if a.kicked and not slots(a.effects)),
        colors=card.mana_cost.colors if card.mana_cost is not None else (),
        combat_trick=instant and not facts.is_permanent and _only_pumps(spell_ability(card)),
    )


def _only_pumps(ability: Ability | None) -> bool:
    """Whether every effect of every mode is a pump that adds ("Target creature gets +3/+3
    until end of turn"): a combat trick, not a main-phase play."""
    effects = [e for mode in modes_of(ability) for e in mode] if ability is not None else []
    return bool(effects) and all(e.kind == "pump" and e.power >= 0 and e.toughness >= 0 for e in effects)
