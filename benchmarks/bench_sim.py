"""Simulation throughput: `deckquest sim` runs per second on 1 and 2 jobs, and where the time goes.

    python benchmarks/bench_sim.py [--runs 20000] [--agent random] [--scenario PATH] [--top 25]

Prints, for the bundled adventure with no battle (scenarios/drowned_shrine):
* the scenario's size per run (statements and checks, means over the batch);
* the engine's cost per PC: dealing one (``create_pc``: shuffle, draw 7) and one 2019 check
  (``begin_check`` + ``finish_check``, no boost), in microseconds;
* runs/s of the bare interpreter (``Run.run``, no listener: the floor of the simulator's cost);
* runs/s of ``simulate`` on 1 job and on 2 jobs (wall clock, report included), the speed-up,
  and the same per CPU-second, which other processes on a shared machine do not distort;
* a cProfile of one in-process batch: the top functions by own time, so a slow spot can be
  routed to the module that owns it.
The figures go into docs/performance.md. No timing assertion anywhere: this only prints.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import resource
import time
import timeit
from pathlib import Path

from deckquest.engine.checks import begin_check, finish_check
from deckquest.engine.pc import create_pc
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Run
from deckquest.sim import simulate
from deckquest.sim.batch import Player, make_batch
from deckquest.sim.trace import run_seed

DEFAULT = Path(__file__).resolve().parent.parent / "scenarios" / "drowned_shrine" / "drowned_shrine.quest"
AIM_RATE = 10_000  # issue 4: runs per second per core, about 10 checks and 30 statements a run
AIM_SPEEDUP = 1.8  # issue 4: 2 jobs against 1


def bare_rate(player: Player, agent_name: str, runs: int) -> float:
    """Runs/s of the interpreter alone, no events, no statistics: the best of three batches."""
    agent = make_agent(agent_name)
    best = 0.0
    for _ in range(3):
        began = time.perf_counter()
        for index in range(runs):
            seed = run_seed(0, index)
            Run(player.program, agent, random.Random(seed), record=False, seed=seed).run()
        best = max(best, runs / (time.perf_counter() - began))
    return best


def engine_costs(player: Player, number: int = 2_000, repeat: int = 15) -> tuple[float, float]:
    """Microseconds to deal the first PC of the party, and for one of its checks (best of ``repeat``).

    The check is a blue one of difficulty 3 on a PC whose library keeps its size (the
    revealed cards go back to the bottom), so every repetition costs the same.
    """
    member = player.program.party[0]
    rng = random.Random(0)

    def deal():
        return create_pc(member.id, member.name, member.cards, member.critical_cards, rng)

    pc = deal()

    def check():
        finish_check(pc, begin_check(pc, "blue", 3, rng), rng)

    def best(action) -> float:
        return min(timeit.repeat(action, number=number, repeat=repeat)) / number * 1e6

    return best(deal), best(check)


def sim_rate(scenario: Path, runs: int, jobs: int, agent: str) -> tuple[float, float, object]:
    """Best of two batches: wall-clock runs/s, and runs per CPU-second of all processes.

    The second figure does not depend on other load on a shared machine: on idle cores
    the speed-up of J jobs is J times (its value on J jobs / its value on 1 job) at best.
    """
    best = best_cpu = 0.0
    report = None
    for _ in range(2):
        before = _cpu()
        began = time.perf_counter()
        report = simulate(scenario, runs, seed=0, jobs=jobs, agent=agent)
        best = max(best, runs / (time.perf_counter() - began))
        best_cpu = max(best_cpu, runs / (_cpu() - before))
    return best, best_cpu, report


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def profile(player: Player, runs: int, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    player.play(0, runs)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20_000)
    parser.add_argument("--agent", default="random", choices=["random", "first", "best"])
    parser.add_argument("--scenario", type=Path, default=DEFAULT)
    parser.add_argument("--top", type=int, default=25)
    options = parser.parse_args()

    player = Player(make_batch(options.scenario, agent=options.agent))
    print(f"scenario {options.scenario.name}, agent {options.agent}, {options.runs:,} runs, "
          f"{os.cpu_count()} cores")
    deal, check = engine_costs(player)
    bare = bare_rate(player, options.agent, min(options.runs, 5_000))
    one, one_cpu, report = sim_rate(options.scenario, options.runs, 1, options.agent)
    two, two_cpu, _ = sim_rate(options.scenario, options.runs, 2, options.agent)
    data = report.data
    attempts = sum(site["attempts"] for site in data["checks"])
    print(f"per run: {data['steps']['mean']:.1f} statements, {attempts / data['runs']:.1f} check sites resolved")
    print(f"engine: create_pc {deal:.1f} µs, one check (begin + finish) {check:.1f} µs")
    print(f"bare interpreter (Run.run, 1 process): {bare:9,.0f} runs/s")
    print(f"simulate, 1 job:                       {one:9,.0f} runs/s   {one_cpu:9,.0f} runs per CPU-second")
    print(f"simulate, 2 jobs:                      {two:9,.0f} runs/s   {two_cpu:9,.0f} runs per CPU-second")
    print(f"speed-up on 2 jobs: x{two / one:.2f} measured; x{2 * two_cpu / one_cpu:.2f} on two idle cores "
          f"(from CPU time; {os.getloadavg()[0]:.2f} load average now)")
    print(f"issue 4's aims: {AIM_RATE:,} runs/s per core: simulate {one_cpu / AIM_RATE:.0%} of it, the bare "
          f"interpreter {bare / AIM_RATE:.0%}; x{AIM_SPEEDUP} on 2 jobs: x{2 * two_cpu / one_cpu:.2f} from CPU time")
    print()
    print(f"cProfile of {min(options.runs, 5_000):,} runs in one process, by own time:")
    print(profile(player, min(options.runs, 5_000), options.top))


if __name__ == "__main__":
    main()
