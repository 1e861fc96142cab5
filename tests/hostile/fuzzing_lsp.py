"""The language server's input for the fuzzer (issue 28, item 11): the `lsp` kind.

An input of this kind is a mutated script (a bundled scenario of any of the four games, mutated
by tests/hostile/fuzzing.py as the `script` kind is); from it, and a generator seeded with it
(so the script alone reproduces the input), a whole client session is built: `initialize`, the
script opened, then a sequence of edits (typing, deleting, pasting spans of other scenarios,
whole-text replacements, ranges past the end), requests at places in the text (hover,
definition, references, completion, symbols, quick fixes with hostile `data`), saves, closes,
requests on documents never opened, and among them messages with values of the wrong types and
frames broken at the byte level (a bad or wrong `Content-Length`, bytes without a header, cut
frames, LF-only headers, flipped bytes); `shutdown`, `exit`.

The session is fed to a `QuestServer` in this process, through its frame reader and its
handlers, cut into pieces of random sizes (fast: the fuzzer's long runs), or written to a real
`python -m deckquest lsp` over stdio (a few, in CI: tests/hostile/test_fuzz_lsp.py). A crash
is: an internal error the server counted (a handler, the analysis or pygls failed), an answer
with code -32603 or with a traceback in `data`, an intact request left unanswered, a traceback
on stderr, or an analysis that does not finish. A crash's input (what `benchmarks/fuzz.py
--crashes DIR` writes) is the script: `LanguageServerTarget(...).in_process(script)` replays it.
"""

from __future__ import annotations

import copy
import json
import logging
import random
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

HANG_GUARD = 120.0  # seconds: an analysis (or an answer) this late is a hang
REQUESTS = ["textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion",
            "textDocument/documentSymbol", "textDocument/codeAction"]
METHODS = REQUESTS + ["initialize", "shutdown", "deckquest/status", "workspace/executeCommand",
                      "textDocument/formatting", "textDocument/didOpen", "textDocument/didChange",
                      "textDocument/didSave", "textDocument/didClose", "initialized", "$/cancelRequest",
                      "$/setTrace", "workspace/didChangeConfiguration", "deckquest/none", ""]
WRONG_VALUES: list[Any] = [
    None, True, False, 0, -1, 2**31, 2**31 - 1, 2**63, 10**30, 1.5, float("nan"), float("inf"), "", "x", "0",
    "\x00", "\ud800", "é" * 50, [], {}, [[[[[]]]]], {"line": 0}, [0, 0, 0, 0], ["a", "b", "c", "d"],
    {"replace": [0, 0], "with": 5}, {"replace": ["a", 0, 0, 0], "with": "x"}, {"replace": [-1, 0, 0, 0], "with": ""},
    {"replace": [2**40, 0, 0, 0], "with": "x"}, "file:///", "file:///dev/zero", "file:///%00x.quest", "untitled:x",
    "file:///nonexistent/dir/x.quest", "http://example.com/x.quest", "file://host/x.quest", "x" * 3000,
]
SETTLE = None  # a mark in a session: the in-process run waits here until every change is analysed


def add_language_server(fuzzer: Any, tokens: dict[str, list[str]]) -> None:
    """Give tests/hostile/fuzzing.py's Fuzzer the `lsp` kind (when pygls is installed)."""
    try:
        import pygls  # noqa: F401
    except ImportError:  # the server is an optional extra: no pygls, no kind
        return
    tokens.setdefault("lsp", tokens["script"])
    target = LanguageServerTarget(fuzzer.folder, script_seeds(fuzzer), tokens["script"])
    fuzzer.seeds["lsp"] = script_seeds(fuzzer)
    fuzzer.targets["lsp"] = target.in_process


def script_seeds(fuzzer: Any) -> list[str]:
    """The bundled scripts of every game the fuzzer starts from (its `script:GAME` seeds)."""
    return [text for kind, texts in sorted(fuzzer.seeds.items()) if kind.startswith("script:") for text in texts]


class Crash(Exception):
    """What the server did wrong that is not an exception of its own."""


class UnansweredRequest(Crash):
    pass


class TracebackInAnswer(Crash):
    pass


class InternalErrorAnswer(Crash):
    pass


class AnalysisHang(Crash):
    pass


