"""The files deckquest is given and the files it writes.

Reading: every file is opened by `open_regular` (and read whole by `read_regular`, bounded),
which refuses a FIFO, a device or a socket without blocking on it. Writing: `write_atomically`
never leaves a half-written file, and `write_error` (`writing` around other writes) says why a
write failed, a full disk as a full disk.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from deckquest.i18n import _
from deckquest.errors import DeckquestError, file_span

#: The errors of a write that ran out of room: a full disk, a full quota, or a file over the
#: size limit of the file system or of the process (RLIMIT_FSIZE).
NO_SPACE = frozenset(code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EFBIG) if code is not None)


def write_atomically(path: str | os.PathLike[str], text: str, *, code: str, hint: str | None = None) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`.

    An error or an interruption leaves `path` as it was and no temporary file behind; a
    failed write is a DeckquestError of `code` (`write_error`). The file gets the usual
    permissions for a new file (mkstemp's would make it private to its owner).
    """
    path = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise write_error(path, error, code, hint) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise write_error(path, error, code, hint) from None
        raise


def write_error(path: str | os.PathLike[str], error: OSError, code: str, hint: str | None = None) -> DeckquestError:
    """The DeckquestError of `code` for a failed write of `path`: a full disk (a full quota, a
    file-size limit) says so with a hint of its own, anything else names the system's reason."""
    if error.errno in NO_SPACE:
        return DeckquestError(_("no space left on device writing {path}", path=path), file_span(path), code=code,
                              hint=_("free some disk space (or raise the quota or file-size limit that stopped it), then try again"))
    return DeckquestError(_("cannot write {path}: {strerror}", path=path, strerror=error.strerror), file_span(path),
                          hint=hint, code=code)


@contextmanager
def writing(place: str | os.PathLike[str], code: str, hint: str | None = None) -> Iterator[None]:
    """Around work that only writes under `place` (a folder being filled, a file being
    made): its OSError becomes the DeckquestError of `code` naming `place` (`write_error`)."""
    try:
        yield
    except OSError as error:
        raise write_error(place, error, code, hint) from None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or (where links are not followed) a link."""


class TooLarge(OSError):
    """The file holds more than the bytes allowed; ``size`` is at least one more than that."""

    def __init__(self, path: str, limit: int, size: int):
        super().__init__(errno.EFBIG, _("it is larger than the {limit:,} bytes allowed", limit=limit), path)
        self.limit = limit
        self.size = size


# Not every platform has these: Windows has no O_NONBLOCK (nor FIFOs in its file system) and no
# O_NOFOLLOW (the lstat before opening is then the only guard against a link), and opens in
# text mode unless told O_BINARY. Without O_NONBLOCK, os.set_blocking is not needed (nor there
# before Python 3.12).
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def open_regular(path: str | os.PathLike[str], *, follow_links: bool = True) -> BinaryIO:
    """Open `path` for reading bytes, only if it is a plain file: the one way deckquest opens a
    file it is given (scripts, deck lists, saves, party files, card data, packs, reports).

    A FIFO would block the open and every read, a device (`/dev/zero`) never ends, and neither
    says what it holds in `st_size`: both are refused, without blocking. The path is looked
    at first, so a special file is refused before it is opened; then it is opened without
    blocking and the open descriptor is looked at again (`fstat`), so a file swapped for a FIFO
    or a device in between is refused too. A loose file the user names may be a link to a
    plain file (`follow_links`); a pack's files may not (``follow_links=False``: a link is
    refused, even one swapped in after the look).

    Raises NotRegularFile, IsADirectoryError for a folder, or the OSError of `os.open`.
    """
    name = os.fspath(path)
    _refuse_special(name, (os.stat(name) if follow_links else os.lstat(name)).st_mode)
    try:
        descriptor = os.open(name, os.O_RDONLY | _NONBLOCK | _BINARY | (0 if follow_links else _NOFOLLOW))
    except OSError as error:
        if not follow_links and error.errno == errno.ELOOP:  # a link swapped in since the lstat
            raise NotRegularFile(errno.ELOOP, _("it is a symbolic link, not a regular file"), name) from None
        raise
    try:
        _refuse_special(name, os.fstat(descriptor).st_mode)
        if _NONBLOCK:
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: str | os.PathLike[str], limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of the plain file `path` (see `open_regular`), at most `limit` of them.

    At most `limit + 1` bytes are read, never trusting `st_size` (a file can grow, and
    `/proc` files say 0): a larger file raises TooLarge at the cost of a small one.
    """
    with open_regular(path, follow_links=follow_links) as handle:
        data = handle.read(limit + 1)
        if len(data) > limit:
            raise TooLarge(os.fspath(path), limit, max(os.fstat(handle.fileno()).st_size, len(data)))
    return data


def _refuse_special(name: str, mode: int) -> None:
    """Raise unless `mode` is a plain file's: IsADirectoryError for a folder, else NotRegularFile."""
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    raise NotRegularFile(errno.EINVAL, _special_kind(mode), name)


def _special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return _("it is a FIFO (named pipe), not a regular file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("it is a device, not a regular file")
    if stat.S_ISSOCK(mode):
        return _("it is a socket, not a regular file")
    if stat.S_ISLNK(mode):
        return _("it is a symbolic link, not a regular file")
    return _("it is not a regular file")
