"""Helpers shared by the scenario-language tests (imported as `dsl_helpers`)."""

from __future__ import annotations

import re
from pathlib import Path

from deckquest.dsl.resolver import compile_source
from deckquest.errors import CompileError

HERE = Path(__file__).parent
DECKS = HERE / "decks"

# A valid opening for small test scripts: header, two PCs (their decks are in tests/dsl/decks).
PRELUDE = '''scenario "Test":
    rules 2019
pc alice "Alice":
    deck "decks/green.txt"
    critical "Forest" x3
pc bram "Bram":
    deck "decks/red.txt"
    critical "Mountain" x3
'''


def compile_in(folder: Path, text: str, db, name: str = "test.quest"):
    """Write the script into the folder and compile it there."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return compile_source(text, path, db)


def diagnostics_of(folder: Path, text: str, db, name: str = "test.quest"):
    """Every diagnostic (errors and warnings) of a script, compiled in `folder`."""
    try:
        return compile_in(folder, text, db, name).warnings
    except CompileError as failure:
        return failure.diagnostics


def codes_of(folder: Path, text: str, db) -> list[str]:
    return [d.code for d in diagnostics_of(folder, text, db)]


def errors_of(folder: Path, text: str, db) -> list[str]:
    return [d.code for d in diagnostics_of(folder, text, db) if d.severity == "error"]


def scene(body: str, declarations: str = "") -> str:
    """A full script: prelude, declarations, and a start scene with the (unindented) body."""
    indented = "".join("    " + line + "\n" if line.strip() else "\n" for line in body.strip("\n").split("\n"))
    return PRELUDE + declarations + 'start scene s "S":\n' + indented


def fenced_blocks(markdown: str, language: str = "quest") -> list[tuple[int, str]]:
    """(line number, text) of each ```quest block in a Markdown file."""
    blocks = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```", markdown, re.S | re.M):
        blocks.append((markdown.count("\n", 0, match.start()) + 1, match.group(1)))
    return blocks