class Session:
    """A client session made from a script and a generator seeded with it: the bytes to write
    (with SETTLE marks), and the ids of the requests that must be answered."""

    def __init__(self, text: str, folder: Path, scripts: list[str], tokens: list[str]) -> None:
        from fuzzing import HOSTILE_VALUES

        self.rng = random.Random(text)
        self.scripts, self.tokens, self.hostile = scripts, tokens, HOSTILE_VALUES
        self.uri = (folder / "fuzz.quest").as_uri()
        self.text = text  # what the client believes the document holds
        self.parts: list[bytes | None] = []
        self.expected: dict[int | str, str] = {}  # request id: method
        self.next_id = 0
        self._build()

    # ------------------------------------------------------------ the session

    def _build(self) -> None:
        rng = self.rng
        self.request("initialize", {"processId": None, "capabilities": {}, "rootUri": self.uri.rsplit("/", 1)[0]})
        self.notify("initialized", {})
        self.notify("textDocument/didOpen", {"textDocument": {"uri": self.uri, "languageId": "quest", "version": 1,
                                                              "text": self.text}})
        steps = [self.type, self.type, self.type, self.delete, self.paste, self.replace, self.ask, self.ask,
                 self.ask, self.settle, self.save, self.reopen, self.unknown_document, self.wrong_message,
                 self.broken_frame, self.broken_frame]
        for _ in range(rng.choice((3, 8, 15, 30))):
            rng.choice(steps)()
        self.parts.append(SETTLE)
        self.request("deckquest/status", None)
        self.request("shutdown", None)
        self.notify("exit", None)

    def message(self, message: dict[str, Any]) -> None:
        """A well-framed message; a request with an id and a method must be answered."""
        body = json.dumps(message).encode("utf-8", "surrogatepass")
        self.parts.append(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        ident = message.get("id")
        if "method" in message and isinstance(ident, (int, str)) and not isinstance(ident, bool):
            self.expected[ident] = str(message["method"])

    def request(self, method: str, params: Any) -> None:
        self.next_id += 1
        self.message({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})

    def notify(self, method: str, params: Any) -> None:
        self.message({"jsonrpc": "2.0", "method": method, "params": params})

    # ------------------------------------------------------------ steps

    def position(self) -> dict[str, int]:
        rng = self.rng
        lines = self.text.split("\n")
        if rng.random() < 0.9:
            line = rng.randrange(len(lines))
            return {"line": line, "character": rng.randint(0, len(lines[line]) + 1)}
        return {"line": rng.choice((len(lines), len(lines) + 3, 2**31 - 1)), "character": rng.choice((0, 2**31 - 1))}

    def change(self, start: dict[str, int], end: dict[str, int], inserted: str) -> None:
        lines = self.text.split("\n")
        offset = self._offset(lines, start), self._offset(lines, end)
        self.text = self.text[:offset[0]] + inserted + self.text[max(offset):]
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": 2 + len(self.parts)},
            "contentChanges": [{"range": {"start": start, "end": end}, "text": inserted}]})

    @staticmethod
    def _offset(lines: list[str], at: dict[str, int]) -> int:
        line = min(at["line"], len(lines))
        before = sum(len(text) + 1 for text in lines[:line])
        return min(before + (min(at["character"], len(lines[line])) if line < len(lines) else 0), len("\n".join(lines)))

    def type(self) -> None:
        """Type a token (or a hostile value, or a line of another script) a character at a time."""
        rng = self.rng
        word = rng.choice((rng.choice(self.tokens), rng.choice(self.hostile),
                           rng.choice(rng.choice(self.scripts).split("\n"))))
        at = self.position()
        for number, character in enumerate(word[:40]):
            here = {"line": at["line"], "character": at["character"] + number}
            self.change(here, here, character)

    def delete(self) -> None:
        start, end = self.position(), self.position()
        self.change(start, end, "")

    def paste(self) -> None:
        other = self.rng.choice(self.scripts)
        at = self.rng.randrange(len(other) + 1)
        where = self.position()
        self.change(where, where, other[at:at + self.rng.choice((10, 200, 2000))])

    def replace(self) -> None:
        self.text = self.rng.choice(self.scripts) if self.rng.random() < 0.5 else self.text[::-1][:5000]
        self.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": 2 + len(self.parts)},
                                               "contentChanges": [{"text": self.text}]})

    def ask(self) -> None:
        method = self.rng.choice(REQUESTS)
        params: dict[str, Any] = {"textDocument": {"uri": self.uri}}
        if method == "textDocument/codeAction":
            at = self.position()
            fix = self.rng.choice(WRONG_VALUES + [{"replace": [at["line"], at["character"], at["line"],
                                                              at["character"] + 3], "with": "hall"}])
            params.update({"range": {"start": at, "end": at}, "context": {"diagnostics": [
                {"range": {"start": at, "end": at}, "message": "m", "data": fix}]}})
        elif method != "textDocument/documentSymbol":
            params["position"] = self.position()
        if method == "textDocument/references":
            params["context"] = {"includeDeclaration": self.rng.random() < 0.5}
        self.request(method, params)

    def settle(self) -> None:
        self.parts.append(SETTLE)

    def save(self) -> None:
        self.notify("textDocument/didSave", {"textDocument": {"uri": self.uri}})

    def reopen(self) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})
        if self.rng.random() < 0.5:
            self.ask()  # on the closed document: null
        self.notify("textDocument/didOpen", {"textDocument": {"uri": self.uri, "languageId": "quest",
                                                              "version": 1, "text": self.text}})

    def unknown_document(self) -> None:
        self.request(self.rng.choice(REQUESTS[:3]), {"textDocument": {"uri": self.uri + ".other"},
                                                     "position": self.position()})

    def wrong_message(self) -> None:
        """A message whose values are of the wrong type, missing, or another method's."""
        rng = self.rng
        self.next_id += 1
        message: Any = {"jsonrpc": "2.0", "id": self.next_id, "method": rng.choice(REQUESTS),
                        "params": {"textDocument": {"uri": self.uri}, "position": self.position(),
                                   "context": {"includeDeclaration": True, "diagnostics": []}}}
        if rng.random() < 0.3:
            del message["id"]
            message["method"] = rng.choice(METHODS)
        for _ in range(rng.choice((1, 1, 2, 3))):
            places = list(_places(message))
            container, key = rng.choice(places)
            choice = rng.randrange(5)
            if choice == 0 and key == "method":
                container[key] = rng.choice(METHODS)
            elif choice == 1 and len(places) > 1:
                del container[key]
            else:
                container[key] = copy.deepcopy(rng.choice(WRONG_VALUES))
        self.message(message)

    def broken_frame(self) -> None:
        """A frame broken at the byte level; the request in it may go unanswered, not later ones."""
        rng = self.rng
        self.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": "textDocument/hover",
                           "params": {"textDocument": {"uri": self.uri}, "position": self.position()}}).encode()
        header = b"Content-Length: %d\r\n\r\n" % len(body)
        choice = rng.randrange(7)
        if choice == 0:  # a length that is not one, or not this body's
            wrong = rng.choice((b"abc", b"-5", b"", b"99999999999", b"0x10", b"1e3", b" 7 7",
                                b"%d" % (len(body) + rng.randint(1, 40)), b"%d" % max(len(body) - rng.randint(1, 40), 1)))
            data = b"Content-Length: " + wrong + b"\r\n\r\n" + body
        elif choice == 1:  # bytes that are no frame at all
            data = rng.randbytes(rng.choice((1, 30, 300, 5000)))
        elif choice == 2:  # a frame cut short
            data = (header + body)[:rng.randrange(len(header) + len(body))]
        elif choice == 3:  # flipped bytes in the body
            flipped = bytearray(body)
            for _ in range(rng.choice((1, 3, 10))):
                flipped[rng.randrange(len(flipped))] = rng.randrange(256)
            data = header + bytes(flipped)
        elif choice == 4:  # headers of every wrong shape
            data = rng.choice((
                b"Content-Length: %d\n\n" % len(body), b"Content-Length: %d\r\n" % len(body),
                b"Content-Type: application/json; charset=latin-1\r\n" + header,
                b"Content-Length: %d\r\nContent-Length: 3\r\n\r\n" % len(body), b"X\r\n" + header,
                b"content-length:%d\r\n\r\n" % len(body), b"Content-Length: %d\r\n: x\r\n\r\n" % len(body))) + body
        elif choice == 5:  # a run of one byte
            data = rng.choice((b"\r\n", b"{", b"}", b"\x00", b"Content-Length: ")) * rng.choice((1, 100, 3000))
        else:  # a frame of a few bytes, then the frame
            data = b"Content-Length: 2\r\n\r\n{}" + header + body
            self.expected[self.next_id] = "textDocument/hover"
        self.parts.append(data)

    # ------------------------------------------------------------ the wire

    def chunks(self) -> list[bytes | None]:
        """The session cut into pieces of random sizes (a frame may end in any piece)."""
        pieces: list[bytes | None] = []
        pending = b""
        for part in self.parts + [SETTLE]:
            if part is not None:
                pending += part
                continue
            while pending:
                size = self.rng.choice((1, 7, 100, 4096, 1 << 20))
                pieces.append(pending[:size])
                pending = pending[size:]
            pieces.append(SETTLE)
        return pieces


