"""A whole game's human seats talk through the run's terminal, not builtin input/print, and
stop the run cleanly (engine.game.StopRun) so `--save` works at the table (issue 13c, item 5):
G-8's choices (Grizzly) and A-9's actions (Arena) are asked through the callables the run's
agent was made with."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from deckquest.cli import main
from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import ABANDONED, Program, Run

ROOT = Path(__file__).resolve().parents[2]
SWORD_COAST = ROOT / "scenarios" / "sword_coast" / "sword_coast.quest"
DUEL = ROOT / "scenarios" / "the_duel" / "the_duel.quest"
ROAD = ROOT / "scenarios" / "road_duel" / "road_duel.quest"


def table(script: Path, answers: list[str], seed: int = 8) -> tuple[Run, list[str]]:
    """A run whose human seats read ``answers`` and write into the list returned."""
    program = Program(compile_file(script))
    lines = iter(answers)
    shown: list[str] = []
    agent = make_agent("human", input=lambda prompt: next(lines), output=shown.append, system=program.system)
    return Run(program, agent, random.Random(seed), seed=seed), shown


def test_grizzly_seats_ask_through_the_runs_terminal_and_quit_stops_the_run():
    """G-8: each seat's choices are shown and read through the run's callables; `quit` at the
    third prompt ends the run "abandoned" (no KeyboardInterrupt escapes)."""
    run, shown = table(SWORD_COAST, ["1", "1", "quit"])
    result = run.run()
    assert result.outcome == ABANDONED and "`quit`" in result.text
    assert any("1. roll the die" in line for line in shown)


def test_arena_seats_ask_through_the_runs_terminal_and_save_stops_the_run():
    run, shown = table(DUEL, ["4", "save"], seed=0)
    result = run.run()
    assert result.outcome == ABANDONED and "`save`" in result.text
    assert any("1." in line for line in shown)


def test_save_typed_at_the_table_saves_the_game_and_resume_plays_on(tmp_path):
    """`run --save`: `save` typed mid-game saves at that decision (exit 0, not an interrupt);
    `--resume` plays on to the same end as the game never stopped."""
    save = tmp_path / "session.json"
    first = CliRunner().invoke(main, ["run", str(SWORD_COAST), "--seed", "8", "--agent", "human", "--save", str(save)],
                               input="1\n" * 12 + "save\n")
    assert first.exit_code == 0, first.output
    assert "saved to" in first.stderr and json.loads(save.read_text())
    rest = CliRunner().invoke(main, ["run", str(SWORD_COAST), "--resume", str(save), "--agent", "human"],
                              input="1\n" * 3000)
    whole = CliRunner().invoke(main, ["run", str(SWORD_COAST), "--seed", "8", "--agent", "human"], input="1\n" * 3000)
    assert rest.exit_code == 0, rest.output
    assert rest.stdout.rstrip().splitlines()[-1] == whole.stdout.rstrip().splitlines()[-1]


def _turn_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Round ") and "'s turn" in line]


def test_a_resumed_games_transcript_names_the_seats_as_the_uninterrupted_one(tmp_path):
    """G-5: each turn line names its seat by name ("Round 6: Ana's turn"), after `--resume`
    too, where no `start` event tells the transcript the seats' names again."""
    save = tmp_path / "session.json"
    CliRunner().invoke(main, ["run", str(SWORD_COAST), "--seed", "8", "--agent", "human", "--save", str(save)],
                       input="1\n" * 12 + "save\n")
    rest = CliRunner().invoke(main, ["run", str(SWORD_COAST), "--resume", str(save), "--agent", "human"],
                              input="1\n" * 3000)
    whole = CliRunner().invoke(main, ["run", str(SWORD_COAST), "--seed", "8", "--agent", "human"], input="1\n" * 3000)
    resumed = _turn_lines(rest.stdout)
    assert resumed and resumed == _turn_lines(whole.stdout)[-len(resumed):]
    assert f"resuming {save}: " in rest.stderr and "scene" not in rest.stderr  # a whole game has no scenes


def test_explore_says_what_it_does_with_a_whole_game():
    """`sim --explore` searches a scenario's choices, checks and battles; a whole game (G-5:
    the seats decide every turn) has none, so it is played as `run` plays it (for runtime
    errors and the trigger lines reached). A bare "0 of 0 alternatives, no dead ends" misled;
    the report says so and points to `sim` for the game's balance."""
    result = CliRunner().invoke(main, ["sim", str(SWORD_COAST), "--explore"])
    assert result.exit_code == 0, result.output
    assert "A whole game of Grizzly Bears' Adventure" in result.stdout
    assert "`deckquest sim` without --explore reports its balance" in result.stdout



def test_save_typed_in_an_isekai_duel_saves_it_and_resume_plays_on(tmp_path):
    """I-5: `save` typed at a duelist's action right stops the duel cleanly ("abandoned") and
    `run --save` saves it there, as docs/saves.md says of any human prompt; `--resume` asks
    that right again and ends as the duel that never stopped."""
    save = tmp_path / "duel.json"
    first = CliRunner().invoke(main, ["run", str(ROAD), "--seed", "3", "--agent", "human", "--save", str(save)],
                               input="2\n2\nsave\n")
    assert first.exit_code == 0 and "`save`: the game stops here" in first.stdout, first.output
    rest = CliRunner().invoke(main, ["run", str(ROAD), "--resume", str(save), "--agent", "human"],
                              input="2\n" + "8\n" * 3000)
    whole = CliRunner().invoke(main, ["run", str(ROAD), "--seed", "3", "--agent", "human"],
                               input="2\n2\n2\n" + "8\n" * 3000)
    assert rest.exit_code == 0, rest.output
    assert rest.stdout.splitlines()[-12:] == whole.stdout.splitlines()[-12:]


def test_save_is_refused_before_an_arena_game_starts(tmp_path):
    """docs/arena.md: an Arena game cannot be saved yet, so `--save` is refused before the
    game starts (A-1), not after the person has made their moves and typed `save`."""
    save = tmp_path / "arena.json"
    result = CliRunner().invoke(main, ["run", str(DUEL), "--agent", "human", "--save", str(save)], input="1\nsave\n")
    assert result.exit_code == 1 and "cannot be saved yet" in result.stderr
    assert "choose" not in result.stdout and not save.exists()
