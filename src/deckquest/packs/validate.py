"""`deckquest pack validate`: everything a pack promises, checked before anyone uses it.

A folder is checked for: the manifest schema; the deckquest version it needs;
no links; every listed file present, and nothing unlisted in the folder;
files within size limits; every card file importing, every deck list
resolving (against the pack's own cards over the user's database) and every
scenario compiling. All problems found are reported together. An archive is
unpacked safely into a temporary folder first (see :mod:`deckquest.packs.archive`)
and then checked like a folder, with messages naming the archive.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from deckquest.i18n import _
from deckquest.version import __version__
from deckquest.errors import MAX_REPORTED_ERRORS, CompileError, DeckquestError, Diagnostic, Span
from deckquest.files import writing
from deckquest.packs.archive import ARCHIVE_SUFFIX, DEFAULT_LIMITS, Limits, unpack_archive
from deckquest.packs.manifest import FILE_SECTIONS, MANIFEST_NAME, Manifest, load_manifest
from deckquest.packs.paths import name_key
from deckquest.packs.store import UNWRITABLE
from deckquest.packs.versions import Version

_MAX_PROBLEMS = MAX_REPORTED_ERRORS  # once a report has this many, the rest of the pack is not checked

# Where an unlisted file most likely belongs, for the hint that tells the author how to fix it.
_SECTION_BY_SUFFIX = {".quest": "scenarios", ".txt": "decks", ".dek": "decks", ".json": "cards",
                      ".yaml": "parties", ".yml": "parties"}


@dataclass(frozen=True)
class ValidationReport:
    """A pack that passed every check: its manifest and what was checked."""

    manifest: Manifest
    root: Path
    files: tuple[str, ...]
    scenarios: int
    decks: int
    cards: int


def validate_pack(location: Path, limits: Limits = DEFAULT_LIMITS) -> ValidationReport:
    """Check a pack folder, its pack.yaml, or a `.dqpack` archive; raise on any problem.

    For an archive the returned report's `root` is a folder that no longer exists.
    """
    if location.is_file() and location.name != MANIFEST_NAME:
        with writing(tempfile.gettempdir(), UNWRITABLE):
            scratch = tempfile.TemporaryDirectory(prefix="deckquest-pack-", ignore_cleanup_errors=True)
        with scratch:
            folder = Path(scratch.name) / "pack"
            with writing(folder, UNWRITABLE):
                folder.mkdir()
            return validate_archive(location, folder, limits)
    folder = location.parent if location.name == MANIFEST_NAME else location
    return validate_folder(folder, limits)


def validate_archive(archive: Path, dest: Path, limits: Limits = DEFAULT_LIMITS) -> ValidationReport:
    """Unpack `archive` into the empty folder `dest` and check it as a folder.

    Messages name `archive!path` rather than the temporary folder.
    """
    if archive.suffix != ARCHIVE_SUFFIX:
        raise DeckquestError(_("{archive} is not a pack folder, pack.yaml or {ARCHIVE_SUFFIX} archive", archive=archive, ARCHIVE_SUFFIX=ARCHIVE_SUFFIX),
                             Span(str(archive)), code="DQ7000")
    with writing(dest, UNWRITABLE):
        unpack_archive(archive, dest, limits)
    return validate_unpacked(archive, dest, limits)


def validate_unpacked(archive: Path, dest: Path, limits: Limits = DEFAULT_LIMITS) -> ValidationReport:
    """Check `dest`, where `archive` was unpacked, naming `archive!path` in messages."""
    try:
        return validate_folder(dest, limits, display=f"{archive}!", skip_hidden=False)
    except DeckquestError as error:
        raise _renamed(error, dest, f"{archive}!") from None


def validate_folder(root: Path, limits: Limits = DEFAULT_LIMITS, display: str | None = None,
                    skip_hidden: bool = True) -> ValidationReport:
    """Check a pack folder; `display` prefixes file names in messages.

    `skip_hidden` ignores an author's dot-files (`.git`); an unpacked archive
    is checked with it off, since everything in an archive is shipped.
    """
    if not root.is_dir():
        raise DeckquestError(_("{root} is not a folder", root=root), Span(str(root)), code="DQ7000")
    prefix = display if display is not None else ""
    manifest = load_manifest(root, display=f"{prefix}{MANIFEST_NAME}" if display else None)
    problems = _version_problems(manifest)
    present, walk_problems = _walk(root, limits, skip_hidden)
    problems += walk_problems
    problems += _listing_problems(manifest, present)
    if not problems:
        problems += _budget_problems(manifest, present, limits)
    if problems:
        raise CompileError(problems)  # it shows the first hundred and counts the rest
    db = _pack_database(root, manifest, problems)
    found, stopped = _content_problems(root, manifest, db, limits)
    problems += found
    if problems:
        raise CompileError(problems, stopped=stopped)
    return ValidationReport(manifest, root, tuple(manifest.listed_files()), len(manifest.scenarios),
                            len(manifest.decks), len(manifest.cards))


def check_deckquest_version(manifest: Manifest) -> None:
    """Raise when this deckquest is outside the versions the pack says it needs."""
    problems = _version_problems(manifest)
    if problems:
        raise CompileError(problems)


def _version_problems(manifest: Manifest) -> list[Diagnostic]:
    if manifest.deckquest.allows(Version.parse(__version__)):
        return []
    return [_error(f"pack `{manifest.name}` needs deckquest {manifest.deckquest}; this is {__version__}",
                   manifest.span("deckquest"), "upgrade deckquest, or ask the author for a pack "
                   "that works with your version", code="DQ7006")]


def _walk(root: Path, limits: Limits, skip_hidden: bool) -> tuple[dict[str, int], list[Diagnostic]]:
    """The pack folder's files (relative POSIX path -> size); anything but plain files and folders is a problem.

    Every entry is looked at with `lstat` and never opened here: a FIFO or a
    device is refused before anything reads it. Names starting with a dot
    (`.git`, `.DS_Store`) are the author's tools, never shipped (build and
    install take only listed files), so they may be skipped.
    """
    present: dict[str, int] = {}
    spellings: dict[str, str] = {}
    problems = []
    total = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        base = Path(folder)
        for name in list(dirs):
            if skip_hidden and name.startswith("."):
                dirs.remove(name)
            elif (base / name).is_symlink():
                dirs.remove(name)
                problems.append(_link_problem(root, base / name))
            else:
                problems += _spelling_problems(root, base / name, spellings)
        for name in files:
            path = base / name
            if skip_hidden and name.startswith("."):
                continue
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                problems.append(_link_problem(root, path))
                continue
            relative = path.relative_to(root).as_posix()
            if not stat.S_ISREG(mode):
                problems.append(_error(f"`{relative}` is not a regular file (a FIFO, device or socket); "
                                       "packs hold plain files", Span(str(path)),
                                       "replace it with a plain file, or delete it", code="DQ7010"))
                present[relative] = 0  # it is there: listing it does not make it a missing file
                continue
            problems += _spelling_problems(root, path, spellings)
            size = path.lstat().st_size
            present[relative] = size
            total += size
            if size > limits.max_file_bytes:
                problems.append(_error(f"`{relative}` is {size} bytes; a pack file may have "
                                       f"{limits.max_file_bytes}", Span(str(path)), code="DQ7011"))
            if len(present) > limits.max_files or total > limits.max_total_bytes:
                problems.append(_error(f"the pack holds more than {limits.max_files} files or "
                                       f"{limits.max_total_bytes} bytes", Span(str(root)), code="DQ7011"))
                return present, problems
    return present, problems


def _spelling_problems(root: Path, path: Path, spellings: dict[str, str]) -> list[Diagnostic]:
    """A name that differs from another only in case or Unicode normalization (NFC/NFD) is refused.

    Linux keeps `Café` and `café` (or its decomposed NFD spelling) apart, but
    macOS and Windows would unpack them onto one file, so a pack that works
    here would silently lose a file there.
    """
    relative = path.relative_to(root).as_posix()
    key = name_key(relative)
    other = spellings.setdefault(key, relative)
    if other == relative:
        return []
    shown = relative.encode("unicode_escape").decode("ascii")
    return [_error(f"`{shown}` and `{other.encode('unicode_escape').decode('ascii')}` differ only in "
                   "case or Unicode normalization: they would be one file on macOS and Windows",
                   Span(str(path)), "rename one of them", code="DQ7004")]


def _budget_problems(manifest: Manifest, present: dict[str, int], limits: Limits) -> list[Diagnostic]:
    """The pack's work budget: how many scripts, decks and card files, and how many bytes of each.

    A file within its own limits can still take a second to check; a pack of
    two thousand of them would take an hour. The budget bounds the whole pack,
    and is checked before any of its files is read.
    """
    problems = []
    for label, sections, count, size in (
        ("scripts", ("scenarios", "libraries"), limits.max_scripts, limits.max_script_bytes),
        ("deck lists and party files", ("decks", "parties"), limits.max_decks, limits.max_deck_bytes),
        ("card files", ("cards",), limits.max_card_files, limits.max_card_bytes),
    ):
        names = [name for section in sections for name in getattr(manifest, section)]
        total = sum(present.get(name, 0) for name in names)
        if len(names) > count or total > size:
            problems.append(_error(
                f"the pack has {len(names)} {label} of {total} bytes in all; a pack may have {count} "
                f"{label} of {size} bytes in all", manifest.span(sections[0]),
                "split the pack into several packs that depend on each other", code="DQ7012"))
    return problems


def _link_problem(root: Path, path: Path) -> Diagnostic:
    relative = path.relative_to(root).as_posix()
    return _error(f"`{relative}` is a symbolic link; packs may hold only plain files and folders",
                  Span(str(path)), "copy the file into the pack instead of linking to it", code="DQ7009")


def _listing_problems(manifest: Manifest, present: dict[str, int]) -> list[Diagnostic]:
    """Listed files must exist; files present must be listed (so nothing ships unseen)."""
    problems = []
    for section in FILE_SECTIONS:
        for index, name in enumerate(getattr(manifest, section)):
            if name not in present:
                problems.append(_error(f"`{name}` is listed under `{section}` but is not in the pack",
                                       manifest.span(section, index), "check the spelling, or add the file",
                                       code="DQ7007"))
    listed = set(manifest.listed_files())
    for name in sorted(present.keys() - listed):
        where = Span(str(manifest.path.parent / name))
        section = "decks" if name.startswith("decks/") or "/decks/" in name else \
            _SECTION_BY_SUFFIX.get(Path(name).suffix, "files")
        also = " (or `libraries:` if only other scripts `use` it)" if section == "scenarios" else ""
        problems.append(_error(
            f"`{name}` is in the pack folder but not listed in pack.yaml", where,
            f"add `- {name}` under `{section}:`{also} in pack.yaml, or delete the file", code="DQ7008"))
    return problems


def _pack_database(root: Path, manifest: Manifest, problems: list[Diagnostic]):
    """The pack's own cards (its card files) over the user's database."""
    from deckquest.cards.database import CardDatabase, CardIndex, default_database
    from deckquest.cards.importers import Entry, read_entries

    cards = []
    for name in manifest.cards:
        try:
            cards.extend(e.card for e in read_entries(root / name) if isinstance(e, Entry))
        except CompileError as error:
            problems.extend(error.diagnostics)
        except DeckquestError as error:
            problems.append(_from_error(error, root / name))
    base = default_database()
    return CardDatabase(CardIndex(cards), *base.sources) if cards else base


def _content_problems(root: Path, manifest: Manifest, db, limits: Limits) -> tuple[list[Diagnostic], bool]:
    """Every deck list loads and every scenario compiles; all their errors, and whether checking
    stopped early (once a report is full, the remaining files are not checked).

    All the scenarios' compiles share one budget: each compiles the scripts it
    `use`s again, so 200 scenarios that use one 1 MB library would otherwise
    parse 200 MB within the pack's 4 MiB of listed scripts.
    """
    from deckquest.cards.decklist import load_deck
    from deckquest.dsl.budget import CompileBudget

    budget = CompileBudget(max_bytes=2 * limits.max_script_bytes, max_scripts=4 * limits.max_scripts)

    checks = [*((name, lambda path: load_deck(path, db)) for name in manifest.decks),
              *((name, lambda path: _load_party(path, root, db)) for name in manifest.parties),
              *((name, _parse) for name in manifest.libraries),
              *((name, lambda path: _compile(path, db, budget)) for name in manifest.scenarios)]
    problems: list[Diagnostic] = []
    for index, (name, check) in enumerate(checks):
        if len(problems) >= _MAX_PROBLEMS:
            return problems, index < len(checks)
        problems += _collect(check, root / name)
    return problems, False


def _parse(path: Path):
    """A library script is compiled through the scenarios that `use` it; alone, it must parse."""
    from deckquest.dsl.parser import parse_source
    from deckquest.dsl.resolver import read_script

    return parse_source(read_script(path), str(path))


def _load_party(path: Path, root: Path, db):
    """Load a party file after checking its deck paths stay inside the pack.

    Party files name decks relative to themselves; the party loader trusts
    them, so a pack's party file is checked here first.
    """
    from deckquest.packs.paths import is_inside, path_problem
    from deckquest.yamlfile import load_yaml, read_text
    from deckquest.packs.store import resolve_script_reference
    from deckquest.runtime.party import MAX_PARTY_BYTES, load_party

    text = read_text(path, str(path), MAX_PARTY_BYTES, follow_links=False)
    data = load_yaml(text, str(path))
    members = data.get("party") if isinstance(data, dict) else None
    for member in members if isinstance(members, list) else []:
        deck = member.get("deck") if isinstance(member, dict) else None
        if isinstance(deck, str):
            problem = path_problem(deck, allow_parent=True)
            if problem or not is_inside(path.parent / deck, root):
                line, col = member.lc.value("deck")
                raise DeckquestError(_("party deck `{deck}`: {value}", deck=deck[:80], value=problem or _("it is outside the pack")),
                                     Span(str(path), line + 1, col + 1), code="DQ7003",
                                     source_line=text.splitlines()[line])
    return load_party(path, db, locate=resolve_script_reference)


def _compile(path: Path, db, budget):
    from deckquest.dsl.resolver import compile_file
    from deckquest.packs.store import resolve_script_reference

    return compile_file(path, db=db, locator=resolve_script_reference, budget=budget)


def _collect(check, path: Path) -> list[Diagnostic]:
    try:
        check(path)
    except CompileError as error:
        return list(error.diagnostics)
    except DeckquestError as error:
        return [_from_error(error, path)]
    except RecursionError:
        return [_error("nested too deeply to check", Span(str(path)),
                       "flatten the deepest blocks into separate scenes", code="DQ0006")]
    return []


def _from_error(error: DeckquestError, path: Path) -> Diagnostic:
    span = error.span or Span(str(path))
    return Diagnostic("error", error.message, span, code=error.code, hint=error.hint,
                      source_line=error.source_line)


def _error(message: str, span: Span, hint: str | None = None, *, code: str) -> Diagnostic:
    return Diagnostic("error", message, span, code=code, hint=hint)


def _renamed(error: DeckquestError, folder: Path, prefix: str) -> DeckquestError:
    """The same error with the temporary folder's paths shown as `archive!path`.

    Source lines are filled in now, since the temporary folder is about to go.
    """
    def rename(diagnostic: Diagnostic) -> Diagnostic:
        span = diagnostic.span
        try:
            relative = Path(span.file).relative_to(folder).as_posix()
        except ValueError:
            return diagnostic
        source = diagnostic.source_line
        if source is None:
            from deckquest.errors import read_source_line

            source = read_source_line(span)
        return dataclasses.replace(diagnostic, span=dataclasses.replace(span, file=prefix + relative),
                                   source_line=source)

    if isinstance(error, CompileError):
        return CompileError([rename(d) for d in error.diagnostics], error.omitted, error.stopped)
    if error.span is None:
        return error
    fixed = rename(_from_error(error, folder))
    return DeckquestError(error.message, fixed.span, error.hint, code=error.code or None,
                          source_line=fixed.source_line)