def _places(value: Any, container: Any = None, key: Any = None):
    """Every (container, key) of a JSON value, to mutate one."""
    if container is not None:
        yield container, key
    if isinstance(value, dict):
        for name in list(value):
            yield from _places(value[name], value, name)
    elif isinstance(value, list):
        for index in range(len(value)):
            yield from _places(value[index], value, index)


class Capture:
    """The server's stdout, in memory."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        self.closed = True

    def messages(self) -> list[dict[str, Any]]:
        found, rest = [], bytes(self.data)
        while rest:
            header, _, rest = rest.partition(b"\r\n\r\n")
            length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            found.append(json.loads(rest[:length]))
            rest = rest[length:]
        return found


class LanguageServerTarget:
    """The `lsp` kind: a session from a mutated script, fed to a server."""

    def __init__(self, folder: Path, scripts: list[str], tokens: list[str]) -> None:
        self.folder, self.scripts, self.tokens = folder, scripts, tokens
        logging.getLogger("pygls").setLevel(logging.CRITICAL)  # the server counts what matters

    def session(self, text: str) -> Session:
        return Session(text, self.folder, self.scripts, self.tokens)

    def in_process(self, text: str) -> None:
        """Feed the session to a QuestServer in this process; raise what it did wrong."""
        from deckquest.lsp.frames import FrameReader
        from deckquest.lsp.server import QuestServer

        session = self.session(text)
        server = QuestServer(debounce=0.0, patience=0.0)
        said: list[str] = []
        server.say = said.append
        out = Capture()
        server.protocol.set_writer(out)
        reader = FrameReader(server.skip)
        try:
            for piece in session.chunks():
                if piece is None:
                    if not server.documents.settle(HANG_GUARD):
                        raise AnalysisHang(f"an analysis still running after {HANG_GUARD:g} s")
                    continue
                for body in reader.feed(piece):
                    server.receive(body)
            reader.close()
        except SystemExit:  # `exit`: pygls ends the process; here, the session
            pass
        finally:
            server.documents.settle(HANG_GUARD)
            server.shutdown()
        if server.first_failure is not None:
            raise server.first_failure
        check_answers(session, out.messages())

    def over_stdio(self, text: str) -> dict[str, Any]:
        """Write the session to `python -m deckquest lsp`; raise what it did wrong. Its status."""
        from lspwire import Wire

        session = self.session(text)
        with Wire() as wire:
            for part in session.parts[:-3]:  # all but status, shutdown, exit
                if part is not None:
                    wire.send_bytes(part)
            deadline = time.monotonic() + HANG_GUARD
            while (status := wire.call("deckquest/status", None))["result"]["pending"]:
                if time.monotonic() > deadline:
                    raise AnalysisHang(f"analyses still pending after {HANG_GUARD:g} s")
                time.sleep(0.05)
            answers = []
            for ident in session.expected:
                if ident not in (session.next_id - 1, session.next_id):  # status and shutdown: sent by stop()
                    try:
                        answers.append(wire.answer(ident))
                    except AssertionError as unanswered:
                        raise UnansweredRequest(str(unanswered)) from None
            answers += wire.answers.values()
        stderr = bytes(wire.stderr).decode("utf-8", "replace")
        if "Traceback" in stderr:
            raise TracebackInAnswer(f"a traceback on stderr: {stderr[-2000:]}")
        if status["result"]["internalErrors"]:
            raise Crash(f"internal errors: {status['result']['internalErrors']}")
        check_answers(session, answers, complete=False)
        return status["result"]


def check_answers(session: Session, messages: list[dict[str, Any]], complete: bool = True) -> None:
    """No answer is an internal error or carries a traceback; every intact request is answered."""
    answered = set()
    for message in messages:
        if "method" in message:
            continue
        error = message.get("error")
        if error is not None and error.get("data"):
            raise TracebackInAnswer(f"an answer with data: {str(error)[:2000]}")
        if error is not None and error.get("code") == -32603:
            raise InternalErrorAnswer(f"an internal error answered: {error}")
        answered.add(message.get("id"))
    missing = {ident: method for ident, method in session.expected.items() if ident not in answered}
    if complete and missing:
        raise UnansweredRequest(f"{len(missing)} requests without an answer: {dict(list(missing.items())[:5])}")
