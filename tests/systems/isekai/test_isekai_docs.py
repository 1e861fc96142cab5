"""docs/isekai.md stays true: its scripts compile, each diagnostic's example produces its code,
and every reading of the registered system is documented with its seed line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_file
from deckquest.errors import CompileError
from deckquest.systems import load_all
from deckquest.systems.isekai import IsekaiSystem

DOC = (Path(__file__).resolve().parents[3] / "docs" / "isekai.md").read_text(encoding="utf-8")
PRELUDE = '''scenario "Example":
    author "t"
    version "1.0.0"
    system isekai
    players 2
unit knight "Road Knight":
    cost 2
    range near
    attack 2
    hp 3
    speed 2
skill parry "Parry":
    cost 1
    speed 3
    prevent 2 damage to a unit
'''


def quest_blocks(text: str) -> list[str]:
    return re.findall(r"```quest\n(.*?)```", text, re.S)


def diagnostic_sections() -> dict[str, str]:
    part = DOC.split("## Diagnostics", 1)[1].split("\n## ", 1)[0]
    pieces = re.split(r"^### (DQ4\d{3}) ", part, flags=re.M)
    return dict(zip(pieces[1::2], pieces[2::2]))


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


@pytest.mark.parametrize("code", sorted(diagnostic_sections()))
def test_each_diagnostic_example_produces_its_code(tmp_path, code):
    section = diagnostic_sections()[code]
    assert "Fix:" in section
    (example,) = quest_blocks(section)
    with pytest.raises(CompileError) as failure:
        compile_in(tmp_path, PRELUDE + example)
    assert code in {d.code for d in failure.value.diagnostics}


def test_every_code_the_system_reports_is_documented():
    source = "".join(p.read_text() for p in (Path(__file__).resolve().parents[3] / "src" / "deckquest" / "systems" / "isekai").glob("*.py"))
    used = set(re.findall(r'"(DQ4\d{3})"', source))
    assert used == set(diagnostic_sections())


def test_every_reading_is_documented_with_its_values_and_seed_line():
    for reading in IsekaiSystem.readings:
        row = next(line for line in DOC.splitlines() if line.startswith(f"| `{reading.name}` |"))
        assert reading.rule in row and reading.source in row
        assert all(f"`{value}`" in row for value in reading.values)
