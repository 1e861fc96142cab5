"""``simulate``: many seeded runs of one scenario, on worker processes, into a ``Report``.

Run ``i`` of a batch seeded ``S`` is seeded ``run_seed(S, i)`` and nothing else, and the
tallies of the chunks are added up in chunk order, so a batch gives the same report on one
job or twelve, or on a Dask cluster (sim/cluster.py). Workers come from
``concurrent.futures`` (the standard library): each one rebuilds the ``Program`` from the
compiled scenario once, then plays chunks of run indexes. With a precision (``--precision``)
the batch stops after the first prefix of chunks whose runs know every share to ±P
(sim/precision.py). Ctrl-C (and SIGTERM, from the command line: deckquest.signals) stops
the batch between chunks; the report covers the chunks finished. A worker process ignores
both signals (the parent decides) and ends when its parent does, however the parent ended.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator, Protocol

from deckquest.i18n import _
from deckquest.signals import SIGTERM, raise_terminated, signal_of
from deckquest.systems.trpg import nodes
from deckquest.errors import DeckquestError, UsageError
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, Program
from deckquest.sim.precision import Precision, PrecisionChunks
from deckquest.sim.report import Report, build_report
from deckquest.sim.trace import ScriptMap, Tally, play_runs, run_seed
from deckquest.systems import system_of

SIM_AGENTS = ("random", "first", "best")
MAX_CHUNK = 500
MIN_CHUNK = 20
ABANDON_STEP = 10  # runs between looks at "the batch has stopped" in a worker

Progress = Callable[[int, int], None]  # (runs done, runs in the batch)


@dataclass(frozen=True)
class Batch:
    """What every worker needs to play its share: picklable, built once by the parent."""

    scenario: object  # deckquest.dsl.scenario.Scenario
    party: list | None  # PartyMember list, or None for the scenario's own PCs
    agent: str
    seed: int
    max_steps: int
    overrides: tuple[tuple[int, int], ...] = ()  # (check line, difficulty), for `tune`
    party_file: str | None = None  # the --party path, for the replay commands of the report


class Player:
    """A prepared program, its map and an agent: plays ranges of run indexes into tallies."""

    def __init__(self, batch: Batch):
        self.batch = batch
        self.program = Program(batch.scenario, batch.party)
        for line, difficulty in batch.overrides:
            set_difficulty(self.program, line, difficulty)
        self.map = ScriptMap(self.program)
        self.agent = make_agent(batch.agent, system=self.program.system)

    def play(self, start: int, stop: int, abandoned: Callable[[], bool] | None = None) -> Tally:
        """Runs ``start`` to ``stop``; with ``abandoned``, asked every few runs, a worker
        gives up a chunk the batch no longer needs: the tally of the runs it played, which
        the parent throws away after the stop rule and counts after Ctrl-C or SIGTERM."""
        tally = Tally()
        batch = self.batch
        step = stop - start if abandoned is None else ABANDON_STEP
        for first in range(start, stop, step):
            if abandoned is not None and abandoned():
                break
            play_runs(self.program, self.map, self.agent,
                      [(index, run_seed(batch.seed, index)) for index in range(first, min(first + step, stop))],
                      batch.max_steps, tally)
        return tally


def set_difficulty(program: Program, line: int, difficulty: int) -> None:
    """Change the difficulty of the check or recruit written at ``line`` of the main script,
    in the program's table of check sites."""
    main = str(program.scenario.path)
    for block in program.blocks:
        for stmt in block:
            if isinstance(stmt, (nodes.Check, nodes.Recruit)) and stmt.span.line == line and stmt.span.file == main:
                program.sites[id(stmt)] = replace(program.sites[id(stmt)], difficulty=difficulty)
                return
    raise DeckquestError(_("no check at line {line} of {main}", line=line, main=main))


# ---------------------------------------------------------------- preparing a batch


def load(script, party=None):
    """A compiled scenario and party members from paths (or already-built objects).

    A script path is compiled with the references of its own pack only; the commands hand
    in a scenario compiled with the installed packs too (``runtime.command.compile_script``)."""
    from deckquest.dsl.resolver import compile_file
    from deckquest.runtime.party import load_party

    if hasattr(script, "scenes"):
        scenario = script
    else:
        scenario = compile_file(Path(script))
    if party is not None and isinstance(party, (str, Path)):
        party = load_party(party)
    return scenario, party


