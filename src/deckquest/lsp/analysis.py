"""What the language server knows about one open script: the editor's half of ``deckquest check``.

``analyse(path, text)`` compiles the text as ``check`` would (the same coded diagnostics) and
indexes its names: where each scene, PC, NPC, flag, counter and card is declared and every
place it is used. The index is read off the syntax tree by walking its dataclass fields, so
every statement kind (a game system's too) that names something in a field called ``scene``,
``npc``, ``flag``, ``counter``, ``pc`` or ``name`` is found without a list of node classes.
When the text does not compile, the names come from the last text that did (an editor keeps
going to definitions while a line is half typed).

Positions here are 0-based lines and UTF-16 columns, as the Language Server Protocol counts.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

from deckquest.dsl import ast
from deckquest.dsl.parser import RESERVED_WORDS, parse_source
from deckquest.dsl.resolver import compile_source
from deckquest.errors import CompileError, DeckquestError, Diagnostic, Span
from deckquest.packs.store import resolve_script_reference
from deckquest.systems.trpg import nodes

REFERENCE_FIELDS = ("scene", "npc", "flag", "counter", "pc", "name")
IN_SCOPE = {"pc", "party", "each", "all", "any"}  # words in PC fields that name no declaration
INTERPOLATION = re.compile(r"\{([^\W\d]\w*)(?:\.(\w+))?\}")
HINT_NAME = re.compile(r"did you mean `([^`]+)`\?")

KEYWORDS = sorted(RESERVED_WORDS | {
    "scenario", "author", "version", "players", "rules", "language", "tags", "creature", "planeswalker",
    "player", "horde", "flag", "counter", "deck", "critical", "cost", "types", "stats", "keywords",
    "loyalty", "life", "text", "card", "from", "success", "failure", "victory", "defeat", "escape",
    "prepare", "by", "against", "difficulty", "as", "holding", "back", "loses", "gains", "draws",
    "rests", "sleeps", "minutes", "turn", "is", "defeated", "dying", "unconscious", "dies",
})


@dataclass(frozen=True)
class Range:
    """0-based, end exclusive, as the LSP counts."""

    line: int
    start: int
    end_line: int
    end: int

    def contains(self, line: int, column: int) -> bool:
        if (line, column) < (self.line, self.start):
            return False
        return (line, column) <= (self.end_line, self.end)


@dataclass(frozen=True)
class Symbol:
    """A declared name: its kind (scene, pc, creature, ..., flag, counter, card) and where."""

    name: str
    kind: str
    title: str
    range: Range  # the name in its declaration
    block: Range  # the whole declaration (a scene: to its last line)
    decl: object


@dataclass
class Analysis:
    path: str
    text: str
    diagnostics: list[Diagnostic]
    scenario: object | None  # the compiled Scenario, None when the text has errors
    symbols: dict[str, Symbol] = field(default_factory=dict)
    references: dict[str, list[Range]] = field(default_factory=dict)
    checks: list[tuple[Range, object]] = field(default_factory=list)  # check statements and where
    last_good: object | None = None  # this text's Scenario, or the last one that compiled
    language: str | None = None  # the script's `language`: diagnostics are published in it

    @property
    def known(self):
        """The scenario whose facts (NPC stats, decks) hovers show: this one, or the last good."""
        return self.scenario if self.scenario is not None else self.last_good

    def symbol_at(self, line: int, column: int) -> Symbol | None:
        """The symbol whose declaration or one of whose uses is under the cursor."""
        for name, symbol in self.symbols.items():
            if symbol.range.contains(line, column):
                return symbol
        for name, ranges in self.references.items():
            if name in self.symbols and any(r.contains(line, column) for r in ranges):
                return self.symbols[name]
        return None


def analyse(path: str | Path, text: str, previous: Analysis | None = None, db=None) -> Analysis:
    """Compile ``text`` (the editor's unsaved buffer of ``path``) and index its names."""
    path = str(path)
    scenario = None
    language = None
    try:
        scenario = compile_source(text, path, db, locator=resolve_script_reference)
        diagnostics = list(scenario.warnings)
        language = scenario.language
    except CompileError as failure:
        diagnostics = failure.diagnostics
        language = failure.language
    except DeckquestError as failure:  # a file the script reads could not be read
        diagnostics = [Diagnostic("error", str(failure), failure.span or Span(path, 1, 1), failure.code or "",
                                  failure.hint)]
    diagnostics = [d for d in diagnostics if d.span.file == path or not d.span.file]
    result = Analysis(path, text, diagnostics, scenario, language=language)
    result.last_good = scenario if scenario is not None else (previous.last_good if previous else None)
    script = scenario.script if scenario is not None else _parse_quietly(text, path)
    if script is None and previous is not None:
        result.symbols, result.references, result.checks = previous.symbols, previous.references, previous.checks
        return result
    if script is not None:
        _index(result, script, text.splitlines())
    return result


def _parse_quietly(text: str, path: str):
    try:
        return parse_source(text, path)
    except CompileError:
        return None


# ---------------------------------------------------------------- the index


def _index(result: Analysis, script, lines: list[str]) -> None:
    for decl, kind, title in _declarations(script):
        name = decl.name if kind in ("flag", "counter") else decl.id
        where = _word(lines, decl.span, name, after_keyword=True)
        block = _block(decl.span, lines)
        result.symbols[name] = Symbol(name, kind, title, where, block, decl)
    for node in _walk(script):
        if isinstance(node, ast.Text):
            _interpolations(result, node, lines)
        if isinstance(node, (nodes.Check, nodes.Recruit)):
            result.checks.append((_block(node.span, lines, whole_line=True), node))
        for name, span in _names_used(node):
            if name in IN_SCOPE:
                continue
            found = _word(lines, span, name)
            uses = result.references.setdefault(name, [])
            if found not in uses:  # a statement and its name node may both name it
                uses.append(found)


def _declarations(script):
    for scene in script.scenes:
        yield scene, "scene", scene.title
    for pc in script.pcs:
        yield pc, "pc", pc.name
    for npc in script.npcs:
        yield npc, npc.kind, npc.name
    for card in script.cards:
        yield card, "card", card.name
    for flag in script.flags:
        yield flag, "flag", flag.name
    for counter in script.counters:
        yield counter, "counter", f"{counter.name} = {counter.initial}"


def _walk(node):
    """Every dataclass node below ``node`` (the node itself included), depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (list, tuple)):
            stack.extend(reversed(current))
            continue
        if not dataclasses.is_dataclass(current) or isinstance(current, type):
            continue
        yield current
        for item in dataclasses.fields(current):
            value = getattr(current, item.name)
            if isinstance(value, (list, tuple)) or dataclasses.is_dataclass(value):
                stack.append(value)


def _names_used(node) -> list[tuple[str, Span]]:
    """The names a node refers to, with the span to look for each in."""
    if isinstance(node, (ast.Scene, ast.PcDecl, ast.NpcDecl, ast.CardDecl, ast.FlagDecl, ast.CounterDecl,
                         ast.ScenarioHeader, ast.Use)):
        return []
    used = []
    for name in REFERENCE_FIELDS:
        value = getattr(node, name, None)
        if isinstance(value, str) and value:
            span = getattr(node, "name_span", None) or node.span
            used.append((value, span))
    return used


def _interpolations(result: Analysis, text, lines: list[str]) -> None:
    """``{torches}`` and ``{alice.life}`` inside a string use ``torches`` and ``alice``."""
    span = text.span
    if span.line <= 0 or span.line > len(lines):
        return
    line = lines[span.line - 1]
    for match in INTERPOLATION.finditer(line, max(span.col - 1, 0)):
        name = match.group(1)
        if name in IN_SCOPE:
            continue
        start = _utf16(line, match.start(1))
        result.references.setdefault(name, []).append(
            Range(span.line - 1, start, span.line - 1, start + _utf16_len(name)))


def _word(lines: list[str], span: Span, name: str, after_keyword: bool = False) -> Range:
    """The range of ``name`` as written on the span's line, at or after the span's column (the
    last part of a dotted ``lair.guard``); the span's start when it is not found there."""
    line_number = max(span.line - 1, 0)
    text = lines[line_number] if line_number < len(lines) else ""
    word = name.rsplit(".", 1)[-1] if "." in name else name
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)|(?<!\w){re.escape(word)}(?!\w)")
    found = pattern.search(text, max(span.col - 1, 0))
    if found is None:
        column = max(span.col - 1, 0)
        return Range(line_number, _utf16(text, column), line_number, _utf16(text, column) + 1)
    return Range(line_number, _utf16(text, found.start()), line_number, _utf16(text, found.end()))


