"""``sim --scheduler ADDRESS``: the same batch played on a Dask cluster.

Dask (``dask.distributed``) is an optional extra, ``pip install 'deckquest[cluster]'``; it is
imported only here, and only when a scheduler is given. The batch is sent to every worker
once; each chunk of run indexes becomes one task, which plays runs ``run_seed(S, i)``
exactly as a local worker process does and returns its ``Tally``. The parent adds the
tallies up in chunk order (``batch.InOrder``), so the report is byte for byte the one a
local run writes, the ``--precision`` stop included. Every worker must have deckquest (and
the scenario's cards) installed; the script's files are read by the parent alone.
"""

from __future__ import annotations

import threading
from typing import Callable

from deckquest.errors import UsageError
from deckquest.sim.batch import Batch, InOrder, Player, Progress, drive
from deckquest.sim.trace import Tally

CONNECT_TIMEOUT = "10s"

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


def _client(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask, which is not installed",
                         hint="pip install 'deckquest[cluster]' (dask.distributed), here and on every worker") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {error}",
                         hint="start one with `dask scheduler` and workers with `dask worker ADDRESS`") from None


def run_on_cluster(address: str, batch: Batch, ranges, merged: InOrder,
                   progress: Progress | None) -> tuple[bool, int]:
    """Play ``ranges`` on the cluster at ``address``: (the signal that interrupted it or 0,
    worker threads used)."""
    with _client(address) as client:
        threads = sum(client.nthreads().values())
        if threads == 0:
            raise UsageError(f"the Dask scheduler at {address} has no workers",
                             hint="start workers with `dask worker ADDRESS`")
        shared = client.scatter(batch, broadcast=True)

        def submit(bounds: tuple[int, int]) -> _ClusterTask:
            return _ClusterTask(client.submit(_play_on_worker, shared, bounds, pure=False))

        stopped_by = drive(submit, 2 * threads, ranges, merged, progress)
    return stopped_by, threads
