"""docs/ja/tutorial.md, the tutorial in Japanese (issue 20): every script and command in it works
as shown, and the transcripts it shows are what `language ja` prints."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from deckquest.cli import main
from runtime_helpers import ROOT

TUTORIAL = ROOT / "docs" / "ja" / "tutorial.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)
DECK_FILE = re.compile(r"^# (decks/[\w.]+\.txt)")


def blocks(kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(TUTORIAL.read_text(encoding="utf-8")) if lang == kind]


def commands_after(script: str) -> list[str]:
    doc = TUTORIAL.read_text(encoding="utf-8")
    following = doc[doc.index(script) + len(script):]
    next_script = following.find("```quest")
    section = following if next_script < 0 else following[:next_script]
    return [line for lang, body in FENCE.findall(section) if lang == "sh"
            for line in body.splitlines() if line.startswith("deckquest ")]


@pytest.fixture
def lamb_folder(tmp_path, monkeypatch):
    (tmp_path / "decks").mkdir()
    for body in blocks("text"):
        named = DECK_FILE.match(body)
        if named:
            (tmp_path / named.group(1)).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("step", [0, 1, 2, 3])
def test_every_step_of_the_japanese_tutorial_checks_and_runs(lamb_folder, step):
    script = blocks("quest")[step]
    assert "    language ja\n" in script
    (lamb_folder / "lamb.quest").write_text(script, encoding="utf-8")
    commands = commands_after(script)
    assert commands
    for command in commands:
        result = CliRunner().invoke(main, shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}\n{result.output}"
        if command.startswith("deckquest check"):
            assert ": OK(" in result.stderr  # the check's own line is Japanese too


def test_the_japanese_transcript_is_what_step_3_prints(lamb_folder):
    (lamb_folder / "lamb.quest").write_text(blocks("quest")[2], encoding="utf-8")
    shown = next(body for body in blocks("text") if body.startswith("# 迷子の子羊"))
    result = CliRunner().invoke(main, ["run", "lamb.quest", "--seed", "3"])
    assert result.exit_code == 0
    assert result.stdout == shown


def test_the_battle_excerpt_is_what_step_4_prints(lamb_folder):
    (lamb_folder / "lamb.quest").write_text(blocks("quest")[3], encoding="utf-8")
    excerpt = next(body for body in blocks("text") if body.startswith("== ねぐら =="))
    head = excerpt[:excerpt.index("  ターン 1")]
    result = CliRunner().invoke(main, ["run", "lamb.quest", "--seed", "2"])
    assert result.exit_code == 0 and head in result.stdout
    assert "\n== 終幕: " in result.stdout
