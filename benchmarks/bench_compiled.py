"""The interpreter against a hand-written loop on the two-check scenario (issue 19, item 2).

    python benchmarks/bench_compiled.py [--runs 20000] [--repeat 5]
    python benchmarks/bench_compiled.py --against OTHER_SRC --instructions [--runs 300] [--tree SRC]

tests/sim/scenarios/two_checks.quest: Alice's green 3 check, then (on a success, after the
scene end, T-2.9) Bram's red 5 check. The hand-written loop calls the engine as the
interpreter does (deal both PCs, T-1.2; ``begin_check`` / ``end_check``; ``scene_end`` for
each PC) with the same ``random.Random(run_seed(0, i))``, so it is the floor a compiled
program could reach: the engine's own work and nothing of the interpreter. It first checks,
run by run, that both give the same ending. Prints CPU microseconds a run (best of
``--repeat``) for the bare interpreter (``Run.run``, no listener, agent ``first``) and the
loop, their ratio, and the interpreter with agent ``best``; the figures go into
docs/performance.md. No timing assertion.

``--instructions`` counts instead of timing (as ``bench_battle.py --instructions`` does): for
this tree and ``OTHER_SRC`` (another checkout's ``src``, or a compiled build's install folder),
each of the loop, ``first`` and ``best`` runs ``--runs`` runs under valgrind's callgrind
(``PYTHONHASHSEED=0``) and once with none (the scenario compiled, one warm-up run each), and
prints the difference per run: the firm figure on a shared, noisy machine. ``--tree`` puts
another folder in this tree's place (two compiled builds: ``--tree /tmp/after --against
/tmp/before``).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
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


PLAYS = ("hand-written loop", "first", "best")


def play_once(play: str, runs: int) -> None:
    """One process of ``--instructions``: compile, one warm-up run of each play (the per-table
    facts worked out), then ``runs`` runs of ``play``."""
    program = Program(compile_file(SCENARIO))
    loop = hand_written(*program.party, program.rules)
    for agent in ("first", "best"):
        Run(program, make_agent(agent), random.Random(1), record=False, seed=1).run()
    loop(1)
    for index in range(runs):
        seed = run_seed(0, index)
        if play == PLAYS[0]:
            loop(seed)
        else:
            Run(program, make_agent(play), random.Random(seed), record=False, seed=seed).run()


def count_instructions(src: Path, play: str, runs: int) -> int:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    command = [sys.executable, __file__, "--play", play, "--runs", str(runs)]
    report = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                            env=env, check=True, capture_output=True, text=True).stderr
    return int(next(line for line in report.splitlines() if "Collected" in line).split()[-1])


def compare_instructions(other: Path, tree: Path, runs: int) -> None:
    """Instructions per run of each play, ``other`` and ``tree`` (see the module doc)."""
    if not other.exists() or not tree.exists() or shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind and an existing OTHER_SRC")
    print(f"two-check scenario, instructions per run (callgrind, {runs} runs, setup subtracted)")
    print(f"{'':18} {str(other)[-24:]:>24} {str(tree)[-24:]:>24}  change")
    for play in PLAYS:
        found = [(count_instructions(src, play, runs) - count_instructions(src, play, 0)) / runs
                 for src in (other, tree)]
        print(f"{play:<18} {found[0]:24,.0f} {found[1]:24,.0f}  {100 * (found[1] / found[0] - 1):+.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", type=Path, help="with --instructions: the src folder of another tree")
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent / "src",
                        help="with --instructions: the tree counted against OTHER_SRC (default: this one)")
    parser.add_argument("--play", choices=PLAYS, help=argparse.SUPPRESS)  # one process of --instructions
    args = parser.parse_args()
    if args.play is not None:
        play_once(args.play, args.runs)
        return
    if args.instructions:
        if args.against is None:
            parser.error("--instructions needs --against OTHER_SRC")
        compare_instructions(args.against, args.tree, args.runs)
        return
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
