"""A language client that speaks the Language Server Protocol's frames itself, over the stdio of
`python -m deckquest lsp`: it can send what a well-behaved client never would (a
`Content-Length: abc`, binary without a header, a body that is not JSON) and still read what
the server answers. The hostile-input tests (tests/hostile/test_hostile_lsp.py), the fuzzer's
stdio half (tests/hostile/fuzzing_lsp.py) and benchmarks/bench_lsp.py use it.

Every wait has a timeout, but only as a guard against a hang: no test asserts how long
anything took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SERVER = ["-m", "deckquest", "lsp"]
HANG_GUARD = 120.0  # seconds: a wait this long means the server is wedged, not slow
Message = dict[str, Any]


def frame(message: Message | bytes) -> bytes:
    """A message as the base protocol frames it: a Content-Length header, a blank line, the body."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Wire:
    """One server process and what it has said: answers by id, notifications in order, stderr."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        env = dict(os.environ if env is None else env)
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        self.process = subprocess.Popen([sys.executable, *SERVER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.answers: dict[Any, Message] = {}
        self.notifications: list[Message] = []
        self.stderr = bytearray()
        self.ended = False  # the server closed its stdout
        self._changed = threading.Condition()
        self._next_id = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # ------------------------------------------------------------ reading

    def _read_stdout(self) -> None:
        out = self.process.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self._record(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None, "a frame from the server without Content-Length"
            self._record(json.loads(out.read(length)))

    def _record(self, message: Message | None) -> None:
        with self._changed:
            if message is None:
                self.ended = True
            elif "method" in message and "id" not in message:
                self.notifications.append(message)
            else:
                self.answers[message.get("id")] = message
            self._changed.notify_all()

    def _read_stderr(self) -> None:
        err = self.process.stderr
        assert err is not None
        for line in err:
            with self._changed:
                self.stderr += line

    # ------------------------------------------------------------ writing

    def send_bytes(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: Message) -> None:
        self.send_bytes(frame(message))

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> str:
        """Send a request; its id (a string: numbers are left to what a test sends itself), to wait
        for its answer with `answer`."""
        self._next_id += 1
        ident = f"wire-{self._next_id}"
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        return ident

    # ------------------------------------------------------------ waiting

    def answer(self, request_id: Any, timeout: float = HANG_GUARD) -> Message:
        """The server's answer to a request (its whole message: result or error)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while request_id not in self.answers:
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    raise AssertionError(f"no answer to request {request_id!r} (server ended: {self.ended}, "
                                         f"stderr: {bytes(self.stderr[-2000:])!r})")
                self._changed.wait(left)
            return self.answers.pop(request_id)

    def call(self, method: str, params: Any, timeout: float = HANG_GUARD) -> Message:
        return self.answer(self.request(method, params), timeout)

    def wait_for(self, method: str, count: int = 1, timeout: float = HANG_GUARD) -> list[Message]:
        """Wait until the server has sent `count` notifications of `method`; all of them so far."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = [n for n in self.notifications if n["method"] == method]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    raise AssertionError(f"{len(found)} of {count} {method} notifications (server ended: "
                                         f"{self.ended}, stderr: {bytes(self.stderr[-2000:])!r})")
                self._changed.wait(left)

    # ------------------------------------------------------------ a session

    def initialize(self) -> Message:
        answer = self.call("initialize", {"processId": None, "capabilities": {},
                                          "rootUri": (ROOT / "scenarios").as_uri()})
        self.notify("initialized", {})
        return answer

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "quest",
                                                              "version": version, "text": text}})

    def change(self, uri: str, version: int, text: str) -> None:
        """A whole-document change (what a client sends when it does not send ranges)."""
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def hover(self, uri: str, line: int, character: int, timeout: float = HANG_GUARD) -> Message:
        return self.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                "position": {"line": line, "character": character}}, timeout)

    def stop(self) -> int:
        """Shut down and exit as an editor does; the exit code (the process is killed if it hangs)."""
        try:
            if not self.ended and self.process.poll() is None:
                self.call("shutdown", None, timeout=30)
                self.notify("exit", None)
                self.process.stdin.close()  # type: ignore[union-attr]
            return self.process.wait(timeout=30)
        except (AssertionError, OSError, subprocess.TimeoutExpired):
            self.kill()
            return self.process.wait()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()

    def __enter__(self) -> Wire:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
