"""docs/tutorial.md and docs/transcripts.md: every script and command in them works as shown."""

from __future__ import annotations

import os
import re
import shlex

import pytest
from click.testing import CliRunner

from deckquest.cli import main
from runtime_helpers import ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)


def blocks(kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(TUTORIAL.read_text(encoding="utf-8")) if lang == kind]


def commands_after(script: str) -> list[str]:
    """The `deckquest` commands in the sh blocks that follow a script block."""
    doc = TUTORIAL.read_text(encoding="utf-8")
    start = doc.index(script)
    following = doc[start + len(script):]
    next_script = following.find("```quest")
    section = following if next_script < 0 else following[:next_script]
    return [line for lang, body in FENCE.findall(section) if lang == "sh"
            for line in body.splitlines() if line.startswith("deckquest ")]


@pytest.fixture
def lamb_folder(tmp_path):
    deck = blocks("text")[0]
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "shepherd.txt").write_text(deck, encoding="utf-8")
    old = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(old)


@pytest.mark.parametrize("step", [0, 1, 2])
def test_every_tutorial_step_checks_and_runs(lamb_folder, step):
    script = blocks("quest")[step]
    (lamb_folder / "lamb.quest").write_text(script, encoding="utf-8")
    commands = commands_after(script)
    assert commands, f"step {step + 1} shows no command"
    for command in commands:
        result = CliRunner().invoke(main, shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}\n{result.output}"


def test_the_tutorial_transcript_is_what_the_last_step_prints(lamb_folder):
    (lamb_folder / "lamb.quest").write_text(blocks("quest")[-1], encoding="utf-8")
    shown = next(body for body in blocks("text") if body.startswith("# The Lost Lamb"))
    result = CliRunner().invoke(main, ["run", "lamb.quest", "--seed", "3"])
    assert result.exit_code == 0
    assert result.stdout == shown


def test_the_jsonl_examples_in_transcripts_md_are_real_output():
    doc = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    examples = [line for line in doc.splitlines() if line.startswith('{"event"')]
    shrine = str(ROOT / "scenarios" / "drowned_shrine" / "drowned_shrine.quest")
    out = CliRunner().invoke(main, ["run", shrine, "--seed", "1", "--agent", "first",
                                    "--format", "jsonl"]).stdout.splitlines()
    assert examples and all(example in out for example in examples)
