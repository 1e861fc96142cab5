"""`sim --scheduler ADDRESS` where no Dask scheduler answers (issue 28, item 6).

`--scheduler tcp://10.255.255.1:8786` said "deckquest ran out of memory" (DQ0101): the
network there answered every connection with `HTTP/1.1 400 Bad Request`, and Dask read its
first 8 bytes as the length of a message (3.5 × 10^18 bytes: MemoryError). `nonsense` and `""`
printed the right message, then a `Client.__del__` traceback 20 s later; a server that
accepts and says nothing hung the command for ever. Each is now DQ0102 within
`--scheduler-timeout`, exit 2 (the address is the user's), the message and its hint, and
nothing after them. No test uses the network: the servers listen on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed (the `cluster` extra)")

SCRIPT = Path(__file__).resolve().parents[1] / "sim" / "scenarios" / "single_check.quest"
HTTP_REFUSAL = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


class Server:
    """A TCP server on 127.0.0.1, in a thread, that answers each connection with `answer`
    (bytes, or None to say nothing and keep the connection open)."""

    def __init__(self, answer: bytes | None):
        self.answer = answer
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.socket.getsockname()[1]}"
        self.held: list[socket.socket] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:  # closed
                return
            if self.answer is None:
                self.held.append(connection)
            else:
                connection.recv(4096)
                connection.sendall(self.answer)
                connection.close()

    def close(self) -> None:
        self.socket.close()
        for connection in self.held:
            connection.close()


class HandshakeOnly:
    """A Dask endpoint that is not a scheduler: it shakes hands, then hangs up."""

    def __init__(self):
        from distributed.comm import listen

        async def hang_up(comm) -> None:
            await comm.close()

        async def serve() -> None:
            listener = listen("tcp://127.0.0.1:0", hang_up)
            await listener.start()
            self.address = listener.contact_address
            ready.set()
            await self.stop.wait()
            listener.stop()

        ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(serve(),), daemon=True)
        self.thread.start()
        assert ready.wait(60), "the handshake-only server did not start"

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(60)


@pytest.fixture
def server(request):
    made = HandshakeOnly() if request.param == "handshake" else Server(request.param)
    yield made
    made.close()


def refuse(run_hostile, folders, address: str) -> str:
    """`sim --scheduler ADDRESS --scheduler-timeout 1`: DQ0102, exit 2; its stderr."""
    cwd, home = folders
    result = run_hostile(["sim", str(SCRIPT), "-n", "10", "--scheduler", address, "--scheduler-timeout", "1"],
                         cwd=cwd, env_home=home, code="DQ0102", seconds=60)
    assert result.returncode == 2
    lines = result.stderr.splitlines()  # the message and its hint, and nothing after them
    assert len(lines) == 2 and lines[0].startswith(f"error[DQ0102]: cannot reach the Dask scheduler at {address}: ")
    assert lines[1].startswith("hint: start one with `dask scheduler`"), result.stderr
    return lines[0]


@pytest.mark.parametrize("address", ["nonsense", "", "tcp://127.0.0.1:99999"])
def test_a_malformed_address_is_refused_with_nothing_after_it(run_hostile, folders, address):
    """Item 6: `nonsense` and `""` gave the message, then a Client.__del__ traceback 20 s later."""
    assert "not an address such as tcp://HOST:8786" in refuse(run_hostile, folders, address)


def test_nothing_listening_is_refused_within_the_timeout(run_hostile, folders):
    """Item 6: a port nobody listens on (Dask tries again until the timeout, and says so
    unless the deadline of the whole connection comes first)."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    message = refuse(run_hostile, folders, address)
    assert message.endswith(("no answer within 1 s", f"Timed out trying to connect to {address} after 1 s")), message


@pytest.mark.parametrize("server, says", [
    (HTTP_REFUSAL, "something answers there, but not as a Dask scheduler"),
    (None, "no answer within 1 s"),
    ("handshake", ""),  # Dask's own words on the closed connection
], ids=["http", "silent", "handshake-only"], indirect=["server"])
def test_a_server_that_is_not_a_scheduler_is_refused_within_the_timeout(run_hostile, folders, server, says):
    """Item 6: an HTTP answer was DQ0101 (Dask read `HTTP/1.1` as a message length: a
    MemoryError), a silent server hung `sim` for ever, and an endpoint that shook hands and
    hung up left a half-made Client whose close at exit waited 20 s and printed a traceback."""
    assert says in refuse(run_hostile, folders, server.address)
