"""One error family for everything a user can get wrong.

Every user-facing error carries a source span, so the CLI can print
``file:line:col: error: message``, the offending source line, a caret under
the spot and a hint. The CLI turns any :class:`DeckquestError` into that
message and exit code 1; nothing else about errors lives in the CLI.
"""

from __future__ import annotations

import difflib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from deckquest.i18n import _, current, localize, ngettext

# Hostile input can hold hundreds of thousands of errors on lines thousands of characters long
# (docs/packs.md, "Limits and budgets"): a report shows this many errors, and this much of a
# source line around the caret.
MAX_REPORTED_ERRORS = 100
MAX_SHOWN_LINE = 120
MAX_SOURCE_LINE_READ = 1024 * 1024  # characters of a line read to show it (a script's whole limit)


@dataclass(frozen=True)
class Span:
    """A place in a source file: 1-based line and column, end exclusive."""

    file: str
    line: int = 0
    col: int = 0
    end_line: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    """One message about a source file: an error or a warning, with a stable code."""

    severity: str  # "error" or "warning"
    message: str
    span: Span
    code: str = ""
    hint: str | None = None
    source_line: str | None = None

    def render(self) -> str:
        return render(self.severity, self.message, self.span, self.code, self.hint, self.source_line)


def render(
    severity: str,
    message: str,
    span: Span,
    code: str = "",
    hint: str | None = None,
    source_line: str | None = None,
) -> str:
    """Format a message the way compilers do: location, source line, caret, hint; the message
    and hint in the current language (the code stays as it is)."""
    word = severity_word(severity)
    tag = f"{word}[{code}]" if code else word
    lines = [f"{span}: {tag}: {localize(message)}"]
    if source_line is None:
        source_line = read_source_line(span)
    if source_line is not None and span.line > 0:
        text = source_line.rstrip("\n").replace("\t", " ")
        col = max(span.col, 1)
        width = 1
        if span.end_col is not None and (span.end_line in (None, span.line)):
            width = max(1, span.end_col - col)
        text, col = _around(text, col)
        width = min(width, max(1, len(text) - col + 1))
        lines.append(f"    {text}")
        lines.append("    " + " " * (col - 1) + "^" * width)
    if hint:
        lines.append(hint_line(hint))
    return "\n".join(lines)


def severity_word(severity: str) -> str:
    """``error`` or ``warning`` in the current language."""
    return {"error": _("error"), "warning": _("warning")}.get(severity, severity)


def hint_line(hint: str) -> str:
    return _("hint: {hint}", hint=localize(hint))


def _around(text: str, col: int) -> tuple[str, int]:
    """At most MAX_SHOWN_LINE characters of a line, around column `col` (marked `…` where cut),
    and the column in the shortened text."""
    if len(text) <= MAX_SHOWN_LINE:
        return text, col
    start = max(0, min(col - 1 - MAX_SHOWN_LINE // 3, len(text) - MAX_SHOWN_LINE))
    shown = text[start:start + MAX_SHOWN_LINE]
    if start > 0:
        shown = "…" + shown[1:]
    if start + MAX_SHOWN_LINE < len(text):
        shown = shown[:-1] + "…"
    return shown, col - start


def read_source_line(span: Span) -> str | None:
    """The text of the span's line, or None when the file cannot be read.

    The file is opened as every file deckquest reads is (`deckquest.files.open_regular`: a
    FIFO swapped in since it was read is refused, not waited on), and a line is read at most
    MAX_SOURCE_LINE_READ characters at a time, so a file of one huge line costs no more."""
    if span.line <= 0:
        return None
    from deckquest.files import open_regular  # deckquest.files imports this module

    try:
        with io.TextIOWrapper(open_regular(span.file), encoding="utf-8", errors="replace") as handle:
            number = 1
            while text := handle.readline(MAX_SOURCE_LINE_READ):
                if number == span.line:
                    return text
                number += text.endswith("\n")
    except OSError:
        return None
    return None


class DeckquestError(Exception):
    """A user error: bad script, deck list, card name, pack, party or YAML file."""

    code = ""

    def __init__(
        self,
        message: str,
        span: Span | None = None,
        hint: str | None = None,
        *,
        code: str | None = None,
        source_line: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        self.source_line = source_line
        self.language: str | None = current()  # the CLI writes the error in it (unless --lang says)
        if code is not None:
            self.code = code

    def render(self) -> str:
        if self.span is None:
            word = severity_word("error")
            text = f"{word}[{self.code}]: {localize(self.message)}" if self.code else f"{word}: {localize(self.message)}"
            return text + (f"\n{hint_line(self.hint)}" if self.hint else "")
        return render("error", self.message, self.span, self.code, self.hint, self.source_line)


class CompileError(DeckquestError):
    """A script (or set of scripts) has errors; carries every diagnostic, not only the first.

    It keeps the first MAX_REPORTED_ERRORS errors (and the warnings among them); `omitted`
    counts the errors found but not kept, and `stopped` says the checker gave up looking for
    more (its work cap), so a hostile file's report stays short.
    """

    def __init__(self, diagnostics: Sequence[Diagnostic], omitted: int = 0, stopped: bool = False,
                 language: str | None = None):
        errors = [d for d in diagnostics if d.severity == "error"]
        first = errors[0] if errors else diagnostics[0]
        super().__init__(first.message, first.span, first.hint, code=first.code)
        self.diagnostics, more = _first_errors(diagnostics, MAX_REPORTED_ERRORS)
        self.omitted = omitted + more
        self.stopped = stopped
        self.language = language or self.language  # the script's `language`, when its header was read

    def render(self) -> str:
        body = "\n".join(d.render() for d in self.diagnostics)
        count = sum(d.severity == "error" for d in self.diagnostics) + self.omitted
        if self.omitted:
            body += "\n" + ngettext("{count:,} more error not shown", "{count:,} more errors not shown", self.omitted)
        if self.stopped:
            body += "\n" + _("checking stopped there; fix these errors to see the rest")
            return body + "\n" + ngettext("at least {count:,} error", "at least {count:,} errors", count)
        return body + "\n" + ngettext("{count:,} error", "{count:,} errors", count)


def _first_errors(diagnostics: Sequence[Diagnostic], limit: int) -> tuple[list[Diagnostic], int]:
    """The diagnostics up to the `limit`-th error, and how many errors come after it."""
    kept: list[Diagnostic] = []
    errors = more = 0
    for diagnostic in diagnostics:
        is_error = diagnostic.severity == "error"
        if errors >= limit:
            more += is_error
            continue
        errors += is_error
        kept.append(diagnostic)
    return kept, more


class UsageError(DeckquestError):
    """Wrong command-line usage that click itself cannot detect (exit code 2)."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint naming the closest candidate, or None."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    if not matches:
        lowered = {c.lower(): c for c in candidates}
        if word.lower() in lowered:
            matches = [lowered[word.lower()]]
    return _("did you mean `{name}`?", name=matches[0]) if matches else None


def file_span(path: str | Path) -> Span:
    """A span naming a whole file (for errors that have no line)."""
    return Span(str(path))


__all__ = [
    "Span",
    "Diagnostic",
    "DeckquestError",
    "CompileError",
    "UsageError",
    "did_you_mean",
    "file_span",
    "render",
]
