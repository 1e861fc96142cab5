"""The small valid pack the pack tests write (tests/packs/conftest.py's `make_pack`), importable
by name from the test modules (a module named `conftest` is whichever directory's was imported
first when several test folders run together)."""

from __future__ import annotations

import textwrap
from pathlib import Path

SCENARIO = """\
scenario "Tiny":
    author "tests"
    version "1.0.0"
    players 1 to 4
    rules 2019

pc hero "The Hero":
    deck "decks/hero.txt"
    critical "Forest" x3

start scene hill "The Hill":
    "A hill."
    check green difficulty 2 by party as "Climb":
        success:
            end victory "Up."
        failure:
            end defeat "Down."
"""

DECK = "24 Forest\n16 Grizzly Bears\n"


def manifest_text(name="tiny", version="1.0.0", depends=None, extra="", scenarios=("tiny.quest",),
                  decks=("decks/hero.txt",)) -> str:
    """A valid pack.yaml, with optional dependencies and extra lines."""
    lines = [
        f"name: {name}", f"version: {version}", "title: Tiny", "authors: [tests]",
        "license: CC0-1.0", 'deckquest: ">=0.1"',
        "scenarios:", *[f"  - {s}" for s in scenarios],
        "decks:", *[f"  - {d}" for d in decks],
    ]
    if depends:
        lines.append("depends:")
        lines += [f'  - {{name: {n}, version: "{v}"}}' for n, v in depends]
    return "\n".join(lines) + "\n" + textwrap.dedent(extra)


def write_pack(folder: Path, name="tiny", version="1.0.0", depends=None, files=None, **options) -> Path:
    """Write a small valid pack (one scenario, one deck) into `folder` and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    contents = {"pack.yaml": manifest_text(name, version, depends, **options),
                "tiny.quest": SCENARIO, "decks/hero.txt": DECK}
    contents.update(files or {})
    for relative, text in contents.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder
