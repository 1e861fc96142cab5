"""Time and peak memory of the hostile card data, deck lists and saves of issue 12 (items 4, 5, 6, 12).

Writes each input into a temporary directory, runs the deckquest command a user would
(`cards coverage`, `cards import`, `run --resume`) in a subprocess with a temporary
DECKQUEST_HOME, and prints its seconds, peak RSS, exit code and the codes on stderr. The
figures of docs/packs.md ("Card data, decks and saves") come from this script.
`--imported N` first imports N synthetic cards, so that "did you mean" searches a large
user database as well as the built-in cards.

Run: PYTHONPATH=src python benchmarks/bench_hostile_cards.py [--imported 50000]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def write_repeated(path: Path, head: str, unit: str, count: int, tail: str = "") -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(head)
        for _ in range(count):
            out.write(unit)
        out.write(tail)


def inputs(folder: Path) -> list[tuple[str, list[str]]]:
    """(label, command) for each hostile input, written into `folder`."""
    (folder / "u40k.txt").write_text("".join(f"1 Unknown Card Number {i}\n" for i in range(40_000)))
    (folder / "u5k.txt").write_text("".join(f"1 Lightnig Bolt {i}\n" for i in range(5_000)))
    write_repeated(folder / "junk.txt", "", "junk junk junk\n" * 1000, 1000)
    write_repeated(folder / "long.txt", "4 ", "A" * (1 << 20), 50, "\n")
    (folder / "deep.json").write_text("[" * 100_000)
    write_repeated(folder / "huge.json", '[{"object": "card", "name": "', "x" * (1 << 20), 200, '"}]')
    good = json.dumps({"object": "card", "name": "Bears", "type_line": "Creature", "cmc": 2})
    bad = [f'{{"object": "card", "name": "{n}", "type_line": "C", "cmc": {v}}}'
           for n, v in (("A", "1e400"), ("B", "Infinity"), ("C", "9" * 5000))]
    (folder / "cmc.json").write_text("[" + ", ".join([good, *bad]) + "]")
    with open(folder / "save.json", "wb") as out:
        out.truncate(200 * 1024 * 1024)
    return [
        ("deck list: 40,000 unknown names", ["cards", "coverage", "u40k.txt"]),
        ("deck list: 5,000 unknown names", ["cards", "coverage", "u5k.txt"]),
        ("deck list: 10^6 junk lines", ["cards", "coverage", "junk.txt"]),
        ("deck list: one 50 MB line", ["cards", "coverage", "long.txt"]),
        ("card file: 100,000 `[`", ["cards", "import", "deep.json"]),
        ("card file: one 200 MB object", ["cards", "import", "huge.json"]),
        ("card file: cmc 1e400, Infinity, 5,000 digits", ["cards", "import", "cmc.json"]),
        ("save: 200 MB", ["run", "x.quest", "--resume", "save.json"]),
    ]


def measure(command: list[str], folder: Path, home: Path) -> tuple[float, int, int, str]:
    """Seconds, peak RSS (KB), exit code and the distinct codes on stderr of one command."""
    env = {**os.environ, "DECKQUEST_HOME": str(home), "PYTHONPATH": str(SRC)}
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "deckquest", *command], cwd=folder, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = child.stderr.read() if child.stderr else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    codes = " ".join(sorted(set(re.findall(r"error\[(DQ\d{4})\]", stderr))))
    return time.perf_counter() - started, usage.ru_maxrss, child.returncode, codes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--imported", type=int, default=0, help="synthetic cards to import first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder, home = Path(temporary), Path(temporary) / "home"
        if args.imported:
            cards = [{"object": "card", "name": f"Card {i}", "oracle_id": f"c{i}", "type_line": "Creature",
                      "cmc": 2} for i in range(args.imported)]
            (folder / "many.json").write_text(json.dumps(cards))
            measure(["cards", "import", "many.json"], folder, home)
        print(f"{'input':48} {'seconds':>8} {'peak MB':>8} exit  codes")
        for label, command in inputs(folder):
            seconds, peak_kb, code, codes = measure(command, folder, home)
            print(f"{label:48} {seconds:8.2f} {peak_kb / 1024:8.0f} {code:4}  {codes}")
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
