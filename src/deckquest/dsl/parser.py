"""From script text to the syntax tree (`deckquest.dsl.ast`), with every syntax error.

Three stages, each reporting what it finds rather than stopping at the first problem:

1. A line scan enforces the limits against hostile input (file size, nesting depth, string
   length) and the layout rules Lark cannot explain well (tabs, indents not a multiple of 4,
   unterminated strings). It repairs what it reports so the parse can go on and find more.
2. Lark LALR with an indentation post-lexer parses the text. When that fails, each top-level
   block -- and each statement of a broken scene -- is parsed on its own, so one mistake does
   not hide the next.
3. The transformer builds AST nodes, nothing else.
"""

from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Iterable, Iterator
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.indenter import Indenter
from lark.tree import Meta

from deckquest.i18n import _
from deckquest.dsl import ast
from deckquest.dsl.diagnostics import error
from deckquest.dsl.language import DEFAULT_SYSTEM, LANGUAGES, LanguageSpec, language_of
from deckquest.errors import MAX_REPORTED_ERRORS, CompileError, Diagnostic, Span, did_you_mean

MAX_FILE_BYTES = 1_000_000
MAX_BLOCK_DEPTH = 24  # indentation levels
MAX_PAREN_DEPTH = 16
MAX_STRING_CHARS = 4_000
MAX_NUMBER = 1_000_000
INDENT = 4
#: A grammar rule's children as Lark hands them to the transformer: tokens, the nodes the
#: rules below built, None for an optional part that is absent. The grammar decides their
#: types, position by position; each method reads the ones its rule has.
Children = list[Any]


class QuestIndenter(Indenter):
    """Turns leading spaces into _INDENT/_DEDENT tokens (4 spaces a level; tabs are caught earlier)."""

    NL_type = "_NL"
    OPEN_PAREN_types: list[str] = []
    CLOSE_PAREN_types: list[str] = []
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = INDENT


@lru_cache(maxsize=1)
def _core_grammar() -> str:
    return resources.files("deckquest.grammar").joinpath("quest.lark").read_text("utf-8")


@lru_cache(maxsize=8)
def _lark(fragment: str = "") -> Lark:
    """The parser of the core grammar composed with one game system's fragment (its rules and
    ``%extend`` lines, see ``deckquest.dsl.language``), built once per fragment."""
    return Lark(
        _core_grammar() + ("\n" + fragment if fragment else ""),
        parser="lalr",
        lexer="contextual",
        postlex=QuestIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
    )


# Words that can begin a statement, a condition, a `by` or an event: a name spelled like one
# would be read as the keyword there, so no declaration may use them.
RESERVED_WORDS = frozenset(
    "a after all and any battle check choice clear degree each else encounter end fight give if not or "
    "party pc recruit scene set start take the use wait when".split()
)


def parse_source(text: str, path: str, language: LanguageSpec | None = None) -> ast.Script:
    """The syntax tree of a script; raises CompileError with every syntax error found.

    ``language``: the game system whose part of the language the script may use; by default
    the one its header names with ``system NAME`` (``deckquest.dsl.language``), else MTG-TRPG.
    """
    if language is None:
        language = system_language(text, path)
    with _no_gc():
        return _parse(text, path, language)


_SYSTEM_LINE = re.compile(r"^ +system +([^\W\d]\w*) *(?:#.*)?$")


def header_system(text: str) -> tuple[str, int, int] | None:
    """The ``system NAME`` line of the script's ``scenario`` header: (name, line, column).

    Read before parsing, since the system decides the grammar the script is parsed with."""
    in_header = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("scenario"):
            in_header = True
        elif in_header and line[:1] not in (" ", "#", "") and line.strip():
            return None
        elif in_header:
            match = _SYSTEM_LINE.match(line.rstrip("\r"))
            if match:
                return match.group(1), number, match.start(1) + 1
    return None


