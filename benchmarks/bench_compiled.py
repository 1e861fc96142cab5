"""The interpreter against a hand-written loop on the two-check scenario (issue 19, item 2).

    python benchmarks/bench_compiled.py [--runs 20000] [--repeat 5]

tests/sim/scenarios/two_checks.quest: Alice's green 3 check, then (on a success, after the
scene end, T-2.9) Bram's red 5 check. The hand-written loop calls the engine as the
interpreter does (deal both PCs, T-1.2; ``begin_check`` / ``end_check``; ``scene_end`` for
each PC) with the same ``random.Random(run_seed(0, i))``, so it is the floor a compiled
program could reach: the engine's own work and nothing of the interpreter. It first checks,
run by run, that both give the same ending. Prints CPU microseconds a run (best of
``--repeat``) for the bare interpreter (``Run.run``, no listener, agent ``first``) and the
loop, their ratio, and the interpreter with agent ``best``; the figures go into
docs/performance.md. No timing assertion.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from deckquest.dsl.resolver import compile_file
from deckquest.engine.checks import begin_check, end_check
from deckquest.engine.pc import DEAD, create_pc, scene_end
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.sim.trace import run_seed

SCENARIO = Path(__file__).resolve().parent.parent / "tests" / "sim" / "scenarios" / "two_checks.quest"


def hand_written(alice_member, bram_member, rules: str):
    """The scenario as a Python function of its seed, agent ``first`` (no boost, no support):
    what a compiler could at best emit."""

    def check(pc, kind: str, difficulty: int, rng: random.Random) -> bool:
        pending = begin_check(pc, kind, difficulty, rng, rules, 0)
        end_check(pc, pending, rng)
        return pending.success

    def run(seed: int) -> str:
        rng = random.Random(seed)
        alice = create_pc(alice_member.id, alice_member.name, alice_member.cards, alice_member.critical_cards, rng)
        bram = create_pc(bram_member.id, bram_member.name, bram_member.cards, bram_member.critical_cards, rng)
        if not check(alice, "green", 3, rng):
            return "defeat"
        for pc in (alice, bram):  # -> bridge: T-2.9 scene end for every living PC
            if pc.status != DEAD:
                scene_end(pc, rng)
        return "victory" if check(bram, "red", 5, rng) else "fell"

    return run


def cpu_per_run(play, seeds: list[int], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        for seed in seeds:
            play(seed)
        best = min(best, time.process_time() - began)
    return best / len(seeds) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    program = Program(compile_file(SCENARIO))
    alice, bram = program.party
    seeds = [run_seed(0, index) for index in range(args.runs)]
    agent = make_agent("first")
    loop = hand_written(alice, bram, program.rules)

    def interpreted(seed: int, agent=agent) -> str:
        run = Run(program, agent, random.Random(seed), record=False, seed=seed)
        run.run()
        return run.state.outcome

    differ = sum(interpreted(seed) != loop(seed) for seed in seeds[:2_000])
    slow = cpu_per_run(interpreted, seeds, args.repeat)
    fast = cpu_per_run(loop, seeds, args.repeat)
    best = cpu_per_run(lambda seed: interpreted(seed, make_agent("best")), seeds, args.repeat)
    print(f"same ending on the first 2,000 seeds: {'yes' if not differ else f'NO, {differ} differ'}")
    print(f"agent first: interpreter (Run.run) {slow:.1f} µs a run, hand-written loop {fast:.1f} µs, "
          f"ratio {slow / fast:.2f}, interpreter overhead {1 - fast / slow:.0%} of a run")
    print(f"agent best: interpreter {best:.1f} µs a run (its PC actions before each check, docs/agents.md)")


if __name__ == "__main__":
    main()
