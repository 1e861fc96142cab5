"""Grizzly Bears' Adventure throughput: games per second per core, and where the time goes.

    python benchmarks/bench_grizzly.py [--games 300] [--agent greedy] [--top 15]

Plays the bundled 60-card library (scenarios/sword_coast/decks/sword_coast.txt: four seats,
☆ dungeon and dragon bounty on, as in scenarios/sword_coast/sword_coast.quest) and the
expert-rules 100-card library (scenarios/undermountain), each with every seat on one agent,
and prints games/s per CPU-second (process time, which other processes on a shared machine
do not distort) and wall clock, decisions per game; then runs/s of ``deckquest sim`` on the
bundled script on one job (the run harness, triggers and report included; agent ``best``, sim's
default, gives the seats the script gives no agent to ``greedy``); and a cProfile
of the engine's top functions by own time. The aim (issue 14) is 1,000 games/s per core. No timing assertion:
this only prints.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from pathlib import Path

from deckquest.cards.decklist import load_deck
from deckquest.engine.game import play
from deckquest.sim import simulate
from deckquest.systems.grizzly import GrizzlyConfig, GrizzlyState, Seat
from deckquest.systems.grizzly.agents import AGENTS
from deckquest.systems.grizzly.cards import CardTable, coverage_line

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
AIM = 1_000
SEATS = (Seat("ana", "Ana"), Seat("ben", "Ben"), Seat("cai", "Cai"), Seat("dee", "Dee"))
LIBRARIES = {
    "sword_coast (60 cards)": (ROOT / "sword_coast" / "decks" / "sword_coast.txt", False),
    "undermountain (100 cards, expert rules)": (ROOT / "undermountain" / "decks" / "undermountain.txt", True),
}


def config_for(path: Path, expert: bool) -> GrizzlyConfig:
    return GrizzlyConfig(seats=SEATS, library=tuple(load_deck(path).main_cards()), expert=expert,
                         options=frozenset({"dungeon", "dragon bounty"}))


def games(config: GrizzlyConfig, agent: str, count: int) -> tuple[int, int]:
    """Play ``count`` games; the decisions answered and the rounds played."""
    table = CardTable(config.library)
    decisions = rounds = 0
    for index in range(count):
        rng = random.Random(index)
        state = GrizzlyState.new(config, rng, table=table)
        decisions += play(state, {seat.id: AGENTS[agent]() for seat in config.seats}, rng)
        rounds += state.round
    return decisions, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--agent", default="greedy", choices=sorted(AGENTS))
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    for title, (path, expert) in LIBRARIES.items():
        config = config_for(path, expert)
        print(coverage_line(config.library, title))
        for agent in sorted({args.agent, "first", "random"}):
            cpu, wall = time.process_time(), time.perf_counter()
            decisions, rounds = games(config, agent, args.games)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"  {agent:<7} {args.games / cpu:7.0f} games/s per CPU-second ({args.games / wall:.0f} wall), "
                  f"{decisions / args.games:.0f} decisions and {rounds / args.games:.1f} rounds a game; "
                  f"aim {AIM:,}: {'met' if args.games / cpu >= AIM else 'not met'}")
    script = ROOT / "sword_coast" / "sword_coast.quest"
    for agent in sorted({args.agent, "random", "best"}):  # best, sim's default: the seats without one play greedy
        cpu = time.process_time()
        simulate(str(script), runs=args.games, jobs=1, agent=agent)
        cpu = time.process_time() - cpu
        print(f"deckquest sim {script.name} --agent {agent} --jobs 1 (Ana plays greedy): "
              f"{args.games / cpu:.0f} runs/s per CPU-second, report included")
    profile = cProfile.Profile()
    profile.enable()
    games(config_for(*LIBRARIES["sword_coast (60 cards)"]), args.agent, max(args.games // 3, 1))
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:4000])


if __name__ == "__main__":
    main()
