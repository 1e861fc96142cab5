"""Speed of the Arena engine (issue 15): whole games and two-figure duels per second per core.

Prints figures; asserts nothing. Run: PYTHONPATH=src python benchmarks/bench_arena.py
Aim: 1,000 two-figure duels per second per core (greedy agents, Gideon against Liliana placed
adjacent). Whole games: The Duel (scenarios/the_duel) with its two armies, greedy and random.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from deckquest.dsl.resolver import compile_file
from deckquest.engine.game import play
from deckquest.systems import load_all
from deckquest.systems.arena.agents import GreedyAgent, RandomAgent
from deckquest.systems.arena.battlefield import Battlefield, RowText, read_rows
from deckquest.systems.arena.cards import Army, ArmyCard
from deckquest.systems.arena.state import ArenaGame

ROOT = Path(__file__).resolve().parents[1]
GIDEON = ArmyCard("Gideon", "planeswalker", life=6, move=5, range=1, attack=4, defence=2, size=5)
LILIANA = ArmyCard("Liliana", "planeswalker", life=5, move=5, range=4, attack=3, defence=3, size=5)


def the_duel() -> ArenaGame:
    """The bundled scenario, compiled from scenarios/the_duel/the_duel.quest."""
    load_all()
    return compile_file(ROOT / "scenarios" / "the_duel" / "the_duel.quest").system_table.game


def duel() -> ArenaGame:
    terrain, _ = read_rows([RowText("0 0 0")])
    field = Battlefield("duel", terrain, {"p1": ((1, 1),), "p2": ((2, 1),)})
    return ArenaGame(field, (Army("p1", "G", (GIDEON,)), Army("p2", "L", (LILIANA,))))


def per_second(game: ArenaGame, agents: dict, seconds: float) -> tuple[float, float]:
    """Games per CPU second of this process (per core, whatever else the machine runs) and the
    mean decisions per game."""
    rng = random.Random(15)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += play(game.new_state(), agents, rng)
        games += 1
    return games / (time.process_time() - start), decisions / games


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    greedy = {"p1": GreedyAgent(), "p2": GreedyAgent()}
    rate, decisions = per_second(duel(), greedy, seconds)
    print(f"two-figure duels (greedy):       {rate:8.0f} /s/core  ({decisions:.0f} decisions each; aim 1,000/s)")
    rate, decisions = per_second(the_duel(), greedy, seconds)
    print(f"The Duel, whole games (greedy):  {rate:8.0f} /s/core  ({decisions:.0f} decisions each)")
    rate, decisions = per_second(the_duel(), {"p1": RandomAgent(), "p2": RandomAgent()}, seconds)
    print(f"The Duel, whole games (random):  {rate:8.0f} /s/core  ({decisions:.0f} decisions each)")


if __name__ == "__main__":
    main()
