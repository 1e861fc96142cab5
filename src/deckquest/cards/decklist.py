"""Deck lists: the MTGO and Arena text formats, read into plain data.

A deck list is the player character (T-1.1), so it is read strictly: every line
is a card line, a section header, a comment or blank. Anything else is an error
with the span of the exact token, and every bad line of a file is reported at
once (one `CompileError`), so a player fixes a pasted list in one go.

Accepted, mixed freely in one file (docs/decklists.md has examples):

- MTGO: `4 Lightning Bolt`, `4x Lightning Bolt`, `SB: 2 Duress`, and a blank
  line after the main deck starting the sideboard.
- Arena: `Deck`, `Sideboard`, `Commander`, `Companion` headers, an `About`
  block with `Name ...`, and `(SET) NUMBER` after a name: `4 Lightning Bolt (M10) 146`.
- `#` and `//` comment lines, English or Japanese names in any case, split
  cards as `Boom // Bust` or by their front face `Boom`.

A deck list may come from a stranger (inside a pack, beside a party file), so reading
one is bounded: the file's size (refused before it is read whole), its number of lines,
each line's length, the errors reported (then one "N more" error) and the "did you mean"
searches (the first few unknown names only). A file in which no line looks like a deck
list's is refused as a whole, without quoting its lines: it is not a deck list, and its
contents are nobody's business (docs/decklists.md, "Limits").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from deckquest.i18n import _
from deckquest.cards.database import CardDatabase, default_database, normalize_name
from deckquest.cards.model import Card
from deckquest.errors import CompileError, DeckquestError, Diagnostic, Span, did_you_mean, file_span
from deckquest.files import TooLarge, read_regular

MAX_COUNT = 250
"""No deck holds more copies of one card (a 250-card horde deck is already huge, T-6.13)."""

UNKNOWN_CARD = "DQ1001"
COUNT_NOT_A_NUMBER = "DQ1002"
COUNT_OUT_OF_RANGE = "DQ1003"
MISSING_COUNT = "DQ1004"
NOT_A_CARD_LINE = "DQ1005"
UNKNOWN_SECTION = "DQ1006"
EMPTY_DECK = "DQ1007"
UNREADABLE_FILE = "DQ1008"
FILE_TOO_LARGE = "DQ1009"
LINE_TOO_LONG = "DQ1010"
TOO_MANY_LINES = "DQ1011"
TOO_MANY_ERRORS = "DQ1012"
NOT_A_DECK_LIST = "DQ1013"

MAX_DECK_BYTES = 256 * 1024
"""A deck list's largest size: a 250-card list with set codes holds under 10 KB."""
MAX_LINES = 5_000
MAX_LINE_CHARS = 300
"""The longest card name has 141 characters; count, set code and export marks add a few dozen."""
MAX_REPORTED_ERRORS = 50
"""Errors reported in full; the rest are counted in one last DQ1012 error."""
MAX_SUGGESTIONS = 20
"""Unknown names that get a "did you mean" search; later ones get a plain hint."""
_EXCERPT_CHARS = 80

SECTIONS = {
    "deck": "main", "main": "main", "main deck": "main", "maindeck": "main", "mainboard": "main",
    "sideboard": "sideboard", "commander": "commander", "commanders": "commander",
    "companion": "companion", "about": "about",
    # The Japanese Arena client's headers.
    "デッキ": "main", "メインデッキ": "main", "サイドボード": "sideboard", "統率者": "commander",
    "相棒": "companion",
}
SECTION_TITLES = ("Deck", "Sideboard", "Commander", "Companion", "About")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BYTE_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_COMMENT = ("#", "//")
_SIDEBOARD_PREFIX = re.compile(r"SB:\s*", re.IGNORECASE)
# A header is one or two words, optionally followed by a card count `(15)` and a colon.
_HEADER = re.compile(r"(?P<title>[^\W\d_]+(?: [^\W\d_]+)?)\s*(?P<tally>\(\d+\))?\s*(?P<colon>:?)$")
_DECK_NAME = re.compile(r"Name\s+(?P<name>.+)$", re.IGNORECASE)
_COUNT_AND_REST = re.compile(r"(?P<count>\S+)(?:\s+(?P<rest>.*))?$")
_COUNT = re.compile(r"(?P<sign>[+-]?)(?P<digits>\d+)[xX]?$")
# What deck builders append after the printing: Moxfield's foil/etched marks `*F*` `*E*`,
# Archidekt's `[Category]` and `^Tag^`. They say nothing about the card, so they are dropped.
_EXPORT_MARKS = re.compile(r"(?:\s+(?:\*[A-Za-z]{1,2}\*|\[[^\[\]]*\]|\^[^^]*\^))+$")
_SET_SUFFIX = re.compile(r"(?P<name>.*?)\s+\((?P<set>[0-9A-Za-z]{2,8})\)(?:\s+(?P<number>\S+))?$")
_SPLIT = re.compile(r"\s*/{2,3}\s*")


