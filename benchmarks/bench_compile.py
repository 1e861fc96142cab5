"""Compile time of a generated 5,000-line scenario script (goal: under 1 s).

Run: python benchmarks/bench_compile.py [LINES]
Prints the script size and the best of several runs for parsing alone and for the whole compile
(parse, names, flow). The script has no PCs, so no deck file is read: this measures the language
front end, not the deck loader.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from deckquest.dsl.parser import parse_source
from deckquest.dsl.resolver import compile_source
from deckquest.systems import load_all

load_all()  # MTG-TRPG's part of the language (its statements) comes with its system, as in the CLI

SCENE = '''scene s{i} "Room {i}":
    when the scene starts if torches < 2:
        "It is dark in room {i}."
    "You enter room {i}; {{torches}} torches left."
    encounter guard
    choice:
        "Search the room" if not searched:
            check green difficulty 3 by party as "Search":
                success:
                    set searched
                    torches += 1
                failure:
                    each pc loses 1 life
        "Move on":
            torches -= 1
    if torches > 0 and party size >= 2 or searched:
        -> s{next}
    else:
        -> s{next}
'''
HEADER = '''scenario "Benchmark":
    rules 2019
creature guard "Guard":
    stats 2/2
flag searched
counter torches = 3
'''


def generate(lines: int) -> str:
    per_scene = SCENE.count("\n")
    scenes = max(1, (lines - HEADER.count("\n")) // per_scene)
    parts = [HEADER]
    for i in range(scenes):
        text = SCENE.format(i=i, next=i + 1)
        if i == 0:
            text = "start " + text
        if i == scenes - 1:
            text = text.replace(f"-> s{i + 1}", 'end victory "Out."')
        parts.append(text)
    return "".join(parts)


def best_of(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    text = generate(lines)
    path = Path(tempfile.gettempdir()) / "bench.quest"
    start = time.perf_counter()
    parse_source("", "warm-up")  # builds the LALR tables once per process
    build = time.perf_counter() - start
    parse = best_of(5, lambda: parse_source(text, str(path)))
    whole = best_of(5, lambda: compile_source(text, path))
    count = text.count("\n")
    scenes = len(re.findall(r"^(?:start )?scene ", text, re.M))
    print(f"script: {count:,} lines, {len(text):,} bytes, {scenes:,} scenes")
    print(f"grammar: {build * 1000:7.1f} ms  (once per process)")
    print(f"parse:   {parse * 1000:7.1f} ms  ({count / parse:,.0f} lines/s)")
    print(f"compile: {whole * 1000:7.1f} ms  ({count / whole:,.0f} lines/s)")


if __name__ == "__main__":
    main()
