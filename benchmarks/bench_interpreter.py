"""Interpreter throughput: statements per second and whole runs per second.

Runs the no-battle scenario (scenarios/drowned_shrine) with agents `first` and `random`,
events not recorded (as the simulator runs it), one process. The scenario is compiled and
its decks read once; each run only shuffles the PCs' libraries and walks the script.
Then the same for a scenario with a horde battle (scenarios/rat_cellar) with agents
`first`, `best` and `random`: battles are allowed to be slower.

    python benchmarks/bench_interpreter.py [--seconds 3] [--scenario PATH] [--battle-scenario PATH]

Prints one line per agent: runs/s and steps/s (the best batch of runs), mean steps and
checks and battle turns per run (counted from the recorded runs' events), and also the rate with the transcript recorded and
rendered as text (what `deckquest run` costs).
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

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
DEFAULT = SCENARIOS / "drowned_shrine" / "drowned_shrine.quest"
BATTLE = SCENARIOS / "rat_cellar" / "rat_cellar.quest"


def measure(program: Program, agent_name: str, seconds: float, record: bool, batch: int = 200) -> dict:
    """Runs in batches of ``batch`` for about ``seconds``; the best batch is the figure (other
    processes on a shared machine only ever slow a batch down). Checks and battle turns are
    counted from the recorded runs' ``check`` and ``battle`` events (bare runs build no events;
    the run's state keeps no statistics, issue 13)."""
    agent = make_agent(agent_name)
    runs = steps = checks = turns = 0
    best = 0.0
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline:
        began = time.perf_counter()
        batch_steps = 0
        for _ in range(batch):
            run = Run(program, agent, random.Random(seed), record=record, seed=seed)
            result = run.run()
            if record:
                render_text(result.events)
                turns += sum(e["turns"] for e in result.events if e["event"] == "battle")
                checks += sum(1 for e in result.events if e["event"] == "check")
            seed += 1
            batch_steps += result.steps
        elapsed = time.perf_counter() - began
        runs += batch
        steps += batch_steps
        if batch / elapsed > best:
            best, best_steps = batch / elapsed, batch_steps / elapsed
    return {"runs": runs, "runs_per_s": best, "steps_per_s": best_steps,
            "steps": steps / runs, "checks": checks / runs if record else None, "turns": turns / runs if record else None}


def report(path: Path, agents: tuple[str, ...], seconds: float, batch: int) -> None:
    began = time.perf_counter()
    program = Program(compile_file(path))
    print(f"{path.name}: compiled and prepared in {time.perf_counter() - began:.3f} s")
    for agent in agents:
        for record in (False, True):
            figures = measure(program, agent, seconds, record, batch)
            mode = "recorded+text" if record else "bare         "
            counts = f", {figures['checks']:.1f} checks, {figures['turns']:.1f} battle turns" if record else ""
            print(f"agent {agent:6} {mode}: {figures['runs_per_s']:9,.0f} runs/s  "
                  f"{figures['steps_per_s']:10,.0f} steps/s  "
                  f"({figures['steps']:.1f} steps{counts} per run, "
                  f"{figures['runs']:,} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--scenario", type=Path, default=DEFAULT)
    parser.add_argument("--battle-scenario", type=Path, default=BATTLE)
    options = parser.parse_args()
    report(options.scenario, ("first", "random"), options.seconds, 200)
    report(options.battle_scenario, ("first", "best", "random"), options.seconds, 20)


if __name__ == "__main__":
    main()
