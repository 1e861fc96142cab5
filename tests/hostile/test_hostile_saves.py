"""Hostile saves and party files (issue 12, items 11 and 12): each is refused with a coded error
within the budgets of docs/packs.md ("Limits and budgets"), shows nothing of a file that is not
what it should be, and leaves nothing behind."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.runtime.saves import save_run

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SECRET = "root:x:0:0:root:/root:/bin/bash\nAPI_KEY=do-not-print-me\n"
PARTY = """party:
  - id: kai
    name: Kai
    deck: {deck}
    critical:
      - card: Mountain
        copies: 3
"""


@pytest.fixture
def toll(folders):
    """A loose copy of the Bandit Toll (no pack.yaml above it) in the working folder."""
    cwd, home = folders
    shutil.copytree(SCENARIOS / "bandit_toll", cwd / "toll")
    (cwd / "secret.txt").write_text(SECRET)
    return cwd, home


def saved_run(folder: Path, party: str) -> str:
    """A real save of the Bandit Toll a few steps in, naming `party` as its party file."""
    run = Run(Program(compile_file(folder / "toll" / "bandit_toll.quest")), make_agent("first"),
              random.Random(1), seed=1)
    for _ in range(3):
        run.step()
    save_run(run, folder / "save.json", seed=1, agent="first", party=party)
    return "save.json"


def assert_unquoted(stderr: str) -> None:
    assert "root:x" not in stderr and "API_KEY" not in stderr, stderr


# ------------------------------------------------------------------ party files (item 11)


@pytest.mark.parametrize("deck", ["/etc/passwd", "../secret.txt", "../../../../../../etc/passwd"])
def test_a_loose_party_file_cannot_name_a_deck_outside_its_folder(run_hostile, toll, deck):
    """Item 11: `deck: /etc/passwd` read any file and echoed its first line. A party file's decks
    follow a loose script's path rule (packs.store.resolve_script_reference)."""
    cwd, home = toll
    (cwd / "toll" / "party.yaml").write_text(PARTY.format(deck=deck))
    result = run_hostile(["run", "toll/bandit_toll.quest", "--party", "toll/party.yaml"], cwd=cwd,
                         env_home=home, code="DQ9024", seconds=15)
    assert_unquoted(result.stderr)


def test_a_party_deck_linked_outside_its_folder_is_refused(run_hostile, toll):
    cwd, home = toll
    (cwd / "toll" / "decks" / "link.txt").symlink_to(cwd / "secret.txt")
    (cwd / "toll" / "party.yaml").write_text(PARTY.format(deck="decks/link.txt"))
    result = run_hostile(["run", "toll/bandit_toll.quest", "--party", "toll/party.yaml"], cwd=cwd,
                         env_home=home, code="DQ9024", seconds=15)
    assert_unquoted(result.stderr)


def test_a_party_deck_that_is_no_deck_list_is_not_quoted(run_hostile, toll):
    """Inside the folder, a file that is not a deck list is refused as a whole (DQ1013)."""
    cwd, home = toll
    (cwd / "toll" / "notes.txt").write_text(SECRET)
    (cwd / "toll" / "party.yaml").write_text(PARTY.format(deck="notes.txt"))
    result = run_hostile(["run", "toll/bandit_toll.quest", "--party", "toll/party.yaml"], cwd=cwd,
                         env_home=home, code="DQ1013", seconds=15)
    assert_unquoted(result.stderr)


def test_a_file_that_is_no_party_file_is_not_quoted(run_hostile, toll):
    cwd, home = toll
    result = run_hostile(["run", "toll/bandit_toll.quest", "--party", "secret.txt"], cwd=cwd,
                         env_home=home, code="DQ9021", seconds=15)
    assert_unquoted(result.stderr)


def test_a_save_naming_a_hostile_party_file_is_refused(run_hostile, toll):
    """Item 11: a save whose `party` names a loose party file with `deck: /etc/passwd`."""
    cwd, home = toll
    party = cwd / "toll" / "evil.yaml"
    party.write_text(PARTY.format(deck="/etc/passwd"))
    save = saved_run(cwd, str(party))
    result = run_hostile(["run", "toll/bandit_toll.quest", "--resume", save], cwd=cwd, env_home=home,
                         code="DQ9024", seconds=15)
    assert_unquoted(result.stderr)


def test_a_save_naming_any_file_as_its_party_shows_none_of_it(run_hostile, toll):
    cwd, home = toll
    save = saved_run(cwd, str(cwd / "secret.txt"))
    result = run_hostile(["run", "toll/bandit_toll.quest", "--resume", save], cwd=cwd, env_home=home,
                         code="DQ9021", seconds=15)
    assert_unquoted(result.stderr)


# ------------------------------------------------------------------ saves (item 12)


def test_a_200_mb_save_is_refused_by_size_before_parsing(run_hostile, toll):
    """Item 12: a 200 MB save used 1 GB before refusal. (A sparse file: the size is refused
    before a byte is read.)"""
    cwd, home = toll
    with open(cwd / "big.json", "wb") as out:
        out.truncate(200 * 1024 * 1024)
    result = run_hostile(["run", "toll/bandit_toll.quest", "--resume", "big.json"], cwd=cwd, env_home=home,
                         code="DQ9002", memory_mb=256, seconds=10)
    assert result.peak_kb < 150_000


def test_a_save_just_over_the_limit_is_refused_after_reading_only_the_limit(run_hostile, toll):
    cwd, home = toll
    (cwd / "big.json").write_text('{"deckquest_save": 1, "pad": "' + "x" * (8 * 1024 * 1024) + '"}')
    run_hostile(["run", "toll/bandit_toll.quest", "--resume", "big.json"], cwd=cwd, env_home=home,
                code="DQ9002", memory_mb=256, seconds=10)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"deckquest_save": ' + "9" * 5000 + "}",
                                  '{"deckquest_save": NaN}'])
def test_unreadable_json_in_a_save_is_DQ9004(run_hostile, toll, text):
    cwd, home = toll
    (cwd / "bad.json").write_text(text)
    result = run_hostile(["run", "toll/bandit_toll.quest", "--resume", "bad.json"], cwd=cwd, env_home=home,
                         code="DQ9004", seconds=10)
    assert len(result.stderr) < 1_000


def test_a_fifo_as_save_is_refused_without_blocking(run_hostile, toll):
    cwd, home = toll
    os.mkfifo(cwd / "save.json")
    run_hostile(["run", "toll/bandit_toll.quest", "--resume", "save.json"], cwd=cwd, env_home=home,
                code="DQ9001", seconds=10)
