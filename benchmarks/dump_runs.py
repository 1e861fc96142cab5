"""Dump what runs do, to prove that a speed change changed nothing else.

    python benchmarks/dump_runs.py OUT_DIR [--seeds 25] [--runs 300] [--only NAME ...]

Writes, for every bundled scenario and every tests/sim scenario: the event stream of
``--seeds`` seeds for each of the agents ``random``, ``first`` and ``best`` (battles
included), the JSON, text and HTML reports of ``simulate`` (``--runs`` runs, agents ``random``
and ``best``, timing fields blanked) and the explore report. Run it before and after a change and
``diff -r`` the two directories: a change that only makes runs faster leaves them
byte-identical (docs/performance.md). ``--only goblin_cave rat_cellar`` dumps only the scenarios
with these file names (CI compares the compiled build with the pure one on a few). Prints a line
per scenario; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.sim import simulate
from deckquest.sim.explore import explore
from deckquest.systems import load_all

ROOT = Path(__file__).resolve().parent.parent
TIMING = re.compile(r'"(seconds|elapsed|runs_per_second|rate)": [0-9.e+-]+')


def scripts() -> list[Path]:
    return sorted(ROOT.glob("scenarios/*/*.quest")) + sorted(ROOT.glob("tests/sim/scenarios/*.quest"))


def dump(path: Path, out: Path, seeds: int, runs: int) -> None:
    program = Program(compile_file(path))
    with open(out / f"events_{path.stem}.jsonl", "w", encoding="utf-8") as lines:
        for agent in ("random", "first", "best"):
            for seed in range(seeds):
                run = Run(program, make_agent(agent), random.Random(seed), seed=seed)
                result = run.run()
                lines.write(json.dumps([agent, seed, result.outcome, result.steps, result.clock, run.events],
                                       default=str) + "\n")
    for agent in ("random", "best"):
        report = simulate(path, runs=runs, seed=7, jobs=1, agent=agent)
        (out / f"sim_{path.stem}_{agent}.json").write_text(TIMING.sub('"timing": 0', report.to_json()))
        (out / f"sim_{path.stem}_{agent}.txt").write_text(report.text())
        report.write_html(out / f"sim_{path.stem}_{agent}.html")
    (out / f"explore_{path.stem}.txt").write_text(repr(explore(path)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, default=25)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="scenario file names (without .quest)")
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    load_all()  # scenarios of every game system (grizzly, arena, isekai)
    for path in scripts():
        if options.only and path.stem not in options.only:
            continue
        dump(path, options.out, options.seeds, options.runs)
        print(f"{path.relative_to(ROOT)}: dumped")


if __name__ == "__main__":
    main()
