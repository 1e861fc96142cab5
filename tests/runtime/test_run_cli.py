"""`deckquest run`: transcripts of every bundled scenario (syrupy .txt snapshots) and options."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from deckquest.cli import main
from runtime_helpers import SCENARIOS

SHRINE = str(SCENARIOS / "drowned_shrine" / "drowned_shrine.quest")
TOLL = str(SCENARIOS / "bandit_toll" / "bandit_toll.quest")
CAVE = str(SCENARIOS / "goblin_cave" / "goblin_cave.quest")
CELLAR = str(SCENARIOS / "rat_cellar" / "rat_cellar.quest")
CAVE_JA = str(SCENARIOS / "goblin_cave_ja" / "goblin_cave_ja.quest")


class TranscriptSnapshot(SingleFileSnapshotExtension):
    """One readable .txt file per snapshot."""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def transcript_snapshot(snapshot):
    return snapshot.use_extension(TranscriptSnapshot)


def deckquest(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def shown(result) -> str:
    """What a user sees: the transcript, then any error (paths made relative)."""
    text = result.stdout
    if result.stderr:
        text += f"--- exit {result.exit_code}, stderr:\n{result.stderr}"
    return text.replace(str(SCENARIOS.parent) + "/", "")


RUNS = {
    "drowned_shrine_first": (SHRINE, "--seed", "1", "--agent", "first"),
    "drowned_shrine_best": (SHRINE, "--seed", "5", "--agent", "best"),
    "drowned_shrine_random": (SHRINE, "--seed", "2", "--agent", "random"),
    "drowned_shrine_tome": (SHRINE, "--seed", "3", "--choose", "1,2,2,3"),
    "drowned_shrine_party": (SHRINE, "--seed", "4", "--party",
                             str(SCENARIOS / "drowned_shrine" / "party.yaml"), "--agent", "best"),
    "bandit_toll_first": (TOLL, "--seed", "1", "--agent", "first"),
    "bandit_toll_sneak": (TOLL, "--seed", "2", "--choose", "3"),
    "goblin_cave_first": (CAVE, "--seed", "1", "--agent", "first"),
    "goblin_cave_best": (CAVE, "--seed", "2", "--agent", "best"),
    "goblin_cave_ja_best": (CAVE_JA, "--seed", "2", "--agent", "best"),  # `language ja` (issue 20)
    "rat_cellar_first": (CELLAR, "--seed", "2", "--agent", "first"),
    "rat_cellar_best": (CELLAR, "--seed", "6", "--agent", "best"),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_transcript_of_bundled_scenario(name, transcript_snapshot):
    """Same script and seed give the same transcript, here frozen as a snapshot."""
    result = deckquest("run", *RUNS[name])
    assert result.exit_code in (0, 1)
    assert shown(result) == transcript_snapshot


def test_jsonl_is_byte_identical_for_the_same_seed():
    runs = [deckquest("run", SHRINE, "--seed", "9", "--agent", "random", "--format", "jsonl").stdout
            for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0] != deckquest("run", SHRINE, "--seed", "10", "--agent", "random", "--format", "jsonl").stdout


def test_jsonl_events_carry_the_documented_fields():
    out = deckquest("run", SHRINE, "--seed", "1", "--agent", "first", "--format", "jsonl").stdout
    events = [json.loads(line) for line in out.splitlines()]
    assert all("event" in e and "clock" in e for e in events)
    check = next(e for e in events if e["event"] == "check")
    assert {"pc", "kind", "difficulty", "cards", "color", "target", "result", "degree", "success",
            "critical", "boost"} <= set(check)
    end = events[-1]
    assert end["event"] == "end" and {"outcome", "text"} <= set(end)


def test_the_goblin_cave_runs_its_battles_to_an_ending():
    """`deckquest run` plays the hall's horde battle (and the throne's boss battle) through."""
    result = deckquest("run", CAVE, "--agent", "first")
    assert result.exit_code == 0 and result.stderr == ""
    assert "Battle against Goblin Horde [0:00]: Alice the Ranger, Bram the Hothead in the fight." in result.stdout
    assert "\n== The end: " in result.stdout


def test_jsonl_battle_events_carry_event_and_clock_and_a_summary():
    out = deckquest("run", CAVE, "--seed", "2", "--agent", "best", "--format", "jsonl").stdout
    events = [json.loads(line) for line in out.splitlines()]
    battle = [e for e in events if e["event"].startswith("battle_")]
    assert battle and all(list(e)[:2] == ["event", "clock"] for e in battle)
    summary = next(e for e in events if e["event"] == "battle")
    assert {"line", "enemies", "defeated", "outcome", "turns", "preparation_turns", "pcs"} <= set(summary)
    assert summary["line"] == 71 and summary["enemies"] == ["goblins"]


def test_choose_selects_the_scripted_agent_and_reports_running_out():
    result = deckquest("run", SHRINE, "--choose", "2")
    assert result.exit_code == 1
    assert "agent scripted" in result.stdout
    assert "--choose ran out of answers" in result.stderr


@pytest.mark.parametrize("item", ["x", "²", "9" * 5000])
def test_bad_choose_list_is_a_usage_error(item):
    """`²` is a digit to str.isdigit and none to int(), and 5,000 digits pass int()'s limit:
    both stopped with ValueError (exit 70; issue 28, item 2)."""
    result = deckquest("run", SHRINE, "--choose", f"1,{item}")
    assert result.exit_code == 2 and f"`{item}` is not one" in result.stderr


def test_human_agent_on_the_command_line_with_end_of_input():
    result = deckquest("run", SHRINE, "--agent", "human", stdin="\n1\n")
    assert result.exit_code == 0
    assert "> Light the holy lantern" in result.stdout
    assert "== The end: abandoned ==" in result.stdout and "end of input" in result.stdout


def test_default_agent_without_a_terminal_is_first():
    assert "agent first" in deckquest("run", SHRINE).stdout


def test_unknown_script_or_pack_is_a_clean_error():
    result = deckquest("run", "no-such-pack/nothing")
    assert result.exit_code == 1 and "Traceback" not in result.output
    result = deckquest("run", "missing.quest")
    assert result.exit_code == 1 and "missing.quest" in result.stderr


def test_max_steps_ends_a_run_as_stuck(tmp_path):
    result = deckquest("run", SHRINE, "--max-steps", "5")
    assert result.exit_code == 0
    assert "== The end: stuck ==" in result.stdout and "more than 5 steps" in result.stdout


def test_run_a_scenario_of_an_installed_pack(tmp_path, monkeypatch):
    """`deckquest run PACK/SCENARIO` finds the script in an installed pack."""
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    archive = tmp_path / "examples.dqpack"
    assert deckquest("pack", "build", str(SCENARIOS), "-o", str(archive)).exit_code == 0
    assert deckquest("pack", "install", str(archive)).exit_code == 0
    by_pack = deckquest("run", "deckquest-examples/drowned_shrine", "--seed", "1")
    by_path = deckquest("run", SHRINE, "--seed", "1")
    assert by_pack.exit_code == 0 and by_pack.stdout == by_path.stdout


def test_a_party_larger_than_the_scenario_is_written_for_gets_a_note(tmp_path):
    """`players 1 to 2` (language.md: the party sizes the scenario is written for): a party
    of 3 still plays, with a note on stderr; a party in range gets none."""
    folder = SCENARIOS / "bandit_toll"
    entry = "  - id: {id}\n    name: {id}\n    deck: {deck}\n    critical:\n      - card: Mountain\n        copies: 3\n"
    deck = "mono_red.txt"  # beside the party file: its decks follow a loose script's path rule
    (tmp_path / deck).write_text((folder / "decks" / deck).read_text(encoding="utf-8"), encoding="utf-8")
    party = tmp_path / "three.yaml"
    party.write_text("party:\n" + "".join(entry.format(id=i, deck=deck) for i in ("kai", "lena", "third")))
    result = deckquest("run", str(folder / "bandit_toll.quest"), "--party", str(party), "--agent", "first")
    assert result.exit_code == 0, result.output
    assert "is written for 1 to 2 players; this party has 3" in result.stderr
    assert "== The end" in result.stdout
    in_range = deckquest("run", str(folder / "bandit_toll.quest"), "--party", str(folder / "party.yaml"))
    assert in_range.exit_code == 0 and "note:" not in in_range.stderr
