"""The work one compile may do: how many bytes of script it parses and how many scripts.

A script is untrusted input, and its `use` lines bring in more: each `use` compiles the used
script again (two scripts that both use a third compile it twice), so a small diamond of
`use` lines, or a pack of many 1 MB scripts, could make one command parse gigabytes. A
`CompileBudget` is charged for every script text before it is parsed and refuses (DQ0100)
once the total passes its limits. One compile gets its own budget; a caller checking many
scripts together (a pack) passes one budget to all their compiles, so the limits hold for
the whole pack (docs/packs.md, "Limits and budgets").
"""

from __future__ import annotations

from deckquest.i18n import _
from deckquest.dsl.diagnostics import error
from deckquest.errors import CompileError, Span

MAX_COMPILE_BYTES = 4_000_000  # four scripts at the 1 MB file limit
MAX_COMPILE_SCRIPTS = 200  # a script and the scripts it uses, counted once per `use`
MAX_PACK_SCRIPT_BYTES = 4_000_000  # all the scripts a pack's validation compiles, together


class CompileBudget:
    """Bytes of script text and scripts parsed so far, against their limits."""

    def __init__(self, max_bytes: int = MAX_COMPILE_BYTES, max_scripts: int = MAX_COMPILE_SCRIPTS):
        self.max_bytes = max_bytes
        self.max_scripts = max_scripts
        self.bytes = 0
        self.scripts = 0

    def charge(self, text: str, span: Span) -> None:
        """Count one script's text before it is parsed; DQ0100 when a limit is passed."""
        self.bytes += len(text)
        self.scripts += 1
        if self.bytes > self.max_bytes:
            self._refuse(f"checking this needs more than {self.max_bytes:,} bytes of script", span)
        if self.scripts > self.max_scripts:
            self._refuse(f"checking this compiles more than {self.max_scripts:,} scripts", span)

    def _refuse(self, message: str, span: Span) -> None:
        raise CompileError([error("DQ0100", message, span,
                                  _("a script used by several others is compiled once per `use`: use it from fewer places, or split the adventure into smaller scenarios"))])
