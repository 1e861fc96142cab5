"""What a battle needs to know about a card, read once and cached.

A battle looks at the same few facts of a card thousands of times (power,
keywords, the mana its tap ability makes), so they are read off the immutable
`Card` once into a small `Profile`. Card effects beyond these are read by
`deckquest.cards.oracle` and executed by `resolve.py`, not here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Generic, TYPE_CHECKING, TypeVar

from deckquest.cards.model import BASIC_LAND_TYPES, COLORS, Card
from deckquest.engine.combat.mana import Requirement, requirement

if TYPE_CHECKING:  # the oracle is read only when a card is first profiled
    from deckquest.cards.oracle import Effect

# Keyword abilities the combat engine implements, as bit flags (cheap to test).
FLYING: Final = 1
REACH: Final = 2
FIRST_STRIKE: Final = 4
DOUBLE_STRIKE: Final = 8
DEATHTOUCH: Final = 16
TRAMPLE: Final = 32
LIFELINK: Final = 64
VIGILANCE: Final = 128
HASTE: Final = 256
DEFENDER: Final = 512
MENACE: Final = 1024
INDESTRUCTIBLE: Final = 2048
PLAINSWALK: Final = 4096  # landwalk (CR 702.14): unblockable while the defender controls such a land
ISLANDWALK: Final = 8192
SWAMPWALK: Final = 16384
MOUNTAINWALK: Final = 32768
FORESTWALK: Final = 65536
LANDWALK: Final = PLAINSWALK | ISLANDWALK | SWAMPWALK | MOUNTAINWALK | FORESTWALK
# Restrictions kept beside the keywords (static abilities, "~ can't block."), not keywords.
CANT_BLOCK: Final = 1 << 17
UNBLOCKABLE: Final = 1 << 18
# Protection from a colour (CR 702.16): not blocked by, targeted by or dealt damage by what
# has that colour.
PROTECTION: Final = {"W": 1 << 19, "U": 1 << 20, "B": 1 << 21, "R": 1 << 22, "G": 1 << 23}
ANY_PROTECTION: Final = sum(PROTECTION.values())
HEXPROOF: Final = 1 << 24  # CR 702.11: not the target of its opponents' spells and abilities
NOT_ALONE: Final = 1 << 25  # "can't attack or block alone" (CR 506.5)

KEYWORD_FLAGS: Final = {
    "flying": FLYING, "reach": REACH, "first strike": FIRST_STRIKE,
    "double strike": DOUBLE_STRIKE, "deathtouch": DEATHTOUCH, "trample": TRAMPLE,
    "lifelink": LIFELINK, "vigilance": VIGILANCE, "haste": HASTE, "defender": DEFENDER,
    "menace": MENACE, "indestructible": INDESTRUCTIBLE,
    "plainswalk": PLAINSWALK, "islandwalk": ISLANDWALK, "swampwalk": SWAMPWALK,
    "mountainwalk": MOUNTAINWALK, "forestwalk": FORESTWALK,
    "protection from white": PROTECTION["W"], "protection from blue": PROTECTION["U"],
    "protection from black": PROTECTION["B"], "protection from red": PROTECTION["R"],
    "protection from green": PROTECTION["G"], "hexproof": HEXPROOF,
}
#: Keywords and restrictions a static ability can give (oracle `anthem` effects).
STATIC_FLAGS: Final = {**KEYWORD_FLAGS, "can't block": CANT_BLOCK, "can't be blocked": UNBLOCKABLE,
                "can't attack or block alone": NOT_ALONE}
#: The land type each landwalk looks for.
LANDWALK_TYPES: Final = ((PLAINSWALK, "Plains"), (ISLANDWALK, "Island"), (SWAMPWALK, "Swamp"),
                  (MOUNTAINWALK, "Mountain"), (FORESTWALK, "Forest"))

PERMANENT_TYPES: Final = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")

_REMINDER = re.compile(r"\([^()]*\)")
_TAP_FOR_MANA = re.compile(r"^\{T\}: Add (.+?)\.?$", re.IGNORECASE)
_MANA_SYMBOL = re.compile(r"\{([WUBRGC])\}")
_ANY_COLOR = re.compile(r"^one mana of any colou?r$", re.IGNORECASE)


@dataclass(frozen=True)
class Profile:
    """The facts of a card a battle uses. `mana` lists the units its "{T}: Add …"
    ability makes, each unit the set of mana types (WUBRG letters, `C`) it can be."""

    power: int
    toughness: int
    keywords: int
    is_creature: bool
    is_land: bool
    is_permanent: bool
    is_token: bool
    mana: tuple[frozenset[str], ...]
    enters_tapped: bool
    loyalty: int
    flash: bool = False  # CR 702.8: cast at instant speed
    statics: tuple[Effect, ...] = ()  # its static abilities that affect other permanents (oracle `anthem` effects)
    cost: Requirement = requirement(None)  # its mana cost as payment reads it (empty without a cost)
    legendary: bool = False  # the legend rule (CR 704.5j) looks at every permanent often
    # The timings of its abilities (upkeep, enters, dies, …): a battle asks every permanent
    # for its upkeep and end-step triggers, and most have none (`resolve.triggers_of`).
    timings: frozenset[str] = frozenset()


def stat(value: str | None) -> int:
    """A printed power, toughness or loyalty as a number; `*` and other non-numbers count 0
    (their defining text, "~'s power is equal to …", is not in the effect vocabulary)."""
    if value is None:
        return 0
    try:
        return int(value)
    except ValueError:
        return 0


_PROTECTION = re.compile(r"\bprotection from (white|blue|black|red|green)\b", re.IGNORECASE)


def keyword_flags(card: Card) -> int:
    flags = 0
    for keyword in card.keywords:
        flags |= KEYWORD_FLAGS.get(keyword.lower(), 0)
    if "Protection" in card.keywords or any(k.lower().startswith("protection") for k in card.keywords):
        for line in _REMINDER.sub("", card.oracle_text or "").splitlines():
            if ":" not in line and "until end of turn" not in line:  # a keyword line, not a granted one
                for colour in _PROTECTION.findall(line):
                    flags |= KEYWORD_FLAGS["protection from " + colour.lower()]
    return flags


def protected_from(flags: int, card: Card) -> bool:
    """CR 702.16: whether a permanent with these flags has protection from the card's colours."""
    return bool(flags & ANY_PROTECTION) and any(flags & PROTECTION[c] for c in card.colors if c in PROTECTION)


