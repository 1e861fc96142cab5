"""The built-in card database: real cards shipped inside the package.

The data lives in `cards/data/*.cards`, a plain text format a person can review
card by card (see docs/builtin-cards.md)::

    Llanowar Elves | {G} | Creature — Elf Druid | 1/1 | ja ラノワールのエルフ
      {T}: Add {G}.

A card starts at an unindented line `name | cost | type line | stats [| field]...`:
cost is `{…}` notation or `-` (no mana cost); stats are `P/T`, `loyalty N` or
`-`; fields are `ja NAME` (official Japanese printed name), `colors LETTERS`
(a colour indicator, or a token's colours; `colors -` for none) and `token`.
Indented lines below are the oracle text, one paragraph per line. `#` starts a
comment line. Keywords are not written down: they are read off the oracle
text's keyword lines ("Flying, haste"), so they can never disagree with it.

Colours and mana value are derived by `Card.build` from the cost (T-1.4, T-1.5);
a Devoid keyword line makes a card colourless, as the rules say.
"""

from __future__ import annotations

import re
from importlib import resources

from deckquest.cards.model import COLORS, Card

DATA_PACKAGE = "deckquest.cards"
DATA_SUFFIX = ".cards"

# Keyword abilities (CR 702) a line can consist of. A bare keyword must make up
# the whole part of a line; a parametrised one is followed by its parameter.
BARE_KEYWORDS = (
    "Battle cry", "Cascade", "Changeling", "Convoke", "Deathtouch", "Defender", "Delve",
    "Devoid", "Double strike", "Exalted", "Extort", "Fear", "First strike", "Flash", "Flying",
    "Forestwalk", "Haste", "Hexproof", "Indestructible", "Infect", "Ingest", "Intimidate",
    "Islandwalk", "Lifelink", "Menace", "Mountainwalk", "Persist", "Plainswalk", "Prowess",
    "Reach", "Rebound", "Shroud", "Storm", "Swampwalk", "Trample", "Undying", "Unleash",
    "Vigilance", "Wither",
)
PARAMETER_KEYWORDS = (
    "Affinity", "Annihilator", "Bushido", "Buyback", "Cycling", "Dash", "Echo", "Enchant",
    "Equip", "Evoke", "Flashback", "Kicker", "Madness", "Morph", "Ninjutsu", "Protection",
    "Suspend", "Unearth", "Ward",
)
_REMINDER = re.compile(r"\s*\([^()]*\)")
_BARE = {k.lower(): k for k in BARE_KEYWORDS}
# A parameter is a cost or number ("Equip {2}", "Annihilator 2", "Suspend 1—{R}"),
# an em-dash cost ("Flashback—{1}{U}, Pay 3 life"), a quality ("Protection from
# black", "Affinity for artifacts") or, for Enchant, what it enchants.
_PARAMETER = re.compile(
    r"^(?:(" + "|".join(PARAMETER_KEYWORDS) + r")(?:—.*| [{\dX].*| from .*| for .*)"
    r"|(Enchant) [a-z][a-z ]*)$",
    re.IGNORECASE,
)
_PARAMETER_NAMES = {k.lower(): k for k in PARAMETER_KEYWORDS}


class BuiltinDataError(ValueError):
    """The shipped data file is malformed: a packaging bug, never a user error."""


def load_builtin() -> list[Card]:
    """Every card of the built-in database, in file order (files sorted by name)."""
    folder = resources.files(DATA_PACKAGE) / "data"
    cards: list[Card] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(DATA_SUFFIX):
            cards.extend(parse_cards(entry.read_text(encoding="utf-8"), entry.name))
    return cards


def parse_cards(text: str, source: str = "<cards>") -> list[Card]:
    """Cards from text in the built-in format (see the module docstring)."""
    cards: list[Card] = []
    header: tuple[int, str] | None = None
    oracle: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace():
            if header is None:
                raise BuiltinDataError(f"{source}:{number}: oracle text before any card")
            oracle.append(line.strip())
            continue
        if header is not None:
            cards.append(_build(header, oracle, source))
        header, oracle = (number, line), []
    if header is not None:
        cards.append(_build(header, oracle, source))
    return cards


def _build(header: tuple[int, str], oracle: list[str], source: str) -> Card:
    number, line = header
    parts = [part.strip() for part in line.split("|")]
    if len(parts) < 4:
        raise BuiltinDataError(f"{source}:{number}: expected `name | cost | type | stats`")
    name, cost, type_line, stats, *fields = parts
    text = "\n".join(oracle)
    options: dict = {"keywords": keywords_in(text), "oracle_text": text}
    options.update(_stats(stats, source, number))
    for field in fields:
        key, _, value = field.partition(" ")
        if key == "ja" and value:
            options["name_ja"] = value.strip()
        elif key == "colors" and value:
            options["colors"] = _color_letters(value.strip(), source, number)
        elif key == "token" and not value:
            options["is_token"] = True
        else:
            raise BuiltinDataError(f"{source}:{number}: unknown field {field!r}")
    try:
        return Card.build(name, None if cost == "-" else cost, type_line, **options)
    except ValueError as error:
        raise BuiltinDataError(f"{source}:{number}: {error}") from error


def _stats(stats: str, source: str, number: int) -> dict:
    if stats == "-":
        return {}
    if stats.startswith("loyalty "):
        return {"loyalty": stats.split()[1]}
    power, slash, toughness = stats.partition("/")
    if not slash or not power or not toughness:
        raise BuiltinDataError(f"{source}:{number}: bad stats {stats!r}")
    return {"power": power, "toughness": toughness}


def _color_letters(value: str, source: str, number: int) -> tuple[str, ...]:
    if value == "-":
        return ()
    if any(letter not in COLORS for letter in value):
        raise BuiltinDataError(f"{source}:{number}: bad colors {value!r}")
    return tuple(value)


def keywords_in(oracle_text: str) -> tuple[str, ...]:
    """Keyword abilities on the text's keyword lines ("Flying, haste"; "Equip {2}").

    A line counts only when it is one keyword with its parameter, or when every
    comma-separated part of it (reminder text removed) is a keyword ability, so a
    sentence such as "Flying creatures you control get +1/+1" adds nothing.
    """
    found: list[str] = []
    for line in oracle_text.splitlines():
        line = _REMINDER.sub("", line).strip()
        names = [_keyword(part.strip()) for part in line.split(",")]
        if not all(names):  # a cost may hold commas: "Flashback—{1}{U}, Pay 3 life"
            names = [_keyword(line)]
        if line and all(names):
            found.extend(n for n in names if n not in found)
    return tuple(found)


def _keyword(part: str) -> str | None:
    bare = _BARE.get(part.lower())
    if bare:
        return bare
    match = _PARAMETER.match(part)
    return _PARAMETER_NAMES[(match.group(1) or match.group(2)).lower()] if match else None
