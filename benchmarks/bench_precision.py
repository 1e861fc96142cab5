"""`sim --precision`, and local worker processes against a Dask LocalCluster.

    python benchmarks/bench_precision.py [--precision 0.02] [--scenario PATH] [--jobs 2]
                                         [--cluster] [--runs 600] [--repeat 2]

Prints, for the README's main command (scenarios/goblin_cave by default, agent best):
* how many runs `--precision` needed to know every ending and battle outcome to ±P, and
  the wall-clock seconds and CPU seconds (this process and its workers) that took on
  ``--jobs`` processes; the CPU seconds stand for the time on an idle machine, which a
  shared one does not give;
* the same if battles were five times faster, from the share of a run's time that battles
  take (``Run`` with and without the battle engine's time, measured on a sample);
* with ``--cluster``: ``--runs`` runs on ``--jobs`` local processes, then on a 2-worker
  Dask LocalCluster (processes, one thread each) on the same machine, wall clock, best of
  ``--repeat``, and whether the two reports are byte-identical.
The figures go into docs/performance.md and docs/sim.md. No timing assertion anywhere.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from deckquest.sim import simulate

DEFAULT = Path(__file__).resolve().parent.parent / "scenarios" / "goblin_cave" / "goblin_cave.quest"
BATTLE_SPEEDUP = 5  # issue 19, item 1: battles five times faster


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def battle_share(scenario: Path, runs: int = 60) -> float:
    """The share of a run's CPU time spent in `battle` statements (cProfile's cumulative time
    of the battle engine's entry point, ``engine.combat.battle.run_battle``, against the runs' (``trace.play_runs``))."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.enable()
    simulate(scenario, runs=runs, seed=0, jobs=1)
    profile.disable()
    stats = pstats.Stats(profile)
    total = sum(entry[3] for (file, _, name), entry in stats.stats.items()
                if name == "play_runs" and file.endswith("trace.py"))  # the runs, not compiling or reporting
    battles = sum(entry[3] for (file, _, name), entry in stats.stats.items()
                  if name == "run_battle" and file.endswith("battle.py"))
    return battles / total if total else 0.0


def precision_run(scenario: Path, precision: float, jobs: int) -> None:
    wall, cpu = time.perf_counter(), cpu_seconds()
    report = simulate(scenario, runs=100_000, seed=0, jobs=jobs, precision=precision)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    widest = report.data["precision"]["widest"]
    print(f"--precision {precision:g}: {report.runs:,} runs (widest: {widest['what']} ±{widest['half_width']:.4f}), "
          f"{wall:.2f} s wall on {jobs} jobs, {cpu:.2f} CPU s ({report.runs / cpu:,.0f} runs per CPU-second)")
    fixed = cpu_seconds()
    simulate(scenario, runs=1, seed=0, jobs=1)  # compiling, preparing and the report: paid once
    fixed = cpu_seconds() - fixed
    share = battle_share(scenario)
    faster = fixed + (cpu - fixed) * (1 - share + share / BATTLE_SPEEDUP)
    print(f"once per batch: {fixed:.2f} CPU s; battles take {share:.0%} of the runs' time; with battles "
          f"{BATTLE_SPEEDUP}x faster: about {faster:.2f} CPU s, {faster / jobs:.2f} s on {jobs} idle cores")


def _worker_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cluster_comparison(scenario: Path, runs: int, jobs: int, repeat: int) -> None:
    """Wall clock and CPU seconds (the parent's, plus the workers': their processes' own time,
    asked of each Dask worker, or the reaped pool processes') of the same batch both ways."""
    from distributed import Client, LocalCluster

    def best(workers_cpu, **options) -> tuple[float, float, str]:
        walls, cpus, text = [], [], ""
        for _ in range(repeat):
            began, cpu = time.perf_counter(), cpu_seconds() + workers_cpu()
            text = simulate(scenario, runs=runs, seed=0, **options).to_json()
            walls.append(time.perf_counter() - began)
            cpus.append(cpu_seconds() + workers_cpu() - cpu)
        return min(walls), min(cpus), text

    local_wall, local_cpu, local_json = best(lambda: 0.0, jobs=jobs)
    started = time.perf_counter()
    with LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster.scheduler_address, set_as_default=False) as client:
        startup = time.perf_counter() - started
        remote_wall, remote_cpu, remote_json = best(lambda: sum(client.run(_worker_cpu).values()),
                                                    scheduler=cluster.scheduler_address)
    print(f"{scenario.stem}, {runs:,} runs, best of {repeat}:")
    print(f"  {jobs} local processes: {local_wall:.2f} s wall ({runs / local_wall:,.0f} runs/s), "
          f"{local_cpu:.2f} CPU s ({runs / local_cpu:,.0f} runs per CPU-second)")
    print(f"  LocalCluster, {jobs} worker processes: {remote_wall:.2f} s wall ({runs / remote_wall:,.0f} runs/s), "
          f"{remote_cpu:.2f} CPU s ({runs / remote_cpu:,.0f} runs per CPU-second), plus {startup:.1f} s to start it")
    print(f"  same report: {local_json == remote_json}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", type=Path, default=DEFAULT)
    parser.add_argument("--precision", type=float, default=0.02)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cluster", action="store_true")
    parser.add_argument("--no-precision", action="store_true", help="only the cluster comparison")
    parser.add_argument("--runs", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    if not args.no_precision:
        precision_run(args.scenario, args.precision, args.jobs)
    if args.cluster:
        cluster_comparison(args.scenario, args.runs, args.jobs, args.repeat)


if __name__ == "__main__":
    main()