def _block(span: Span, lines: list[str], whole_line: bool = False) -> Range:
    line = max(span.line - 1, 0)
    end_line = (span.end_line - 1) if span.end_line and not whole_line else line
    end_line = min(end_line, max(len(lines) - 1, 0))
    end_text = lines[end_line] if end_line < len(lines) else ""
    return Range(line, _utf16(lines[line] if line < len(lines) else "", max(span.col - 1, 0)),
                 end_line, _utf16_len(end_text))


def _utf16(text: str, index: int) -> int:
    """The UTF-16 column of Python string index ``index`` (Japanese text is BMP, emoji are not)."""
    return _utf16_len(text[:index])


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def diagnostic_range(diagnostic: Diagnostic, lines: list[str]) -> Range:
    """A diagnostic's span as an LSP range: its caret, or the rest of its line."""
    span = diagnostic.span
    line = max(span.line - 1, 0)
    text = lines[line] if line < len(lines) else ""
    start = max(span.col - 1, 0)
    if span.end_col is not None and span.end_line in (None, span.line):
        end = max(span.end_col - 1, start + 1)
    else:
        end = len(text.rstrip()) if len(text.rstrip()) > start else start + 1
    return Range(line, _utf16(text, start), line, _utf16(text, end))


def suggested_name(diagnostic: Diagnostic) -> str | None:
    """The name a "did you mean" hint proposes: the text of a quick fix."""
    if not diagnostic.hint:
        return None
    found = HINT_NAME.search(diagnostic.hint)
    return found.group(1) if found else None


def quick_fix(diagnostic: Diagnostic, lines: list[str]) -> tuple[Range, str] | None:
    """What a "did you mean" fix replaces, and with what: the misspelt word the message quotes
    (``unknown scene `hal` ``), found on the diagnostic's line at or after its column."""
    suggestion = suggested_name(diagnostic)
    quoted = re.search(r"`([^`]+)`", diagnostic.message)
    if suggestion is None or quoted is None:
        return None
    where = _word(lines, Span(diagnostic.span.file, diagnostic.span.line, diagnostic.span.col), quoted.group(1))
    line = lines[where.line] if where.line < len(lines) else ""
    if quoted.group(1) not in line:
        return None
    return where, suggestion
