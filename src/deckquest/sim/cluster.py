"""``sim --scheduler ADDRESS``: the same batch played on a Dask cluster.

Dask (``dask.distributed``) is an optional extra, ``pip install 'deckquest[cluster]'``; it is
imported only here, and only when a scheduler is given. The batch is sent to every worker
once; each chunk of run indexes becomes one task, which plays runs ``run_seed(S, i)``
exactly as a local worker process does and returns its ``Tally``. The parent adds the
tallies up in chunk order (``batch.InOrder``), so the report is byte for byte the one a
local run writes, the ``--precision`` stop included. Every worker must have deckquest (and
the scenario's cards) installed; the script's files are read by the parent alone.

Reaching the scheduler has a deadline (``--scheduler-timeout``, 10 s by default): an address
that is not one, nothing listening, no route, or a server that is not a Dask scheduler
(it answers something else, or nothing) is one coded message, DQ0102, and nothing after it.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Callable

from deckquest.errors import UsageError
from deckquest.i18n import _
from deckquest.sim.batch import Batch, InOrder, Player, Progress, drive
from deckquest.sim.trace import Tally

SCHEDULER_TIMEOUT = 10.0  # seconds to reach the scheduler: connect, and its answer
UNREACHABLE = "DQ0102"

_local = threading.local()  # per worker thread: the batch it prepared and its Player


def _play_on_worker(batch: Batch, bounds: tuple[int, int]) -> Tally:
    """A task: one chunk of runs. The program is prepared once per worker thread and batch
    (a Player is not shared between threads: its agent and program keep run-time caches)."""
    if getattr(_local, "batch", None) is not batch:
        _local.player = Player(batch)
        _local.batch = batch
    return _local.player.play(*bounds)


class _ClusterTask:
    """A Dask future seen as ``batch.Task``: callbacks get the task, cancel always succeeds
    (a cancelled chunk is never counted)."""

    def __init__(self, future):
        self.future = future

    def add_done_callback(self, fn: Callable[["_ClusterTask"], object]) -> None:
        self.future.add_done_callback(lambda _: fn(self))

    def result(self) -> Tally:
        return self.future.result()

    def done(self) -> bool:
        return self.future.done()

    def cancel(self) -> bool:
        if self.future.done():
            return False
        self.future.cancel()
        return True


def _client(address: str, seconds: float):
    """A Dask client of the scheduler at ``address``, reached within ``seconds``."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(_("--scheduler needs Dask, which is not installed"),
                         hint=_("pip install 'deckquest[cluster]' (dask.distributed), here and on every worker")) from None
    reason = _shake_hands(address, seconds)
    if reason is None:
        try:
            return Client(address, timeout=seconds, set_as_default=False)
        except Exception as error:  # it answered the handshake, then not as a scheduler does
            reason = _reason(error, seconds)
    raise UsageError(_("cannot reach the Dask scheduler at {address}: {reason}", address=address, reason=reason),
                     code=UNREACHABLE,
                     hint=_("start one with `dask scheduler` and workers with `dask worker ADDRESS`; "
                            "--scheduler-timeout SECONDS waits longer"))


def _shake_hands(address: str, seconds: float) -> str | None:
    """Why the scheduler at ``address`` cannot be reached within ``seconds``, or None.

    Dask's own connect bounds the connection, then waits for the scheduler's handshake for
    ever (a scheduler that is stuck, or a server that answers nothing, hung `sim`); here the
    whole of it has the deadline. It runs in an event loop of its own, on a thread, whatever
    loop the caller may run (a notebook's); a thread left waiting (for a name server, say)
    is not waited for."""
    from distributed.comm import connect, registry
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        registry.get_backend(scheme)
        if scheme in ("tcp", "tls") and not 0 < parse_host_port(location)[1] < 65536:
            raise ValueError(f"no port {parse_host_port(location)[1]}")
    except ValueError as error:
        return _("not an address such as tcp://HOST:8786 ({error})", error=error)

    async def shake() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=seconds), seconds)
        await comm.close()

    outcome: list[str | None] = []

    def attempt() -> None:
        try:
            asyncio.run(shake())
        except Exception as error:
            outcome.append(_reason(error, seconds))
        else:
            outcome.append(None)

    thread = threading.Thread(target=attempt, name="deckquest-scheduler", daemon=True)
    thread.start()
    thread.join(seconds)
    return outcome[0] if outcome else _("no answer within {seconds:g} s", seconds=seconds)


def _reason(error: Exception, seconds: float) -> str:
    """What a failed connection says, in words (Dask's errors say little or nothing: a server
    that is not a scheduler gave a MemoryError, as its first 8 bytes are read as a length)."""
    if isinstance(error, TimeoutError):
        return _("no answer within {seconds:g} s", seconds=seconds)
    if isinstance(error, OSError):
        return str(error) or type(error).__name__
    return _("something answers there, but not as a Dask scheduler")


def run_on_cluster(address: str, batch: Batch, ranges, merged: InOrder, progress: Progress | None,
                   seconds: float = SCHEDULER_TIMEOUT) -> tuple[int, int]:
    """Play ``ranges`` on the cluster at ``address``, reached within ``seconds``: (the signal
    that interrupted it or 0, worker threads used)."""
    with _client(address, seconds) as client:
        threads = sum(client.nthreads().values())
        if threads == 0:
            raise UsageError(_("the Dask scheduler at {address} has no workers", address=address),
                             hint=_("start workers with `dask worker ADDRESS`"))
        shared = client.scatter(batch, broadcast=True)

        def submit(bounds: tuple[int, int]) -> _ClusterTask:
            return _ClusterTask(client.submit(_play_on_worker, shared, bounds, pure=False))

        stopped_by = drive(submit, 2 * threads, ranges, merged, progress)
    return stopped_by, threads
