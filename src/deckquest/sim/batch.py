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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from deckquest.dsl import ast
from deckquest.errors import DeckquestError, UsageError
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, Program
from deckquest.sim.report import Report, build_report
from deckquest.sim.trace import ScriptMap, Tally, play, run_seed

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


class Player:
    """A prepared program, its map and an agent: plays ranges of run indexes into tallies."""

    def __init__(self, batch: Batch):
        self.batch = batch
        self.program = Program(batch.scenario, batch.party)
        for line, difficulty in batch.overrides:
            set_difficulty(self.program, line, difficulty)
        self.map = ScriptMap(self.program)
        self.agent = make_agent(batch.agent)

    def play(self, start: int, stop: int) -> Tally:
        tally = Tally()
        batch = self.batch
        for index in range(start, stop):
            play(self.program, self.map, self.agent, run_seed(batch.seed, index), index,
                 batch.max_steps, tally)
        return tally


def set_difficulty(program: Program, line: int, difficulty: int) -> None:
    """Change the difficulty of the check or recruit written at ``line`` of the main script."""
    main = str(program.scenario.path)
    for block in program.blocks:
        for stmt in block:
            if isinstance(stmt, (ast.Check, ast.Recruit)) and stmt.span.line == line and stmt.span.file == main:
                stmt.difficulty = difficulty
                return
    raise DeckquestError(f"no check at line {line} of {main}")


# ---------------------------------------------------------------- preparing a batch


def load(script, party=None):
    """A compiled scenario and party members from paths (or already-built objects)."""
    from deckquest.dsl.resolver import compile_file
    from deckquest.runtime.command import locate_script
    from deckquest.runtime.party import load_party

    if hasattr(script, "scenes"):
        scenario = script
    else:
        scenario = compile_file(locate_script(str(script)))
    if party is not None and isinstance(party, (str, Path)):
        party = load_party(party)
    return scenario, party


def make_batch(script, *, party=None, agent: str = "random", seed: int = 0,
               max_steps: int = DEFAULT_MAX_STEPS, overrides=()) -> Batch:
    if agent not in SIM_AGENTS:
        raise UsageError(f"unknown simulation agent `{agent}`", hint=f"agents: {', '.join(SIM_AGENTS)}")
    scenario, members = load(script, party)
    return Batch(scenario, members, agent, seed, max_steps, tuple(overrides))


def chunks(runs: int, jobs: int) -> list[tuple[int, int]]:
    """Ranges of run indexes: small enough for progress and Ctrl-C, big enough to be cheap."""
    size = max(MIN_CHUNK, min(MAX_CHUNK, runs // (jobs * 8) or 1))
    return [(start, min(start + size, runs)) for start in range(0, runs, size)]


# ---------------------------------------------------------------- running it


def simulate(script, runs: int = 1000, seed: int = 0, jobs: int | None = None, *,
             party=None, agent: str = "random", max_steps: int = DEFAULT_MAX_STEPS,
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
    jobs = max(1, jobs if jobs is not None else os.cpu_count() or 1)
    ranges = chunks(runs, jobs)
    started = time.perf_counter()
    if jobs == 1 or len(ranges) == 1:
        tally, interrupted = _run_here(player, ranges, runs, progress)
    else:
        tally, interrupted = _run_pool(batch, ranges, runs, min(jobs, len(ranges)), progress)
    report = build_report(player.map, tally, batch, runs_requested=runs, interrupted=interrupted)
    report.jobs = jobs
    report.elapsed = time.perf_counter() - started
    return report


def _run_here(player: Player, ranges, runs: int, progress: Progress | None):
    tally = Tally()
    try:
        for start, stop in ranges:
            tally.merge(player.play(start, stop))
            if progress is not None:
                progress(tally.runs, runs)
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


def _run_pool(batch: Batch, ranges, runs: int, jobs: int, progress: Progress | None):
    tally = Tally()
    interrupted = False
    pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(batch,))
    pending = set()
    try:
        pending = {pool.submit(_play_chunk, bounds) for bounds in ranges}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                tally.merge(future.result())
            if progress is not None:
                progress(tally.runs, runs)
    except KeyboardInterrupt:
        interrupted = True
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        for future in pending:  # chunks that were already running when Ctrl-C came
            if future.done() and not future.cancelled() and future.exception() is None:
                tally.merge(future.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return tally, interrupted
