"""Isekai TCG duels per second per core on the bundled decks (issue 16 aim: 1,000).

Plays whole duels of the two bundled decks (scenarios/frontier_duel: Kai's Ember Vanguard
against Mira's Stone Bastion) through the step API, with no events recorded (as batch runs do), for random and greedy agents.
Rates are per second of this process's CPU time (one core). Prints figures; asserts nothing.

    python benchmarks/bench_isekai.py [--seconds 3] [--breakdown]

``--breakdown`` then times each step of 100 seeded duels (wall clock around every call,
which slows them; the least of three batches, as other processes share the core): listing
the legal actions (``decision()``), the agent's choice and ``apply``, in µs a duel, and the
duels a second that would remain if listing cost nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from deckquest.engine.game import CHANCE, OVER, draw_chance, play
from deckquest.systems.isekai.agents import GreedyAgent, RandomAgent
from deckquest.systems.isekai.duel import new_duel
from deckquest.dsl.resolver import compile_file
from deckquest.systems import load_all

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "frontier_duel" / "frontier_duel.quest"

AIM = 1000


def measure(table, agents: dict, seconds: float) -> tuple[float, Counter, float, float]:
    """Duels per CPU second, outcomes, mean action rights, mean decisions per duel."""
    outcomes: Counter = Counter()
    rights = decisions = duels = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_duel(table.duelists, table.cards)
        decisions += play(state, agents, random.Random(duels))
        outcome = state.outcome()
        assert outcome is not None
        outcomes[outcome["winner"] or "draw"] += 1
        rights += outcome["rights"]
        duels += 1
    spent = time.process_time() - start
    return duels / spent, outcomes, rights / duels, decisions / duels


def breakdown(table, agents: dict, duels: int, batches: int = 3) -> dict[str, float]:
    """µs a duel spent listing, choosing and applying, over ``duels`` seeded duels: of each
    part, the least of ``batches`` batches of the same duels."""
    least = {part: min(seconds) for part, seconds in
             zip(("list", "choose", "apply"), zip(*(_timed(table, agents, duels) for _ in range(batches))))}
    return {part: seconds / duels * 1e6 for part, seconds in least.items()}


def _timed(table, agents: dict, duels: int) -> tuple[float, float, float]:
    """Seconds spent listing, choosing and applying in ``duels`` seeded duels."""
    clock = time.perf_counter
    spent = {"list": 0.0, "choose": 0.0, "apply": 0.0}
    for seed in range(duels):
        state = new_duel(table.duelists, table.cards)
        rng = random.Random(seed)
        while True:
            start = clock()
            decision = state.decision()
            listed = clock()
            if decision.actor == OVER:
                break
            if decision.actor == CHANCE:
                action = draw_chance(decision, rng)
            else:
                action = agents[decision.actor].choose(state, decision, rng)
            chosen = clock()
            state.apply(action, rng, None)
            spent["list"] += listed - start
            spent["choose"] += chosen - listed
            spent["apply"] += clock() - chosen
    return spent["list"], spent["choose"], spent["apply"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--breakdown", action="store_true", help="time listing, choosing and applying")
    args = parser.parse_args()
    load_all()
    table = compile_file(SCENARIO).system_table
    for label, agents in (("random vs random", {"kai": RandomAgent(), "mira": RandomAgent()}),
                          ("greedy vs greedy", {"kai": GreedyAgent(), "mira": GreedyAgent()}),
                          ("greedy vs random", {"kai": GreedyAgent(), "mira": RandomAgent()})):
        rate, outcomes, rights, decisions = measure(table, agents, args.seconds)
        wins = ", ".join(f"{who} {count}" for who, count in sorted(outcomes.items()))
        print(f"{label:18s} {rate:8.0f} duels/s per core  ({rights:.0f} action rights, "
              f"{decisions:.0f} decisions a duel; {wins})  aim {AIM}: {'met' if rate >= AIM else 'not met'}")
        if args.breakdown:
            parts = breakdown(table, agents, 100)
            print(f"{'':18s} µs a duel: listing {parts['list']:.0f}, choosing {parts['choose']:.0f}, "
                  f"applying {parts['apply']:.0f}; with listing free at most "
                  f"{1e6 / (parts['choose'] + parts['apply']):.0f} duels/s")


if __name__ == "__main__":
    main()