def system_language(text: str, path: str) -> LanguageSpec | None:
    """The language of the system the script names (DQ0120 for a system nobody registered);
    without a ``system`` line, MTG-TRPG's when it is registered, or the one system whose
    statements the script holds (``implied_by``: an Isekai duel in an MTG-TRPG adventure)."""
    named = header_system(text)
    if named is None:
        implied = [language for language in LANGUAGES.values()
                   if language.implied_by and re.search(language.implied_by, text, re.MULTILINE)]
        return implied[0] if len(implied) == 1 else language_of(DEFAULT_SYSTEM)
    name, line, col = named
    language = language_of(name)
    if language is None and name != DEFAULT_SYSTEM:  # `system trpg`: MTG-TRPG, registered or not
        known = sorted(LANGUAGES)
        hint = did_you_mean(name, known) or ("the game systems: " + ", ".join(known) if known else None)
        raise CompileError([error("DQ0120", f"unknown game system `{name}`",
                                  Span(path, line, col, line, col + len(name)), hint)])
    return language


@contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: parsing makes many small objects and no garbage
    cycles, and full collections over the growing tree made big scripts parse in O(n^2)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _parse(text: str, path: str, language: LanguageSpec | None) -> ast.Script:
    diagnostics, text = scan(text, path)
    if diagnostics and diagnostics[0].code == "DQ0005":
        raise CompileError(diagnostics)
    fragment = language.grammar if language is not None else ""
    try:
        tree = _lark(fragment).parse(text)
    except UnexpectedInput as first:
        found, stopped = _recover(text, path, first, fragment)
        raise CompileError(_sorted_unique(diagnostics + found), stopped=stopped) from None
    builder = builder_class(language)(path, text)
    script = builder.transform(tree)
    diagnostics.extend(builder.problems)
    if diagnostics:
        raise CompileError(_sorted_unique(diagnostics), omitted=builder.omitted)
    return script


# ---------------------------------------------------------------- stage 1: line scan

