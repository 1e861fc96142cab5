"""Card data files users download themselves: what they hold, as deckquest cards.

Two sources are read, always as a stream (see :mod:`deckquest.cards.jsonstream`):
Scryfall bulk files (oracle-cards, default-cards, all-cards; one object per
printing, :mod:`deckquest.cards.scryfall`) and MTGJSON's AtomicCards.json (one
entry per card, :mod:`deckquest.cards.mtgjson`).

A reader yields, for every element of the file, either an :class:`Entry` (a card
and what identifies it) or a :class:`Skipped` with a reason the import summary
counts. Deciding between printings of the same card (duplicates, Japanese names)
is the user database's job, because it needs to remember what came before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from deckquest.i18n import _
from deckquest.cards.model import Card, ManaCostError
from deckquest.errors import DeckquestError, Span
from deckquest.files import open_regular

FORMATS = ("scryfall", "mtgjson")
FORMAT_TITLES = {"scryfall": "Scryfall", "mtgjson": "MTGJSON"}

# Why an element of a file did not become a card (the import summary counts these).
NOT_A_CARD = "not a card object"
MALFORMED = "malformed card object"
ART_SERIES = "art series card"
REBALANCED = "Alchemy rebalanced card (digital only)"
FRACTIONAL_MANA_VALUE = "fractional mana value (un-card)"
MANA_VALUE_OUT_OF_RANGE = "mana value out of range (not a finite number up to 1,000,000)"
UNKNOWN_MANA_SYMBOL = "mana symbol outside the rules (un-card)"
DUPLICATE_PRINTING = "duplicate printing"
NON_ENGLISH_PRINTING = "non-English printing (contributes names only)"
SAME_NAME = "another card has this name"
TOKEN_NAMED_LIKE_CARD = "token named like a card"

MAX_MANA_VALUE = 1_000_000
"""The largest mana value a card has (Gleemax's); a larger or infinite one is a damaged object."""

# Codes of the card data errors (docs/errors.md); DQ8003-DQ8006 are the JSON reader's.
UNREADABLE_CARD_FILE = "DQ8001"
NOT_A_CARD_FILE = "DQ8002"
NO_CARDS = "DQ8007"
DATABASE_NOT_WRITTEN = "DQ8008"
DATABASE_UNREADABLE = "DQ8009"
UNKNOWN_FORMAT = "DQ8010"

FACE_SEPARATOR = "\n//\n"
"""Joins the oracle texts of a multi-faced card's faces in `Card.oracle_text`."""


@dataclass(frozen=True)
class Entry:
    """One card as a file describes it: one printing (Scryfall) or one card (MTGJSON).

    `identity` is the same for every printing of one card (Scryfall's oracle id),
    so printings can be merged. `front_name` is the front face's name when it
    differs from `card.name` ("Boom" for "Boom // Bust"); both names find the card.
    `back_names` are the other faces' names ("Insectile Aberration"): they find the card too.
    `name_ja` and `front_name_ja` are the Japanese names this entry knows, if any.
    """

    card: Card
    identity: str
    lang: str = "en"
    front_name: str | None = None
    back_names: tuple[str, ...] = ()
    name_ja: str | None = None
    front_name_ja: str | None = None


@dataclass(frozen=True)
class Skipped:
    """An element of a file that is not imported as a card, and why."""

    reason: str


class SkipCard(Exception):
    """Raised while mapping one element to say it is skipped (caught by the reader)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def card_from_fields(
    name: object,
    cost: object,
    type_line: object,
    *,
    colors: object,
    color_identity: object,
    power: object,
    toughness: object,
    loyalty: object,
    keywords: object,
    oracle_text: object,
    is_token: bool,
    mana_value: object,
    face_costs: tuple[object, ...] = (),
) -> Card:
    """A Card from a file's printed values, taking the file's colours as they are.

    The file's colours are kept (not derived from the cost) because they already
    account for devoid and colour indicators (T-1.4 reads a card's colours). A
    leading "Token" in the type line becomes `is_token`, so card types stay types.
    """
    if not isinstance(name, str) or not name:
        raise SkipCard(MALFORMED)
    type_text = _text(type_line)
    if type_text.startswith("Token "):
        is_token, type_text = True, type_text[len("Token "):]
    value = None
    if mana_value is not None:
        if not isinstance(mana_value, (int, float)) or isinstance(mana_value, bool):
            raise SkipCard(MALFORMED)
        if not math.isfinite(mana_value) or not 0 <= mana_value <= MAX_MANA_VALUE:
            raise SkipCard(MANA_VALUE_OUT_OF_RANGE)
        if mana_value != int(mana_value):
            raise SkipCard(FRACTIONAL_MANA_VALUE)
        value = int(mana_value)
    return Card.build(
        name,
        _text(cost) or None,
        type_text,
        colors=_letters(colors),
        color_identity=_letters(color_identity),
        power=_optional_text(power),
        toughness=_optional_text(toughness),
        loyalty=_optional_text(loyalty),
        keywords=tuple(_letters(keywords) or ()),
        oracle_text=_text(oracle_text),
        is_token=is_token,
        mana_value=value,
        face_costs=tuple(_text(cost) for cost in face_costs) if len(face_costs) > 1 else (),
    )


def guarded(make: Callable[[], Entry]) -> Entry | Skipped:
    """Run one element's mapping; a skip or a wrongly typed field becomes a Skipped."""
    try:
        return make()
    except SkipCard as skip:
        return Skipped(skip.reason)
    except ManaCostError:
        return Skipped(UNKNOWN_MANA_SYMBOL)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):
        return Skipped(MALFORMED)


def _text(value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value


def _optional_text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return _text(value)


def _letters(value: object) -> tuple[str, ...] | None:
    """A list of strings (colours, keywords) as a tuple; None stays None."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise TypeError("expected a list of strings")
    return tuple(value)


def detect_format(path: Path) -> str:
    """"scryfall" for a file that starts with `[`, "mtgjson" for one that starts with `{`."""
    with open_card_file(path) as handle:
        head = handle.read(4096)
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    stripped = text.lstrip(" \t\r\n")
    if stripped.startswith("["):
        return "scryfall"
    if stripped.startswith("{"):
        return "mtgjson"
    if not stripped:
        raise DeckquestError(_("{path} is empty", path=path), Span(str(path)), _("download the card data file again"),
                             code=NOT_A_CARD_FILE)
    skipped = text[: len(text) - len(stripped)]
    line = skipped.count("\n") + 1
    col = len(skipped) - (skipped.rfind("\n") + 1) + 1
    raise DeckquestError(
        _("not a card data file: expected a Scryfall bulk file (`[`) or MTGJSON AtomicCards.json (`{`)"),
        Span(str(path), line, col, line, col + 1),
        source_line=text.split("\n")[line - 1][:200],
        code=NOT_A_CARD_FILE,
    )


def open_card_file(path: Path) -> BinaryIO:
    """Open a card data file for reading bytes; a missing or unreadable one is a user error.

    Only a regular file is opened (`deckquest.files.open_regular`): a FIFO would block and a
    device never ends."""
    try:
        return open_regular(path)
    except OSError as error:
        raise DeckquestError(_("cannot read {path}: {strerror}", path=path, strerror=error.strerror), Span(str(path)),
                             code=UNREADABLE_CARD_FILE) from None


def read_entries(
    path: Path,
    file_format: str = "auto",
    on_progress: Callable[[int], None] | None = None,
) -> Iterator[Entry | Skipped]:
    """Every element of a card data file as an Entry or a Skipped, streaming.

    `file_format` is "scryfall", "mtgjson" or "auto" (by the file's first bytes).
    """
    from deckquest.cards import mtgjson, scryfall
    from deckquest.cards.jsonstream import JsonStream

    if file_format == "auto":
        file_format = detect_format(path)
    readers = {"scryfall": scryfall.entries, "mtgjson": mtgjson.entries}
    if file_format not in readers:
        raise DeckquestError(_("unknown card data format {file_format!r}", file_format=file_format), hint=_("use one of: {names}", names=', '.join(FORMATS)),
                             code=UNKNOWN_FORMAT)
    with open_card_file(path) as handle:
        yield from readers[file_format](JsonStream(handle, path, on_progress=on_progress))
