"""A card as this game needs it: its stats and its abilities in the effect vocabulary.

Flipped cards' effects come from the vocabulary battles use (``cards.oracle.recognise``).
Two lines battles do not read are read here because Grizzly Bears' Adventure needs them:
an aura's or equipment's "Enchanted/Equipped creature gets +N/+N [and has K]" (G-6: the main
phases cast auras and equip) and "… doesn't untap during its controller's next untap step"
after a tap (G-21: that player skips a turn).

The facts of each distinct card are worked out once per library (a ``CardTable``): the
game state holds card ids (ints), so cloning a state copies lists of ints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

from deckquest.cards.model import Card
from deckquest.cards.oracle import COMBAT_KEYWORDS, Ability, Coverage, Effect, format_coverage, recognise
from deckquest.cards.oracle import coverage as oracle_coverage

_ATTACHED = re.compile(
    r"^(?:enchanted|equipped) creature gets ([+-]\d+)/([+-]\d+)(?: and has ([a-z ,]+))?\.?$", re.I)
_ATTACHED_KEYWORDS = re.compile(r"^(?:enchanted|equipped) creature has ([a-z ,]+)\.?$", re.I)
_NO_UNTAP = re.compile(r"doesn't untap during its controller's next untap step", re.I)

# Effect kinds G-26 leaves without effect here (no life, infinite mana, no tokens, no stack).
IGNORED_KINDS = frozenset({"gain_life", "lose_life", "add_mana", "token", "counter", "untap",
                           "reveal_land", "search_land", "regenerate"})


@dataclass(frozen=True)
class CardFacts:
    """What the engine reads off a card, once."""

    name: str
    mana_value: int
    power: int
    toughness: int
    types: frozenset[str]  # lower-case card types: creature, land, artifact, ...
    subtypes: frozenset[str]
    colors: frozenset[str]
    keywords: frozenset[str]  # the combat keywords it has (lower case)
    enters: tuple[Ability, ...]
    attacks: tuple[Ability, ...]
    dies: tuple[Ability, ...]
    spell: tuple[Ability, ...]
    statics: tuple[Effect, ...]  # anthem effects while it is on the battlefield
    attach_power: int = 0  # an aura's or equipment's bonus to the creature it is on
    attach_toughness: int = 0
    attach_keywords: frozenset[str] = frozenset()
    skips_turn: bool = False  # G-21
    targeted: bool = False  # a spell ability names a target
    # Read off the types once: the turn asks these of every card it meets.
    is_creature: bool = False
    is_land: bool = False
    is_equipment: bool = False
    listed_spell: bool = False  # G-6: an enchantment, artifact or sorcery (not a creature, not a land)
    anthems: tuple[Effect, ...] = ()  # the statics that reach each creature they name

    @property
    def is_aura(self) -> bool:
        return "aura" in self.subtypes

    @property
    def is_permanent_spell(self) -> bool:
        return bool(self.types & {"artifact", "enchantment", "creature", "planeswalker"})

    @property
    def is_dragon(self) -> bool:
        return "dragon" in self.subtypes

    def castable_from_hand(self, spells_all: bool) -> bool:
        """G-6 / G-R4: enchantments, artifacts and sorceries (equipment is an artifact); with
        ``reading spells all`` also creatures, instants and planeswalkers (sorcery speed)."""
        return self.listed_spell or (spells_all and not self.is_land)


def _int(stat: str | None) -> int:
    try:
        return int(stat or 0)
    except ValueError:
        return 0  # "*": a characteristic-defining ability this game does not compute


def card_facts(card: Card) -> CardFacts:
    recognition = recognise(card)
    by_timing: dict[str, list[Ability]] = {}
    statics: list[Effect] = []
    for ability in recognition.abilities:
        if ability.kicked:
            continue  # kicker is an additional mana cost: mana is infinite but kicking is a choice not offered
        if ability.timing == "static":
            statics.extend(ability.effects)
        else:
            by_timing.setdefault(ability.timing, []).append(ability)
    power = toughness = 0
    keywords: set[str] = set()
    for line in card.oracle_text.splitlines():
        attached = _ATTACHED.match(line.strip())
        if attached:
            power, toughness = int(attached.group(1)), int(attached.group(2))
            keywords |= _keyword_set(attached.group(3))
        only = _ATTACHED_KEYWORDS.match(line.strip())
        if only:
            keywords |= _keyword_set(only.group(1))
    types = frozenset(t.lower() for t in card.card_types)
    subtypes = frozenset(s.lower() for s in card.subtypes)
    return CardFacts(
        name=card.name,
        mana_value=card.mana_value,
        power=_int(card.power),
        toughness=_int(card.toughness),
        types=types,
        subtypes=subtypes,
        colors=frozenset(card.colors),
        keywords=_combat_keywords(card),
        enters=tuple(by_timing.get("enters", ())),
        attacks=tuple(by_timing.get("attacks", ())),
        dies=tuple(by_timing.get("dies", ())),
        spell=tuple(by_timing.get("spell", ())),
        statics=tuple(statics),
        attach_power=power,
        attach_toughness=toughness,
        attach_keywords=frozenset(keywords),
        skips_turn=bool(_NO_UNTAP.search(card.oracle_text)),
        targeted=any(e.target.scope == "target" or e.kind == "fight" for a in by_timing.get("spell", ())
                     for e in a.effects + tuple(x for mode in a.modes for x in mode)),
        is_creature="creature" in types,
        is_land="land" in types,
        is_equipment="equipment" in subtypes,
        listed_spell=bool(types & {"enchantment", "artifact", "sorcery"}) and not types & {"creature", "land"},
        anthems=tuple(effect for effect in statics if effect.target.scope == "each"),
    )


def _combat_keywords(card: Card) -> frozenset[str]:
    """The combat keywords on the card's keyword lines ("First strike, protection from white")."""
    found: set[str] = set()
    for line in card.oracle_text.splitlines():
        line = re.sub(r"\s*\([^()]*\)", "", line).strip().rstrip(".")
        parts = {p.strip().lower() for p in line.split(",")}
        if parts and parts <= COMBAT_KEYWORDS | {k.lower() for k in card.keywords}:
            found |= parts & COMBAT_KEYWORDS
    return frozenset(found)


