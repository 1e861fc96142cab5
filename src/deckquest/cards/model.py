"""The card model: what a card is, independent of any game system.

Cards are immutable values. Game systems (MTG-TRPG checks, battles, the other
board games) read them; they never change them. A physical copy of a card in a
deck is a separate concept owned by the engine.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

COLORS: Final = ("W", "U", "B", "R", "G")
COLOR_NAMES: Final = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
BASIC_LAND_TYPES: Final = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

SUPERTYPES: Final = ("Basic", "Legendary", "Snow", "World", "Ongoing", "Host", "Elite")
CARD_TYPES: Final = (
    "Artifact", "Battle", "Conspiracy", "Creature", "Dungeon", "Enchantment", "Instant",
    "Kindred", "Land", "Phenomenon", "Plane", "Planeswalker", "Scheme", "Sorcery",
    "Tribal", "Vanguard", "Emblem", "Hero",
)

_SYMBOL: Final = re.compile(r"\{([^{}]+)\}")


class ManaCostError(ValueError):
    """A mana cost string that is not valid `{…}` notation."""


def field_values(value: DataclassInstance) -> tuple[object, ...]:
    """A frozen value's fields in order, for its `__reduce__`: pickled (and copied) as the
    constructor and its fields, since the compiled build's class would otherwise be restored
    by setting each field, which a frozen dataclass refuses (a scenario's cards are pickled
    to a Dask cluster's workers, `sim --scheduler`, and to `sim --jobs` workers where
    processes are spawned, not forked)."""
    return tuple(getattr(value, f.name) for f in fields(value))


@dataclass(frozen=True)
class ManaSymbol:
    """One `{…}` symbol of a mana cost.

    `kind` is one of: generic, colored, hybrid, twobrid, phyrexian, colorless,
    snow, variable. `colors` are the colours that can pay it (WUBRG letters).
    """

    text: str
    kind: str
    colors: tuple[str, ...] = ()
    amount: int = 0

    def __reduce__(self) -> tuple[type[ManaSymbol], tuple[object, ...]]:
        """Pickled as its fields (see `field_values`)."""
        return type(self), field_values(self)

    @property
    def mana_value(self) -> int:
        """CR 202.3: X is 0, generic its number, two-brid 2, everything else 1."""
        if self.kind == "generic":
            return self.amount
        if self.kind == "variable":
            return 0
        if self.kind == "twobrid":
            return 2
        return 1


def _parse_symbol(body: str) -> ManaSymbol:
    text = "{" + body + "}"
    upper = body.upper()
    if upper.isdigit():
        return ManaSymbol(text, "generic", amount=int(upper))
    if upper in COLORS:
        return ManaSymbol(text, "colored", (upper,))
    if upper == "C":
        return ManaSymbol(text, "colorless")
    if upper == "S":
        return ManaSymbol(text, "snow")
    if upper in ("X", "Y", "Z"):
        return ManaSymbol(text, "variable")
    parts = upper.split("/")
    if len(parts) == 2 and parts[1] == "P" and parts[0] in COLORS:
        return ManaSymbol(text, "phyrexian", (parts[0],))
    if len(parts) == 2 and parts[0] == "2" and parts[1] in COLORS:
        return ManaSymbol(text, "twobrid", (parts[1],))
    if len(parts) == 2 and parts[0] in COLORS + ("C",) and parts[1] in COLORS:
        return ManaSymbol(text, "hybrid", tuple(p for p in parts if p in COLORS))
    if len(parts) == 3 and parts[2] == "P" and all(p in COLORS for p in parts[:2]):
        return ManaSymbol(text, "phyrexian", (parts[0], parts[1]))
    raise ManaCostError(f"unknown mana symbol {text}")


@dataclass(frozen=True)
class ManaCost:
    """A parsed mana cost such as `{2}{G}{G}`."""

    symbols: tuple[ManaSymbol, ...] = ()

    def __reduce__(self) -> tuple[type[ManaCost], tuple[object, ...]]:
        """Pickled as its fields (see `field_values`)."""
        return type(self), field_values(self)

    @classmethod
    def parse(cls, text: str) -> "ManaCost":
        text = text.strip()
        symbols = []
        position = 0
        for match in _SYMBOL.finditer(text):
            if text[position:match.start()].strip():
                raise ManaCostError(f"unexpected text {text[position:match.start()]!r} in mana cost {text!r}")
            symbols.append(_parse_symbol(match.group(1)))
            position = match.end()
        if text[position:].strip():
            raise ManaCostError(f"unexpected text {text[position:]!r} in mana cost {text!r}")
        return cls(tuple(symbols))

    @property
    def mana_value(self) -> int:
        return sum(symbol.mana_value for symbol in self.symbols)

    @property
    def colors(self) -> tuple[str, ...]:
        found = {color for symbol in self.symbols for color in symbol.colors}
        return tuple(color for color in COLORS if color in found)

    def __str__(self) -> str:
        return "".join(symbol.text for symbol in self.symbols)


@dataclass(frozen=True)
class TypeLine:
    """A type line split into supertypes, card types and subtypes."""

    supertypes: tuple[str, ...] = ()
    card_types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[TypeLine], tuple[object, ...]]:
        """Pickled as its fields (see `field_values`)."""
        return type(self), field_values(self)

    @classmethod
    def parse(cls, text: str) -> "TypeLine":
        front, _, back = text.replace("—", "-").partition(" - ")
        words = front.split()
        supertypes = tuple(w for w in words if w in SUPERTYPES)
        card_types = tuple(w for w in words if w not in SUPERTYPES)
        return cls(supertypes, card_types, tuple(back.split()))

    def __str__(self) -> str:
        front = " ".join(self.supertypes + self.card_types)
        return f"{front} — {' '.join(self.subtypes)}" if self.subtypes else front


def sort_colors(colors: Iterable[str]) -> tuple[str, ...]:
    """Colours in the canonical WUBRG order."""
    found = set(colors)
    return tuple(color for color in COLORS if color in found)


@dataclass(frozen=True)
class Card:
    """One card (for a multi-faced card: its front face, with the faces' text joined).

    `colors` are the card's colours as the game defines them (a devoid card is
    colourless even with coloured mana symbols; a colour indicator adds colours).
    Power, toughness and loyalty are strings because printed values may be `*`.
    `face_costs`: the mana costs of the faces of a card whose faces are cast separately
    (split, aftermath, adventure: "{1}{R}", "{5}{R}"), as printed; `mana_cost` is the front
    face's (the one a battle casts). Empty for every other card.
    """

    name: str
    mana_cost: ManaCost | None = None
    colors: tuple[str, ...] = ()
    color_identity: tuple[str, ...] = ()
    type_line: TypeLine = field(default_factory=TypeLine)
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    keywords: tuple[str, ...] = ()
    oracle_text: str = ""
    is_token: bool = False
    name_ja: str | None = None
    mana_value: int = 0
    face_costs: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[Card], tuple[object, ...]]:
        """Pickled as its fields (see `field_values`)."""
        return type(self), field_values(self)

    @classmethod
    def build(
        cls,
        name: str,
        cost: str | None = None,
        type_line: str = "",
        *,
        colors: Iterable[str] | None = None,
        color_identity: Iterable[str] | None = None,
        power: str | None = None,
        toughness: str | None = None,
        loyalty: str | None = None,
        keywords: Collection[str] = (),
        oracle_text: str = "",
        is_token: bool = False,
        name_ja: str | None = None,
        mana_value: int | None = None,
        face_costs: Iterable[str] = (),
    ) -> "Card":
        """Make a card from printed values, deriving what the rules derive.

        Colours default to the cost's colours (devoid in `keywords` makes the card
        colourless); colour identity defaults to the colours plus mana symbols in
        the rules text; mana value defaults to the cost's.
        """
        parsed = ManaCost.parse(cost) if cost else None
        if colors is None:
            colors = () if "Devoid" in keywords else (parsed.colors if parsed else ())
        colors = sort_colors(colors)
        if color_identity is None:
            in_text = {s.colors for s in (_safe_symbols(oracle_text))}
            color_identity = set(colors) | {c for group in in_text for c in group}
            if parsed:
                color_identity |= set(parsed.colors)
            types = TypeLine.parse(type_line)
            if "Land" in types.card_types:
                color_identity |= {BASIC_LAND_TYPES[t] for t in types.subtypes if t in BASIC_LAND_TYPES}
        if mana_value is None:
            mana_value = parsed.mana_value if parsed else 0
        return cls(
            name=name,
            mana_cost=parsed,
            colors=colors,
            color_identity=sort_colors(color_identity),
            type_line=TypeLine.parse(type_line),
            power=power,
            toughness=toughness,
            loyalty=loyalty,
            keywords=tuple(keywords),
            oracle_text=oracle_text,
            is_token=is_token,
            name_ja=name_ja,
            mana_value=mana_value,
            face_costs=tuple(face_costs),
        )

    @property
    def supertypes(self) -> tuple[str, ...]:
        return self.type_line.supertypes

    @property
    def card_types(self) -> tuple[str, ...]:
        return self.type_line.card_types

    @property
    def subtypes(self) -> tuple[str, ...]:
        return self.type_line.subtypes

    def is_type(self, card_type: str) -> bool:
        return card_type in self.type_line.card_types

    @property
    def is_land(self) -> bool:
        return "Land" in self.type_line.card_types

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.type_line.card_types

    @property
    def basic_land_types(self) -> tuple[str, ...]:
        """Plains, Island, Swamp, Mountain, Forest among the subtypes of a land."""
        if not self.is_land:
            return ()
        return tuple(t for t in self.type_line.subtypes if t in BASIC_LAND_TYPES)

    def has_keyword(self, keyword: str) -> bool:
        wanted = keyword.lower()
        return any(k.lower() == wanted for k in self.keywords)


def _safe_symbols(text: str) -> Iterator[ManaSymbol]:
    for match in _SYMBOL.finditer(text or ""):
        try:
            yield _parse_symbol(match.group(1))
        except ManaCostError:
            continue
