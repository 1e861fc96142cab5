"""Stable diagnostic codes of the scenario language (documented in docs/errors.md).

A code never changes meaning once released: tools and users grep for them. Deck-list codes
(DQ1xxx) belong to the deck loader and are passed through unchanged.
"""

from __future__ import annotations

from deckquest.errors import Diagnostic, Span

CODES: dict[str, str] = {
    # reading and syntax
    "DQ0001": "syntax error",
    "DQ0002": "tab in indentation",
    "DQ0003": "indentation is not a multiple of 4 spaces",
    "DQ0004": "unterminated string",
    "DQ0005": "script too large",
    "DQ0006": "nesting too deep",
    "DQ0007": "string too long",
    "DQ0008": "too many scenes",
    "DQ0009": "unexpected character",
    "DQ0010": "unexpected indented block",
    "DQ0011": "missing `:` at the end of a block-opening line",
    "DQ0012": "missing indented block",
    "DQ0013": "number too large",
    "DQ0014": "cannot read script",
    # files the commands read and write besides scripts (the CLI gives these)
    "DQ0015": "not a readable sim report of this script",
    "DQ0016": "cannot write an output file",
    # header
    "DQ0020": "missing scenario header",
    "DQ0021": "repeated header or field",
    "DQ0022": "invalid version",
    "DQ0023": "invalid players range",
    "DQ0024": "unknown rules edition",
    "DQ0025": "unknown language",
    # names
    "DQ0030": "name declared twice",
    "DQ0031": "unknown scene",
    "DQ0032": "unknown NPC",
    "DQ0033": "unknown PC",
    "DQ0034": "unknown flag or counter",
    "DQ0035": "wrong kind of name",
    "DQ0036": "check kind not in this rules edition",
    "DQ0037": "`pc` used where no PC is in scope",
    "DQ0038": "`degree` used outside a check",
    "DQ0039": "bad interpolation",
    # blocks
    "DQ0040": "no start scene",
    "DQ0041": "more than one start scene",
    "DQ0042": "scene can end without `->` or `end`",
    "DQ0043": "unreachable scene",
    "DQ0044": "unused declaration",
    "DQ0045": "misplaced or repeated outcome block",
    "DQ0046": "unreachable statement",
    "DQ0047": "bad trigger",
    "DQ0048": "reserved word used as a name",
    # declarations, decks and cards
    "DQ0050": "bad file reference",
    "DQ0051": "deck file not found",
    "DQ0052": "critical card not in the deck",
    "DQ0053": "wrong number of critical cards",
    "DQ0054": "unknown card",
    "DQ0055": "missing field",
    "DQ0056": "field not allowed here",
    "DQ0057": "invalid field value",
    "DQ0058": "rules text not in the effect vocabulary",
    "DQ5000": "deck legal in no constructed format",
    # use
    "DQ0060": "used script not found",
    "DQ0061": "`use` cycle",
    "DQ0062": "namespace used twice",
    # limits against hostile input (docs/packs.md, "Limits and budgets")
    "DQ0100": "too much work for one check",
    "DQ0101": "out of memory",
    "DQ0102": "cannot reach the Dask scheduler",  # sim --scheduler (sim/cluster.py)
    # game systems (deckquest.dsl.language; DQ0100-DQ0119 belong to other core checks)
    "DQ0120": "unknown game system",
    "DQ0121": "`rules` in a script of another game system",
    "DQ0122": "unknown option",
    "DQ0123": "unknown reading",
    "DQ0124": "unknown value of a reading",
    "DQ0125": "option or reading given twice",
    "DQ0126": "a system's subject used where none is in scope",
    "DQ0127": "unknown attribute of a system's subject",
    # the header's `success endings`
    "DQ0130": "a success ending no `end` gives",
    # MTG-TRPG's own checks (DQ5001-DQ5099)
    "DQ5001": "a loop that can only repeat the very same check (T-4.12)",
}


def error(code: str, message: str, span: Span, hint: str | None = None) -> Diagnostic:
    assert code in CODES, code
    return Diagnostic("error", message, span, code, hint)


def warning(code: str, message: str, span: Span, hint: str | None = None) -> Diagnostic:
    assert code in CODES, code
    return Diagnostic("warning", message, span, code, hint)
