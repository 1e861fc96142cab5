"""The syntax tree is immutable: the resolver keeps what it works out (canonical names of used
scripts, the parts of texts) in resolved copies and tables of the compiled program, and
`tune` sets difficulties in the program's table of check sites (issue 13)."""

from __future__ import annotations

import dataclasses

import pytest

from deckquest.dsl import ast
from deckquest.systems.trpg import nodes
from deckquest.dsl.resolver import compile_file

LAIR = "flag alarm\nwhen a check fails:\n    set alarm\n"
MAIN = '''use "lair.quest"
scenario "S":
    rules 2019
flag door
start scene gate "Gate":
    "The alarm is {lair.alarm}."
    set lair.alarm
    check green difficulty 3 as "Climb":
        success:
            end victory "Up."
        failure:
            end defeat "Down."
'''


@pytest.fixture
def scenario(tmp_path):
    (tmp_path / "lair.quest").write_text(LAIR, encoding="utf-8")
    (tmp_path / "main.quest").write_text(MAIN, encoding="utf-8")
    return compile_file(tmp_path / "main.quest")


def test_nodes_are_frozen(scenario):
    with pytest.raises(dataclasses.FrozenInstanceError):
        scenario.script.flags[0].name = "other"  # type: ignore[misc]


def test_the_parsed_tree_keeps_the_names_as_written(scenario):
    written = scenario.script.scenes[0].body
    resolved = scenario.scenes["gate"].body
    assert written[0].text.parts == [] and resolved[0].text.parts[0] == "The alarm is "
    assert isinstance(resolved[0].text.parts[1], ast.Var) and resolved[0].text.parts[1].name == "lair.alarm"
    assert written[1].flag == "lair.alarm" == resolved[1].flag
    used = scenario.triggers[0].body[0]
    assert used.flag == "lair.alarm"  # a used script's names are qualified in the copy ...
    assert set(scenario.flags) == {"door", "lair.alarm"}
    assert scenario.flags["lair.alarm"].name == "lair.alarm"


def test_tune_changes_the_table_not_the_tree():
    from pathlib import Path

    from deckquest.runtime.interpreter import Program
    from deckquest.sim.batch import set_difficulty

    scenario = compile_file(Path(__file__).parents[1] / "sim" / "scenarios" / "single_check.quest")
    program = Program(scenario)
    check = next(s for scene in scenario.scenes.values() for s in scene.body if isinstance(s, nodes.Check))
    written = check.difficulty
    set_difficulty(program, check.span.line, written + 4)
    assert program.sites[id(check)].difficulty == written + 4
    assert check.difficulty == written
    assert Program(scenario).sites[id(check)].difficulty == written
