"""Speed of the exact odds (T-1.6) and of the `deckquest odds` command.

Prints figures; asserts nothing. Run: python benchmarks/bench_odds.py
Goals: one exact check probability under 1 ms for a 60-card deck; the odds
command end to end under 0.5 s wall.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from deckquest.cards.model import Card
from deckquest.engine.pc import designate_critical
from deckquest.engine import odds

ROOT = Path(__file__).resolve().parents[1]
DECK_FILE = ROOT / "scenarios" / "goblin_cave" / "decks" / "mono_green.txt"


def sixty_card_deck() -> list[Card]:
    """A two-colour deck with lands, gold cards, artifacts and a devoid card: many signatures."""
    build = Card.build
    return (
        [build("Forest", None, "Basic Land — Forest")] * 12
        + [build("Island", None, "Basic Land — Island")] * 10
        + [build("Breeding Pool", None, "Land — Forest Island")] * 2
        + [build("Llanowar Elves", "{G}", "Creature — Elf")] * 4
        + [build("Runeclaw Bear", "{1}{G}", "Creature — Bear")] * 4
        + [build("Kiora's Follower", "{G}{U}", "Creature — Merfolk")] * 4
        + [build("Counterspell", "{U}{U}", "Instant")] * 4
        + [build("Mind Stone", "{2}", "Artifact")] * 4
        + [build("Vile Aggregate", "{2}{B}", "Creature — Eldrazi", keywords=("Devoid",))] * 2
        + [build("Craw Wurm", "{4}{G}{G}", "Creature — Wurm")] * 4
        + [build("Mahamoti Djinn", "{4}{U}{U}", "Creature — Djinn")] * 4
        + [build("Simic Sky Swallower", "{5}{G}{G}{U}", "Creature — Leviathan")] * 2
        + [build("Opt", "{U}", "Instant")] * 4
    )


def clear_caches() -> None:
    for cached in (odds._pair_outcomes, odds._success_2019, odds._boost_tail, odds._values_2014):
        cached.cache_clear()


def per_call(function, repeat: int) -> float:
    """Median seconds of one cold call (caches cleared before each)."""
    times = []
    for _ in range(repeat):
        clear_caches()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def wall(command: list[str], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    deck = sixty_card_deck()
    critical = designate_critical(deck, "Forest", 3)
    print(f"deck: {len(deck)} cards, {len(odds.composition(deck, critical))} check signatures")
    one = per_call(lambda: odds.check_probability(deck, critical, "green", 4), 200)
    print(f"one exact check probability (cold cache):            {one * 1e3:7.3f} ms")
    one_boost = per_call(lambda: odds.check_probability(deck, critical, "green", 4, boost=True), 200)
    print(f"one exact check probability with boost (cold cache): {one_boost * 1e3:7.3f} ms")
    table = per_call(
        lambda: (odds.odds_table(deck, critical), odds.odds_table(deck, critical, boost=True)), 20
    )
    print(f"whole 2019 odds table, with and without boost:       {table * 1e3:7.3f} ms")
    table_2014 = per_call(lambda: odds.odds_table(deck, critical, rules="2014"), 50)
    print(f"whole 2014 odds table:                               {table_2014 * 1e3:7.3f} ms")
    exe = [sys.executable, "-m", "deckquest"]
    print(f"deckquest --help (start-up, subprocess):             {wall(exe + ['--help']) * 1e3:7.1f} ms")
    if DECK_FILE.exists():
        command = exe + ["odds", str(DECK_FILE), "--critical", "Forest:3"]
        print(f"deckquest odds {DECK_FILE.name} --critical Forest:3: {wall(command) * 1e3:7.1f} ms wall")
        print(f"  the same with --json:                              {wall(command + ['--json']) * 1e3:7.1f} ms wall")


if __name__ == "__main__":
    main()
