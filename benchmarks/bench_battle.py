"""Battles per second: hordes (issue 5 aim: at least 200 per second per core for 1 PC) and a
boss (issue 6 aim: at least 100 per second per core for 2 PCs against a 60-card player NPC;
issue 19 aim: 1,000 per second per core for the horde and boss battles, greedy agent).

Runs whole battles with `run_battle` (no events recorded, as batch runs do): the Goblin Cave
horde against the mono-green PC and against two PCs (mono-green and mono-red), then the two
PCs against the Krenko deck as a player-type NPC (T-8.3), for the greedy and the random
agent. Rates are per second of this process's CPU time (one core), so other load on the
machine does not skew them much. Prints figures; asserts nothing.

    python benchmarks/bench_battle.py [--seconds 3]
    python benchmarks/bench_battle.py --against OTHER_SRC [--rounds 5] [--battles 150]
    python benchmarks/bench_battle.py --against OTHER_SRC --instructions [--battles 40]

`--against` compares this tree's engine with another tree's (`OTHER_SRC`: the `src` folder of
another checkout, e.g. one of `git worktree add /tmp/before COMMIT`): the same battles (seeds
0 to `--battles` - 1, greedy agent) run in a fresh process for each tree, the two trees
alternating for `--rounds` rounds, and the median rate of each is printed side by side. On a
shared machine only figures measured this way, in one run, compare fairly.

`--instructions` counts instead of timing: each tree's greedy battles run under valgrind's
callgrind (`PYTHONHASHSEED=0`), once with the battles and once without them (the PCs made,
the decks read), and the difference divided by `--battles` is printed per fight. Other load
cannot change an instruction count, so on this noisy 2-core machine (±20% between rounds of
150 battles) it is the firm figure of a change that saves a few per cent; it is slow (about
50 times), so use a few dozen battles. A compiled build works too: give its install folder
(`pip install --target DIR`) as OTHER_SRC and run this script with `PYTHONPATH` set to the
other one's.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "scenarios" / "goblin_cave" / "decks"
FIGHTS = ("1 PC  vs horde", "2 PCs vs horde", "2 PCs vs 60-card boss")


def party(decks, rng: random.Random):
    from deckquest.engine.pc import create_pc, designate_critical

    return [create_pc(f"pc{i}", f"PC {i}", cards, designate_critical(cards, critical, 3), rng)
            for i, (cards, critical) in enumerate(decks)]


def fights():
    """(label, the PCs' decks, the enemies) of the three battles measured."""
    from deckquest.cards.decklist import load_deck
    from deckquest.engine.combat.boss import PlayerNpc

    horde = load_deck(DECKS / "goblin_horde.txt").main_cards()
    boss = [PlayerNpc("warlord", "Krenko the Warlord", tuple(load_deck(DECKS / "krenko.txt").main_cards()))]
    green = (load_deck(DECKS / "mono_green.txt").main_cards(), "Forest")
    red = (load_deck(DECKS / "mono_red.txt").main_cards(), "Mountain")
    return ((FIGHTS[0], [green], horde), (FIGHTS[1], [green, red], horde), (FIGHTS[2], [green, red], boss))


def measure(decks, enemies, agent, seconds: float = 0.0, battles: int = 0) -> tuple[float, Counter, float]:
    """Battles per CPU second (PC creation excluded), outcomes, mean turns: for `seconds` of
    CPU time, or for exactly `battles` battles (seeds 0, 1, …)."""
    from deckquest.engine.combat import run_battle

    outcomes: Counter = Counter()
    turns = 0
    spent = 0.0
    seed = 0
    while (seed < battles) if battles else (spent < seconds):
        rng = random.Random(seed)
        pcs = party(decks, rng)
        start = time.process_time()
        result = run_battle(pcs, enemies, agent, rng)
        spent += time.process_time() - start
        outcomes[result.outcome] += 1
        turns += result.turns
        seed += 1
    return seed / spent, outcomes, turns / seed


def rates(battles: int) -> list[float]:
    """The greedy agent's rate in each fight, for exactly `battles` battles each."""
    from deckquest.runtime.battle_agents import GreedyBattleAgent

    return [measure(decks, enemies, GreedyBattleAgent(), battles=battles)[0] for _, decks, enemies in fights()]


def count_instructions(src: Path, fight: int, battles: int, with_battles: bool) -> int:
    """Instructions callgrind counts for one process: the fight's PCs made for `battles`
    seeds, and their battles fought when `with_battles`."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    command = [sys.executable, __file__, "--fight", str(fight), "--count", str(battles)]
    if with_battles:
        command.append("--fought")
    report = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                            env=env, check=True, capture_output=True, text=True).stderr
    return int(next(line for line in report.splitlines() if "Collected" in line).split()[-1])


def compare_instructions(other: Path, battles: int) -> None:
    """This tree against `other`: instructions per battle of each fight (see the module doc)."""
    trees = {str(other): other, "this tree": ROOT / "src"} if other.exists() else {}
    if not trees or shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind and an existing OTHER_SRC")
    print(f"greedy agent, instructions per battle (callgrind, {battles} battles, setup subtracted)")
    print(f"{'':22} {str(other)[-24:]:>24} {'this tree':>12}  change")
    for number, label in enumerate(FIGHTS):
        found = [(count_instructions(src, number, battles, True) - count_instructions(src, number, battles, False))
                 / battles for src in trees.values()]
        print(f"{label:<22} {found[0]:24,.0f} {found[1]:12,.0f}  {100 * (found[1] / found[0] - 1):+.1f}%")


def fight_once(fight: int, battles: int, fought: bool) -> None:
    """One process of `--instructions`: make the PCs of `battles` seeds, fight if `fought`."""
    from deckquest.engine.combat import run_battle
    from deckquest.runtime.battle_agents import GreedyBattleAgent

    _, decks, enemies = fights()[fight]
    parties = []
    for seed in range(battles):
        rng = random.Random(seed)
        parties.append((party(decks, rng), rng))
    if fought:
        for pcs, rng in parties:
            run_battle(pcs, enemies, GreedyBattleAgent(), rng)


def compare(other: Path, rounds: int, battles: int) -> None:
    """This tree against `other`, alternating fresh processes; medians side by side."""
    trees = {"this tree": ROOT / "src", str(other): other}
    found: dict[str, list[list[float]]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, src in trees.items():
            env = {**os.environ, "PYTHONPATH": str(src)}
            out = subprocess.run([sys.executable, __file__, "--rates", str(battles)], env=env, check=True,
                                 capture_output=True, text=True).stdout
            found[name].append([float(v) for v in out.split()])
    print(f"greedy agent, battles per CPU second, median of {rounds} alternating rounds of {battles} battles")
    print(f"{'':22} {str(other)[-24:]:>24} {'this tree':>10}  ratio")
    for number, label in enumerate(FIGHTS):
        before = statistics.median(r[number] for r in found[str(other)])
        after = statistics.median(r[number] for r in found["this tree"])
        print(f"{label:<22} {before:24.0f} {after:10.0f}  x{after / before:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per measurement")
    parser.add_argument("--against", type=Path, help="the src folder of another tree to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--battles", type=int, default=150)
    parser.add_argument("--instructions", action="store_true",
                        help="with --against: count instructions under callgrind instead of timing")
    parser.add_argument("--rates", type=int, help=argparse.SUPPRESS)  # one round of --against
    parser.add_argument("--fight", type=int, help=argparse.SUPPRESS)  # one process of --instructions
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--fought", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fight is not None:
        fight_once(args.fight, args.count, args.fought)
        return
    if args.against and args.instructions:
        compare_instructions(args.against, args.battles)
        return
    if args.rates:
        print(" ".join(f"{rate:.1f}" for rate in rates(args.rates)))
        return
    if args.against:
        compare(args.against, args.rounds, args.battles)
        return
    from deckquest.runtime.battle_agents import GreedyBattleAgent, RandomBattleAgent

    for label, decks, enemies in fights():
        for agent in (GreedyBattleAgent(), RandomBattleAgent()):
            rate, outcomes, turns = measure(decks, enemies, agent, args.seconds)
            shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
            print(f"{label:<22} {type(agent).__name__:18} {rate:8.0f} battles/s  "
                  f"(mean {turns:.1f} turns; {shown})")


if __name__ == "__main__":
    main()
