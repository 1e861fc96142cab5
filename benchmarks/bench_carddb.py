"""How long the built-in card database takes to load (goal: well under 50 ms).

Cold: a fresh interpreter imports deckquest.cards.builtin and loads every card
(the cost a `deckquest` command pays once). Warm: load_builtin() again in a
process that already did it (parsing only; the file is read each time), and the
lookup index that CardDatabase uses built on top.

Usage: python benchmarks/bench_carddb.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COLD = """
import time
start = time.perf_counter()
from deckquest.cards.builtin import load_builtin
cards = load_builtin()
loaded = time.perf_counter()
from deckquest.cards.database import CardIndex
index = CardIndex(cards)
indexed = time.perf_counter()
print(len(cards), loaded - start, indexed - start)
"""


def cold(runs: int) -> tuple[int, list[float], list[float]]:
    loads, indexes, count = [], [], 0
    for _ in range(runs):
        command = [sys.executable, "-c", COLD]
        out = subprocess.run(command, capture_output=True, text=True, check=True)
        count_text, load, index = out.stdout.split()
        count = int(count_text)
        loads.append(float(load))
        indexes.append(float(index))
    return count, loads, indexes


def warm(runs: int) -> tuple[list[float], list[float]]:
    from deckquest.cards.builtin import load_builtin
    from deckquest.cards.database import CardIndex

    load_builtin()
    loads, indexes = [], []
    for _ in range(runs):
        start = time.perf_counter()
        cards = load_builtin()
        loaded = time.perf_counter()
        CardIndex(cards)
        loads.append(loaded - start)
        indexes.append(time.perf_counter() - loaded)
    return loads, indexes


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:6.2f} ms  min {min(values) * 1000:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    count, cold_loads, cold_indexed = cold(runs)
    warm_loads, warm_indexes = warm(runs)
    print(f"built-in card database: {count} cards, {runs} runs each")
    print(f"cold  import + load_builtin()        {ms(cold_loads)}")
    print(f"cold  import + load + CardIndex      {ms(cold_indexed)}")
    print(f"warm  load_builtin()                 {ms(warm_loads)}")
    print(f"warm  CardIndex(cards)               {ms(warm_indexes)}")


if __name__ == "__main__":
    main()