def _keyword_set(text: str | None) -> set[str]:
    if not text:
        return set()
    parts = {p.strip().lower() for p in re.split(r",? and |, ", text) if p.strip()}
    return parts & COMBAT_KEYWORDS


class CardTable:
    """The distinct cards of a library, by id (first-seen order), with their facts."""

    def __init__(self, cards: Sequence[Card]):
        self.cards: list[Card] = []
        self.facts: list[CardFacts] = []
        self._ids: dict[str, int] = {}
        self.library: tuple[int, ...] = tuple(self.add(card) for card in cards)

    def add(self, card: Card) -> int:
        known = self._ids.get(card.name)
        if known is not None:
            return known
        self._ids[card.name] = len(self.cards)
        self.cards.append(card)
        self.facts.append(card_facts(card))
        return len(self.cards) - 1

    def name(self, card_id: int) -> str:
        return self.cards[card_id].name


# Sentences battles do not read but this game does (auras and equipment, G-21).
_READ_HERE = (_ATTACHED, _ATTACHED_KEYWORDS, _NO_UNTAP,
              re.compile(r"^enchant creature\.?$", re.I), re.compile(r"^equip \{\d+\}\.?$", re.I))


def coverage(cards: Sequence[Card]) -> Coverage:
    """The battles' coverage of a library (``cards.oracle.coverage``), with the sentences
    this game reads itself counted as simulated."""
    entries = []
    for entry in oracle_coverage(cards).cards:
        recognition = entry.recognition
        left = tuple(s for s in recognition.unrecognised if not any(p.search(s) for p in _READ_HERE))
        if left != recognition.unrecognised:
            level = "full" if not left else "partial"
            recognition = replace(recognition, level=level, unrecognised=left)
        entries.append(replace(entry, recognition=recognition))
    return Coverage(tuple(entries))


def coverage_line(cards: Sequence[Card], title: str) -> str:
    """One line per deck, as battles print: ``title: N cards, P% simulated (full …)``."""
    return format_coverage(coverage(cards), title).splitlines()[0]
