"""The frames of the Language Server Protocol's base protocol, cut from a byte stream that may
hold anything (issue 28, item 5).

A frame is a header (``Content-Length: N``, maybe ``Content-Type: ...``, each line ended by
CRLF), a blank line, and N bytes of body. pygls' own reader waits for a header line that
matches exactly and counts on every body being followed by a line break: one
``Content-Length: abc``, or bytes without a header, leaves the next header glued to the end of
a line it never matches again, and the server never answers again. ``FrameReader`` instead
looks for the next ``Content-Length:`` wherever it is, so whatever is not a frame (a header
that does not parse, a length over the limit, bytes before a header, a body cut short by the
next frame) is skipped, reported, and the frames after it are read as usual.

It is a push parser (``feed`` bytes, get bodies): the stdio loop feeds what ``os.read``
returns, and the fuzzer feeds bytes without a process (tests/hostile/fuzzing_lsp.py).
"""

from __future__ import annotations

import re
from typing import Callable

from deckquest.i18n import _, ngettext

MAX_FRAME = 16 * 1024 * 1024  # bytes of body: a 1 MB script (the script limit) escaped, with room
MAX_HEADER = 4096  # bytes from `Content-Length:` to the blank line that ends the header
HEADER = re.compile(rb"content-length:", re.IGNORECASE)
HEADER_END = re.compile(rb"\r?\n\r?\n")
HEADER_LINES = re.compile(rb"(?:[!-9;-~]+:[^\r\n]*\r?\n)*\s*")  # what may stand before `Content-Length:`
# A frame's start inside a body: valid JSON never holds it (a raw line break only stands between
# tokens, and `Content-Length` can only be inside a string), so a body holding it was cut short.
FRAME_START = re.compile(rb"content-length:[ \t]*\d+[ \t]*\r?\n", re.IGNORECASE)
KEPT = len(b"content-length:") - 1  # bytes kept at the end of skipped input: a header's start


class FrameReader:
    """Cuts a byte stream into frame bodies, skipping (and reporting) whatever is not a frame."""

    def __init__(self, skipped: Callable[[str], None] = lambda reason: None, limit: int = MAX_FRAME) -> None:
        self.skipped = skipped  # told why, each time input is skipped
        self.limit = limit
        self.buffer = bytearray()
        self._length: int | None = None  # the body length of the frame being read, once its header is
        self._scanned = 0  # how much of that body was searched for the next frame's start
        self._stray = 0  # bytes skipped since the last frame, reported when the next header is found

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data``; the bodies of the frames it completes."""
        self.buffer += data
        bodies = []
        while (body := self._next()) is not None:
            bodies.append(body)
        return bodies

    def close(self) -> None:
        """The end of input: report what was left of a frame or of stray bytes."""
        if self._length is not None:
            self.skipped(_("a frame the input ended in (its Content-Length {length}, {count} received)",
                           count=len(self.buffer), length=self._length))
        elif self.buffer.strip() or self._stray:
            self._stray += len(self.buffer)
            self._report_stray()
        self.buffer.clear()

    def _next(self) -> bytes | None:
        while True:
            if self._length is None and not self._header():
                return None
            length = self._length
            assert length is not None
            start = FRAME_START.search(self.buffer, max(self._scanned - 64, 0), min(len(self.buffer), length))
            if start is not None:
                self.skipped(_("a frame shorter than its Content-Length of {length}: the next frame starts "
                               "inside it", length=length))
                del self.buffer[:start.start()]
                self._length = None
                continue
            if len(self.buffer) < length:
                self._scanned = len(self.buffer)
                return None
            body = bytes(self.buffer[:length])
            del self.buffer[:length]
            self._length = None
            end = body.rstrip().rfind(b"}") + 1
            if end == len(body.rstrip()):
                return body
            # Not a JSON object: a length a little too long takes the start of the next frame's
            # header with it; the bytes after the object's last `}` are read again.
            self.skipped(_("a frame whose body is not a JSON object (a Content-Length of {length} may be "
                           "wrong)", length=length))
            self.buffer[:0] = body[end:]

    def _header(self) -> bool:
        """Read the next valid header into ``_length``; False when more input is needed."""
        while True:
            found = HEADER.search(self.buffer)
            if found is None:
                drop = max(len(self.buffer) - KEPT, 0)
                if self.buffer[:drop].strip():
                    self._stray += drop
                del self.buffer[:drop]
                return False
            before = bytes(self.buffer[:found.start()])
            if before and HEADER_LINES.fullmatch(before) is None:
                self._stray += len(before)
            del self.buffer[:found.start()]
            self._report_stray()
            end = HEADER_END.search(self.buffer, 0, MAX_HEADER + 4)
            if end is None and len(self.buffer) <= MAX_HEADER:
                return False
            if end is None or end.start() > MAX_HEADER:
                self.skipped(_("a header without the blank line that ends it"))
                del self.buffer[:KEPT]
                continue
            length, reason = self._length_of(bytes(self.buffer[:end.start()]))
            if length is None:
                self.skipped(reason)
                del self.buffer[:KEPT]  # a `Content-Length:` further on is looked for again
                continue
            del self.buffer[:end.end()]
            self._length, self._scanned = length, 0
            return True

    def _length_of(self, header: bytes) -> tuple[int | None, str]:
        """The body length a header states, or None and why the header is refused."""
        length = None
        for line in re.split(rb"\r?\n", header):
            name, colon, value = line.partition(b":")
            if not colon or not re.fullmatch(rb"[!-9;-~]+", name):
                return None, _("a header line that is not `Name: value`: {line}", line=_shown(line))
            if HEADER.search(line, 1):
                return None, _("a header line holding a second header: {line}", line=_shown(line))
            if name.lower() != b"content-length":
                continue
            digits = value.strip(b" \t")
            if not digits.isdigit() or len(digits) > 12:
                return None, _("a Content-Length that is not a number of bytes: {value}", value=_shown(digits))
            stated = int(digits)
            if length is not None and stated != length:
                return None, _("two different Content-Length headers")
            if stated == 0 or stated > self.limit:
                return None, _("a frame of {length} bytes (a frame holds 1 to {limit} bytes)", length=stated,
                               limit=self.limit)
            length = stated
        return length, ""

    def _report_stray(self) -> None:
        if self._stray:
            self.skipped(ngettext("{count} byte that is not part of a frame", "{count} bytes that are not part of a frame",
                                  self._stray))
            self._stray = 0


def _shown(raw: bytes) -> str:
    """A header's bytes in a message: printable, and short."""
    text = raw[:60].decode("ascii", "backslashreplace")
    return repr(text + ("…" if len(raw) > 60 else ""))
