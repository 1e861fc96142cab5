"""Interpreter throughput: statements per second and whole runs per second.

Runs the no-battle scenario (scenarios/drowned_shrine) with agents `first` and `random`,
events not recorded (as the simulator runs it), one process. The scenario is compiled and
its decks read once; each run only shuffles the PCs' libraries and walks the script.

    python benchmarks/bench_interpreter.py [--seconds 3] [--scenario PATH]

Prints one line per agent: runs/s and steps/s (the best batch of 200 runs), mean steps and
checks per run, and also the rate with the transcript recorded and rendered as text (what
`deckquest run` costs).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.runtime.transcript import render_text

DEFAULT = Path(__file__).resolve().parent.parent / "scenarios" / "drowned_shrine" / "drowned_shrine.quest"


def measure(program: Program, agent_name: str, seconds: float, record: bool) -> dict:
    """Runs in batches of 200 for about ``seconds``; the best batch is the figure (other
    processes on a shared machine only ever slow a batch down)."""
    agent = make_agent(agent_name)
    runs = steps = checks = 0
    best = 0.0
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline:
        began = time.perf_counter()
        batch_steps = 0
        for _ in range(200):
            run = Run(program, agent, random.Random(seed), record=record, seed=seed)
            result = run.run()
            if record:
                render_text(result.events)
            seed += 1
            batch_steps += result.steps
            checks += run.state.checks
        elapsed = time.perf_counter() - began
        runs += 200
        steps += batch_steps
        if 200 / elapsed > best:
            best, best_steps = 200 / elapsed, batch_steps / elapsed
    return {"runs": runs, "runs_per_s": best, "steps_per_s": best_steps,
            "steps": steps / runs, "checks": checks / runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--scenario", type=Path, default=DEFAULT)
    options = parser.parse_args()
    began = time.perf_counter()
    program = Program(compile_file(options.scenario))
    print(f"{options.scenario.name}: compiled and prepared in {time.perf_counter() - began:.3f} s")
    for agent in ("first", "random"):
        for record in (False, True):
            figures = measure(program, agent, options.seconds, record)
            mode = "recorded+text" if record else "bare         "
            print(f"agent {agent:6} {mode}: {figures['runs_per_s']:9,.0f} runs/s  "
                  f"{figures['steps_per_s']:10,.0f} steps/s  "
                  f"({figures['steps']:.1f} steps, {figures['checks']:.1f} checks per run, "
                  f"{figures['runs']:,} runs)")


if __name__ == "__main__":
    main()