@dataclass(frozen=True)
class DeckEntry:
    """One card line: `count` copies of `card`, as written at `span`."""

    count: int
    card: Card
    name_as_written: str
    span: Span
    set_code: str | None = None
    collector_number: str | None = None


@dataclass
class Deck:
    """A parsed deck list, section by section, in the order the lines were written.

    The commander is one of the deck's cards: the whole deck is the PC (T-1.1)
    and MTG-TRPG has no command zone (T-2.1 lists the zones), so the commander
    is shuffled into the library with the rest, can be revealed in a check, and
    counts for the 100 cards that make a Commander deck (T-4.7: 5 critical cards).
    A companion stays outside the deck, as in MTG.
    """

    path: str
    main: list[DeckEntry] = field(default_factory=list)
    sideboard: list[DeckEntry] = field(default_factory=list)
    commander: list[DeckEntry] = field(default_factory=list)
    companion: list[DeckEntry] = field(default_factory=list)
    name: str | None = None

    def main_cards(self) -> list[Card]:
        """One element per physical copy in the library: the commander first, then the main deck."""
        return [entry.card for entry in self._library_entries() for _ in range(entry.count)]

    @property
    def size(self) -> int:
        """Cards in the main deck, the commander included."""
        return sum(entry.count for entry in self._library_entries())

    @property
    def is_commander(self) -> bool:
        """A Commander deck (T-4.7): it names a commander, or it holds exactly 100 cards."""
        return bool(self.commander) or self.size == 100

    def count_of(self, name: str) -> int:
        """Copies of a card in the main deck (commander included), by English, Japanese or front-face name."""
        key = normalize_name(name)
        return sum(entry.count for entry in self._library_entries() if key in _keys_of(entry.card))

    def _library_entries(self) -> list[DeckEntry]:
        return self.commander + self.main


#: Deck construction of the constructed formats (MTG CR 100.2a, 903.5): at least 60 cards and
#: at most 4 copies of a card; a Commander deck of exactly 100 cards, one copy of each.
CONSTRUCTED_MINIMUM, CONSTRUCTED_COPIES, SIDEBOARD_MAXIMUM = 60, 4, 15
COMMANDER_SIZE = 100
SHOWN_PROBLEMS = 3  # a warning names the first three, then counts the rest
_ANY_NUMBER = re.compile(r"a deck can have (?:any number of|up to (\w+)) cards named", re.I)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def not_constructed(deck: Deck) -> str | None:
    """Why the deck is legal in no constructed format (T-1.1: a PC is a deck of any
    constructed format), or None when it is legal in one as far as deck construction goes:
    60 or more cards with at most 4 copies of a card (15 sideboard cards at most), or a
    100-card Commander deck of one copy of each. Basic lands, and cards that say "a deck can
    have any number of cards named …", are exempt from the copy limits. Ban lists and sets are
    not checked (the card database does not know them)."""
    copies: dict[str, int] = {}
    cards: dict[str, Card] = {}
    for entry in deck.commander + deck.main + deck.sideboard:
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
        cards[entry.card.name] = entry.card
    if deck.is_commander:
        found = [f"{deck.size} cards (a Commander deck has exactly 100)"] if deck.size != COMMANDER_SIZE else []
        limit = 1
    else:
        found = [f"{deck.size} cards (at least 60)"] if deck.size < CONSTRUCTED_MINIMUM else []
        limit = CONSTRUCTED_COPIES
        sideboard = sum(entry.count for entry in deck.sideboard)
        if sideboard > SIDEBOARD_MAXIMUM:
            found.append(f"a {sideboard}-card sideboard (at most 15)")
    for name, count in copies.items():
        most = _copy_limit(cards[name], limit)
        if most is not None and count > most:
            found.append(f"{count} copies of {name} (at most {most})")
    if len(found) > SHOWN_PROBLEMS:
        found[SHOWN_PROBLEMS:] = [f"{len(found) - SHOWN_PROBLEMS} more"]
    return ", ".join(found) or None


