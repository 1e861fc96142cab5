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

from deckquest.engine.game import play
from deckquest.systems.arena.agents import GreedyAgent, RandomAgent
from deckquest.systems.arena.battlefield import Battlefield, Glyph, RowText, read_rows
from deckquest.systems.arena.cards import Army, ArmyCard, Bonus, Damage, Spell, Target
from deckquest.systems.arena.state import ArenaGame

ROOT = Path(__file__).resolve().parents[1]
GIDEON = ArmyCard("Gideon", "planeswalker", life=6, move=5, range=1, attack=4, defence=2, size=5)
LILIANA = ArmyCard("Liliana", "planeswalker", life=5, move=5, range=4, attack=3, defence=3, size=5)


def the_duel() -> ArenaGame:
    """The Duel as the contract example writes it (language.md)."""
    terrain, _ = read_rows([RowText(r) for r in ("0 0 0 1 0 0 0", "0 0 1 2 1 0 0", "0 ~ ~ 1 0 # 0", "0 0 0 0 0 0 0")])
    starts = {"p1": tuple((c, 1) for c in range(1, 8)), "p2": tuple((c, 4) for c in range(1, 8))}
    field = Battlefield("The Duel", terrain, starts, (Glyph("Glyph of Valor", (4, 2), (Bonus("attack", 1),)),))
    knights = ArmyCard("Knights of Thraben", "squad", life=1, move=5, range=1, attack=2, defence=2, size=4, figures=3)
    zombies = ArmyCard("Zombies", "squad", life=1, move=4, range=1, attack=2, defence=1, size=4, figures=4)
    armies = (Army("p1", "Gideon's Legion", (GIDEON, knights), ("Smite",) * 10),
              Army("p2", "Liliana's Horde", (LILIANA, zombies)))
    return ArenaGame(field, armies, {"Smite": Spell("Smite", (Damage(2, Target(range=4)),))})


def duel() -> ArenaGame:
    terrain, _ = read_rows([RowText("0 0 0")])
    field = Battlefield("duel", terrain, {"p1": ((1, 1),), "p2": ((2, 1),)})
    return ArenaGame(field, (Army("p1", "G", (GIDEON,)), Army("p2", "L", (LILIANA,))))


def per_second(game: ArenaGame, agents: dict, seconds: float) -> tuple[float, float]:
    """Games per second (one process) and the mean decisions per game."""
    rng = random.Random(15)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += play(game.new_state(), agents, rng)
        games += 1
    return games / (time.perf_counter() - start), decisions / games


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
