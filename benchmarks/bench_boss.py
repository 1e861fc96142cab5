"""Boss battles per second (issue 6 aim: at least 100 per second per core).

Two PCs (the Goblin Cave's mono-green and mono-red decks) against a 60-card
player-type NPC (T-8.3: the Krenko deck, life 20, played by the greedy boss
policy), whole battles with `run_battle` and no events recorded, as batch runs
do; for the greedy and the random survivors' agent. Rates are per second of this
process's CPU time (one core). Prints figures; asserts nothing.

    python benchmarks/bench_boss.py [--seconds 3]
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


def measure(decks, boss: PlayerNpc, agent, seconds: float) -> tuple[float, Counter, float]:
    """Battles per CPU second (PC creation excluded), outcomes, mean turns."""
    outcomes: Counter = Counter()
    turns = 0
    spent = 0.0
    seed = 0
    while spent < seconds:
        rng = random.Random(seed)
        pcs = [create_pc(f"pc{i}", f"PC {i}", cards, designate_critical(cards, critical, 3), rng)
               for i, (cards, critical) in enumerate(decks)]
        start = time.process_time()
        result = run_battle(pcs, [boss], agent, rng)
        spent += time.process_time() - start
        outcomes[result.outcome] += 1
        turns += result.turns
        seed += 1
    return seed / spent, outcomes, turns / seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per measurement")
    args = parser.parse_args()
    boss = PlayerNpc("warlord", "Krenko the Warlord", tuple(load_deck(DECKS / "krenko.txt").main_cards()))
    decks = [(load_deck(DECKS / "mono_green.txt").main_cards(), "Forest"),
             (load_deck(DECKS / "mono_red.txt").main_cards(), "Mountain")]
    for agent in (GreedyBattleAgent(), RandomBattleAgent()):
        rate, outcomes, turns = measure(decks, boss, agent, args.seconds)
        shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
        print(f"2 PCs vs 60-card boss  {type(agent).__name__:<20} {rate:8.0f} battles/s  "
              f"(mean {turns:.1f} turns; {shown})")


if __name__ == "__main__":
    main()
