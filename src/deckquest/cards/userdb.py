"""The user's card database: cards imported from a Scryfall or MTGJSON file.

Each source of card data has its own SQLite file in `deckquest_home()`:
`cards-scryfall.sqlite` and `cards-mtgjson.sqlite`. Imports add to what is there: importing
an MTGJSON file keeps the Scryfall cards, and a re-import of the same source replaces that
source's cards only (so a newer bulk file leaves no stale cards behind), saying what it
replaced. Lookups search every import, the latest first: where two imports know a card, the
latest one's values win, and a Japanese name either knows finds the card and stays on it.
A database written before imports were kept per source (`cards.sqlite`) is read as the
import of its format, and replaced by the next import of that format.

The imported cards are searched before the built-in ones (so an imported card overrides a
built-in one of the same name). An import writes a temporary file beside its source's file
and renames it over the old one only when everything succeeded, so a bad file, a crash or
Ctrl-C leaves the previous database exactly as it was.

A process killed outright (kill -9, a power cut) cannot remove its temporary file, which
may hold hundreds of megabytes. Each temporary file is named after the importing process
(`.cards-PID-XXXX.sqlite.tmp`) and held under an exclusive `flock` while it is written, so
the next import, and every open of the database, removes the ones whose process is gone
and whose lock is free: never one a running import is writing.

Printings are merged here, because only the database remembers what came
before: the first printing of a card (by Scryfall oracle id) is kept, later ones
are counted as duplicates, and a Japanese printing's name is attached to the card
with the same oracle id whichever comes first in the file.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from deckquest.i18n import _
from deckquest.cards.database import CardDatabase, deckquest_home, normalize_name
from deckquest.cards.importers import (
    DUPLICATE_PRINTING,
    FORMAT_TITLES,
    NON_ENGLISH_PRINTING,
    SAME_NAME,
    TOKEN_NAMED_LIKE_CARD,
    DATABASE_NOT_WRITTEN,
    DATABASE_UNREADABLE,
    FORMATS,
    NO_CARDS,
    Entry,
    Skipped,
    detect_format,
    read_entries,
)
from deckquest.cards.model import COLOR_NAMES, Card
from deckquest.errors import DeckquestError, Span

LEGACY_DATABASE_FILE = "cards.sqlite"
"""The one database of every import before imports were kept per source (read as its format's)."""
SCHEMA_VERSION = "1"
TEMPORARY_PREFIX, TEMPORARY_SUFFIX = ".cards-", ".sqlite.tmp"
_TEMPORARY_PID = re.compile(r"\.cards-(\d+)-")
LEGACY_TEMPORARY_AGE = 300
"""Seconds unchanged after which a temporary file without a process id in its name (made by
deckquest before it named them) is stale: an import writes its file continuously."""

# Which card a name finds when several share it: lower rank wins.
RANK_NAME, RANK_FRONT_FACE, RANK_NAME_JA, RANK_FRONT_FACE_JA, RANK_BACK_FACE = 0, 1, 2, 3, 4
TOKEN_RANK_PENALTY = 5  # a card's name beats a token's of the same spelling

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE cards (
    id INTEGER PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    identity TEXT NOT NULL,
    is_token INTEGER NOT NULL,
    data TEXT NOT NULL,
    name_ja TEXT
);
CREATE INDEX cards_identity ON cards (identity);
CREATE TABLE names (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    card_id INTEGER NOT NULL,
    rank INTEGER NOT NULL
);
CREATE TEMP TABLE japanese (identity TEXT PRIMARY KEY, name_ja TEXT NOT NULL, front_name_ja TEXT);
"""


def database_file(file_format: str) -> str:
    """The file of one source's imported cards ("cards-scryfall.sqlite")."""
    return f"cards-{file_format}.sqlite"


def database_paths(home: Path) -> list[Path]:
    """Where imported cards may be: one file per source, and the legacy file."""
    return [home / database_file(name) for name in FORMATS] + [home / LEGACY_DATABASE_FILE]


class UserDatabase:
    """The cards of one import (one source), read from SQLite on demand (a CardSource)."""

    def __init__(self, path: Path, connection: sqlite3.Connection):
        self.path = path
        self._connection = connection

    @classmethod
    def open(cls, path: Path) -> "UserDatabase":
        """The database in `path` (which exists); DQ8009 when it is not one deckquest wrote."""
        try:
            connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            version = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError:
            version = None
        if version != (SCHEMA_VERSION,):
            raise DeckquestError(
                _("{path} is not a card database this deckquest can read", path=path),
                Span(str(path)),
                _("import the card data again: deckquest cards import FILE"),
                code=DATABASE_UNREADABLE,
            )
        return cls(path, connection)

    def get(self, name: str) -> Card | None:
        """The card an English, front-face or Japanese name finds (case-insensitive)."""
        row = self.row(name)
        return None if row is None else _card_from_row(row[0], row[1])

    def row(self, name: str) -> tuple[str, str | None, str] | None:
        """The stored card a name finds: its data, Japanese name and English name key."""
        return self._connection.execute(
            "SELECT cards.data, cards.name_ja, cards.name_key FROM names JOIN cards ON cards.id = names.card_id "
            "WHERE names.key = ?",
            (normalize_name(name),),
        ).fetchone()

    def card_row(self, name_key: str) -> tuple[str, str | None] | None:
        """The stored card of an English name key (`row`'s third value): data and Japanese name."""
        return self._connection.execute("SELECT data, name_ja FROM cards WHERE name_key = ?", (name_key,)).fetchone()

    def name_keys(self) -> set[str]:
        return {key for (key,) in self._connection.execute("SELECT name_key FROM cards")}

    def names(self) -> Iterable[str]:
        return [name for (name,) in self._connection.execute("SELECT name FROM names")]

    def __len__(self) -> int:
        return self._connection.execute("SELECT COUNT(*) FROM cards").fetchone()[0]

    def meta(self, key: str) -> str | None:
        """What the import recorded: "source" (the file), "format" or "sequence" (the how-manieth
        import it was, for the order of imports; none in a legacy database)."""
        row = self._connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @property
    def sequence(self) -> int:
        value = self.meta("sequence")
        return int(value) if value and value.isdigit() else 0

    def close(self) -> None:
        self._connection.close()


class UserCards:
    """Every import's cards (a CardSource): the latest import first.

    A name is looked up in each import in turn; the card it finds is then taken from the
    latest import that knows that card (by English name), with the Japanese name of the
    first import that has one, so importing MTGJSON after Scryfall keeps "稲妻" on
    Lightning Bolt.
    """

    def __init__(self, databases: list[UserDatabase]):
        self.databases = sorted(databases, key=lambda database: -database.sequence)

    @classmethod
    def open_existing(cls, home: Path) -> "UserCards | None":
        """The imports under `home`, or None when no import has been done."""
        home = Path(home)
        remove_stale_temporaries(home)
        databases = [UserDatabase.open(path) for path in database_paths(home) if path.is_file()]
        return cls(databases) if databases else None

    def find(self, name: str) -> tuple[Card, UserDatabase] | None:
        """The card a name finds and the import whose values it has."""
        for database in self.databases:
            found = database.row(name)
            if found is not None:
                break
        else:
            return None
        if len(self.databases) == 1:
            return _card_from_row(found[0], found[1]), database
        rows = [(each, each.card_row(found[2])) for each in self.databases]
        known = [(each, row) for each, row in rows if row is not None]
        latest, (data, _) = known[0]
        name_ja = next((row[1] for _, row in known if row[1]), None)
        return _card_from_row(data, name_ja), latest

    def get(self, name: str) -> Card | None:
        found = self.find(name)
        return None if found is None else found[0]

    def names(self) -> Iterable[str]:
        return [name for database in self.databases for name in database.names()]

    def __len__(self) -> int:
        """The number of different cards (by English name) of every import."""
        return len(set().union(*(database.name_keys() for database in self.databases)))

    def close(self) -> None:
        for database in self.databases:
            database.close()


@dataclass(frozen=True)
class PreviousImport:
    """An import already in the database: its format, file and number of cards."""

    file_format: str
    source: str
    cards: int

    def describe(self) -> str:
        if not self.file_format:
            return f"the unreadable card database {self.source}"
        cards = "card" if self.cards == 1 else "cards"
        return f"{self.cards} {cards} of the {FORMAT_TITLES.get(self.file_format, self.file_format)} import of {self.source}"


@dataclass
class ImportReport:
    """What an import did: how many cards it stored, why it skipped the rest, which import
    of the same source it replaced and which imports of other sources it kept."""

    source: Path
    file_format: str
    database: Path
    imported: int = 0
    skipped: Counter = field(default_factory=Counter)
    replaced: tuple[PreviousImport, ...] = ()
    kept: tuple[PreviousImport, ...] = ()

    def summary(self) -> str:
        title = FORMAT_TITLES.get(self.file_format, self.file_format)
        cards = "card" if self.imported == 1 else "cards"
        lines = [f"imported {self.imported} {cards} from {self.source} ({title}) into {self.database}"]
        lines += [f"replaced {previous.describe()}" for previous in self.replaced]
        lines += [f"kept {previous.describe()} (where both know a card, this import's values win)"
                  for previous in self.kept]
        total = sum(self.skipped.values())
        if total:
            lines.append(f"skipped {total}:")
            width = len(str(max(self.skipped.values())))
            for reason, count in sorted(self.skipped.items(), key=lambda item: (-item[1], item[0])):
                lines.append(f"  {count:>{width}} {reason}")
        return "\n".join(lines)


def import_file(
    source: Path,
    home: Path | None = None,
    file_format: str = "auto",
    on_progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Import a card data file into the user database under `home`, atomically: it replaces
    the previous import of the same format (source) and keeps the others.

    `home` defaults to deckquest_home(). On any failure (a user error, an I/O
    error, KeyboardInterrupt) the previous database is untouched and the
    temporary file is removed.
    """
    source = Path(source)
    home = Path(home) if home is not None else deckquest_home()
    if file_format == "auto":
        file_format = detect_format(source)
    target = home / database_file(file_format)
    try:
        home.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(home)
        handle, temporary = tempfile.mkstemp(prefix=f"{TEMPORARY_PREFIX}{os.getpid()}-", suffix=TEMPORARY_SUFFIX,
                                             dir=home)
    except OSError as error:
        raise DeckquestError(_("cannot write the card database in {home}: {strerror}", home=home, strerror=error.strerror), Span(str(home)),
                             code=DATABASE_NOT_WRITTEN) from None
    report = ImportReport(source, file_format, target)
    databases, unreadable = _open_previous(home)
    sequence = 1 + max((database.sequence for database in databases), default=0)
    try:
        _lock(handle, blocking=True)
        _write(Path(temporary), read_entries(source, file_format, on_progress), report, sequence)
        if report.imported == 0:
            raise DeckquestError(
                _("no cards found in {source}; the card database was not changed", source=source),
                Span(str(source)),
                _("import a Scryfall bulk file (e.g. oracle-cards) or MTGJSON AtomicCards.json"),
                code=NO_CARDS,
            )
        report.replaced, report.kept = _previous_imports(databases, unreadable, file_format)
        replaced_legacy = [database.path for database in databases
                           if database.path.name == LEGACY_DATABASE_FILE and database.meta("format") == file_format]
        for database in databases:
            database.close()
        os.replace(temporary, target)
        for path in replaced_legacy + [path for path in unreadable if path.name == LEGACY_DATABASE_FILE]:
            path.unlink()
    except (OSError, sqlite3.Error) as error:
        Path(temporary).unlink(missing_ok=True)
        raise DeckquestError(_("the import failed and the card database was not changed: {error}", error=error), Span(str(source)),
                             code=DATABASE_NOT_WRITTEN) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    finally:
        os.close(handle)  # releases the lock
        for database in databases:
            database.close()
    return report


def _open_previous(home: Path) -> tuple[list[UserDatabase], list[Path]]:
    """The imports already under `home`, and the database files there deckquest cannot read
    (an import replaces one of its own format, and the legacy file, whatever it held)."""
    databases, unreadable = [], []
    for path in database_paths(home):
        if not path.is_file():
            continue
        try:
            databases.append(UserDatabase.open(path))
        except DeckquestError:
            unreadable.append(path)
    return databases, unreadable


def _previous_imports(databases: list[UserDatabase], unreadable: list[Path], file_format: str
                      ) -> tuple[tuple[PreviousImport, ...], tuple[PreviousImport, ...]]:
    """The imports an import of `file_format` replaces (its own format's, and unreadable files
    it removes) and keeps (the other formats')."""
    replaced, kept = [], []
    for database in databases:
        previous = PreviousImport(database.meta("format") or "", database.meta("source") or "?", len(database))
        (replaced if previous.file_format == file_format else kept).append(previous)
    replaced += [PreviousImport("", str(path), 0) for path in unreadable
                 if path.name in (LEGACY_DATABASE_FILE, database_file(file_format))]
    return tuple(replaced), tuple(kept)


def remove_stale_temporaries(home: Path) -> list[Path]:
    """Remove the temporary files of imports that were killed; the paths removed.

    A file is stale when the process its name gives is gone (a process id may be reused,
    which only keeps a stale file longer) and nobody holds its lock. Best effort: a file
    that cannot be examined or removed is left for the next time.
    """
    removed: list[Path] = []
    try:
        candidates = sorted(home.glob(f"{TEMPORARY_PREFIX}*{TEMPORARY_SUFFIX}"))
    except OSError:
        return removed
    for path in candidates:
        match = _TEMPORARY_PID.match(path.name)
        try:
            if match and _process_alive(int(match[1])):
                continue
            if not match and time.time() - path.lstat().st_mtime < LEGACY_TEMPORARY_AGE:
                continue
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except (OSError, ValueError):
            continue
        try:
            if _lock(descriptor, blocking=False):
                path.unlink()
                removed.append(path)
        except OSError:
            pass
        finally:
            os.close(descriptor)
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process, or not a pid we can ask about: keep the file
    return True


def _lock(descriptor: int, *, blocking: bool) -> bool:
    """Take the exclusive flock of an open file; False when another process holds it."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): the process id in the name is the only guard
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def _write(path: Path, entries: Iterator[Entry | Skipped], report: ImportReport, sequence: int = 1) -> None:
    """Fill a new database file from the entries, counting into `report`, then flush it to disk."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA journal_mode = OFF")
        connection.execute("PRAGMA synchronous = OFF")
        connection.executescript(_SCHEMA)
        for item in entries:
            reason = item.reason if isinstance(item, Skipped) else _add(connection, item)
            if reason is None:
                report.imported += 1
            else:
                report.skipped[reason] += 1
        _attach_japanese_names(connection)
        connection.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [("schema", SCHEMA_VERSION), ("source", str(report.source.resolve())), ("format", report.file_format),
             ("sequence", str(sequence))],
        )
        connection.commit()
    finally:
        connection.close()
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _add(connection: sqlite3.Connection, entry: Entry) -> str | None:
    """Store one entry; None when it is a new card, else why it was not stored."""
    card = entry.card
    if entry.name_ja:
        connection.execute(
            "INSERT OR IGNORE INTO japanese (identity, name_ja, front_name_ja) VALUES (?, ?, ?)",
            (entry.identity, entry.name_ja, entry.front_name_ja),
        )
    row = connection.execute(
        "SELECT id, identity, is_token FROM cards WHERE name_key = ?", (normalize_name(card.name),)
    ).fetchone()
    if row is None:
        card_id = connection.execute(
            "INSERT INTO cards (name_key, identity, is_token, data) VALUES (?, ?, ?, ?)",
            (normalize_name(card.name), entry.identity, card.is_token, _card_data(card)),
        ).lastrowid
        _add_names(connection, card_id, entry)
        return None
    card_id, identity, is_token = row
    if identity == entry.identity:
        return DUPLICATE_PRINTING if entry.lang == "en" else NON_ENGLISH_PRINTING
    if is_token and not card.is_token:
        connection.execute(
            "UPDATE cards SET identity = ?, is_token = 0, data = ? WHERE id = ?",
            (entry.identity, _card_data(card), card_id),
        )
        connection.execute("DELETE FROM names WHERE card_id = ?", (card_id,))
        _add_names(connection, card_id, entry)
        return TOKEN_NAMED_LIKE_CARD
    return SAME_NAME


def _add_names(connection: sqlite3.Connection, card_id: int, entry: Entry) -> None:
    penalty = TOKEN_RANK_PENALTY if entry.card.is_token else 0
    _add_name(connection, card_id, entry.card.name, RANK_NAME + penalty)
    if entry.front_name:
        _add_name(connection, card_id, entry.front_name, RANK_FRONT_FACE + penalty)
    for back_name in entry.back_names:
        _add_name(connection, card_id, back_name, RANK_BACK_FACE + penalty)


def _add_name(connection: sqlite3.Connection, card_id: int, name: str, rank: int) -> None:
    """Point `name` at the card unless a better-ranked card already has it."""
    connection.execute(
        "INSERT INTO names (key, name, card_id, rank) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (key) DO UPDATE SET name = excluded.name, card_id = excluded.card_id, rank = excluded.rank "
        "WHERE excluded.rank < names.rank",
        (normalize_name(name), name, card_id, rank),
    )


def _attach_japanese_names(connection: sqlite3.Connection) -> None:
    """Give each card the Japanese names its printings carried, in whatever order they came.

    Done in SQL after all printings are read, so memory does not grow with the cards.
    """
    connection.create_function("normalize_name", 1, normalize_name, deterministic=True)
    connection.execute(
        "UPDATE cards SET name_ja = (SELECT name_ja FROM japanese WHERE japanese.identity = cards.identity) "
        "WHERE identity IN (SELECT identity FROM japanese)"
    )
    for column, rank in (("name_ja", RANK_NAME_JA), ("front_name_ja", RANK_FRONT_FACE_JA)):
        connection.execute(
            f"INSERT INTO names (key, name, card_id, rank) "
            f"SELECT normalize_name(japanese.{column}), japanese.{column}, cards.id, ? + ? * cards.is_token "
            f"FROM cards JOIN japanese ON japanese.identity = cards.identity WHERE japanese.{column} IS NOT NULL "
            "ON CONFLICT (key) DO UPDATE SET name = excluded.name, card_id = excluded.card_id, rank = excluded.rank "
            "WHERE excluded.rank < names.rank",
            (rank, TOKEN_RANK_PENALTY),
        )


def _card_data(card: Card) -> str:
    """A card's printed values as JSON (the Japanese name is stored beside it)."""
    return json.dumps(
        {
            "name": card.name,
            "cost": str(card.mana_cost) if card.mana_cost else None,
            "type_line": str(card.type_line),
            "colors": card.colors,
            "color_identity": card.color_identity,
            "power": card.power,
            "toughness": card.toughness,
            "loyalty": card.loyalty,
            "keywords": card.keywords,
            "oracle_text": card.oracle_text,
            "is_token": card.is_token,
            "mana_value": card.mana_value,
            "face_costs": card.face_costs,
        },
        ensure_ascii=False,
    )


def _card_from_row(data: str, name_ja: str | None) -> Card:
    values = json.loads(data)
    return Card.build(values.pop("name"), values.pop("cost"), values.pop("type_line"), name_ja=name_ja, **values)


def find_with_origin(database: CardDatabase, name: str) -> tuple[Card, str] | None:
    """The card a name finds and where it came from: "imported from FILE" or "built-in"."""
    for source in database.sources:
        if isinstance(source, UserCards):
            found = source.find(name)
            if found is not None:
                return found[0], f"imported from {found[1].meta('source')}"
            continue
        card = source.get(name)
        if card is not None:
            return card, "built-in"
    return None


def card_sheet(card: Card, origin: str) -> str:
    """A card as `deckquest cards show` prints it: every field, one per line."""
    rows = [
        ("name", card.name),
        ("Japanese name", card.name_ja or "-"),
        ("mana cost", _mana_cost_words(card)),
        ("mana value", str(card.mana_value)),
        ("colours", _colour_words(card.colors)),
        ("colour identity", _colour_words(card.color_identity)),
        ("type line", ("Token " if card.is_token else "") + str(card.type_line)),
    ]
    if card.power is not None or card.toughness is not None:
        rows.append(("power/toughness", f"{card.power}/{card.toughness}"))
    if card.loyalty is not None:
        rows.append(("loyalty", card.loyalty))
    rows.append(("keywords", ", ".join(card.keywords) or "-"))
    rows.append(("source", origin))
    width = max(len(label) for label, _ in rows)
    lines = [f"{label + ':':<{width + 1}} {value}" for label, value in rows]
    lines.append("oracle text:")
    lines += [f"  {line}" for line in (card.oracle_text or "-").splitlines()]
    return "\n".join(lines)


def _mana_cost_words(card: Card) -> str:
    """The printed cost: every face's of a split card ("{1}{R} // {5}{R}"), "-" for none."""
    if card.face_costs:
        return " // ".join(cost or "-" for cost in card.face_costs)
    return str(card.mana_cost) if card.mana_cost else "-"


def _colour_words(colors: tuple[str, ...]) -> str:
    return ", ".join(COLOR_NAMES[color] for color in colors) if colors else "colourless"
