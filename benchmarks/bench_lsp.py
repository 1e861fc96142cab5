"""How long a hover waits behind quick edits in `deckquest lsp` (issue 28, item 5).

A real client over stdio (tests/hostile/lspwire.py) opens a script (the Goblin Cave unless told)
with a comment line added on top, waits for its first diagnostics, then types N characters into
that comment as fast as it can write them (one incremental `didChange` each, as an editor sends
while the GM types; with --full, the whole text each time) and asks for a hover on the first
`battle against` NPC (or the first scene); then waits for the diagnostics of the last version. Prints, for each N, the seconds from the hover sent to its answer, the seconds from
the first edit to the answer, how many diagnostics the server published, and what it says it
analysed (its `deckquest/status` request).

Run: PYTHONPATH=src python benchmarks/bench_lsp.py [--edits 200 2000] [--script S] [--full] [--timeout 200]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "hostile"))

from lspwire import Wire  # noqa: E402

CAVE = ROOT / "scenarios" / "goblin_cave" / "goblin_cave.quest"


def one(script: Path, edits: int, full: bool, timeout: float) -> str:
    text = "# typing: \n" + script.read_text("utf-8")
    lines = text.splitlines()
    first = len(lines[0])
    target = re.compile(r"battle against (\w+)|^\s*(?:start )?scene (\w+)")
    line, column = next((n, found.start(found.lastindex or 0)) for n, l in enumerate(lines)
                        if (found := target.search(l)))
    uri = script.resolve().as_uri()
    with Wire() as wire:
        wire.initialize()
        wire.open(uri, text)
        wire.wait_for("textDocument/publishDiagnostics")
        started = time.perf_counter()
        typed = text
        for number in range(edits):
            at = {"line": 0, "character": first + number}
            typed = typed[:first + number] + "x" + typed[first + number:]
            change = {"text": typed} if full else {"range": {"start": at, "end": at}, "text": "x"}
            wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2 + number},
                                                   "contentChanges": [change]})
        asked = time.perf_counter()
        try:
            answer = wire.hover(uri, line, column + 1, timeout=timeout)
        except AssertionError:
            wire.kill()
            return f"{edits:6,} edits: no answer in {timeout:g} s"
        answered = time.perf_counter()
        latest = 1 + edits
        while not any(n["params"].get("version") == latest for n in wire.notifications
                      if n["method"] == "textDocument/publishDiagnostics"):
            wire.wait_for("textDocument/publishDiagnostics", len(wire.notifications) + 1, timeout=timeout)
        published = len([n for n in wire.notifications if n["method"] == "textDocument/publishDiagnostics"])
        status = wire.call("deckquest/status", None, timeout=timeout).get("result")
        analysed = "" if not status else f", {status['documents'][uri]['analysed']:,} versions analysed"
        found = "answered" if answer.get("result") else f"answered {answer}"
        return (f"{edits:6,} edits: hover {found} {answered - asked:6.2f} s after it was sent, "
                f"{answered - started:6.2f} s after the first edit; until the last version's diagnostics, "
                f"{published:,} diagnostics published{analysed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--script", type=Path, default=CAVE)
    parser.add_argument("--full", action="store_true", help="send the whole text with each edit")
    parser.add_argument("--timeout", type=float, default=200.0)
    options = parser.parse_args()
    print(f"{options.script.name}, {'whole-document' if options.full else 'incremental'} edits")
    for edits in options.edits:
        print(one(options.script, edits, options.full, options.timeout), flush=True)


if __name__ == "__main__":
    main()
