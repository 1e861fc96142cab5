"""Reading huge JSON files one element at a time.

Card data files are large (Scryfall's all-cards is over 2 GB), so they are never
loaded whole. :class:`JsonStream` keeps a sliding text buffer of about one chunk
plus the element being read, decodes one element with the standard library's
``JSONDecoder.raw_decode`` and drops what it has consumed. Memory therefore stays
flat whatever the file's size. Faults are reported as a :class:`MalformedJsonError`
at the file's own line and column.

A card data file may come from anywhere, so one element is bounded: it may hold at
most :data:`MAX_VALUE_CHARS` characters (a real card object holds a few kilobytes;
without a bound a 200 MB object took 1.4 GB), it may not nest deeper than Python's
recursion limit lets the decoder go (about 1,000 levels; a real one nests 5), and an
integer of more than :data:`MAX_INT_DIGITS` digits is read as infinity rather than
converted (Python refuses to convert 4,300 digits and more, and no field of a card
needs more than 7; the importer then skips the object by reason). A value too large
or too deep is a coded error (DQ8005, DQ8004), never a traceback.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span

CHUNK_BYTES = 1 << 20
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_EXCERPT_BEFORE = 60
_EXCERPT_AFTER = 20
_TOKEN_REACH = 16  # longer than any literal (`-Infinity`) or escape (`\\uXXXX`) cut by a chunk end
MAX_VALUE_CHARS = 8 * 1024 * 1024
"""The most characters one element of a card file may hold (8 Mi; real ones hold kilobytes)."""
MAX_INT_DIGITS = 64

MALFORMED_JSON = "DQ8003"
NESTED_TOO_DEEPLY = "DQ8004"
VALUE_TOO_LARGE = "DQ8005"
NOT_UTF8 = "DQ8006"


class MalformedJsonError(DeckquestError):
    """A card data file that is not the JSON it claims to be.

    The offending line may be the whole file (minified JSON is one line), so the
    error carries an excerpt around the fault instead of letting the renderer
    read the line from disk.
    """

    def __init__(self, message: str, span: Span, excerpt: str, caret: int, hint: str | None = None,
                 code: str = MALFORMED_JSON):
        super().__init__(message, span, hint, code=code)
        self.excerpt = excerpt
        self.caret = caret

    def render(self) -> str:
        lines = [f"{self.span}: error[{self.code}]: {self.message}"]
        if self.excerpt:
            lines.append(f"    {self.excerpt}")
            lines.append("    " + " " * self.caret + "^")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


class JsonStream:
    """A JSON text read incrementally from a binary file.

    `on_progress`, when given, is called with the number of bytes read so far
    after each chunk (for a progress bar).
    """

    def __init__(
        self,
        handle: BinaryIO,
        path: str | Path,
        *,
        chunk_bytes: int | None = None,
        on_progress: Callable[[int], None] | None = None,
    ):
        self._handle = handle
        self.path = str(path)
        self._chunk_bytes = chunk_bytes or CHUNK_BYTES
        self._on_progress = on_progress
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self._json = json.JSONDecoder(parse_int=_bounded_int)
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._bytes_read = 0
        # Line and column (1-based) of buffer index 0.
        self._base_line = 1
        self._base_col = 1

    # -- the two shapes card files come in -------------------------------------------

    def array_items(self) -> Iterator[object]:
        """The elements of a top-level JSON array (a Scryfall bulk file)."""
        self._expect("[", "expected a JSON array `[` at the start of the file")
        if self._peek() == "]":
            self._pos += 1
        else:
            while True:
                yield self._value()
                if self._separator("]"):
                    break
        self._expect_end()

    def members_of(self, wanted: str) -> Iterator[tuple[str, object]]:
        """The members of the object under top-level key `wanted` (MTGJSON's "data").

        Other top-level members (MTGJSON's "meta") are decoded and dropped. A file
        without `wanted` is an error at its end.
        """
        self._expect("{", "expected a JSON object `{` at the start of the file")
        found = False
        if self._peek() == "}":
            self._pos += 1
        else:
            while True:
                key = self._key()
                if key == wanted and not found:
                    found = True
                    self._expect("{", f'expected the value of "{wanted}" to be a JSON object `{{`')
                    yield from self._members()
                else:
                    self._value()
                if self._separator("}"):
                    break
        if not found:
            raise self._error_here(f'no "{wanted}" object in the file')
        self._expect_end()

    def _error_here(self, message: str, hint: str | None = None) -> MalformedJsonError:
        return self._error(message, self._pos, hint)

    # -- grammar ----------------------------------------------------------------------

    def _members(self) -> Iterator[tuple[str, object]]:
        """Members of an object whose `{` was just consumed, through its `}`."""
        if self._peek() == "}":
            self._pos += 1
            return
        while True:
            key = self._key()
            yield key, self._value()
            if self._separator("}"):
                return

    def _key(self) -> str:
        if self._peek() != '"':
            raise self._error_here("expected a string key `\"`")
        key = self._value()
        self._expect(":", "expected `:` after the key")
        return key  # type: ignore[return-value]

    def _separator(self, closer: str) -> bool:
        """Consume `,` (False: more follow) or `closer` (True: the container ends)."""
        char = self._peek()
        if char == ",":
            self._pos += 1
            return False
        if char == closer:
            self._pos += 1
            return True
        if char == "":
            raise self._error_here(f"the file ends before the closing `{closer}`", "the download may be incomplete")
        raise self._error_here(f"expected `,` or `{closer}`")

    def _expect(self, char: str, message: str) -> None:
        if self._peek() != char:
            raise self._error_here(message)
        self._pos += 1

    def _expect_end(self) -> None:
        if self._peek() != "":
            raise self._error_here("unexpected text after the end of the JSON value")

    # -- buffer -----------------------------------------------------------------------

    def _peek(self) -> str:
        """The next non-whitespace character ("" at the end of the file), not consumed."""
        while True:
            self._pos = _WHITESPACE.match(self._buf, self._pos).end()
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._fill():
                return ""

    def _value(self) -> object:
        """Decode one complete JSON value at the cursor, reading more text as needed.

        A decoding error within the last few characters of the buffer (or an
        unterminated string) may only mean that the value goes on in the next
        chunk; anywhere else, or once the file has ended, it is a real fault.
        """
        self._peek()
        while True:
            start = self._pos
            try:
                value, end = self._json.raw_decode(self._buf, start)
            except json.JSONDecodeError as fault:
                truncated = fault.msg.startswith("Unterminated string") or fault.pos >= len(self._buf) - _TOKEN_REACH
                if self._eof or not truncated:
                    hint = _("the file ends inside a value: the download may be incomplete") if truncated else None
                    raise self._error(f"malformed JSON: {fault.msg}", fault.pos, hint) from None
                self._more(start)
                continue
            except RecursionError:
                raise self._error("JSON nested too deeply (more than about 1,000 levels of `[` or `{`)", start,
                                  "a card data file nests a few levels; this one is damaged or hostile",
                                  NESTED_TOO_DEEPLY) from None
            # A number ending near the end of the buffer ("1." of "1.5") may go on in the next chunk.
            if end > len(self._buf) - _TOKEN_REACH and not self._eof:
                self._more(start)
                continue
            self._pos = end
            return value

    def _more(self, start: int) -> None:
        """Read on into the value at `start`, refusing it once it is larger than any card object."""
        if len(self._buf) - start > MAX_VALUE_CHARS:
            raise self._error(f"one JSON value of more than {MAX_VALUE_CHARS // (1024 * 1024)} Mi characters",
                              start, "a card object holds a few kilobytes; this file is damaged or hostile",
                              VALUE_TOO_LARGE)
        self._fill()

    def _fill(self) -> bool:
        """Drop consumed text and append the next chunk; False at the end of the file."""
        if self._eof:
            return False
        self._compact()
        data = self._handle.read(self._chunk_bytes)
        self._bytes_read += len(data)
        try:
            text = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as fault:
            raise self._error(f"the file is not UTF-8 text ({fault.reason})", len(self._buf), code=NOT_UTF8) from None
        self._buf += text
        if not data:
            self._eof = True
        if self._on_progress is not None:
            self._on_progress(self._bytes_read)
        return bool(text) or not self._eof

    def _compact(self) -> None:
        if self._pos == 0:
            return
        self._base_line, self._base_col = self._line_col(self._pos)
        self._buf = self._buf[self._pos:]
        self._pos = 0

    def _line_col(self, index: int) -> tuple[int, int]:
        newlines = self._buf.count("\n", 0, index)
        if newlines == 0:
            return self._base_line, self._base_col + index
        return self._base_line + newlines, index - self._buf.rfind("\n", 0, index)

    def _error(self, message: str, index: int, hint: str | None = None,
               code: str = MALFORMED_JSON) -> MalformedJsonError:
        line, col = self._line_col(index)
        line_start = self._buf.rfind("\n", 0, index) + 1
        line_end = self._buf.find("\n", index)
        if line_end < 0:
            line_end = len(self._buf)
        begin = max(line_start, index - _EXCERPT_BEFORE)
        excerpt = self._buf[begin:min(line_end, index + _EXCERPT_AFTER)].replace("\t", " ").rstrip("\r")
        return MalformedJsonError(message, Span(self.path, line, col, line, col + 1), excerpt, index - begin, hint,
                                  code)


def _bounded_int(digits: str) -> int | float:
    """A JSON integer; one too long to be any card's value is read as (signed) infinity.

    Python refuses to convert integers of 4,300 digits or more (a ValueError inside the
    decoder), and converting a long one costs time quadratic in its length."""
    if len(digits) > MAX_INT_DIGITS:
        return -math.inf if digits.startswith("-") else math.inf
    return int(digits)
