"""The compiler: from a parsed script to a checked `Scenario` for the interpreter.

It checks what the grammar cannot: the header, that every name is declared once and used as
what it is, and that the flow is sound -- one start scene, and no scene that can run off its
end without `->` or `end`. The game system checks its own part through its hooks, each where
the core's checks always ran (``deckquest.dsl.language``): MTG-TRPG's PCs, NPCs and cards
once every name is declared (T-4.7, T-8.1 to T-8.3), its statements in the walk over the
scenes (check kinds of the rules edition, T-4, T-5), its loops after it (T-4.12). It gathers
every problem before raising one CompileError, and keeps warnings (unreachable scenes, unused
declarations) on the Scenario.

The syntax tree is never changed: the walk over triggers and scenes (``deckquest.dsl.flow``)
builds resolved copies, with the names of a ``use``d script in their qualified form
(``lair.alarm``), and the Scenario holds those; the game system's resolve hook returns its
own side table (``Scenario.system_table``).
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence, cast

from deckquest.i18n import _
from deckquest.dsl import ast
from deckquest.dsl.budget import CompileBudget
from deckquest.dsl.diagnostics import error, warning
from deckquest.dsl.flow import Flow, Scope, listed, terminates
from deckquest.dsl.language import DEFAULT_SYSTEM, LanguageSpec
from deckquest.dsl.locate import Locator, local_reference
from deckquest.dsl.parser import MAX_FILE_BYTES, RESERVED_WORDS, parse_source, system_language
from deckquest.dsl.scenario import ResolvedNpc, ResolvedPc, Scenario
from deckquest.errors import MAX_REPORTED_ERRORS, CompileError, DeckquestError, Diagnostic, Span, did_you_mean
from deckquest.files import TooLarge, read_regular

if TYPE_CHECKING:  # the card modules are imported when a script first needs them
    from deckquest.cards.database import CardDatabase
    from deckquest.cards.decklist import Deck
    from deckquest.cards.model import Card

MAX_SCENES = 2_000
RULES_EDITIONS = (2019, 2014)
LANGUAGES = ("en", "ja")
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
_LANGUAGE_LINE = re.compile(r"^[ \t]+language[ \t]+(en|ja)\b", re.MULTILINE)


def _declared_language(text: str) -> str | None:
    """The `language` of a script that does not parse: its errors are still written in it."""
    found = _LANGUAGE_LINE.search(text, 0, 4096)
    return found.group(1) if found else None


def kind_word(kind: str) -> str:
    """The word for a kind of name (a declaration's keyword) in the current language."""
    words = {"npc": _("NPC"), "pc": _("PC"), "scene": _("scene"), "flag": _("flag"), "counter": _("counter"),
             "card": _("card"), "creature": _("creature"), "planeswalker": _("planeswalker"),
             "player": _("player"), "horde": _("horde")}
    return words.get(kind, kind)


def compile_file(path: str | Path, db: CardDatabase | None = None, locator: Locator | None = None,
                 budget: CompileBudget | None = None) -> Scenario:
    """Compile a script file; raises CompileError listing every error.

    ``locator`` finds the files a script names (``deckquest.dsl.locate``); by default only
    inside the script's own pack. ``budget`` caps the work (deckquest.dsl.budget): pass one to
    several compiles to cap them together; without one, this compile gets its own.
    """
    path = Path(path)
    return compile_source(read_script(path), path, db, locator, budget)


def compile_source(text: str, path: str | Path, db: CardDatabase | None = None, locator: Locator | None = None,
                   budget: CompileBudget | None = None) -> Scenario:
    """Compile script text; `path` names it in messages and anchors relative file names."""
    budget = budget or CompileBudget()
    budget.charge(text, Span(str(path), 1, 1))
    compiler = _Compiler(Path(path), db, stack=(), budget=budget, locator=locator or local_reference)
    return compiler.compile(text, library=False)


def read_script(path: Path, span: Span | None = None) -> str:
    """A script's text (newlines made `\\n`, as a text file reads), or a CompileError: DQ0005
    when it is over MAX_FILE_BYTES (found reading at most one byte more), DQ0014 when it
    cannot be read (missing, a folder, a FIFO or a device, not UTF-8)."""
    where = span or Span(str(path))
    try:
        data = read_regular(path, MAX_FILE_BYTES)
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except TooLarge as large:
        raise CompileError([error("DQ0005", _("the script has {st_size:,} bytes; the limit is {MAX_FILE_BYTES:,}", st_size=large.size, MAX_FILE_BYTES=MAX_FILE_BYTES),
                                  Span(str(path), 1, 1), _("split it into several scripts joined by `use`"))]) from None
    except UnicodeDecodeError:
        raise CompileError([error("DQ0014", _("{path} is not UTF-8 text", path=path), where, _("save the script as UTF-8"))]) from None
    except IsADirectoryError:
        raise CompileError([error("DQ0014", _("{path} is a folder, not a script", path=path), where)]) from None
    except OSError as problem:
        raise CompileError([error("DQ0014", _("cannot read {path}: {strerror}", path=path, strerror=problem.strerror), where)]) from None


class _Compiler:
    """Compiles one script (and, recursively, the scripts it uses)."""

    def __init__(self, path: Path, db: CardDatabase | None, stack: tuple[Path, ...], budget: CompileBudget,
                 prefix: str = "", locator: Locator = local_reference):
        self.path = path
        self.db = db
        self.locator = locator
        self.budget = budget
        self.kept = 0  # errors kept; later ones are only counted in `omitted` (MAX_REPORTED_ERRORS)
        self.omitted = 0
        self.omitted_warnings = 0
        self.stack = stack + (path.resolve(),)
        self.prefix = prefix
        self.diagnostics: list[Diagnostic] = []
        self.symbols: dict[str, tuple[str, ast.Declaration]] = {}  # canonical name -> (kind, declaration)
        self.used: set[str] = set()
        self.pcs: dict[str, ResolvedPc] = {}
        self.npcs: dict[str, ResolvedNpc] = {}
        self.cards: dict[str, Card] = {}  # a GM's own cards by name
        self._db_with_cards: CardDatabase | None = None
        self.flags: dict[str, ast.FlagDecl] = {}
        self.counters: dict[str, ast.CounterDecl] = {}
        self.triggers: list[ast.Trigger] = []
        self.scenes: dict[str, ast.Scene] = {}
        self.decks: dict[str, Deck] = {}
        self.imports: dict[str, Path] = {}
        # a game system's declarations of the scripts `use`d, with their namespace prefix: its
        # resolve hook declares them under qualified names (`road.keeper`)
        self.used_declarations: list[tuple[str, ast.SystemNode]] = []
        self.namespaces: set[str] = set()
        self.rules = 2019
        self.gotos: dict[str | None, set[str]] = {}
        self.language: LanguageSpec | None = None  # the game system's part of the language
        self.system_statements: list[tuple[ast.Statement, Scope]] = []  # its statements, as met
        self.flow = Flow(self)

    # -------------------------------------------------------------- driver

    def compile(self, text: str, library: bool) -> Scenario:
        try:
            if not library:  # a used script is in the language of the script using it
                self.language = system_language(text, str(self.path))
            script = parse_source(text, str(self.path), self.language)
        except CompileError as failure:
            raise CompileError(_with_source(failure.diagnostics, text, str(self.path)),
                               omitted=failure.omitted, stopped=failure.stopped,
                               language=_declared_language(text)) from None
        header = self._header(script, library)
        if not library:
            self.rules = header["rules"]  # a used script follows the rules of the script using it
        for use in script.uses:
            self._use(use)
        self._declare_all(script, library)
        if self.language is not None:  # the system's declarations (MTG-TRPG: cards, PCs, NPCs)
            self.language.resolve_declarations(SystemContext(self, script, header, library))
        self.triggers[:0] = [self.flow.trigger(trigger, scene=None) for trigger in script.triggers]
        start = None
        if not library:
            start = self._flow(script)
            if self.language is not None:  # the system's checks over the whole flow (MTG-TRPG: T-4.12)
                self.language.resolve_flow(SystemContext(self, script, header))
        table = None
        success_endings: tuple[str, ...] = ()
        if not library:
            self._unused(script)
            success_endings = self._success_endings(script)
            if self.language is not None:
                table = self.language.resolve(SystemContext(self, script, header))
        errors = [d for d in self.diagnostics if d.severity == "error"]
        if errors:
            raise CompileError(_with_source(self.diagnostics, text, str(self.path)), omitted=self.omitted,
                               language=header["language"])
        return Scenario(
            path=self.path, script=script, title=header["title"], author=header["author"],
            version=header["version"], players=header["players"], rules=self.rules,
            language=header["language"], tags=header["tags"], start=start or "", scenes=self.scenes,
            pcs=self.pcs, npcs=self.npcs, cards=self.cards, flags=self.flags, counters=self.counters,
            triggers=self.triggers, decks=self.decks, imports=self.imports,
            warnings=_with_source([d for d in self.diagnostics if d.severity == "warning"], text, str(self.path)),
            omitted_warnings=self.omitted_warnings,
            system=header["system"], options=header["options"], readings=header["readings"], system_table=table,
            success_endings=success_endings,
        )

    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        if self._counting_only():
            return
        self.kept += 1
        if code in getattr(self.language, "codes", ()):  # a game system's own code (SystemContext)
            self.diagnostics.append(Diagnostic("error", message, span, code, hint))
            return
        self.diagnostics.append(error(code, message, span, hint))

    def _counting_only(self) -> bool:
        """Whether MAX_REPORTED_ERRORS errors are kept already: then one more is only counted,
        and its caller skips the costly part (a "did you mean" over every name)."""
        if self.kept < MAX_REPORTED_ERRORS:
            return False
        self.omitted += 1
        return True

    def warn(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        if len(self.diagnostics) - self.kept >= MAX_REPORTED_ERRORS:
            self.omitted_warnings += 1
            return
        self.diagnostics.append(warning(code, message, span, hint))

    # -------------------------------------------------------------- header

    def _header(self, script: ast.Script, library: bool) -> dict[str, Any]:
        values: dict[str, Any] = {"title": "", "author": None, "version": None, "players": (1, 4), "rules": 2019,
                  "language": "en", "tags": (), "system": getattr(self.language, "name", DEFAULT_SYSTEM),
                  "options": frozenset(),
                  "readings": {name: values[0] for name, values in self.language.reading_values().items()}
                  if self.language is not None else {}}
        if script.header is None:
            if not library:
                self.error("DQ0020", _("the script has no `scenario` header"), Span(str(self.path), 1, 1),
                           _("begin the script with `scenario \"Title\":` and its indented header lines"))
            return values
        for extra in script.headers[1:]:
            self.error("DQ0021", _("a script has one `scenario` header"), extra.span,
                       _("the first one is at line {line}", line=script.header.span.line))
        values["title"] = script.header.title
        seen: dict[object, ast.HeaderEntry] = {}
        for entry in script.header.entries:
            key = _entry_key(entry)
            if key in seen:
                self.error("DQ0021" if key == entry.key else "DQ0125", _("`{entry}` is given twice", entry=_entry_words(entry)),
                           entry.span, _("the first is at line {line}", line=seen[key].span.line))
                continue
            seen[key] = entry
            if entry.key in ("system", "option", "reading"):
                self._system_entry(entry, values)
            elif self._header_entry_ok(entry):
                values[entry.key] = entry.value
        editions = getattr(self.language, "editions", ())  # a system whose adventures are MTG-TRPG's has some
        if "rules" in seen and values["system"] != DEFAULT_SYSTEM and str(values["rules"]) not in editions:
            hint = (_("remove the line: `{system}` adventures check by the rules {editions}", system=values["system"],
                      editions=", ".join(editions)) if editions else _("remove the line: the `system` line names the game"))
            self.error("DQ0121", _("`rules` names an edition of MTG-TRPG, not of `{system}`", system=values['system']),
                       seen["rules"].span, hint)
            if editions:  # checked by the edition the system allows, so no check is refused for the wrong one
                values["rules"] = int(editions[0])
        return values

    def _system_entry(self, entry: ast.HeaderEntry, values: dict[str, Any]) -> None:
        """`system NAME` (checked before parsing), `option NAME` and `reading NAME VALUE`,
        against what the script's game system declares."""
        language = self.language
        if entry.key == "system":
            values["system"] = entry.value
            return
        system = values["system"]
        if entry.key == "option":
            known = language.option_names() if language is not None else ()
            option = str(entry.value)
            if option not in known:
                self.error("DQ0122", _("`{system}` has no option `{option}`", system=system, option=option), entry.span,
                           did_you_mean(option, known) or listed("its options", known))
                return
            values["options"] = values["options"] | {option}
            return
        name, value = ast.reading(entry)
        readings = language.reading_values() if language is not None else {}
        if name not in readings:
            self.error("DQ0123", _("`{system}` has no reading `{name}`", system=system, name=name), entry.span,
                       did_you_mean(name, readings) or listed("its readings", readings))
        elif value not in readings[name]:
            self.error("DQ0124", _("`{value}` is not a reading of `{name}`", value=value, name=name), entry.span,
                       did_you_mean(value, readings[name]) or listed(f"`{name}` is read", readings[name]))
        else:
            values["readings"] = {**values["readings"], name: value}

    def _header_entry_ok(self, entry: ast.HeaderEntry) -> bool:
        key, value = entry.key, entry.value
        if key == "version" and isinstance(value, str) and not SEMVER.match(value):
            self.error("DQ0022", _("`{value}` is not a version like 1.0.0", value=value), entry.span,
                       _("use semantic versioning: MAJOR.MINOR.PATCH"))
        elif key == "players" and isinstance(value, tuple) and not 1 <= value[0] <= value[1]:
            self.error("DQ0023", _("`players {value0} to {value1}` is not a range of players", value0=value[0], value1=value[1]), entry.span,
                       _("write the smallest party first, at least 1: `players 1 to 4`"))
        elif key == "rules" and value not in RULES_EDITIONS:
            self.error("DQ0024", _("there are no {value} rules", value=value), entry.span,
                       _("`rules 2019` (checks reveal two cards) or `rules 2014` (one card)"))
        elif key == "language" and value not in LANGUAGES:
            self.error("DQ0025", _("unknown language `{value}`", value=value), entry.span, _("`language en` or `language ja`"))
        else:
            return True
        return False

    def scenes_required(self) -> bool:
        return self.language is None or self.language.scenes_required

    # -------------------------------------------------------------- use

    def _use(self, use: ast.Use) -> None:
        namespace = use.alias or re.sub(r"\W", "_", Path(use.path).stem)
        if namespace in self.namespaces or namespace in self.symbols:
            self.error("DQ0062", _("the namespace `{namespace}` is used twice", namespace=namespace), use.span,
                       _("give one of them another name: `use \"{path}\" as other_name`", path=use.path))
            return
        self.namespaces.add(namespace)
        target = self._find_script(use)
        if target is None:
            return
        if target.resolve() in self.stack:
            self.error("DQ0061", _("`{path}` uses this script again (a cycle)", path=use.path), use.span,
                       _("move what both scripts need into a third one that both use"))
            return
        qualified = f"{self.prefix}{namespace}."
        library = _Compiler(self._shown(target), self.db, self.stack, self.budget, prefix=qualified,
                            locator=self.locator)
        library.rules = self.rules
        library.language = self.language
        try:
            text = read_script(target, use.span)
            self.budget.charge(text, use.span)
            used = library.compile(text, library=True)
        except CompileError as failure:
            if any(d.code == "DQ0100" for d in failure.diagnostics):
                raise
            self.diagnostics.extend(failure.diagnostics)
            self.kept += sum(d.severity == "error" for d in failure.diagnostics)
            self.omitted += failure.omitted
            return
        self.imports[namespace] = target
        self.used_declarations += [(qualified, declaration) for declaration in used.script.system]
        self.used_declarations += library.used_declarations
        self.symbols[namespace] = ("namespace", use)
        for name, entry in library.symbols.items():
            self.symbols[name] = entry
            self.used.add(name)
        self.npcs.update(library.npcs)
        self.cards.update(library.cards)
        self._db_with_cards = None
        self.flags.update(library.flags)
        self.counters.update(library.counters)
        self.triggers.extend(library.triggers)
        self.decks.update(library.decks)

    def _find_script(self, use: ast.Use) -> Path | None:
        """The file a `use` names, or None after reporting why there is none."""
        found = self._reference(use.path, use.span)
        if found is not None and not found.exists():  # a folder or a FIFO there: the reader says so
            self.error("DQ0060", _("there is no script `{path}`", path=use.path), use.span,
                       _("the path is relative to this script's folder, or names an installed pack's script"))
            return None
        return found

    def _reference(self, reference: str, span: Span) -> Path | None:
        """Where a `use` or `deck` path points: inside this script's pack, or an installed pack.

        A shared script is untrusted, so a path that leaves its pack is an error (DQ0050).
        """
        try:
            return Path(self.locator(reference, self.path.parent))
        except DeckquestError as problem:
            self.error("DQ0050", problem.message, span, problem.hint)
            return None

    # -------------------------------------------------------------- declarations

    def _declare_all(self, script: ast.Script, library: bool) -> None:
        groups: list[tuple[str, Sequence[ast.PcDecl | ast.NpcDecl | ast.CardDecl | ast.FlagDecl | ast.CounterDecl
                                         | ast.Scene]]]
        groups = [("npc", script.npcs), ("card", script.cards), ("flag", script.flags), ("counter", script.counters)]
        if not library:
            groups[:0] = [("pc", script.pcs)]
            groups.append(("scene", script.scenes))
        for kind, declarations in groups:
            for declaration in declarations:
                name = declaration.name if isinstance(declaration, (ast.FlagDecl, ast.CounterDecl)) else declaration.id
                self._declare(kind, name, declaration)
        if len(script.scenes) > MAX_SCENES and not library:
            self.error("DQ0008", _("{scenes:,} scenes; a script may have at most {MAX_SCENES:,}", scenes=len(script.scenes), MAX_SCENES=MAX_SCENES),
                       script.scenes[MAX_SCENES].span, _("split the adventure into several scenarios"))

    def _declare(self, kind: str, name: str, declaration: ast.Declaration) -> None:
        canonical = self.prefix + name
        if name in RESERVED_WORDS or self.language is not None and name in self.language.reserved_words:
            self.error("DQ0048", _("`{name}` is a word of the language and cannot name a {kind}", name=name, kind=kind_word(kind)),
                       declaration.span, _("choose another name, e.g. `{name}_{kind}`", name=name, kind=kind))
            return
        if canonical in self.symbols:
            first_kind, first = self.symbols[canonical]
            where = f"line {first.span.line}" if first.span.file == str(self.path) else str(first.span)
            self.error("DQ0030", _("`{name}` is declared twice", name=name), declaration.span,
                       _("the {first_kind} `{name}` is declared at {where}; every name is declared once", first_kind=kind_word(first_kind), name=name, where=where))
            return
        self.symbols[canonical] = (kind, declaration)
        if isinstance(declaration, ast.FlagDecl):
            self.flags[canonical] = dataclasses.replace(declaration, name=canonical)
        elif isinstance(declaration, ast.CounterDecl):
            self.counters[canonical] = dataclasses.replace(declaration, name=canonical)
        elif isinstance(declaration, ast.Scene):
            self.scenes[name] = declaration

    def _deck(self, reference: str, span: Span) -> tuple[Path | None, Deck | None]:
        """(path, Deck) of a deck file beside the script, or (path, None) after reporting why not."""
        path = self._reference(reference, span)
        if path is None:
            return None, None
        if not path.exists():  # a folder or a FIFO there: the deck list reader says so
            self.error("DQ0051", _("there is no deck file `{reference}`", reference=reference), span,
                       _("deck paths are relative to the script's folder, {parent}", parent=self.path.parent))
            return path, None
        from deckquest.cards.decklist import load_deck

        try:
            return path, load_deck(path, self._database())
        except CompileError as failure:
            self.diagnostics.extend(self._as_written(d, path) for d in failure.diagnostics)
        except DeckquestError as problem:
            self.diagnostics.append(self._as_written(Diagnostic("error", problem.message, problem.span or span,
                                                                problem.code or "DQ0051", problem.hint), path))
        return path, None

    def _as_written(self, diagnostic: Diagnostic, path: Path) -> Diagnostic:
        """A deck file's diagnostic named as the script is (`decks/rook.txt:3:1` beside
        `quest.quest:9:5`, see `_shown`)."""
        if diagnostic.span.file != str(path):
            return diagnostic
        return dataclasses.replace(diagnostic, span=dataclasses.replace(diagnostic.span, file=str(self._shown(path))))

    def _shown(self, path: Path) -> Path:
        """A file the script refers to, named the way the script's own path was given: relative
        to the working folder when that was relative, else absolute."""
        if self.path.is_absolute():
            return path
        try:
            return Path(os.path.relpath(path))
        except ValueError:  # another drive (Windows)
            return path

    def _database(self) -> CardDatabase:
        """The card database for decks and `from card`: the GM's own cards over the given one."""
        if self.db is None:
            from deckquest.cards.database import default_database

            self.db = default_database()
        if not self.cards:
            return self.db
        if self._db_with_cards is None:
            from deckquest.cards.database import CardDatabase, CardIndex

            self._db_with_cards = CardDatabase(CardIndex(self.cards.values()), self.db)
        return self._db_with_cards

    # -------------------------------------------------------------- names in statements

    def _lookup(self, name: str, span: Span, wanted: tuple[str, ...], code: str, others: tuple[str, ...] = ()) -> str:
        """The canonical name of a use of `name` expected to be one of `wanted` kinds; `others`
        are the words also accepted there (`party`, `each`…), named in the hint."""
        canonical = self.prefix + name
        entry = self.symbols.get(canonical)
        if entry is None or entry[0] not in wanted:
            if self._counting_only():
                return name
            candidates = [n for n, (k, _) in self.symbols.items() if k in wanted]
            if self.prefix:
                candidates = [n[len(self.prefix):] for n in candidates if n.startswith(self.prefix)]
            wanted_words = _(" or ").join(kind_word(k) for k in wanted)
            if entry is None:
                self.error(code, _("unknown {wanted_words} `{name}`", wanted_words=wanted_words, name=name), span,
                           _unknown_hint(name, candidates, others))
            else:
                self.error("DQ0035", _("`{name}` is a {entry0}, not a {wanted_words}", name=name, entry0=kind_word(entry[0]), wanted_words=wanted_words), span,
                           did_you_mean(name, candidates))
            return name
        self.used.add(canonical)
        return canonical

    def _npc_ref(self, name: str, span: Span, kinds: tuple[str, ...] = ast.NPC_KINDS) -> str:
        canonical = self._lookup(name, span, ("npc",), "DQ0032")
        npc = self.npcs.get(canonical)
        if npc is not None and npc.kind not in kinds:
            self.error("DQ0035", _("`{name}` is a {kind} NPC; only a {names} can be recruited (T-8.4)", name=name, kind=kind_word(npc.kind), names=_(" or ").join(kind_word(k) for k in kinds)), span)
        return canonical

    def _pc_ref(self, name: str, span: Span, scope: Scope, others: tuple[str, ...] = ()) -> str:
        if name == "pc":
            if not scope.pc:
                self.error("DQ0037", _("`pc` means the PC in scope, and here there is none"), span,
                           _("`pc` is bound inside a check's blocks and in triggers about a PC; name a PC or use `each pc`"))
            return name
        if name == "party" and self.prefix + name not in self.symbols:
            self.error("DQ0033", _("`party` is not a PC"), span,
                       _("an effect on every PC is written `each pc loses 1 life`, `each pc draws 1`"))
            return name
        return self._lookup(name, span, ("pc",), "DQ0033", others)

    # -------------------------------------------------------------- triggers, scenes, statements

    def _flow(self, script: ast.Script) -> str | None:
        starts = [s for s in script.scenes if s.start]
        if not starts and (script.scenes or self.scenes_required()):
            self.error("DQ0040", _("no scene is the start scene"), script.scenes[0].span if script.scenes else Span(str(self.path), 1, 1),
                       _("mark the first scene: `start scene id \"Title\":`"))
        for extra in starts[1:]:
            self.error("DQ0041", _("only one scene can be the start scene"), extra.span,
                       _("`{id}` at line {line} is already the start", id=starts[0].id, line=starts[0].span.line))
        for scene in script.scenes:
            resolved = self.flow.scene(scene)
            if self.scenes.get(scene.id) is scene:
                self.scenes[scene.id] = resolved
            if not terminates(scene.body):
                self.error("DQ0042", _("the scene `{id}` can end without `->` or `end`", id=scene.id), scene.span,
                           _("finish every path through the scene with `-> scene` or `end victory|defeat \"text\"`"))
        start = starts[0].id if starts else None
        self._reachability(script, start)
        return start

    def _reachability(self, script: ast.Script, start: str | None) -> None:
        if start is None:
            return
        seen, todo = set(), [start, *self.gotos.get(None, ())]
        while todo:
            scene = todo.pop()
            # a start scene whose name is in error (DQ0030, DQ0048) still leads on: no DQ0043 cascade
            if scene not in seen and (scene in self.scenes or scene == start):
                seen.add(scene)
                todo.extend(self.gotos.get(scene, ()))
        for scene in script.scenes:
            if scene.id not in seen:
                self.warn("DQ0043", _("no path leads to the scene `{id}`", id=scene.id), scene.span,
                          _("add `-> {id}` where the players should reach it, or remove it", id=scene.id))

    def _success_endings(self, script: ast.Script) -> tuple[str, ...]:
        """`success endings victory, "peace"`: the endings the sim's verdict counts as the
        party's success; each must be one an `end` of the script gives (DQ0130)."""
        entry = next((e for e in script.header.entries if e.key == "success_endings"), None) if script.header else None
        if entry is None:
            return ()
        given = sorted(_endings_given([scene.body for scene in self.scenes.values()]
                                      + [trigger.body for trigger in self.triggers]
                                      + [t.body for scene in self.scenes.values() for t in scene.triggers]))
        endings = cast(tuple[tuple[str, Span], ...], entry.value)
        for name, span in endings:
            if name not in given:
                self.error("DQ0130", f"no `end` of the script gives the ending `{name}`", span,
                           did_you_mean(name, given) or listed("its endings", given))
        return tuple(dict.fromkeys(name for name, _ in endings))

    def _unused(self, script: ast.Script) -> None:
        for kind, declarations in (("NPC", script.npcs), ("flag", script.flags), ("counter", script.counters)):
            for declaration in declarations:
                name = getattr(declaration, "id", None) or declaration.name
                if name not in self.used:
                    self.warn("DQ0044", _("the {kind} `{name}` is never used", kind=kind_word(kind), name=name), declaration.span,
                              _("remove it, or use it in a scene"))


class SystemContext:
    """What a game system's resolve hook gets (``deckquest.dsl.language``): its declarations
    and statements, the header's options and readings, and the compiler's services to report
    diagnostics (with spans), declare and look up names, and find files and cards."""

    def __init__(self, compiler: "_Compiler", script: ast.Script, header: dict[str, Any], library: bool = False):
        self._compiler = compiler
        self.script = script
        self.path = compiler.path
        self.library = library  # a script `use`d by another: its declarations only
        self.rules = compiler.rules  # the MTG-TRPG edition the script checks by
        self.prefix = compiler.prefix  # its names' namespace (`lair.`), "" in the main script
        self.declarations: list[ast.SystemNode] = list(script.system)
        self.used: list[tuple[str, ast.SystemNode]] = list(compiler.used_declarations)  # (namespace prefix, node)
        self.statements: list[tuple[ast.Statement, bool]] = [(s, scope.subject) for s, scope in compiler.system_statements]
        self.options: frozenset[str] = header["options"]
        self.readings: dict[str, str] = header["readings"]
        self.players: tuple[int, int] = header["players"]
        # the compiled program's tables a system's declarations fill (MTG-TRPG's)
        self.pcs = compiler.pcs
        self.npcs = compiler.npcs
        self.cards = compiler.cards
        self.decks = compiler.decks
        # the walked flow (for ``resolve_flow``): resolved scenes by id, the scenario's
        # triggers, and the scenes each scene leads to (None: from a trigger)
        self.scenes: dict[str, ast.Scene] = {scene.id: compiler.scenes[scene.id] for scene in script.scenes
                                             if scene.id in compiler.scenes}
        self.triggers: list[ast.Trigger] = compiler.triggers
        self.gotos: dict[str | None, set[str]] = compiler.gotos

    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        if code not in getattr(self._compiler.language, "codes", ()):  # an older core code (MTG-TRPG's checks)
            self._compiler.error(code, message, span, hint)
            return
        self._report("error", code, message, span, hint)

    def warn(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        if code not in getattr(self._compiler.language, "codes", ()):  # a core code (MTG-TRPG's DQ5000 in Isekai)
            self._compiler.warn(code, message, span, hint)
            return
        if len(self._compiler.diagnostics) - self._compiler.kept >= MAX_REPORTED_ERRORS:
            self._compiler.omitted_warnings += 1  # as many warnings as the core's keep
            return
        self._report("warning", code, message, span, hint)

    def _report(self, severity: str, code: str, message: str, span: Span, hint: str | None) -> None:
        """A diagnostic with one of the system's own codes (its ``codes`` range)."""
        assert code in getattr(self._compiler.language, "codes", ()), f"{code} is not a code of this game system"
        self._compiler.diagnostics.append(Diagnostic(severity, message, span, code, hint))

    def declare(self, kind: str, name: str, declaration: ast.Declaration) -> bool:
        """Declare a name of the system's (DQ0030 twice, DQ0048 a keyword); False if refused."""
        before = len(self._compiler.diagnostics)
        self._compiler._declare(kind, name, declaration)
        return len(self._compiler.diagnostics) == before

    def lookup(self, name: str, span: Span, kinds: tuple[str, ...], code: str) -> str:
        """The canonical name of a declared name of one of ``kinds`` (``code`` when unknown)."""
        return self._compiler._lookup(name, span, kinds, code)

    def locate(self, reference: str, span: Span) -> Path | None:
        """A file the script names, inside its pack or an installed one (DQ0050 otherwise)."""
        return self._compiler._reference(reference, span)

    def deck(self, reference: str, span: Span) -> tuple[Path | None, Deck | None]:
        """(path, Deck) of a deck list the script names, or (path, None) after reporting why not."""
        return self._compiler._deck(reference, span)

    def database(self) -> CardDatabase:
        return self._compiler._database()

    def add_card(self, card: Card) -> None:
        """A GM's own card, from now on in ``database()`` (for decks and ``from card``)."""
        self._compiler.cards[card.name] = card
        self._compiler._db_with_cards = None

    def reported_at(self, *spans: Span | None) -> bool:
        """Whether a diagnostic was reported at one of these places already (no cascade)."""
        return any(d.span in spans for d in self._compiler.diagnostics)


def _entry_key(entry: ast.HeaderEntry) -> object:
    """What may not repeat in a header: a key; an option by name; a reading by name."""
    if entry.key == "option":
        return ("option", entry.value)
    if entry.key == "reading":
        return ("reading", ast.reading(entry)[0])
    return entry.key


def _entry_words(entry: ast.HeaderEntry) -> str:
    if entry.key == "option":
        return f"option {entry.value}"
    if entry.key == "reading":
        return f"reading {ast.reading(entry)[0]}"
    return entry.key


def _endings_given(blocks: list[list[ast.Statement]]) -> set[str]:
    """The outcomes of every `end` statement in the blocks, nested ones included."""
    given, todo = set(), list(blocks)
    while todo:
        for stmt in todo.pop():
            if isinstance(stmt, ast.End):
                given.add(stmt.outcome)
            todo.extend(ast.nested_blocks(stmt))
    return given


def _unknown_hint(name: str, candidates: list[str], others: tuple[str, ...]) -> str | None:
    """"did you mean …?", and where other words are accepted too (`by everyone`), all of them."""
    hint = did_you_mean(name, [*candidates, *others])
    if not others:
        return hint
    known = ", ".join(f"`{c}`" for c in sorted(candidates)[:8]) + (", …" if len(candidates) > 8 else "")
    words = ", ".join(f"`{o}`" for o in others)
    takes = (_("`by` takes a PC ({known}) or {words}", known=known, words=words) if candidates
             else _("`by` takes a PC id or {words}", words=words))
    return f"{hint} {takes}" if hint else takes


def _with_source(diagnostics: list[Diagnostic], text: str, path: str) -> list[Diagnostic]:
    """Attach the source line to this file's diagnostics (the text may not be on disk)."""
    lines = text.replace("\r\n", "\n").split("\n")
    result = []
    for d in diagnostics:
        if d.source_line is None and d.span.file == path and 0 < d.span.line <= len(lines):
            d = dataclasses.replace(d, source_line=lines[d.span.line - 1])
        result.append(d)
    return result
