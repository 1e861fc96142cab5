"""Battles per second: hordes (issue 5 aim: at least 200 per second per core for 1 PC) and a
boss (issue 6 aim: at least 100 per second per core for 2 PCs against a 60-card player NPC).

Runs whole battles with `run_battle` (no events recorded, as batch runs do): the Goblin Cave
horde against the mono-green PC and against two PCs (mono-green and mono-red), then the two
PCs against the Krenko deck as a player-type NPC (T-8.3), for the greedy and the random
agent. Rates are per second of this process's CPU time (one core), so other load on the
machine does not skew them. Prints figures; asserts nothing.

    python benchmarks/bench_battle.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from deckquest.cards.decklist import load_deck
from deckquest.engine.combat import run_battle
from deckquest.engine.combat.boss import PlayerNpc
from deckquest.engine.pc import create_pc, designate_critical
from deckquest.runtime.battle_agents import GreedyBattleAgent, RandomBattleAgent

DECKS = Path(__file__).resolve().parent.parent / "scenarios" / "goblin_cave" / "decks"


def party(decks, rng: random.Random):
    return [create_pc(f"pc{i}", f"PC {i}", cards, designate_critical(cards, critical, 3), rng)
            for i, (cards, critical) in enumerate(decks)]


def measure(decks, enemies, agent, seconds: float) -> tuple[float, Counter, float]:
    """Battles per CPU second (PC creation excluded), outcomes, mean turns."""
    outcomes: Counter = Counter()
    turns = 0
    spent = 0.0
    seed = 0
    while spent < seconds:
        rng = random.Random(seed)
        pcs = party(decks, rng)
        start = time.process_time()
        result = run_battle(pcs, enemies, agent, rng)
        spent += time.process_time() - start
        outcomes[result.outcome] += 1
        turns += result.turns
        seed += 1
    return seed / spent, outcomes, turns / seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per measurement")
    args = parser.parse_args()
    horde = load_deck(DECKS / "goblin_horde.txt").main_cards()
    boss = [PlayerNpc("warlord", "Krenko the Warlord", tuple(load_deck(DECKS / "krenko.txt").main_cards()))]
    green = (load_deck(DECKS / "mono_green.txt").main_cards(), "Forest")
    red = (load_deck(DECKS / "mono_red.txt").main_cards(), "Mountain")
    fights = (("1 PC  vs horde", [green], horde), ("2 PCs vs horde", [green, red], horde),
              ("2 PCs vs 60-card boss", [green, red], boss))
    for label, decks, enemies in fights:
        for agent in (GreedyBattleAgent(), RandomBattleAgent()):
            rate, outcomes, turns = measure(decks, enemies, agent, args.seconds)
            shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
            print(f"{label:<22} {type(agent).__name__:18} {rate:8.0f} battles/s  "
                  f"(mean {turns:.1f} turns; {shown})")


if __name__ == "__main__":
    main()