def _copy_limit(card: Card, limit: int) -> int | None:
    """The copies of the card a deck may hold: the format's `limit`, none for basic lands and
    for a card whose text allows any number (None), or the number its text names."""
    if "Basic" in card.supertypes and card.is_land:
        return None
    allowed = _ANY_NUMBER.search(card.oracle_text or "")
    if allowed is None:
        return limit
    return None if allowed.group(1) is None else _NUMBER_WORDS.get(allowed.group(1).lower(), limit)


def _keys_of(card: Card) -> set[str]:
    names = {card.name, card.name.split("//")[0]}
    if card.name_ja:
        names.add(card.name_ja)
    return {normalize_name(name) for name in names}


def load_deck(path: str | Path, db: CardDatabase | None = None) -> Deck:
    """Read a deck list file; `db` defaults to the user's database over the built-in one."""
    text = _read_text(path)
    return parse_deck(text, str(path), db if db is not None else default_database())


def parse_deck(text: str, path: str, db: CardDatabase) -> Deck:
    """Parse deck-list text; `path` names the source in error messages.

    Raises CompileError carrying a diagnostic for every bad line, or a
    DeckquestError when the list is well formed but has no main-deck cards.
    """
    return _DeckParser(text, path, db).parse()


@dataclass
class _Name:
    """The card-name part of a line, split from an optional `(SET) NUMBER`."""

    text: str
    start: int
    card: Card | None
    set_code: str | None = None
    collector_number: str | None = None