def mana_units(card: Card) -> tuple[frozenset[str], ...]:
    """The mana a card's tap ability makes, recognised from its text.

    Recognises "{T}: Add {G}.", "{T}: Add {C}{C}.", "{T}: Add {R} or {G}." and
    "{T}: Add one mana of any color."; a basic land type gives its colour even
    without text (CR 305.6). Abilities with other costs are not mana sources here.
    """
    for line in _REMINDER.sub("", card.oracle_text or "").splitlines():
        match = _TAP_FOR_MANA.match(line.strip())
        if not match:
            continue
        produced = match.group(1).strip()
        if _ANY_COLOR.match(produced):
            return (frozenset(COLORS),)
        if " or " in produced:
            options = [_MANA_SYMBOL.findall(part) for part in produced.split(" or ")]
            if all(len(option) == len(options[0]) and option for option in options):
                return tuple(frozenset(option[i] for option in options) for i in range(len(options[0])))
            continue
        symbols = _MANA_SYMBOL.findall(produced)
        if symbols and "".join("{%s}" % s for s in symbols) == produced.replace(" ", ""):
            return tuple(frozenset(symbol) for symbol in symbols)
    colors = frozenset(BASIC_LAND_TYPES[t] for t in card.basic_land_types)
    return (colors,) if colors else ()


#: Each mana production seen, kept once (see `_one_of_each`).
_UNITS: Final[dict[tuple[frozenset[str], ...], tuple[frozenset[str], ...]]] = {}


def _one_of_each(units: tuple[frozenset[str], ...]) -> tuple[frozenset[str], ...]:
    """The one object for these units: twenty Forests' profiles then share what they make,
    so the keys of what a side's sources make (`casting.castable`, `mana.paid`) compare
    source by source by identity instead of set by set."""
    return _UNITS.setdefault(units, units)


#: id(card) -> its profile (`profile`; a battle reads its sides' cards through `profiles_of`).
PROFILES: Final[dict[int, Profile]] = {}
_HELD: Final[list[Card]] = []  # the cards of the cached profiles, kept alive
_PROFILES_MAX: Final = 50_000


