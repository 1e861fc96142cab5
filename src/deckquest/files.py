"""Writing output files so that a user never sees a half-written one."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from deckquest.i18n import _
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
        raise DeckquestError(_("cannot write {path}: {strerror}", path=path, strerror=error.strerror), file_span(path), hint=hint) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise DeckquestError(_("cannot write {path}: {strerror}", path=path, strerror=error.strerror), file_span(path)) from None
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def read_bounded(path, limit: int) -> bytes | None:
    """The bytes of the regular file at `path`, or None when it holds more than `limit` bytes.

    Never reads more than `limit + 1` bytes, so the refusal costs nothing whatever the file's
    size, and refuses a FIFO or a device before opening it (`st_size` says nothing about what
    they would give, and a FIFO would block). Raises OSError like `open` (IsADirectoryError
    for a folder, FileNotFoundError...), and `NotRegularFile` for anything else that is not
    a plain file.
    """
    status = os.stat(path)
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(status.st_mode):
        raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
    if status.st_size > limit:
        return None
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    return None if len(data) > limit else data

class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket, a folder or a link: not a plain file."""


def open_regular(path) -> int:
    """Open `path` for reading only if it is a plain file; return the file descriptor.

    `lstat` refuses a special file (FIFO, device, socket) or a link before it is opened,
    so a FIFO never blocks and a device is never touched. The file is then opened
    without following links and without blocking, and checked again with `fstat`,
    so a file swapped for a FIFO between the two steps is refused too.
    """
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise NotRegularFile(f"{path} is not a regular file")
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise NotRegularFile(f"{path} is not a regular file")
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def read_regular(path, limit: int) -> bytes:
    """At most `limit + 1` bytes of the plain file `path` (one more than allowed shows it is too big).

    The size is what is read, never `st_size`, which a growing file or a
    device can misstate. Raises NotRegularFile or OSError.
    """
    with os.fdopen(open_regular(path), "rb") as handle:
        return handle.read(limit + 1)
