"""Grizzly Bears' Adventure through the CLI: `check`, `run` (text and JSONL, same seed = same
bytes, snapshot-tested), a human at the terminal, and `sim`'s balance report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from deckquest.cli import main

ROOT = Path(__file__).resolve().parents[3]
SWORD_COAST = str(ROOT / "scenarios" / "sword_coast" / "sword_coast.quest")
UNDERMOUNTAIN = str(ROOT / "scenarios" / "undermountain" / "undermountain.quest")


class TranscriptSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def transcript_snapshot(snapshot):
    return snapshot.use_extension(TranscriptSnapshot)


def deckquest(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_check_both_bundled_scenarios():
    for path in (SWORD_COAST, UNDERMOUNTAIN):
        result = deckquest("check", path)
        assert result.exit_code == 0, result.stderr
        assert "ok (0 scenes)" in result.stderr


@pytest.mark.parametrize("name, args", [
    ("sword_coast_greedy", (SWORD_COAST, "--seed", "1", "--agent", "greedy")),
    ("undermountain_first", (UNDERMOUNTAIN, "--seed", "2", "--agent", "first")),
])
def test_transcript_of_a_whole_game(name, args, transcript_snapshot):
    """A game's transcript, frozen: the deal, each turn, fights, Treasures and the winner."""
    result = deckquest("run", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.replace(str(ROOT) + "/", "") == transcript_snapshot


def test_jsonl_is_byte_identical_for_the_same_seed():
    runs = [deckquest("run", SWORD_COAST, "--seed", "4", "--agent", "random", "--format", "jsonl").stdout
            for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0] != deckquest("run", SWORD_COAST, "--seed", "5", "--agent", "random", "--format", "jsonl").stdout
    events = [json.loads(line) for line in runs[0].splitlines()]
    assert events[0]["event"] == "start" and events[0]["system"] == "grizzly"
    assert events[-1]["event"] == "end"
    kinds = {e["event"] for e in events}
    assert {"turn", "roll", "move", "flip", "bears_fight", "treasure_gained", "game_over"} <= kinds


def test_triggers_fire_on_the_games_events():
    """`when a bear dies:` and `when a treasure is gained if seat.treasures == 4:` (the contract)."""
    out = deckquest("run", SWORD_COAST, "--seed", "1", "--agent", "greedy").stdout
    assert "'s bear limps home." in out
    assert "needs one more treasure!" in out


def test_a_human_plays_at_the_terminal():
    """`--agent human`: the loop drawn as text, the hand, numbered choices read from stdin."""
    result = deckquest("run", SWORD_COAST, "--seed", "3", "--agent", "human", stdin="1\n" * 3000)
    assert result.exit_code == 0, result.stderr
    assert "Loop: |ana| 0[?]" in result.stdout
    assert "Your hand:" in result.stdout and "1. roll the die" in result.stdout
    assert "wins with 5 Treasures" in result.stdout


def test_sim_balance_report(tmp_path):
    """`deckquest sim`: seat win rates with intervals, balance, first-seat advantage, lengths,
    Treasures by source, deadliest flips, co-op and dash, lead changes, stopped games."""
    report = tmp_path / "report.json"
    page = tmp_path / "report.html"
    result = deckquest("sim", SWORD_COAST, "-n", "60", "--jobs", "1", "--agent", "greedy",
                       "--json", str(report), "--html", str(page))
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    for heading in ("Grizzly Bears' Adventure", "Library: sword_coast.txt: 60 cards", "Seats (60 games)", "Balance:",
                    "First-seat advantage:", "Rounds: mean", "Turns: mean", "Treasures per game by source:",
                    "Deadliest flips", "Co-op:", "Lead changes:", "Stopped:"):
        assert heading in text, heading
    data = json.loads(report.read_text())["system"]
    assert data["name"] == "grizzly" and data["games"] == 60
    assert sum(seat["wins"] for seat in data["seats"]) + sum(data["stopped"].values()) == 60
    html = page.read_text()
    for chart in ("win rate per seat with 95% intervals", "Rounds a game", "Deadliest flips"):
        assert f'role="img" aria-label="{chart}"' in html, chart
    again = deckquest("sim", SWORD_COAST, "-n", "60", "--jobs", "2", "--agent", "greedy")
    assert again.stdout.split("Grizzly Bears' Adventure")[1] == text.split("Grizzly Bears' Adventure")[1]


def test_sim_reports_games_stopped_with_the_reason():
    result = deckquest("sim", UNDERMOUNTAIN, "-n", "20", "--jobs", "1")
    assert "a draw from an empty library ended the game (G-27, expert rules)" in result.stdout


@pytest.mark.parametrize("steps", [7, 40, 233])
def test_a_game_saved_mid_turn_resumes_exactly_as_the_uninterrupted_run(tmp_path, steps):
    """A session saved at any decision (mid-effect included) and resumed plays on event for
    event as the run that was never stopped (GameSystem.game_data / load_game)."""
    import random

    from deckquest.dsl.resolver import compile_file
    from deckquest.runtime.agents import make_agent
    from deckquest.runtime.interpreter import Program, Run
    from deckquest.runtime.saves import load_run, save_run

    program = Program(compile_file(UNDERMOUNTAIN))
    whole = Run(program, make_agent("random"), random.Random(6)).run().events
    run = Run(program, make_agent("random"), random.Random(6))
    for _ in range(steps):
        run.step()
    save_run(run, tmp_path / "game.json", seed=6, agent="random")
    resumed = load_run(program, tmp_path / "game.json", make_agent("random"))
    assert resumed.state.game.pos == run.state.game.pos and resumed.state.game.tasks == run.state.game.tasks
    assert resumed.run().events == whole[len(run.events):]


def test_a_human_leaves_and_the_game_is_saved_and_resumed(tmp_path):
    """At the terminal, the end of input (or `save`/`quit`) stops the run like Ctrl-C: with
    `--save` the game is saved at that decision, and `--resume` plays on from there."""
    save = tmp_path / "session.json"
    first = deckquest("run", SWORD_COAST, "--seed", "8", "--agent", "human", "--save", str(save), stdin="1\n" * 20)
    assert save.exists() and "saved to" in first.stderr
    rest = deckquest("run", SWORD_COAST, "--resume", str(save), "--agent", "human", stdin="1\n" * 3000)
    assert rest.exit_code == 0, rest.stderr
    assert "wins with 5 Treasures" in rest.stdout
    whole = deckquest("run", SWORD_COAST, "--seed", "8", "--agent", "human", stdin="1\n" * 3000)
    assert whole.stdout.rstrip().splitlines()[-1] == rest.stdout.rstrip().splitlines()[-1]


def test_the_transcript_names_the_counter_its_reading_gives_g_r7(tmp_path):
    """G-R7: 「+1カウンター」 is a +1/+1 counter (the default) or, with `reading counter
    power`, a +1/+0 counter; the transcript and the JSONL say which the bears got."""
    script = Path(SWORD_COAST).read_text(encoding="utf-8").replace(
        "    reading home corner", "    reading home corner\n    reading counter power")
    (tmp_path / "decks").mkdir()
    for deck in (Path(SWORD_COAST).parent / "decks").iterdir():
        (tmp_path / "decks" / deck.name).write_bytes(deck.read_bytes())
    power = tmp_path / "power.quest"
    power.write_text(script, encoding="utf-8")
    text = deckquest("run", str(power), "--seed", "2", "--agent", "greedy").stdout
    assert "bears get a +1/+0 counter" in text and "+1/+1 counter" not in text
    jsonl = deckquest("run", str(power), "--seed", "2", "--agent", "greedy", "--format", "jsonl").stdout
    counters = [json.loads(line) for line in jsonl.splitlines() if '"bear_counter"' in line]
    assert counters and {event["counter"] for event in counters} == {"+1/+0"}
    default = deckquest("run", SWORD_COAST, "--seed", "2", "--agent", "greedy").stdout
    assert "bears get a +1/+1 counter" in default