def make_batch(script, *, party=None, agent: str = "best", seed: int = 0,
               max_steps: int = DEFAULT_MAX_STEPS, overrides=(), party_file: str | None = None) -> Batch:
    scenario, members = load(script, party)
    names = SIM_AGENTS + tuple(a for a in getattr(system_of(scenario), "agents", ()) if a not in SIM_AGENTS)
    if agent not in names:
        raise UsageError(_("unknown simulation agent `{agent}`", agent=agent), hint=_("agents: {names}", names=', '.join(names)))
    if party_file is None and isinstance(party, (str, Path)):
        party_file = str(party)
    return Batch(scenario, members, agent, seed, max_steps, tuple(overrides), party_file)


def available_cores() -> int:
    """The cores this process may run on (a container's CPU set, not the machine's)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


class Chunks:
    """Ranges of run indexes: small enough for progress and Ctrl-C, big enough to be cheap.

    They are made one at a time as workers need them: `sim -n 10000000000` is 20 million
    ranges, which built up front took 2.98 GB before the first run.
    """

    def __init__(self, runs: int, jobs: int):
        self.runs = runs
        self.size = max(MIN_CHUNK, min(MAX_CHUNK, runs // (jobs * 8) or 1))
        self.count = -(-runs // self.size)  # not __len__: it may pass sys.maxsize

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for start in range(0, self.runs, self.size):
            yield start, min(start + self.size, self.runs)


# ---------------------------------------------------------------- running it


def simulate(script, runs: int = 2000, seed: int = 0, jobs: int | None = None, *,
             party=None, agent: str = "best", max_steps: int = DEFAULT_MAX_STEPS,
             progress: Progress | None = None, overrides=(), precision: float | None = None,
             scheduler: str | None = None, scheduler_timeout: float | None = None,
             party_file: str | None = None) -> Report:
    """Play ``runs`` seeded runs of ``script`` and report on them.

    ``script`` is a .quest path, ``PACK/SCENARIO`` of an installed pack, or a compiled
    ``Scenario``; ``party`` a party YAML path or a list of ``PartyMember``. ``jobs`` worker
    processes (default: one per core); the report is the same for every ``jobs``.
    ``precision`` (e.g. 0.02): stop once every ending's and battle outcome's 95% interval
    is within ±precision, ``runs`` being the cap. ``scheduler``: the address of a Dask
    scheduler to play the chunks on instead (the same report), reached within
    ``scheduler_timeout`` seconds (10 by default). ``progress(done, total)``
    is called after each chunk. Ctrl-C returns the report of the runs finished so far,
    with ``report.interrupted`` set and ``report.stopped_by`` the signal (SIGINT; SIGTERM
    too, inside ``deckquest.signals.sigterm_as_interrupt``, as the command line runs it).
    ``party_file``: the path ``party`` was read from, when it is given as members, so the
    report's replay commands name it.
    """
    if runs < 1:
        raise UsageError(_("the number of runs must be at least 1, not {runs}", runs=runs))
    if precision is not None and not 0 < precision < 0.5:
        raise UsageError(_("the precision must be above 0 and below 0.5, not {precision}", precision=precision))
    batch = make_batch(script, party=party, agent=agent, seed=seed, max_steps=max_steps,
                       overrides=overrides, party_file=party_file)
    player = Player(batch)  # in the parent too: user errors surface here, and the map
    rule = Precision(precision) if precision is not None else None
    jobs = max(1, jobs if jobs is not None else available_cores())
    ranges = PrecisionChunks(runs) if rule is not None else Chunks(runs, jobs)
    merged = InOrder(player.map, rule)
    started = time.perf_counter()
    if scheduler is not None:
        from deckquest.sim.cluster import SCHEDULER_TIMEOUT, run_on_cluster

        stopped_by, jobs = run_on_cluster(scheduler, batch, ranges, merged, progress,
                                          scheduler_timeout or SCHEDULER_TIMEOUT)
    elif jobs == 1 or ranges.count == 1:
        stopped_by = _run_here(player, ranges, merged, progress)
    else:
        stopped_by = _run_pool(batch, ranges, min(jobs, ranges.count), merged, progress)
    tally = merged.tally
    report = build_report(player.map, tally, batch, runs_requested=runs, interrupted=bool(stopped_by),
                          precision=None if rule is None else rule.section(player.map, tally))
    report.stopped_by = stopped_by
    report.jobs = jobs
    report.elapsed = time.perf_counter() - started
    return report


class InOrder:
    """The chunks' tallies added up in chunk order, the stop rule asked after each one.

    A chunk that finishes before an earlier one waits here; so the rule only ever sees the
    runs of a prefix of chunks, whatever order workers finish in, and stops the batch at
    the same run on one job, twelve, or a cluster. Chunks past the stop are thrown away.
    """

    def __init__(self, script_map: ScriptMap, rule: Precision | None):
        self.map = script_map
        self.rule = rule
        self.tally = Tally()
        self.next = 0  # the chunk whose tally comes next
        self.waiting: dict[int, Tally] = {}  # chunks finished out of order
        self.stopped = False  # the rule is met: no more chunks are needed

    def add(self, number: int, tally: Tally) -> None:
        if self.stopped:
            return
        self.waiting[number] = tally
        while self.next in self.waiting and not self.stopped:
            self.tally.merge(self.waiting.pop(self.next))
            self.next += 1
            self.stopped = self.rule is not None and self.rule.reached(self.map, self.tally)

    def expected(self, cap: int) -> int:
        """The runs the batch will likely play, for the progress bar: the cap, or with a rule
        the runs at which the widest interval would be narrow enough (it shrinks as 1/sqrt(n))."""
        runs = self.tally.runs
        if self.rule is None or self.stopped or not runs:
            return cap if not self.stopped else runs
        widest = self.rule.widest(self.map, self.tally)
        if widest is None:
            return cap
        return max(runs, min(cap, int(runs * (widest.half_width / self.rule.target) ** 2) + 1))

    def add_waiting(self) -> None:
        """After Ctrl-C: every chunk finished counts, in order or not (adding commutes)."""
        for number in sorted(self.waiting):
            self.tally.merge(self.waiting.pop(number))


def _interrupting() -> dict[int, object]:
    """The signals that stop a batch, each with the handler it has when it is the batch's to
    take: the one that raises KeyboardInterrupt (Python's for Ctrl-C; the command line's for
    SIGTERM, deckquest.signals)."""
    handlers: dict[int, object] = {signal.SIGINT: signal.default_int_handler}
    if SIGTERM is not None:
        handlers[SIGTERM] = raise_terminated
    return handlers


class _Stop:
    """While active, Ctrl-C and SIGTERM set ``signal`` instead of raising in a chunk.

    The batch loops look at it between chunks, so an interrupt never lands inside the
    executor's bookkeeping (where a KeyboardInterrupt can leave its locks held). A signal
    that would not raise KeyboardInterrupt here (ignored by the shell, someone else's
    handler, SIGTERM's default outside the command line, or not the main thread) is left
    alone.
    """

    def __init__(self):
        self.signal = 0  # the first signal that stopped the batch, 0 while none has
        self.previous: dict[int, object] = {}

    def __enter__(self) -> "_Stop":
        try:
            for number, handler in _interrupting().items():
                if signal.getsignal(number) is handler:
                    self.previous[number] = signal.signal(number, self._stop)
        except ValueError:  # not the main thread
            pass
        return self

    def _stop(self, signum, frame) -> None:
        self.signal = self.signal or signum

    def interrupt(self, interrupt: KeyboardInterrupt) -> int:
        """A KeyboardInterrupt raised in the loop itself (a progress callback's, or a signal
        before the handlers were swapped): the signal it stands for."""
        self.signal = self.signal or signal_of(interrupt)
        return self.signal

    def __exit__(self, *exc) -> None:
        for number, previous in self.previous.items():
            signal.signal(number, previous)


def _run_here(player: Player, ranges, merged: InOrder, progress: Progress | None) -> int:
    """Play the chunks in this process, one after the other; the signal that stopped them
    (0 when they ran to their end)."""
    with _Stop() as stop:
        try:
            for number, (start, end) in enumerate(ranges):
                merged.add(number, player.play(start, end))
                if progress is not None:
                    progress(merged.tally.runs, merged.expected(ranges.runs))
                if merged.stopped or stop.signal:
                    break
        except KeyboardInterrupt as interrupt:
            stop.interrupt(interrupt)
    return stop.signal


class Task(Protocol):
    """A chunk in flight: a ``concurrent.futures.Future`` or sim/cluster.py's Dask task."""

    def add_done_callback(self, fn: Callable[["Task"], object]) -> object: ...
    def result(self) -> Tally: ...
    def done(self) -> bool: ...
    def cancel(self) -> bool: ...


def drive(submit: Callable[[tuple[int, int]], Task], slots: int, ranges, merged: InOrder,
          progress: Progress | None, abandon: Callable[[], object] | None = None) -> int:
    """Keep ``slots`` chunks in flight, hand each finished one to ``merged``; the signal that
    interrupted the batch, 0 when none did. On the stop rule the chunks in flight are left
    to the caller to abandon; on a signal they are counted, and ``abandon`` (when the tasks
    can be told) makes them end within a few runs first: a chunk of battles can take
    seconds."""
    finished: queue.Queue[int] = queue.Queue()  # fed by the tasks' callbacks, from other threads
    chunks = enumerate(ranges)
    pending: dict[int, Task] = {}
    with _Stop() as stop:
        try:
            while not merged.stopped and not stop.signal:
                while len(pending) < slots:
                    item = next(chunks, None)
                    if item is None:
                        break
                    number, bounds = item
                    pending[number] = task = submit(bounds)
                    task.add_done_callback(_announce(finished, number))
                if not pending:
                    break
                try:
                    number = finished.get(timeout=0.2)
                except queue.Empty:
                    pass
                else:
                    tally = _tally(pending.pop(number), stop)
                    if tally is None:
                        break
                    merged.add(number, tally)
                    if progress is not None:
                        progress(merged.tally.runs, merged.expected(ranges.runs))
        except KeyboardInterrupt as interrupt:
            stop.interrupt(interrupt)
        if stop.signal:  # let the running chunks finish, and count them
            if abandon is not None:
                abandon()
            for number, task in pending.items():
                if task.done() or not task.cancel():
                    tally = _tally(task, stop)
                    if tally is not None:
                        merged.add(number, tally)
            merged.add_waiting()
        else:
            for task in pending.values():
                task.cancel()
    return stop.signal


def _tally(task: Task, stop: _Stop) -> Tally | None:
    """A finished chunk's tally; None when its worker failed after a signal stopped the batch.

    SIGTERM sent to the whole process group (`timeout`, systemd) also reaches a worker still
    starting, before it ignores the signal: that worker ends, and the pool with it. The
    parent has taken the signal by then (its handler runs before the main thread reads the
    failure), so the report covers the chunks finished. Without a signal a failure is one."""
    try:
        return task.result()
    except Exception:
        if stop.signal:
            return None
        raise


def _announce(finished: "queue.Queue[int]", number: int) -> Callable[[Task], None]:
    """A task's done callback: put its chunk number on the queue the driver waits on."""
    def done(_: Task) -> None:
        finished.put(number)
    return done


_PLAYER: Player | None = None
_ABANDON = None  # the batch's "stopped" event, shared with the parent


def _start_worker(batch: Batch, abandon) -> None:
    """A worker ignores Ctrl-C and SIGTERM (the parent decides, and counts the chunks the
    workers are playing: a terminal's Ctrl-C, `timeout` and systemd signal the whole process
    group), ends with its parent (``_end_with_parent``) and prepares the program once.

    Then everything it holds so far (the program, its card tables, the decks: all kept for
    the worker's life) is moved out of the garbage collector's sight (``gc.freeze``), so
    that the collections the runs set off do not walk it again and again (3.6% fewer
    instructions a Goblin Cave run; nothing a run does depends on when collections happen)."""
    global _PLAYER, _ABANDON
    for number in _interrupting():
        signal.signal(number, signal.SIG_IGN)
    _end_with_parent()
    _PLAYER = Player(batch)
    _ABANDON = abandon
    gc.freeze()


def _end_with_parent() -> None:
    """No worker outlives its batch: a thread of the worker waits for its parent to end,
    however it ends (SIGKILL included, which leaves no chance to stop the workers), and ends
    the worker then.

    It waits on the parent's sentinel, which ``multiprocessing`` gives every child on every
    platform: the end of a pipe only the parent writes to (a process handle on Windows).
    Waiting costs no CPU. A worker forked after another one inherits the write end of the
    earlier one's pipe, so on a fork the workers end one after the other, the last first.
    Without it, a worker whose parent died waits for its next chunk for ever (it holds the
    write end of the pool's call queue itself, so it never reads an end of file there)."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_when_ended, args=(parent.sentinel,), name="deckquest-parent", daemon=True).start()


def _exit_when_ended(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)  # the parent is gone: nobody to hand a result to, nothing of ours to clean


def _play_chunk(bounds: tuple[int, int]) -> Tally:
    assert _PLAYER is not None and _ABANDON is not None
    return _PLAYER.play(*bounds, abandoned=_ABANDON.is_set)


def _run_pool(batch: Batch, ranges, jobs: int, merged: InOrder, progress: Progress | None) -> int:
    """Two chunks per worker process in flight; when the stop rule is met or a signal stops
    the batch, the chunks still running are abandoned (the workers see the event within a
    few runs)."""
    abandon = multiprocessing.get_context().Event()
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(batch, abandon)) as pool:
        stopped_by = drive(lambda bounds: pool.submit(_play_chunk, bounds), 2 * jobs, ranges, merged, progress,
                           abandon.set)
        if merged.stopped:
            abandon.set()
    return stopped_by