class _DeckParser:
    """Reads a list line by line; the section changes at headers and (MTGO) at a blank line."""

    def __init__(self, text: str, path: str, db: CardDatabase):
        self.path = path
        self.db = db
        self.lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
        self.deck = Deck(path)
        self.diagnostics: list[Diagnostic] = []
        self.section = "main"
        self.main_lines = 0
        # Without a Sideboard header or `SB:` lines, a blank line after the main deck starts it (MTGO).
        self.blank_starts_sideboard = not any(self._marks_sideboard(line) for line in self.lines)
        self._front_faces: dict[str, str] | None = None
        self.unreported = 0  # errors past MAX_REPORTED_ERRORS
        self.suggestions = 0
        self.deck_like = 0  # lines that look like a deck list's: a count, a known card, a header

    def parse(self) -> Deck:
        count = len(self.lines) - (self.lines[-1] == "")  # the text after the last line break is no line
        if count > MAX_LINES:
            raise DeckquestError(_("deck list has {count:,} lines; at most {MAX_LINES:,} are read", count=count, MAX_LINES=MAX_LINES),
                                 file_span(self.path), _("is this the right file? A deck list has a line per card"),
                                 code=TOO_MANY_LINES)
        for number, line in enumerate(self.lines, start=1):
            self._line(number, line)
        if self.diagnostics and not self.deck_like:
            raise self._not_a_deck_list()
        if self.unreported:
            self.diagnostics.append(Diagnostic(
                "error", f"{self.unreported:,} more errors in this deck list are not shown",
                file_span(self.path), TOO_MANY_ERRORS, f"fix the first {MAX_REPORTED_ERRORS} and check again"))
        if self.diagnostics:
            raise CompileError(self.diagnostics)
        if not (self.deck.main or self.deck.commander):
            raise self._empty_deck()
        return self.deck

    def _line(self, number: int, line: str) -> None:
        if len(line) > MAX_LINE_CHARS:
            self._error(number, line, 0, MAX_LINE_CHARS, LINE_TOO_LONG,
                        f"line of {len(line):,} characters; a deck list's lines have at most {MAX_LINE_CHARS}",
                        "a card line is `<count> <card name>`; is this the right file?")
            return
        end = len(line.rstrip())
        start = len(line) - len(line.lstrip())
        body = line[start:end]
        if not body:
            self._blank()
            return
        if body.startswith(_COMMENT):
            return
        if self.section == "about":
            deck_name = _DECK_NAME.match(body)
            if deck_name:
                self.deck.name = deck_name["name"]
                return
            self.section = "main"
        prefix = _SIDEBOARD_PREFIX.match(body)
        if prefix and prefix.end() == len(body):
            self._error(number, line, start, end, NOT_A_CARD_LINE,
                        "expected a card after `SB:`", "a sideboard line is `SB: 2 Duress`")
            return
        if prefix:
            self.deck_like += 1
            self._card_line(number, line, start + prefix.end(), end, "sideboard", after_prefix=True)
            return
        header = _HEADER.match(body)
        if header and header["title"].casefold() in SECTIONS:
            self.section = SECTIONS[header["title"].casefold()]
            self.deck_like += 1
            return
        self._card_line(number, line, start, end, self.section, after_prefix=False)

    def _blank(self) -> None:
        if self.section in ("about", "commander", "companion"):
            self.section = "main"
        elif self.section == "main" and self.blank_starts_sideboard and self.main_lines:
            self.section = "sideboard"

    def _marks_sideboard(self, line: str) -> bool:
        body = line.strip()
        header = _HEADER.match(body)
        return bool(_SIDEBOARD_PREFIX.match(body)) or bool(
            header and SECTIONS.get(header["title"].casefold()) == "sideboard"
        )

    # Card lines

    def _card_line(
        self, number: int, line: str, start: int, end: int, section: str, after_prefix: bool
    ) -> None:
        """`COUNT NAME [(SET) [NUMBER]]`, where COUNT is `4` or `4x`."""
        if section == "main":
            self.main_lines += 1
        parts = _COUNT_AND_REST.match(line, start, end)
        count_token = parts["count"]
        if not _COUNT.match(count_token) and not count_token[0].isdecimal():
            self._line_without_count(number, line, start, end, allow_header=not after_prefix)
            return
        self.deck_like += 1
        count = self._count(number, line, parts.start("count"), count_token)
        if parts["rest"] is None:
            self._error(number, line, start, end, NOT_A_CARD_LINE,
                        f"expected a card name after the count `{count_token}`",
                        "a card line is `<count> <card name>`, e.g. `4 Lightning Bolt`")
            return
        name = self._name(line, parts.start("rest"), end)
        if name.card is None:
            self._unknown_card(number, line, name)
        elif count is not None:
            entry = DeckEntry(count, name.card, name.text, self._span(number, name.start, len(name.text)),
                              name.set_code, name.collector_number)
            getattr(self.deck, section).append(entry)

    def _count(self, number: int, line: str, start: int, token: str) -> int | None:
        """The count, or None after reporting why it is not one (0, negative, > MAX_COUNT, not a number)."""
        match = _COUNT.match(token)
        if match is None:
            self._error(number, line, start, start + len(token), COUNT_NOT_A_NUMBER,
                        f"count `{token}` is not a whole number", "write the count in digits, e.g. `4`")
            return None
        digits = match["digits"].lstrip("0") or "0"
        too_large = len(digits) > len(str(MAX_COUNT))  # never int() a 5000-digit string
        value = 0 if too_large else int(digits) * (-1 if match["sign"] == "-" else 1)
        if too_large or value > MAX_COUNT:
            self._error(number, line, start, start + len(token), COUNT_OUT_OF_RANGE,
                        f"count `{token}` is too large (at most {MAX_COUNT})",
                        "no deck holds that many copies of a card; check for a typo")
            return None
        if value < 1:
            self._error(number, line, start, start + len(token), COUNT_OUT_OF_RANGE,
                        f"count must be at least 1, not `{token}`", "delete the line to leave the card out")
            return None
        return value

    def _line_without_count(self, number: int, line: str, start: int, end: int, allow_header: bool) -> None:
        """Say what a line without a count most likely is: a card, a spelled-out count, a header, or junk."""
        name = self._name(line, start, end)
        if name.card is not None:
            self.deck_like += 1
            self._error(number, line, name.start, name.start + len(name.text), MISSING_COUNT,
                        f"missing count before `{name.text}`", f"write `1 {name.text}` for one copy")
            return
        parts = _COUNT_AND_REST.match(line, start, end)
        if parts["rest"]:
            after_word = self._name(line, parts.start("rest"), end)
            if after_word.card is not None:
                self.deck_like += 1
                self._error(number, line, start, parts.end("count"), COUNT_NOT_A_NUMBER,
                            f"count `{parts['count']}` is not a whole number",
                            f"write the count in digits, e.g. `4 {after_word.text}`")
                return
        header = _HEADER.match(line, start, end)
        if allow_header and header and (header["colon"] or header["tally"] or " " not in header["title"]):
            title = header["title"]
            hint = did_you_mean(title, SECTION_TITLES) or _("the sections are {names}", names=', '.join(SECTION_TITLES))
            self._error(number, line, start, start + len(title), UNKNOWN_SECTION,
                        f"unknown section header `{title}`", hint)
            return
        self._error(number, line, start, end, NOT_A_CARD_LINE, "not a card line",
                    "a card line is `<count> <card name>`, e.g. `4 Lightning Bolt`")

    def _name(self, line: str, start: int, end: int) -> _Name:
        """The card named by `line[start:end]`, split from a trailing `(SET) NUMBER` if there is one."""
        text = line[start:end]
        if self.db.get(text) is None:
            text = _EXPORT_MARKS.sub("", text)
        suffix = _SET_SUFFIX.match(text)
        if suffix is None or self.db.get(text) is not None:  # a name may itself end in parentheses
            return _Name(text, start, self._find(text))
        name = suffix["name"]
        return _Name(name, start, self._find(name), suffix["set"].upper(), suffix["number"])

    def _find(self, name: str) -> Card | None:
        """Look a name up as written, then as a split card (`Boom // Bust`, Arena's `///`, front face)."""
        card = self.db.get(name)
        if card is not None:
            return card
        if "//" in name:
            faces = _SPLIT.split(name)
            return self.db.get(" // ".join(faces)) or self.db.get(faces[0])
        full_name = self._face_index().get(normalize_name(name))
        return self.db.get(full_name) if full_name else None

    def _face_index(self) -> dict[str, str]:
        """Face name -> full name of a multi-faced card, for databases that key such cards by
        full name only: a front face's name first, then a back face's ("Insectile Aberration"
        finds "Delver of Secrets // Insectile Aberration")."""
        if self._front_faces is None:
            self._front_faces = {}
            faces = [(index, face, full_name) for source in self.db.sources for full_name in source.names()
                     if "//" in full_name for index, face in enumerate(full_name.split("//"))]
            for _, face, full_name in sorted(faces, key=lambda found: found[0]):  # stable: fronts first
                self._front_faces.setdefault(normalize_name(face), full_name)
        return self._front_faces

    # Errors

    def _unknown_card(self, number: int, line: str, name: _Name) -> None:
        suggestion = None
        if self.suggestions < MAX_SUGGESTIONS and len(self.diagnostics) < MAX_REPORTED_ERRORS:
            self.suggestions += 1
            suggestion = self.db.suggest(name.text)
        hint = (_("did you mean `{suggestion}`? If it is another card, import it with `deckquest cards import`", suggestion=suggestion)
                if suggestion
                else _("no card of that name in the card database; import it with `deckquest cards import`"))
        self._error(number, line, name.start, name.start + len(name.text), UNKNOWN_CARD,
                    f"unknown card `{name.text}`", hint)

    def _error(
        self, number: int, line: str, start: int, end: int, code: str, message: str, hint: str
    ) -> None:
        if len(self.diagnostics) >= MAX_REPORTED_ERRORS:
            self.unreported += 1
            return
        span = self._span(number, start, end - start)
        self.diagnostics.append(Diagnostic("error", message, span, code, hint, _excerpt(line)))

    def _span(self, number: int, start: int, length: int) -> Span:
        return Span(self.path, number, start + 1, number, start + 1 + length)

    def _not_a_deck_list(self) -> DeckquestError:
        """No line is a count, a known card or a header: the file is something else, left unquoted."""
        return DeckquestError(
            _("this file does not look like a deck list: no line is a card line (`4 Lightning Bolt`), a known card or a section header"), file_span(self.path),
            _("give the path of a deck list (MTGO or Arena text export); its lines are not shown"),
            code=NOT_A_DECK_LIST)

    def _empty_deck(self) -> DeckquestError:
        if self.deck.sideboard:
            hint = (_("every card is in the sideboard: in an MTGO list the first blank line after the main deck starts the sideboard"))
        else:
            hint = _("a card line is `<count> <card name>`, e.g. `4 Lightning Bolt`")
        return DeckquestError(_("deck list has no main-deck cards"), file_span(self.path), hint, code=EMPTY_DECK)


