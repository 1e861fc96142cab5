"""Grizzly Bears' Adventure scripts: the contract example, the resolver's table, and every
code of docs/grizzly.md ("Diagnostics") produced by its example at its line and column."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from deckquest.cards.database import CardDatabase, builtin_index
from deckquest.dsl.resolver import compile_file, compile_source
from deckquest.errors import CompileError
from deckquest.systems.grizzly import Grizzly
from deckquest.systems.grizzly.config import PolicyRule

ROOT = Path(__file__).resolve().parents[3]
SWORD_COAST = ROOT / "scenarios" / "sword_coast" / "sword_coast.quest"
CONTRACT = ROOT.parent / "shared" / "language.md"
DOC = (ROOT / "docs" / "grizzly.md").read_text(encoding="utf-8")
DB = CardDatabase(builtin_index())


def test_sword_coast_is_the_contract_example_as_written():
    """language.md, "The other three games": the Grizzly example is scenarios/sword_coast."""
    if not CONTRACT.exists():
        pytest.skip("../shared/language.md is not beside the checkout")
    block = re.search(r"### Grizzly Bears' Adventure.*?```\n(.*?)```", CONTRACT.read_text(encoding="utf-8"), re.S)
    assert block.group(1) == SWORD_COAST.read_text(encoding="utf-8")


def test_the_table_holds_library_loop_seats_and_policies():
    scenario = compile_file(SWORD_COAST, DB)
    table = scenario.system_table
    assert scenario.system == "grizzly"
    assert scenario.options == frozenset({"dungeon", "dragon bounty"})
    assert scenario.readings == {**Grizzly.default_readings(), "home": "corner"}
    assert len(table.library) == 60 and table.squares_per_player == 3 and table.treasures_to_win == 5
    assert [(s[0], s[1], s[2]) for s in table.seats] == [("ana", "Ana", "greedy"), ("ben", "Ben", None),
                                                        ("cai", "Cai", None), ("dee", "Dee", None)]
    under = compile_file(ROOT / "scenarios" / "undermountain" / "undermountain.quest", DB)
    assert under.system_table.expert and under.system_table.turn_limit == 150
    assert under.system_table.seats[0][3] == (PolicyRule("dash", 6, "dash if hand has mana value 6 or more"),
                                              PolicyRule("refuse co-op", 0, "refuse co-op"))


POLICY_SCRIPT = '''scenario "Policies":
    system grizzly
    players 3
library "decks/sword_coast.txt"
seat ana "Ana":
    plays random
{ana}
seat ben "Ben":
{ben}
seat cai "Cai"
'''


def _policies(ana: str, ben: str = "    roll"):
    path = ROOT / "scenarios" / "sword_coast" / "policies.quest"
    return compile_source(POLICY_SCRIPT.format(ana=ana, ben=ben), str(path))


def test_every_policy_rule_parses():
    scenario = _policies("    dash if hand has mana value 5 or more\n    dash if hand has mana value 3 or more\n"
                         "    offer co-op if the flipped power is 3 or more\n    no co-op\n    accept co-op\n"
                         "    venture\n    cast flipped spells",
                         "    roll\n    offer co-op\n    refuse co-op\n    take counter\n    discard flipped spells")
    seats = scenario.system_table.seats
    assert [(r.action, r.threshold) for r in seats[0][3]] == [
        ("dash", 5), ("dash", 3), ("offer co-op", 3), ("no co-op", 0), ("accept co-op", 0), ("venture", 0),
        ("cast flipped", 0)]
    assert [r.action for r in seats[1][3]] == ["roll", "offer co-op", "refuse co-op", "take counter",
                                               "discard flipped"]


@pytest.mark.parametrize("rules, line", [
    ("    roll\n    dash if hand has mana value 5 or more", 8),
    ("    dash if hand has mana value 3 or more\n    dash if hand has mana value 5 or more", 8),
    ("    offer co-op\n    offer co-op if the flipped power is 3 or more", 8),
    ("    accept co-op\n    refuse co-op", 8),
])
def test_a_rule_an_earlier_one_always_answers_is_dq2010(rules, line):
    with pytest.raises(CompileError) as failure:
        _policies(rules)
    found = [(d.code, d.span.line, d.span.col) for d in failure.value.diagnostics]
    assert found == [("DQ2010", line, 5)]


def _sections() -> dict[str, str]:
    part = DOC.split("## Diagnostics", 1)[1]
    pieces = re.split(r"^### (DQ\d{4}) ", part, flags=re.M)
    return dict(zip(pieces[1::2], pieces[2::2]))


@pytest.fixture
def folder(tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(ROOT / "scenarios" / "sword_coast" / "decks" / "sword_coast.txt", decks)
    (decks / "small.txt").write_text("20 Hill Giant\n", encoding="utf-8")
    (decks / "tiny.txt").write_text("5 Hill Giant\n", encoding="utf-8")
    (decks / "bears.txt").write_text("56 Hill Giant\n4 Grizzly Bears\n", encoding="utf-8")
    return tmp_path


def test_every_code_of_the_range_is_documented():
    assert sorted(_sections()) == [f"DQ{code}" for code in range(2001, 2015)]
    for code in _sections():
        assert code in Grizzly.codes


@pytest.mark.parametrize("code", sorted(_sections()))
def test_each_example_produces_its_code_at_its_line_and_column(folder, code):
    section = _sections()[code]
    example = re.search(r"```quest\n(.*?)```", section, re.S).group(1)
    assert "Fix:" in section
    path = folder / "example.quest"
    path.write_text(example, encoding="utf-8")
    try:
        diagnostics = compile_file(path, DB).warnings
    except CompileError as failure:
        diagnostics = failure.diagnostics
    found = [d for d in diagnostics if d.code == code]
    assert found, [d.render() for d in diagnostics]
    span = found[0].span
    assert span.line >= 1 and span.col >= 1
    line = example.splitlines()[span.line - 1]
    assert line.strip(), (code, span)
    assert found[0].render().startswith(f"{path}:{span.line}:{span.col}: ")


def test_the_language_reference_example_compiles_and_runs(tmp_path):
    """docs/language.md, "Grizzly Bears' Adventure": its example compiles (with the core
    docs' decks) and plays a game to its end."""
    from click.testing import CliRunner

    from deckquest.cli import main

    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    example = re.search(r"```grizzly\n(.*?)```", text, re.S).group(1)
    shutil.copytree(ROOT / "tests" / "dsl" / "decks", tmp_path / "decks")
    path = tmp_path / "three.quest"
    path.write_text(example, encoding="utf-8")
    scenario = compile_file(path, DB)
    assert scenario.system_table.treasures_to_win == 4 and scenario.system_table.squares_per_player == 4
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "3"])
    assert result.exit_code == 0, result.stderr
    assert "go home (1 so far)." in result.stdout
