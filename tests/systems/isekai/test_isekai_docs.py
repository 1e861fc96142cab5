"""docs/isekai.md stays true: its scripts compile and every reading of the registered system is
documented with its seed line (each DQ4xxx code's example, in docs/errors.md, is checked by
tests/test_system_codes_docs.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_file
from deckquest.systems import load_all
from deckquest.systems.isekai import IsekaiSystem

DOC = (Path(__file__).resolve().parents[3] / "docs" / "isekai.md").read_text(encoding="utf-8")


def quest_blocks(text: str) -> list[str]:
    return re.findall(r"```quest\n(.*?)```", text, re.S)


def compile_in(folder: Path, text: str):
    load_all()
    (folder / "decks").mkdir(exist_ok=True)
    (folder / "decks" / "green.txt").write_text("20 Forest\n20 Grizzly Bears\n20 Llanowar Elves\n")
    path = folder / "example.quest"
    path.write_text(text, encoding="utf-8")
    return compile_file(path)


@pytest.mark.parametrize("index", range(2))
def test_the_guide_s_scripts_compile(tmp_path, index):
    """The Duel on the Road and the adventure with a duel, as the guide shows them."""
    block = quest_blocks(DOC)[index]
    assert block.startswith("scenario")
    compile_in(tmp_path, block)


def test_every_reading_is_documented_with_its_values_and_seed_line():
    for reading in IsekaiSystem.readings:
        row = next(line for line in DOC.splitlines() if line.startswith(f"| `{reading.name}` |"))
        assert reading.rule in row and reading.source in row
        assert all(f"`{value}`" in row for value in reading.values)