def profile(card: Card) -> Profile:
    """The card's profile, cached by object identity: hashing a frozen Card walks all
    its fields, which is too slow for the battle loop. The cache holds the card (`_HELD`),
    so while its entry lives no other object can have its id: a hit needs no other check."""
    facts = PROFILES.get(id(card))
    if facts is not None:
        return facts
    if len(PROFILES) >= _PROFILES_MAX:
        PROFILES.clear()
        _HELD.clear()
    facts = PROFILES[id(card)] = read_profile(card)
    _HELD.append(card)
    return facts


Known = TypeVar("Known")  # what `CardTables` keeps per card


class CardTables(Generic[Known]):
    """Something worked out per card (a profile, a program), kept per card table by card
    id, None where not asked yet. A battle asks for the same few tables (one per side)
    thousands of times: `of` finds a table by identity, first the one asked `last`, then
    among the `RECENT_TABLES` asked last, else by its `id` (a token joining a side makes a
    new table). Looking each card up by its own `id`, as `profile` does, boxed the id as a
    Python int, hashed it and compared it at each of a battle's keyword, power and creature
    checks (a tenth of a compiled battle). The hottest checks read `last` and `last_known`
    themselves (`state.facts_of`, written out: a call saved per card in the pure build)."""

    def __init__(self) -> None:
        self.last: tuple[Card, ...] = ()  # the table asked last, and its values
        self.last_known: list[Known | None] = []
        # The tables asked last and their values, the latest first: two lists side by side,
        # which compiled code walks faster than one of pairs.
        self._recent: list[tuple[Card, ...]] = []
        self._recent_known: list[list[Known | None]] = []
        self._by_id: dict[int, tuple[tuple[Card, ...], list[Known | None]]] = {}

    def of(self, cards: tuple[Card, ...]) -> list[Known | None]:
        """The table's values by card id (None: not worked out yet)."""
        if self.last is cards:
            return self.last_known
        number = 0
        for table in self._recent:
            if table is cards:
                known = self._recent_known[number]
                break
            number += 1
        else:
            found = self._by_id.get(id(cards))
            if found is None or found[0] is not cards:  # (the entry holds its table: no other has its id)
                if len(self._by_id) > 1_000:
                    self._by_id.clear()
                found = self._by_id[id(cards)] = (cards, [None] * len(cards))
            known = found[1]
            self._recent.insert(0, cards)
            self._recent_known.insert(0, known)
            del self._recent[RECENT_TABLES:], self._recent_known[RECENT_TABLES:]
        self.last, self.last_known = cards, known
        return known


RECENT_TABLES: Final = 8
#: A battle's sides' profiles (`profiles_of`).
PROFILE_TABLES: Final[CardTables[Profile]] = CardTables()


def profiles_of(cards: tuple[Card, ...]) -> list[Profile | None]:
    """The profiles of a card table's cards by card id, filled as `profile_in` asks for them."""
    return PROFILE_TABLES.of(cards)


def profile_in(cards: tuple[Card, ...], known: list[Profile | None], number: int) -> Profile:
    """The profile of card `number` of the table, from `known = profiles_of(cards)`."""
    facts = known[number]
    if facts is None:
        facts = known[number] = profile(cards[number])
    return facts


def read_profile(card: Card) -> Profile:
    from deckquest.cards.oracle import recognise

    types = card.card_types
    text = (card.oracle_text or "").lower()
    keywords = keyword_flags(card)
    statics = []
    for ability in recognise(card).abilities if card.oracle_text else ():
        if ability.timing != "static":
            continue
        for effect in ability.effects:
            if effect.target.scope == "self":  # "~ can't block.": part of the card's own flags
                for word in effect.keywords:
                    keywords |= STATIC_FLAGS[word]
            else:
                statics.append(effect)
    return Profile(
        power=stat(card.power),
        toughness=stat(card.toughness),
        keywords=keywords,
        is_creature="Creature" in types,
        is_land="Land" in types,
        is_permanent=any(t in PERMANENT_TYPES for t in types),
        is_token=card.is_token,
        mana=_one_of_each(mana_units(card)),
        enters_tapped=" enters tapped" in text or "enters the battlefield tapped" in text,
        loyalty=stat(card.loyalty),
        flash=any(k.lower() == "flash" for k in card.keywords),
        statics=tuple(statics),
        cost=requirement(card.mana_cost),
        legendary="Legendary" in card.supertypes,
        timings=frozenset(ability.timing for ability in recognise(card).abilities),
    )