# Reading files


def _excerpt(line: str) -> str:
    """The line as a diagnostic quotes it: whole, or its start when it is too long to be a deck's."""
    return line if len(line) <= MAX_LINE_CHARS else line[:_EXCERPT_CHARS] + " …"


def _read_text(path: str | Path) -> str:
    """The file's text; a missing, unreadable, huge or non-UTF-8 file is a user error, not a traceback."""
    try:
        data = read_regular(path, MAX_DECK_BYTES)
    except FileNotFoundError:
        raise DeckquestError(_("deck list `{path}` does not exist", path=path), file_span(path), code=UNREADABLE_FILE) from None
    except IsADirectoryError:
        raise DeckquestError(_("deck list `{path}` is a directory, not a file", path=path), file_span(path),
                             code=UNREADABLE_FILE) from None
    except TooLarge:
        raise DeckquestError(_("deck list `{path}` is larger than {value} KiB", path=path, value=MAX_DECK_BYTES // 1024), file_span(path),
                             _("a deck list holds a few kilobytes; is this the right file?"), code=FILE_TOO_LARGE) from None
    except OSError as error:
        raise DeckquestError(_("cannot read deck list `{path}`: {strerror}", path=path, strerror=error.strerror), file_span(path),
                             code=UNREADABLE_FILE) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _not_text(path, data, error.start, f"byte 0x{data[error.start]:02x}")
    if "\x00" in text:
        raise _not_text(path, data, data.index(b"\x00"), "it contains a NUL byte")
    return text


def _not_text(path: str | Path, data: bytes, position: int, reason: str) -> DeckquestError:
    """An error pointing at the first byte that makes the file not UTF-8 text."""
    before = _BYTE_LINE_BREAK.split(data[:position])
    after = _BYTE_LINE_BREAK.split(data[position:], maxsplit=1)[0]
    prefix = before[-1].decode("utf-8-sig", errors="replace")
    source_line = (before[-1] + after).decode("utf-8-sig", errors="replace")
    span = Span(str(path), len(before), len(prefix) + 1, len(before), len(prefix) + 2)
    if len(source_line) > MAX_LINE_CHARS:  # not quoted: a binary file's "line" may be the whole file
        reason += f", line {span.line} column {span.col}"
        span, source_line = file_span(path), None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        hint = _("the file looks like UTF-16; save it as UTF-8")
    else:
        hint = _("save the file as UTF-8 (convert a Shift_JIS file with `iconv -f SHIFT_JIS -t UTF-8`)")
    return DeckquestError(_("deck list is not UTF-8 text ({reason})", reason=reason), span, hint,
                          code=UNREADABLE_FILE, source_line=source_line)


__all__ = ["Deck", "DeckEntry", "MAX_COUNT", "MAX_DECK_BYTES", "MAX_LINES", "MAX_LINE_CHARS", "load_deck",
           "parse_deck"]
