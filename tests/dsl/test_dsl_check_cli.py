"""`deckquest check SCRIPT...`: diagnostics on stderr, exit 0 without errors, 1 with errors."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from deckquest.cli import main
from dsl_helpers import DECKS, PRELUDE

ROOT = Path(__file__).parents[2]


def run(*args):
    return CliRunner().invoke(main, ["check", *map(str, args)])


def test_clean_script_exits_0(tmp_path):
    shutil.copytree(DECKS, tmp_path / "decks")
    script = tmp_path / "ok.quest"
    script.write_text(PRELUDE + 'start scene s "S":\n    end victory\n')
    result = run(script)
    assert result.exit_code == 0
    assert result.stderr.strip() == f"{script}: ok (1 scene)"


def test_warnings_are_printed_but_exit_0(tmp_path):
    shutil.copytree(DECKS, tmp_path / "decks")
    script = tmp_path / "warn.quest"
    script.write_text(PRELUDE + 'flag unused\nstart scene s "S":\n    end victory\n')
    result = run(script)
    assert result.exit_code == 0
    assert "warning[DQ0044]: the flag `unused` is never used" in result.stderr
    assert "1 warning)" in result.stderr


def test_errors_exit_1_with_compiler_style_messages(tmp_path):
    script = tmp_path / "bad.quest"
    script.write_text('scenario "T":\n    rules 2019\nstart scene s "S":\n    -> hal\nscene hall "H":\n    end victory\n')
    result = run(script)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[:4] == [f"{script}:4:8: error[DQ0031]: unknown scene `hal`", "        -> hal", "           ^^^",
                         "hint: did you mean `hall`?"]
    assert lines[-1] == "1 error"


def test_every_script_is_checked_and_one_failure_fails_all(tmp_path):
    shutil.copytree(DECKS, tmp_path / "decks")
    good = tmp_path / "good.quest"
    good.write_text(PRELUDE + 'start scene s "S":\n    end victory\n')
    bad = tmp_path / "bad.quest"
    bad.write_text("scene\n")
    result = run(bad, good)
    assert result.exit_code == 1
    assert f"{good}: ok" in result.stderr and f"{bad}:1:6: error[DQ0001]" in result.stderr


def test_missing_file_is_a_diagnostic_not_a_traceback(tmp_path):
    result = run(tmp_path / "nope.quest")
    assert result.exit_code == 1
    assert "error[DQ0014]: cannot read" in result.stderr and "Traceback" not in result.stderr


def test_example_is_the_contract_byte_for_byte():
    """scenarios/goblin_cave/goblin_cave.quest is the example of the language contract, unchanged."""
    contract = Path("/work/shared/language.md")
    shipped = (ROOT / "scenarios" / "goblin_cave" / "goblin_cave.quest").read_text()
    if contract.exists():
        example = re.search(r"## Example: `scenarios/goblin_cave/goblin_cave.quest`\n\n```\n(.*?)```",
                            contract.read_text(), re.S).group(1)
        assert shipped == example
    assert shipped.startswith("# The Goblin Cave")


def test_deck_and_library_errors_are_named_like_the_script_issue_18(tmp_path, monkeypatch):
    """Issue 18 item 15: a deck list's errors named it by its absolute path while the script's
    own errors used the relative path it was given; now both are relative (and both absolute
    when the script's path is)."""
    folder = tmp_path / "quest"
    shutil.copytree(DECKS, folder / "decks")
    (folder / "decks" / "red.txt").write_text("4 Lightning Blot\n56 Mountain\n")
    (folder / "lib.quest").write_text("flag x\ncounter y = \n")
    (folder / "q.quest").write_text(PRELUDE.replace('    rules 2019\n', '    rules 2019\nuse "lib.quest"\n')
                                    + 'start scene s "S":\n    end victory\n')
    monkeypatch.chdir(tmp_path)
    result = run("quest/q.quest")
    assert result.exit_code == 1
    starts = [line.split(": error")[0] for line in result.stderr.splitlines() if ": error[" in line]
    assert sorted(starts) == ["quest/decks/red.txt:1:3", "quest/lib.quest:2:12"]
    absolute = run(folder / "q.quest")
    assert f"{folder / 'decks' / 'red.txt'}:1:3: error[DQ1001]" in absolute.stderr
