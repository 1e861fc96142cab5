"""Where a script's ``use "…"`` and ``deck "…"`` references point: the locator.

The compiler is handed a locator (``compile_file(..., locator=...)``), so the dsl never
imports ``deckquest.packs``: the command layer hands it ``deckquest.packs.store
.resolve_script_reference``, which also finds installed packs. Without one the compiler
uses ``local_reference``: the script's own pack (the nearest folder with a ``pack.yaml``) or,
for a loose script, its own folder. Either way a shared script is untrusted input, so no
reference may leave its pack.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span

Locator = Callable[[str, Path], Path]  # (reference, the referring script) -> path, or DeckquestError
PACK_MANIFEST = "pack.yaml"
_DRIVE = re.compile(r"^[A-Za-z]:")


def local_reference(reference: str, relative_to: Path) -> Path:
    """A reference inside the script's own pack (or folder); DeckquestError if it leaves it."""
    base = relative_to if relative_to.is_dir() else relative_to.parent
    where = Span(str(relative_to)) if relative_to.is_file() else None
    if reference.startswith("/") or "\\" in reference or "\0" in reference or _DRIVE.match(reference) or not reference:
        raise DeckquestError(_("bad reference `{reference}`: a reference is a relative path with `/`", reference=reference[:80]), where)
    anchor = _pack_root(base) or base.resolve()
    target = (base / reference).resolve()
    try:
        target.relative_to(anchor)
    except ValueError:
        raise DeckquestError(_("`{reference}` leaves the script's pack", reference=reference[:80]), where,
                             hint=_("a script may only name files inside its own pack")) from None
    return target


def _pack_root(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` holding a pack manifest."""
    for candidate in (folder.resolve(), *folder.resolve().parents):
        if (candidate / PACK_MANIFEST).is_file():
            return candidate
    return None