_STRING_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\\n])*("?)|#.*')


def scan(text: str, path: str) -> tuple[list[Diagnostic], str]:
    """Limit and layout errors, and the text repaired so that parsing can continue."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > MAX_FILE_BYTES:
        message = _("the script has {size:,} bytes; the limit is {MAX_FILE_BYTES:,}", size=size, MAX_FILE_BYTES=MAX_FILE_BYTES)
        return [error("DQ0005", message, Span(path, 1, 1), _("split it into several scripts joined by `use`"))], text
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    diagnostics: list[Diagnostic] = []
    lines = text.split("\n")
    previous = -INDENT  # indentation of the last line with content, after repair (none yet)
    levels: list[tuple[int, int]] = []  # the open blocks' indentation: (as written, after repair)
    for number, line in enumerate(lines, start=1):
        lines[number - 1] = _scan_line(line, number, path, diagnostics, previous, levels)
        body = lines[number - 1].lstrip(" \t")  # a blank or comment line may keep a tab: it sets no indentation
        if body and not body.startswith("#"):
            previous = len(lines[number - 1]) - len(body)
    repaired = "\n".join(lines)
    return diagnostics, repaired if repaired.endswith("\n") else repaired + "\n"


def _scan_line(line: str, number: int, path: str, diagnostics: list[Diagnostic], previous: int,
               levels: list[tuple[int, int]] | None = None) -> str:
    body = line.lstrip(" \t")
    if not body or body.startswith("#"):
        return line
    lead = line[: len(line) - len(body)]
    if "\t" in lead:
        col = lead.index("\t") + 1
        diagnostics.append(error("DQ0002", _("indent with 4 spaces, not a tab"), Span(path, number, col, number, col + 1),
                                 _("replace each tab at the start of the line with 4 spaces")))
        lead = lead.replace("\t", " " * INDENT)
    written = len(lead)
    if written % INDENT:
        diagnostics.append(error("DQ0003", _("indented by {lead} spaces; indent by a multiple of 4", lead=len(lead)),
                                 Span(path, number, 1, number, len(lead) + 1),
                                 _("each block level is indented 4 spaces more than the line that opens it")))
        lead = " " * (round(len(lead) / INDENT) * INDENT)
    if levels is not None:
        lead = " " * _block_level(written, len(lead), levels)
    too_deep = (MAX_BLOCK_DEPTH + 1) * INDENT
    if len(lead) >= too_deep and (len(lead) <= previous + INDENT or previous >= too_deep):
        # One error for a run of too deep lines: its first line stands in as the block of the
        # line above (so that line gets no "expected a block"), the rest are left out.
        if previous >= too_deep:
            return ""
        diagnostics.append(error("DQ0006", _("blocks nested more than {MAX_BLOCK_DEPTH} levels deep", MAX_BLOCK_DEPTH=MAX_BLOCK_DEPTH),
                                 Span(path, number, len(lead) + 1), _("move the inner part into a scene of its own")))
        return " " * too_deep + '""'
    if previous < 0 and lead:
        diagnostics.append(error("DQ0010", _("the first line cannot be indented"), Span(path, number, 1, number, len(lead) + 1),
                                 _("start the script at the left margin")))
        lead = ""
    elif len(lead) > previous + INDENT:
        diagnostics.append(error("DQ0003", _("indented {value} spaces more than the line above", value=len(lead) - previous),
                                 Span(path, number, 1, number, len(lead) + 1),
                                 _("a block is indented 4 spaces more than the line that opens it")))
        lead = " " * (previous + INDENT)
    return lead + _scan_strings(body, number, len(lead), path, diagnostics)


def _block_level(written: int, rounded: int, levels: list[tuple[int, int]]) -> int:
    """The indentation a line is repaired to, read from the blocks as the file writes them.

    A script indented with 2 (or 3) spaces is reported line by line (DQ0003), and is then
    parsed with the structure it plainly has: deeper than the line above opens a block one
    level in; back to an earlier line's indentation closes blocks to that level. So the
    parser reports no cascade of errors about lines that are only badly indented.
    """
    while levels and levels[-1][0] > written:
        levels.pop()
    if levels and levels[-1][0] == written:
        level = levels[-1][1]
    elif written % INDENT == 0 and all(w % INDENT == 0 for w, _ in levels):
        level = rounded  # a well-indented file: nothing to read
    elif levels:
        # one space off the line above is a slip, two or more a deeper block
        level = levels[-1][1] + INDENT if written > levels[-1][0] + 1 else levels[-1][1]
    else:
        level = rounded
    if levels and levels[-1][0] == written:
        levels[-1] = (written, level)
    else:
        levels.append((written, level))
    return level


def _scan_strings(body: str, number: int, offset: int, path: str, diagnostics: list[Diagnostic]) -> str:
    """Check string lengths and the nesting of conditions; close an unterminated string."""
    depth = deepest = 0
    position = 0
    code = []  # the characters outside strings
    while position < len(body):
        char = body[position]
        if char == "#":
            break
        code.append(char)
        if char == '"':
            match = _STRING_OR_COMMENT.match(body, position)
            assert match is not None  # a `"` always begins a string, closed or not
            col = offset + position + 1
            if not match.group(1):
                diagnostics.append(error("DQ0004", _("this string has no closing `\"`"), Span(path, number, col, number, col + 1),
                                         _("close the string on the same line; a string cannot span lines")))
                return body + '"'
            if match.end() - position - 2 > MAX_STRING_CHARS:
                diagnostics.append(error("DQ0007", _("a string may have at most {MAX_STRING_CHARS:,} characters", MAX_STRING_CHARS=MAX_STRING_CHARS),
                                         Span(path, number, col, number, col + 1), _("split the text into several narration lines")))
            position = match.end()
            continue
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
        position += 1
    nots = len(re.findall(r"\bnot\b", "".join(code)))
    if deepest > MAX_PAREN_DEPTH or nots > MAX_PAREN_DEPTH:
        diagnostics.append(error("DQ0006", _("a condition nested more than {MAX_PAREN_DEPTH} deep (parentheses or `not`)", MAX_PAREN_DEPTH=MAX_PAREN_DEPTH),
                                 Span(path, number, offset + 1), _("simplify the condition")))
        # a condition left without them; spaces where they opened the line would indent it
        return re.sub(r"[()]|\bnot\b", " ", body).lstrip(" ")
    return body


# ---------------------------------------------------------------- stage 2: recovery

_TOKEN_WORDS = {
    "STRING": "a string", "NAME": "a name", "INT": "a number", "_NL": "the end of the line",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block", "COPIES": "a count like `x3`",
    "$END": "the end of the file",
}


def _describe_expected(names: Iterable[str], fragment: str = "") -> str:
    """The tokens Lark expected, in words: `difficulty`, a number, the end of the line..."""
    literals = {t.name: t.pattern.value for t in _lark(fragment).terminals if t.pattern.type == "str"}
    words = sorted({_TOKEN_WORDS.get(n) or f"`{literals.get(n, n.lower())}`" for n in names})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def diagnostic_for(exc: UnexpectedInput, path: str, lines: list[str], line_offset: int = 0,
                   fragment: str = "") -> Diagnostic:
    """One readable diagnostic for a Lark error (line numbers shifted by `line_offset`)."""
    if isinstance(exc, UnexpectedCharacters):
        line, col = exc.line + line_offset, exc.column
        char = exc.char
        hint = _("strings use double quotes") if char in "'“”" else None
        return error("DQ0009", _("unexpected character `{char}`", char=char), Span(path, line, col, line, col + 1), hint)
    token = getattr(exc, "token", None)
    expected = set(getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ())
    if isinstance(exc, UnexpectedEOF) or token is None or token.type == "$END":
        return error("DQ0001", _("unexpected end of file"), Span(path, max(1, exc.line + line_offset) if exc.line > 0 else 1, 1))
    if token.type in ("_INDENT", "_DEDENT"):
        line, col = (token.end_line or token.line) + line_offset, token.end_column or 1
    elif token.type == "_NL":
        line = token.line + line_offset
        col = _code_end(lines[line - 1]) if 0 < line <= len(lines) else token.column
    else:
        line, col = token.line + line_offset, token.column
    end = col + max(1, len(str(token))) if token.type not in ("_NL", "_INDENT", "_DEDENT") else col + 1
    span = Span(path, line, col, line, end)
    if token.type == "_INDENT":
        return error("DQ0010", _("unexpected indented block"), span, _("only a line that ends with `:` opens a block"))
    if "COLON" in expected and token.type == "_NL":
        return error("DQ0011", _("expected `:` at the end of this line"), span, _("a line that opens an indented block ends with `:`"))
    if expected == {"_INDENT"}:
        return error("DQ0012", _("expected an indented block after the `:`"), span, _("indent the block's lines 4 spaces more"))
    message = _("this line ends too soon") if token.type == "_NL" else _("unexpected `{token}`", token=token)
    hint = _("expected {expected}", expected=_describe_expected(expected, fragment)) if expected else None
    if token.type == "COLON" and "_NL" in expected:
        hint = _("only a line that opens a block ends with `:`")
    words = lines[line - 1].split(None, 1) if 0 < line <= len(lines) else []
    first_word = words[0].rstrip(":") if words else ""
    indented = 0 < line <= len(lines) and lines[line - 1][:1] == " "
    if first_word in _MISPLACED and token.type not in ("_INDENT", "_DEDENT") and (
            indented or first_word not in _DECLARATIONS):
        hint = _MISPLACED[first_word]
    return error("DQ0001", message, span, _other_game(first_word, fragment) or hint)


@lru_cache(maxsize=16)
def _keywords(grammar: str) -> frozenset[str]:
    """The words a grammar (or a system's fragment) spells out in quotes: its keywords."""
    return frozenset(re.findall(r'"([a-z][a-z_]*)"', grammar))


def _other_game(word: str, fragment: str) -> str | None:
    """The hint for a line that begins with another game's keyword (`check` in a Grizzly
    script, `seat` in an MTG-TRPG one): which game has such lines, and how a header names it.
    What the parser expected there would only list this game's words."""
    if not word or word in _keywords(_core_grammar()) or word in _keywords(fragment):
        return None
    owners = [lang for lang in LANGUAGES.values() if lang.grammar and word in _keywords(lang.grammar)]
    owners = [lang for lang in owners  # a game whose grammar holds another's (Isekai adventures) is not named
              if not any(other is not lang and other.grammar in lang.grammar for other in owners)]
    if not owners:
        return None
    games = _(" or ").join(f"{lang.title}, `{'rules 2019' if lang.name == DEFAULT_SYSTEM else 'system ' + lang.name}`"
                           for lang in owners)
    here = next((lang.title for lang in LANGUAGES.values() if lang.grammar == fragment), "")
    return _("`{word}` is a line of {games}, not of {game}: a script's header names its game",
             word=word, games=games, game=here)


# Block lines a GM may put at the wrong place: what the parser expected there says little.
_OUTCOME_HINT = "`success:` and `failure:` go inside a `check …:` or `recruit …:` block, indented 4 spaces more"
_BATTLE_HINT = "`victory:`, `defeat:` and `escape:` go inside a `battle against …:` block, indented 4 spaces more"
_MISPLACED = {
    "else": "`else:` and `else if …:` come right after the block of an `if`, at the indentation of the `if`",
    "success": _OUTCOME_HINT, "failure": _OUTCOME_HINT,
    "victory": _BATTLE_HINT, "defeat": _BATTLE_HINT, "escape": _BATTLE_HINT,
    **{word: f"declare a {word} at the left margin, outside scenes" for word in
       ("flag", "counter", "creature", "planeswalker", "player", "horde", "card")},
    "scene": "a scene starts at the left margin: `scene id \"Title\":`",
}
_DECLARATIONS = {"flag", "counter", "creature", "planeswalker", "player", "horde", "card", "scene"}


def _code_end(line: str) -> int:
    """The column just after a line's last character of code (before a trailing comment)."""
    position = 0
    while position < len(line):
        if line[position] == "#":
            break
        if line[position] == '"':
            match = _STRING_OR_COMMENT.match(line, position)
            assert match is not None  # a `"` always begins a string, closed or not
            position = match.end()
            continue
        position += 1
    return len(line[:position].rstrip()) + 1


def _recover(text: str, path: str, first: UnexpectedInput, fragment: str = "") -> tuple[list[Diagnostic], bool]:
    """Report one error per broken top-level block, or per broken statement of a scene.

    Each broken piece is parsed again on its own, so the search stops after
    MAX_REPORTED_ERRORS errors (and says it stopped): a hostile script of 100,000 broken
    lines would otherwise cost 100,000 parses.
    """
    found: list[Diagnostic] = []
    lines = text.split("\n")
    for start, chunk in _blocks(lines):
        if len(found) > MAX_REPORTED_ERRORS:
            return found[:MAX_REPORTED_ERRORS], True
        problem = _parse_error(chunk, start - 1, fragment)
        if problem is None:
            continue
        if chunk.lstrip().startswith(("scene", "start", "when")):
            inner = _statement_errors(chunk, start, path, lines, MAX_REPORTED_ERRORS + 1 - len(found), fragment)
            if inner:
                found.extend(inner)
                continue
        found.append(diagnostic_for(problem, path, lines, start - 1, fragment))
    if len(found) > MAX_REPORTED_ERRORS:
        return found[:MAX_REPORTED_ERRORS], True
    return found or [diagnostic_for(first, path, lines, 0, fragment)], False


def _blocks(lines: list[str], joined: tuple[re.Pattern[str], re.Pattern[str]] | None = None
            ) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each top-level block: a column-0 line and its indented lines.
    With `joined` = (opening, continuation), a column-0 line matching the continuation goes on
    a block whose first line matches the opening (`else:` and `else if …:` their `if`)."""
    start = 0
    current: list[str] = []
    for number, line in enumerate(lines, start=1):
        if line and not line[0].isspace() and not line.startswith("#") and not (
                current and joined is not None and joined[0].match(current[0]) and joined[1].match(line)):
            if current:
                yield start, "\n".join(current) + "\n"
            start, current = number, [line]
        elif current:
            current.append(line)
    if current:
        yield start, "\n".join(current) + "\n"


_WRAPPER = 'scene recovered "":\n'
_IF_ELSE = (re.compile(r"if\b"), re.compile(r"else\b"))


def _statement_errors(chunk: str, first_line: int, path: str, lines: list[str], limit: int,
                      fragment: str = "") -> list[Diagnostic]:
    """Errors of each 4-space statement of a scene or trigger, parsed inside a stand-in scene
    (the first `limit` of them)."""
    chunk_lines = chunk.split("\n")  # `lines` stays the file's: diagnostics read their line there
    found: list[Diagnostic] = []
    statements = [line[INDENT:] if line.startswith(" " * INDENT) else "" for line in chunk_lines[1:]]
    for start, statement in _blocks(statements, _IF_ELSE):  # an `else:` is parsed with its `if`, never alone
        if len(found) >= limit:
            break
        body = "\n".join((" " * INDENT + line) if line else "" for line in statement.split("\n"))
        problem = _parse_error(_WRAPPER + body, 0, fragment)
        if problem is not None:
            found.append(diagnostic_for(problem, path, lines, first_line + start - 2, fragment))
    return found


def _parse_error(text: str, line_offset: int, fragment: str = "") -> UnexpectedInput | None:
    try:
        _lark(fragment).parse(text)
    except UnexpectedInput as problem:
        return problem
    return None


def _sorted_unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen, result = set(), []
    for d in sorted(diagnostics, key=lambda d: (d.span.line, d.span.col)):
        key = (d.span.line, d.span.col, d.code)
        if key not in seen:
            seen.add(key)
            result.append(d)
    return result


# ---------------------------------------------------------------- stage 3: AST


def unquote(token: str) -> str:
    """The text of a string token: quotes removed, `\\"` and `\\\\` unescaped."""
    return re.sub(r"\\(.)", r"\1", token[1:-1])


@v_args(meta=True)
class AstBuilder(Transformer[Token, ast.Script]):
    """Builds `deckquest.dsl.ast` nodes from the parse tree: one method per grammar rule."""

    subject: str | None = None  # the word a game system's triggers bind (`racer.position`)

    def __init__(self, path: str, text: str = ""):
        super().__init__()
        self.path = path
        self.lines = text.split("\n")
        self.problems: list[Diagnostic] = []
        self.omitted = 0  # problems found after the first MAX_REPORTED_ERRORS

    # helpers
    def _span(self, meta: Meta) -> Span:
        """The node's place; a node spanning lines is shown by its first line, up to its end."""
        if getattr(meta, "empty", True):
            return Span(self.path)
        if meta.end_line == meta.line:
            return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)
        first = self.lines[meta.line - 1] if meta.line <= len(self.lines) else ""
        return Span(self.path, meta.line, meta.column, meta.line, max(meta.column + 1, len(first.rstrip()) + 1))

    def _tok_span(self, token: Token) -> Span:
        line, column = token.line, token.column
        assert line is not None and column is not None  # the parser's tokens carry their place
        return Span(self.path, line, column, token.end_line, token.end_column)

    def _int(self, token: Token, skip: int = 0) -> int:
        """The number a token spells (after `skip` leading characters, e.g. the `x` of `x3`)."""
        digits = token[skip:]
        if len(digits) > 7 or int(digits) > MAX_NUMBER:
            if len(self.problems) < MAX_REPORTED_ERRORS:
                self.problems.append(error("DQ0013", _("numbers may be at most {MAX_NUMBER:,}", MAX_NUMBER=MAX_NUMBER), self._tok_span(token)))
            else:
                self.omitted += 1
            return MAX_NUMBER
        return int(digits)

    def _text(self, token: Token) -> ast.Text:
        return ast.Text(self._tok_span(token), unquote(token))

    # file and header
    def start(self, meta: Meta, items: Children) -> ast.Script:
        fields = ("headers", "uses", "pcs", "npcs", "cards", "flags", "counters", "triggers", "scenes")
        kinds = (ast.ScenarioHeader, ast.Use, ast.PcDecl, ast.NpcDecl, ast.CardDecl, ast.FlagDecl,
                 ast.CounterDecl, ast.Trigger, ast.Scene)
        # each item goes to the field of its node type (Script checks nothing at run time)
        buckets: dict[str, list[Any]] = {name: [] for name in (*fields, "system")}
        bucket_of = dict(zip(kinds, fields))
        for item in items:
            buckets[bucket_of.get(type(item), "system")].append(item)  # else: the game system's own
        headers = buckets["headers"]
        return ast.Script(Span(self.path, 1, 1), headers[0] if headers else None, **buckets)

    def scenario_header(self, meta: Meta, children: Children) -> ast.ScenarioHeader:
        title, *entries = children
        return ast.ScenarioHeader(self._span(meta), unquote(title), entries)

    def _entry(self, meta: Meta, key: str, value: object) -> ast.HeaderEntry:
        return ast.HeaderEntry(self._span(meta), key, value)

    def author(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "author", unquote(c[0]))

    def version(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "version", unquote(c[0]))

    def players(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        low = self._int(c[0])
        return self._entry(meta, "players", (low, self._int(c[1]) if c[1] is not None else low))

    def rules(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "rules", self._int(c[0]))

    def language(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "language", str(c[0]))

    def tags(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "tags", tuple(unquote(t) for t in c))

    def system(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "system", str(c[0]))

    def option(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "option", c[0])

    def reading(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "reading", (str(c[0]), str(c[1])))

    def success_endings(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        """The endings, each with its place: ((name, span), …)."""
        return self._entry(meta, "success_endings", tuple(c))

    def ending(self, meta: Meta, c: Children) -> tuple[str, Span]:
        name = unquote(c[0]) if isinstance(c[0], Token) else c[0]
        return name, self._span(meta)

    def use_decl(self, meta: Meta, c: Children) -> ast.Use:
        return ast.Use(self._span(meta), unquote(c[0]), str(c[1]) if c[1] is not None else None)

    # declarations
    def phrase(self, meta: Meta, c: Children) -> str:
        return " ".join(str(t) for t in c)

    def flag_decl(self, meta: Meta, c: Children) -> ast.FlagDecl:
        return ast.FlagDecl(self._span(meta), str(c[0]))

    def counter_decl(self, meta: Meta, c: Children) -> ast.CounterDecl:
        return ast.CounterDecl(self._span(meta), str(c[0]), c[1] if c[1] is not None else 0)

    # triggers and scenes
    def trigger(self, meta: Meta, c: Children) -> ast.Trigger:
        event, condition, body = c
        return ast.Trigger(self._span(meta), event, condition, body)

    def _event(self, meta: Meta, kind: str, npc: str | None = None, number: int | None = None,
               name_span: Span | None = None) -> ast.Event:
        return ast.Event(self._span(meta), kind, npc, number, name_span)

    def ev_scene_starts(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "scene_starts")

    def ev_scene_ends(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "scene_ends")

    def ev_after_minutes(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "after_minutes", number=self._int(c[0]))

    def scene(self, meta: Meta, c: Children) -> ast.Scene:
        start, name, title, *items = c
        triggers = [i for i in items if isinstance(i, ast.Trigger)]
        body = [i for i in items if not isinstance(i, ast.Trigger)]
        return ast.Scene(self._span(meta), str(name), unquote(title), start is not None, triggers, body)

    def start_kw(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def block(self, meta: Meta, c: Children) -> list[ast.Statement]:
        return list(c)

    # statements
    def narration(self, meta: Meta, c: Children) -> ast.Narration:
        return ast.Narration(self._span(meta), self._text(c[0]))

    def choice(self, meta: Meta, c: Children) -> ast.Choice:
        return ast.Choice(self._span(meta), list(c))

    def choice_option(self, meta: Meta, c: Children) -> ast.ChoiceOption:
        label, condition, body = c
        return ast.ChoiceOption(self._span(meta), self._text(label), condition, body)

    def goto(self, meta: Meta, c: Children) -> ast.Goto:
        return ast.Goto(self._span(meta), c[0].name, c[0].span)

    def end(self, meta: Meta, c: Children) -> ast.End:
        outcome, text = c
        outcome = unquote(outcome) if isinstance(outcome, Token) else outcome
        return ast.End(self._span(meta), outcome, self._text(text) if text is not None else None)

    def end_kind(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def wait(self, meta: Meta, c: Children) -> ast.Wait:
        return ast.Wait(self._span(meta), self._int(c[0]))

    def set_flag(self, meta: Meta, c: Children) -> ast.SetFlag:
        return ast.SetFlag(self._span(meta), c[0].name, c[0].span)

    def clear_flag(self, meta: Meta, c: Children) -> ast.ClearFlag:
        return ast.ClearFlag(self._span(meta), c[0].name, c[0].span)

    def counter_assign(self, meta: Meta, c: Children) -> ast.CounterAssign:
        ref, op, value = c
        return ast.CounterAssign(self._span(meta), ref.name, op, value, ref.span)

    def assign_op(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def if_stmt(self, meta: Meta, c: Children) -> ast.If:
        condition, then, orelse = c
        return ast.If(self._span(meta), condition, then, orelse)

    def else_clause(self, meta: Meta, c: Children) -> list[ast.Statement]:
        block: list[ast.Statement] = c[0]
        return block

    def else_if(self, meta: Meta, c: Children) -> list[ast.Statement]:
        return [c[0]]

    # conditions
    def or_expr(self, meta: Meta, c: Children) -> ast.Or:
        return ast.Or(self._span(meta), list(c))

    def and_expr(self, meta: Meta, c: Children) -> ast.And:
        return ast.And(self._span(meta), list(c))

    def not_expr(self, meta: Meta, c: Children) -> ast.Not:
        return ast.Not(self._span(meta), c[0])

    def npc_is(self, meta: Meta, c: Children) -> ast.NpcIs:
        return ast.NpcIs(self._span(meta), c[0].name, str(c[1]))

    def npc_is_not(self, meta: Meta, c: Children) -> ast.Not:
        return ast.Not(self._span(meta), self.npc_is(meta, c))

    def npc_state(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def compare(self, meta: Meta, c: Children) -> ast.Compare:
        return ast.Compare(self._span(meta), c[1], c[0], c[2])

    def compare_op(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def int_lit(self, meta: Meta, c: Children) -> ast.IntLit:
        return ast.IntLit(self._span(meta), c[0])

    def var(self, meta: Meta, c: Children) -> ast.Var | ast.PcStat | ast.Subject:
        ref = c[0]
        owner, _dot, stat = ref.name.rpartition(".")
        if owner and owner == self.subject:
            return ast.Subject(ref.span, stat)
        if owner and stat in ast.PC_STATS:
            return ast.PcStat(ref.span, owner, stat)
        return ast.Var(ref.span, ref.name)

    def pc_stat_scope(self, meta: Meta, c: Children) -> ast.PcStat:
        return ast.PcStat(self._span(meta), "pc", str(c[0]))

    def party_size(self, meta: Meta, c: Children) -> ast.PartySize:
        return ast.PartySize(self._span(meta))

    def degree(self, meta: Meta, c: Children) -> ast.Degree:
        return ast.Degree(self._span(meta))

    def ref(self, meta: Meta, c: Children) -> ast.NameRef:
        return ast.NameRef(self._span(meta), ".".join(str(t) for t in c))

    def signed(self, meta: Meta, c: Children) -> int:
        return self._int(c[0])

    def negative(self, meta: Meta, c: Children) -> int:
        return -self._int(c[0])


@lru_cache(maxsize=8)
def builder_class(language: LanguageSpec | None) -> type[AstBuilder]:
    """The core transformer merged with a game system's builder methods (one per rule of its
    grammar fragment, ``(self, meta, children)`` like the core's). A builder may subclass
    another system's (an Isekai adventure's builds MTG-TRPG's statements too): the methods
    of its whole class hierarchy are merged, a subclass's winning."""
    if language is None or (language.builder is None and language.subject is None):
        return AstBuilder
    methods = {key: value for cls in reversed((language.builder or object).__mro__)
               for key, value in vars(cls).items() if not key.startswith("__")}
    methods["subject"] = language.subject
    composed = v_args(meta=True)(type(f"{language.name.title()}AstBuilder", (AstBuilder,), methods))
    assert isinstance(composed, type) and issubclass(composed, AstBuilder)  # v_args wraps a class's methods
    return composed

