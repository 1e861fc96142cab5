"""``simulate``: many seeded runs of one scenario, on worker processes, into a ``Report``.

Run ``i`` of a batch seeded ``S`` is seeded ``run_seed(S, i)`` and nothing else, and the
tallies of the chunks are only ever added up, so a batch gives the same report on one
job or twelve. Workers come from ``concurrent.futures`` (the standard library): each one
rebuilds the ``Program`` from the compiled scenario once, then plays chunks of run
indexes. Ctrl-C stops the batch between chunks; the report covers the chunks finished.
"""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

from deckquest.dsl import ast
from deckquest.errors import DeckquestError, UsageError
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, Program
from deckquest.sim.report import Report, build_report
from deckquest.sim.trace import ScriptMap, Tally, play_runs, run_seed
from deckquest.systems import system_of

SIM_AGENTS = ("random", "first", "best")
MAX_CHUNK = 500
MIN_CHUNK = 20

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

    def play(self, start: int, stop: int) -> Tally:
        tally = Tally()
        batch = self.batch
        play_runs(self.program, self.map, self.agent,
                  [(index, run_seed(batch.seed, index)) for index in range(start, stop)],
                  batch.max_steps, tally)
        return tally


def set_difficulty(program: Program, line: int, difficulty: int) -> None:
    """Change the difficulty of the check or recruit written at ``line`` of the main script,
    in the program's table of check sites."""
    main = str(program.scenario.path)
    for block in program.blocks:
        for stmt in block:
            if isinstance(stmt, (ast.Check, ast.Recruit)) and stmt.span.line == line and stmt.span.file == main:
                program.sites[id(stmt)] = replace(program.sites[id(stmt)], difficulty=difficulty)
                return
    raise DeckquestError(f"no check at line {line} of {main}")


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
               max_steps: int = DEFAULT_MAX_STEPS, overrides=()) -> Batch:
    scenario, members = load(script, party)
    names = SIM_AGENTS + tuple(a for a in getattr(system_of(scenario), "agents", ()) if a not in SIM_AGENTS)
    if agent not in names:
        raise UsageError(f"unknown simulation agent `{agent}`", hint=f"agents: {', '.join(names)}")
    party_file = str(party) if isinstance(party, (str, Path)) else None
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
             progress: Progress | None = None, overrides=()) -> Report:
    """Play ``runs`` seeded runs of ``script`` and report on them.

    ``script`` is a .quest path, ``PACK/SCENARIO`` of an installed pack, or a compiled
    ``Scenario``; ``party`` a party YAML path or a list of ``PartyMember``. ``jobs`` worker
    processes (default: one per core); the report is the same for every ``jobs``.
    ``progress(done, total)`` is called after each chunk. Ctrl-C returns the report of
    the runs finished so far, with ``report.interrupted`` set.
    """
    if runs < 1:
        raise UsageError(f"the number of runs must be at least 1, not {runs}")
    batch = make_batch(script, party=party, agent=agent, seed=seed, max_steps=max_steps,
                       overrides=overrides)
    player = Player(batch)  # in the parent too: user errors surface here, and the map
    jobs = max(1, jobs if jobs is not None else available_cores())
    ranges = Chunks(runs, jobs)
    started = time.perf_counter()
    if jobs == 1 or ranges.count == 1:
        tally, interrupted = _run_here(player, ranges, runs, progress)
    else:
        tally, interrupted = _run_pool(batch, ranges, runs, min(jobs, ranges.count), progress)
    report = build_report(player.map, tally, batch, runs_requested=runs, interrupted=interrupted)
    report.jobs = jobs
    report.elapsed = time.perf_counter() - started
    return report


class _CtrlC:
    """While active, Ctrl-C sets ``stopped`` instead of raising in the middle of a chunk.

    The batch loops look at the flag between chunks, so a Ctrl-C never lands inside the
    executor's bookkeeping (where a KeyboardInterrupt can leave its locks held). When
    SIGINT is not Python's to handle (ignored by the shell, or not the main thread) it is
    left alone.
    """

    def __init__(self):
        self.stopped = False
        self.previous = None

    def __enter__(self) -> "_CtrlC":
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                self.previous = signal.signal(signal.SIGINT, self._stop)
        except ValueError:  # not the main thread
            self.previous = None
        return self

    def _stop(self, signum, frame) -> None:
        self.stopped = True

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _run_here(player: Player, ranges: Chunks, runs: int, progress: Progress | None):
    tally = Tally()
    with _CtrlC() as ctrl_c:
        try:
            for start, stop in ranges:
                tally.merge(player.play(start, stop))
                if progress is not None:
                    progress(tally.runs, runs)
                if ctrl_c.stopped:
                    return tally, True
        except KeyboardInterrupt:
            return tally, True
    return tally, False


_PLAYER: Player | None = None


def _start_worker(batch: Batch) -> None:
    """A worker ignores Ctrl-C (the parent decides) and prepares the program once."""
    global _PLAYER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _PLAYER = Player(batch)


def _play_chunk(bounds: tuple[int, int]) -> Tally:
    return _PLAYER.play(*bounds)


def _run_pool(batch: Batch, ranges: Chunks, runs: int, jobs: int, progress: Progress | None):
    """Keep two chunks per worker in flight; merge each as it finishes."""
    tally = Tally()
    waiting = iter(ranges)
    pending: set = set()
    interrupted = False
    with _CtrlC() as ctrl_c, ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(batch,)) as pool:
        try:
            while True:
                while len(pending) < 2 * jobs and not interrupted:
                    bounds = next(waiting, None)
                    if bounds is None:
                        break
                    pending.add(pool.submit(_play_chunk, bounds))
                if not pending:
                    break
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in done:
                    tally.merge(future.result())
                if done and progress is not None:
                    progress(tally.runs, runs)
                interrupted = interrupted or ctrl_c.stopped
        except KeyboardInterrupt:
            interrupted = True
            for future in pending:  # let the running chunks finish, and count them
                if not future.cancel():
                    tally.merge(future.result())
    return tally, interrupted
