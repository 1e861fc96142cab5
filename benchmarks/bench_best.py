"""What the default agent `best` costs on the two-check scenario (issue 19, item 2).

    python benchmarks/bench_best.py [--runs 5000] [--repeat 3]

Runs tests/sim/scenarios/two_checks.quest with `best`, then replays `best`'s recorded answers
run by run through an agent that only hands them back (the same runs and outcomes: checked),
then with `first`. `best` less the replay is what the agent spends deciding (its PC actions'
plan, boosts, supports); the replay less `first` is what applying its PC actions costs the
run. Prints CPU microseconds a run (best of ``--repeat``); no timing assertion. Under
callgrind (``valgrind --tool=callgrind``, ``--repeat 1``, less a ``--runs 0`` run) the same
split is counted in instructions (docs/performance.md).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Hashable

from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import BestAgent, make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.runtime.state import Asked
from deckquest.sim.trace import run_seed

SCENARIO = Path(__file__).resolve().parent.parent / "tests" / "sim" / "scenarios" / "two_checks.quest"


class Recording(BestAgent):
    """`best`, keeping every answer it gives."""

    def __init__(self) -> None:
        self.answers: list[Hashable] = []

    def choose(self, run: Run, decision: Asked) -> Hashable:
        answer = BestAgent.choose(self, run, decision)
        self.answers.append(answer)
        return answer


class Replay(BestAgent):
    """Hands back a recorded run's answers in order (its PC actions are legal: they were)."""

    def __init__(self, answers: list[Hashable]) -> None:
        self.answers = iter(answers)

    def choose(self, run: Run, decision: Asked) -> Hashable:
        return next(self.answers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    program = Program(compile_file(SCENARIO))
    seeds = [run_seed(0, index) for index in range(args.runs)]
    recorded = []
    for seed in seeds:
        agent = Recording()
        run = Run(program, agent, random.Random(seed), record=False, seed=seed)
        run.run()
        recorded.append((agent.answers, run.state.outcome))

    def play(make) -> float:
        fastest = float("inf")
        for _ in range(args.repeat):
            began = time.process_time()
            for index, seed in enumerate(seeds):
                run = Run(program, make(index), random.Random(seed), record=False, seed=seed)
                run.run()
            fastest = min(fastest, time.process_time() - began)
        return fastest / max(1, len(seeds)) * 1e6

    for (answers, outcome), seed in zip(recorded[:500], seeds):
        run = Run(program, Replay(answers), random.Random(seed), record=False, seed=seed)
        run.run()
        assert run.state.outcome == outcome, "the replay must play the same run"
    best = play(lambda index: make_agent("best"))
    replay = play(lambda index: Replay(recorded[index][0]))
    first = play(lambda index: make_agent("first"))
    print(f"agent best {best:.1f} µs a run: deciding {best - replay:.1f}, "
          f"applying its PC actions {replay - first:.1f}, the run as with first {first:.1f}")


if __name__ == "__main__":
    main()
