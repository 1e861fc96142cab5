"""Resuming after the script was edited (issue 18 item 3, docs/saves.md): an edit that cannot
move the saved position (a word of narration, a later scene, a new flag) is resumed, saying
which lines changed; one that can (the statements of the block the run stands in, a check made
in this scene, a flag of the save removed) is refused with the reason (DQ9007)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_file
from deckquest.errors import DeckquestError
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.runtime.saves import load_run, save_run

ABBEY = Path(__file__).parent / "ashen_abbey"


@pytest.fixture
def abbey(tmp_path) -> Path:
    shutil.copytree(ABBEY, tmp_path / "abbey")
    return tmp_path / "abbey" / "ashen_abbey.quest"


def saved_in_the_cloister(script: Path, tmp_path: Path) -> tuple[Path, list[dict]]:
    """A save made in the cloister after its first check (T-4.12 remembers it), and the rest
    of the uninterrupted run's events."""
    run = Run(Program(compile_file(script)), make_agent("first"), random.Random(3), seed=3)
    while not any(key[1] == 110 for _, (key, _), _, _ in run.state.checks_made.made):  # the cloister's first check
        assert run.step()
    save = tmp_path / "cloister.json"
    save_run(run, save, seed=3, agent="first")
    before = len(run.events)
    return save, run.run().events[before:]


def resume(script: Path, save: Path) -> Run:
    return load_run(Program(compile_file(script)), save, make_agent("first"))


def edit(script: Path, old: str, new: str) -> None:
    text = script.read_text(encoding="utf-8")
    assert old in text
    script.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_word_of_narration_changed_resumes_and_names_the_line(abbey, tmp_path):
    save, rest = saved_in_the_cloister(abbey, tmp_path)
    edit(abbey, '"{pc} reads a line of the old litany."', '"{pc} reads a verse of the old litany."')
    run = resume(abbey, save)
    assert run.script_changes == "line 113 changed"
    events = run.run().events
    texts = [e.get("text") for e in events]
    assert "Rook the Cutpurse reads a verse of the old litany." in texts
    assert len(events) == len(rest)  # the same story, the new words


def test_lines_added_above_move_the_checks_made_with_them_t_4_12(abbey, tmp_path):
    """The checks made in this scene are named by their place (T-4.12: no repeat of the very
    same check); lines added above the scene move them, and the run still knows them."""
    save, rest = saved_in_the_cloister(abbey, tmp_path)
    edit(abbey, "# --- triggers for the whole adventure ---", "# --- triggers ---\n# (two new lines)\n#")
    run = resume(abbey, save)
    assert run.script_changes == "lines 41-43 changed"
    lines = {key[1] for _, (key, _), _, _ in run.state.checks_made.made}  # T-4.12 keeps the whole run's checks
    assert 112 in lines and 110 not in lines  # was 110
    assert [e["event"] for e in run.run().events] == [e["event"] for e in rest]


def test_a_later_scene_edited_and_a_flag_added_resume(abbey, tmp_path):
    save, _ = saved_in_the_cloister(abbey, tmp_path)
    edit(abbey, 'check white difficulty 4 by ilse as "Rebuke the abbot"', 'check white difficulty 3 by ilse as "Rebuke"')
    edit(abbey, "flag midnight\n", "flag midnight\nflag bell_rung\n")
    run = resume(abbey, save)
    assert run.state.flags["bell_rung"] is False and run.state.scene == "cloister"
    assert run.run().outcome


@pytest.mark.parametrize("old, new, reason", [
    ('check blue difficulty 2 by each as "Decipher the murals"', 'check blue difficulty 3 by each as "Decipher the murals"',
     "the statements of the block the save is in (the scene `cloister`) changed, not only their text"),
    ('check blue difficulty 2 by each as "Decipher the murals":', 'check blue difficulty 2 by each as "Decipher the murals" :',
     "line 110, a check made in this scene, changed"),
    ("flag relic_found\n", "", "the flag `relic_found` of the save is gone"),
])
def test_an_edit_that_can_move_the_saved_position_is_refused_with_the_reason(abbey, tmp_path, old, new, reason):
    save, _ = saved_in_the_cloister(abbey, tmp_path)
    edit(abbey, old, new)
    if "relic_found" in old:  # the script must still compile without the flag
        edit(abbey, "            set relic_found\n", "")
        edit(abbey, '    if relic_found:\n        "The silver reliquary burns cold in your hand. The Saint flinches."\n', "")
    with pytest.raises(DeckquestError) as refused:
        resume(abbey, save)
    assert refused.value.code == "DQ9007"
    assert reason in refused.value.message
    assert "changed since the save: line" in refused.value.hint


def test_the_cli_says_what_changed_when_it_resumes(abbey, tmp_path):
    from click.testing import CliRunner

    from deckquest.cli import main

    save, _ = saved_in_the_cloister(abbey, tmp_path)
    edit(abbey, '"{pc} reads a line of the old litany."', '"{pc} reads a verse of the old litany."')
    result = CliRunner().invoke(main, ["run", str(abbey), "--resume", str(save)], input="")
    assert result.exit_code == 0, result.output
    assert ("note: the script changed since the save (line 113 changed), not where the run stands: "
            "resuming with the script as it is now") in result.stderr
