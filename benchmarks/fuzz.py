"""The long fuzzing run (issues 12 and 28): the seeded mutation fuzzer of tests/hostile/fuzzing.py
over the scripts and saves of every game, deck lists and pack manifests, and the language
server's sessions (`lsp`, tests/hostile/fuzzing_lsp.py), for as long as asked.

Run: PYTHONPATH=src python benchmarks/fuzz.py --minutes N [--seed S] [--target script:grizzly ...] [--crashes DIR]
Prints the inputs tried and refused per kind (`script:GAME`, `save:GAME`, `deck`, `manifest`),
the crashes grouped by where they come from (exception type and innermost deckquest frame)
with one reproducer each, and the slowest input. With --crashes DIR, each distinct crash's
input is written there. Same seed, same inputs.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "hostile"))

from fuzzing import KINDS, Figures, Fuzzer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", action="append", choices=[*KINDS, "lsp"])
    parser.add_argument("--crashes", type=Path, help="write each distinct crash's input into this folder")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dq-fuzz-") as folder:
        fuzzer = Fuzzer(Path(folder), seed=options.seed)
        figures = Figures()
        targets = options.target or list(fuzzer.targets)
        for minute in range(int(options.minutes) or 1):  # a line of progress a minute
            seconds = 60 * min(1.0, options.minutes - minute) if options.minutes >= 1 else 60 * options.minutes
            fuzzer.run(seconds, targets, figures)
            print(f"  {figures.total:,} inputs, {len(figures.crashes)} crashes", file=sys.stderr)
    report(figures, options)


def report(figures: Figures, options) -> None:
    print(f"fuzzing {options.minutes:g} min, seed {options.seed}: {figures.total:,} inputs tried")
    for target, tried in figures.tried.items():
        refused = figures.refused.get(target, 0)
        crashed = sum(c.target == target for c in figures.crashes)
        print(f"  {target:14} {tried:8,} tried  {tried - refused - crashed:7,} accepted  {refused:7,} refused  "
              f"{crashed:5,} crashes")
    groups = collections.defaultdict(list)
    for crash in figures.crashes:
        groups[(crash.target, crash.signature)].append(crash)
    print(f"crashes: {len(figures.crashes):,} ({len(groups)} distinct)")
    for number, ((target, signature), crashes) in enumerate(sorted(groups.items(), key=lambda g: -len(g[1]))):
        shortest = min(crashes, key=lambda c: len(c.text))
        print(f"  {len(crashes):5,} x {target}: {signature}")
        print(f"        shortest input ({len(shortest.text):,} chars): {shortest.text[:300]!r}")
        if options.crashes:
            options.crashes.mkdir(parents=True, exist_ok=True)
            (options.crashes / f"{number:02d}-{target.replace(':', '-')}.txt").write_text(shortest.text, "utf-8", errors="surrogatepass")
    seconds, target, text = figures.slowest
    print(f"slowest: {seconds:.2f} s, a {target} of {len(text):,} characters: {text[:200]!r}")


if __name__ == "__main__":
    main()
