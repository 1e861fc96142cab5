"""Writing output files so that a user never sees a half-written one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from deckquest.errors import DeckquestError, file_span


def write_atomically(path, text: str, hint: str | None = None) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`.

    An error or an interruption leaves `path` as it was. The file gets the usual
    permissions for a new file (mkstemp's would make it private to its owner).
    """
    path = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise DeckquestError(f"cannot write {path}: {error.strerror}", file_span(path), hint=hint) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise DeckquestError(f"cannot write {path}: {error.strerror}", file_span(path)) from None
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
