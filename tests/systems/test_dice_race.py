"""The example game system, end to end through the CLI: a dice race in its own package
(tests/systems/dice_race) registers itself and runs through `check`, `run`, `sim`,
`sim --explore` and a pack, with no line of deckquest changed for it (DR-1 to DR-5 in
dice_race/engine.py; codes DQ6000-DQ6099; the header's codes DQ0120-DQ0127)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import dice_race  # registers the system
from deckquest.cli import main
from deckquest.dsl.resolver import compile_source
from deckquest.errors import CompileError
from dice_race.engine import DASH, STEP, RaceGame, dash_value

HERE = Path(__file__).parent
RACE = HERE / "dice_race" / "race.quest"
HEADER = '''scenario "Race":
    author "t"
    version "1.0.0"
    system dice_race
    players 2
    track 12
'''
RACERS = 'racer ana "Ana"\nracer ben "Ben"\n'


def cli(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def codes(text: str) -> list[str]:
    with pytest.raises(CompileError) as failure:
        compile_source(text, "race.quest")
    return [d.code for d in failure.value.diagnostics]


def test_the_system_is_registered_with_its_language():
    from deckquest.dsl.language import LANGUAGES
    from deckquest.systems import REGISTRY

    assert REGISTRY.get("dice_race") is dice_race.DiceRace
    assert LANGUAGES["dice_race"] is dice_race.DiceRace
    assert "DQ6004" in dice_race.DiceRace.codes


def test_check_compiles_a_whole_game_script_with_no_scene():
    result = cli("check", RACE)
    assert result.exit_code == 0, result.stderr
    assert "ok (0 scenes)" in result.stderr


def test_the_resolver_table_holds_the_racers_and_readings_and_options():
    scenario = compile_source(RACE.read_text(), str(RACE))
    assert scenario.system == "dice_race"
    assert scenario.system_table.track == 20
    assert scenario.system_table.racers == (("ana", "Ana", "greedy"), ("ben", "Ben", None))
    assert scenario.readings == {"finish": "exact"}
    assert scenario.options == frozenset({"knock back"})
    default = compile_source(HEADER + RACERS, "race.quest")
    assert default.readings == {"finish": "past"}  # the first reading is the default
    assert default.options == frozenset()


@pytest.mark.parametrize("line, code, hint", [
    ("    system dice_rice\n", "DQ0120", "did you mean `dice_race`?"),
    ("    option knock bak\n", "DQ0122", "did you mean `knock back`?"),
    ("    reading finsh exact\n", "DQ0123", "did you mean `finish`?"),
    ("    reading finish exakt\n", "DQ0124", "did you mean `exact`?"),
    ("    rules 2019\n", "DQ0121", "the `system` line names the game"),
])
def test_header_entries_are_checked_against_the_system(line, code, hint):
    text = HEADER.replace("    system dice_race\n", line if code == "DQ0120" else "    system dice_race\n" + line)
    with pytest.raises(CompileError) as failure:
        compile_source(text + RACERS, "race.quest")
    diagnostic = failure.value.diagnostics[0]
    assert diagnostic.code == code
    assert hint in diagnostic.hint
    assert diagnostic.span.line == (4 if code == "DQ0120" else 5)


def test_an_option_given_twice_is_an_error():
    text = HEADER + "    option knock back\n    option knock back\n" + RACERS
    assert codes(text) == ["DQ0125"]


def test_the_systems_own_checks_report_coded_errors():
    assert codes(HEADER.replace("    track 12\n", "") + RACERS) == ["DQ6001"]
    assert codes(HEADER + 'racer ana "Ana"\n') == ["DQ6003"]
    assert codes(HEADER + 'racer ana "Ana":\n    plays greedie\nracer ben "Ben"\n') == ["DQ6004"]
    assert codes(HEADER + RACERS + "when a racer wins:\n    advance bob 2\n") == ["DQ6006"]
    assert codes(HEADER + RACERS + 'when after 5 minutes:\n    advance racer 2\n') == ["DQ6005"]
    assert codes(HEADER + RACERS + 'when a racer wins:\n    "{racer.speed}"\n') == ["DQ0127"]
    assert "DQ0048" in codes(HEADER + RACERS + 'flag racer\n')  # a keyword of the system


def test_another_system_never_sees_the_dice_race_keywords():
    """The core grammar alone (MTG-TRPG) does not know `racer`: parsers are per system."""
    text = 'scenario "T":\n    rules 2019\nracer ana "Ana"\n'
    assert codes(text)[0] == "DQ0001"


def test_a_dice_race_script_cannot_hold_mtg_trpgs_statements(tmp_path):
    """MTG-TRPG's statements are its own grammar fragment (systems/trpg/language.py), not the
    core's: `check` reports a `check` in a dice race script, which `run` could not play."""
    script = tmp_path / "race.quest"
    script.write_text(HEADER + RACERS + 'when a racer wins:\n    check green difficulty 2:\n'
                      '        success:\n            "Yes."\n        failure:\n            "No."\n')
    result = cli("check", script)
    assert result.exit_code == 1
    assert "race.quest:10:11: error[DQ0001]: unexpected `green`" in result.stderr
    assert "hint: `check` is a line of MTG-TRPG, `rules 2019`, not of Dice Race" in result.stderr


def test_a_line_of_another_game_says_which_game_has_it(tmp_path):
    """The parser's "expected ..." would list only this game's words: a line that begins with
    another game's keyword names that game and its header line instead (here the dice race's
    `racer` in an MTG-TRPG script); a plain typo keeps the list of what was expected."""
    script = tmp_path / "trpg.quest"
    script.write_text('scenario "T":\n    rules 2019\n\nracer ana "Ana"\n\nstart scene a "A":\n    end victory\n')
    result = cli("check", script)
    assert "hint: `racer` is a line of Dice Race, `system dice_race`, not of MTG-TRPG" in result.stderr
    script.write_text('scenario "T":\n    rules 2019\n\nracre ana "Ana"\n\nstart scene a "A":\n    end victory\n')
    assert "hint: expected" in cli("check", script).stderr


def test_run_plays_the_game_with_the_seats_agents_and_fires_triggers():
    result = cli("run", RACE, "--seed", "3")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[1:3] == ["system dice_race, seed 3, agent first", "seats: Ana (greedy), Ben (first)"]
    assert "Ana dashes!" in lines  # greedy dashes on a roll of 1 to 3 (DR-2)
    assert not any(line.startswith("Ben dashes") for line in lines)  # first always steps
    assert "Ana picks herself up at square 10." in lines  # a trigger on the system's event
    assert "(stumbles = 2)" in lines
    assert lines[-2:] == ["== The end: ben wins == [0:00]", "Ben wins the race."]
    assert result.stdout == cli("run", RACE, "--seed", "3").stdout  # same seed, same transcript


def test_run_with_a_system_agent_name_and_jsonl():
    result = cli("run", RACE, "--seed", "1", "--agent", "random", "--format", "jsonl")
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert events[0]["seats"] == [{"id": "ana", "name": "Ana", "agent": "greedy"},
                                  {"id": "ben", "name": "Ben", "agent": "random"}]
    assert {"roll", "move", "win", "end"} <= {e["event"] for e in events}
    bad = cli("run", RACE, "--agent", "greediest")
    assert bad.exit_code == 2 and "greedy" in bad.stderr


def test_sim_reports_the_systems_section_in_text_json_and_html(tmp_path):
    json_file, html_file = tmp_path / "r.json", tmp_path / "r.html"
    result = cli("sim", RACE, "-n", "300", "--agent", "greedy", "--jobs", "1",
                 "--json", json_file, "--html", html_file)
    assert result.exit_code == 0
    assert "Racers        wins   share   turns to win (mean)" in result.stdout
    data = json.loads(json_file.read_text())
    racers = data["system"]["racers"]
    assert data["system"]["name"] == "dice_race"
    assert racers["ana"]["wins"] + racers["ben"]["wins"] == 300
    assert data["endings"] == {outcome: racers[outcome.split()[0]]["wins"] for outcome in data["endings"]}
    assert '<h2 id="racers">Racers</h2>' in html_file.read_text()
    two_jobs = cli("sim", RACE, "-n", "300", "--agent", "greedy", "--jobs", "2")
    assert two_jobs.stdout == result.stdout  # per-run rows add up the same on any number of workers


def test_explore_runs_the_game_and_reaches_every_trigger_line():
    result = cli("sim", RACE, "--explore", "--seed", "2")
    assert result.exit_code == 0, result.stdout
    assert "No dead ends and no runtime errors found." in result.stdout


def test_a_pack_of_the_game_validates_installs_and_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    folder = tmp_path / "race-pack"
    folder.mkdir()
    shutil.copy(RACE, folder / "race.quest")
    (folder / "pack.yaml").write_text(
        'name: race-pack\nversion: 1.0.0\ntitle: Race\nauthors: [tests]\nlicense: CC0-1.0\n'
        'deckquest: ">=0.1"\nscenarios:\n  - race.quest\n', encoding="utf-8")
    assert cli("pack", "validate", folder).exit_code == 0
    assert cli("pack", "install", folder).exit_code == 0
    result = cli("run", "race-pack/race.quest", "--seed", "3")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "Ben wins the race."


def test_dash_value_is_the_engines_mean_move_dr_2():
    """DR-2's exact mean move of a dash, against Monte Carlo of the engine's own steps."""
    rng = random.Random(5)
    for rolled in (1, 3, 5):
        total = 0
        for _ in range(3000):
            game = RaceGame(track=100, order=("a", "b"))
            game.apply(rolled, rng)
            game.apply(DASH, rng)
            game.apply(rng.choice(game.decision().actions), rng)
            total += game.positions["a"]
        assert abs(total / 3000 - dash_value(rolled)) < 0.25


def test_dr_3_exact_finish_bounces_back_and_dr_4_knocks_back():
    game = RaceGame(track=10, order=("a", "b"), exact=True, knock_back=True)
    game.positions.update(a=8, b=6)
    events: list[dict] = []
    game.move("a", 4, events)  # 12 is 2 past 10: back to 8
    assert game.positions["a"] == 8 and game.winner is None
    game.move("b", 2, events)  # lands on a's square: a goes back to the start
    assert game.positions == {"a": 0, "b": 8}
    assert [e["event"] for e in events] == ["move", "move", "knocked_back"]
    clone = game.clone()
    clone.move("b", 2, [])
    assert clone.winner == "b" and game.winner is None  # a clone is independent
    assert game.decision().kind == "die" and STEP in RaceGame(10, ("a", "b"), phase="choose").decision().actions


def test_system_trpg_names_the_default_game_explicitly():
    """`system trpg` is what a script without a `system` line means (MTG-TRPG)."""
    text = 'scenario "T":\n    system trpg\n    rules 2014\nstart scene s "S":\n    end victory "Won."\n'
    scenario = compile_source(text, "t.quest")
    assert scenario.system == "trpg" and scenario.rules == 2014


def test_a_whole_game_saved_mid_race_resumes_exactly_as_the_uninterrupted_run(tmp_path):
    """RunState.game is saved as the system writes it (GameSystem.game_data) and resumed
    (load_game): the rest of the race is the uninterrupted race's, event for event."""
    from deckquest.runtime.agents import make_agent
    from deckquest.runtime.interpreter import Program, Run
    from deckquest.runtime.saves import load_run, save_run

    program = Program(compile_source(RACE.read_text(), str(RACE)))
    whole = Run(program, make_agent("random"), random.Random(4)).run().events
    run = Run(program, make_agent("random"), random.Random(4))
    for _ in range(25):
        run.step()
    save_run(run, tmp_path / "race.json", seed=4, agent="random")
    resumed = load_run(program, tmp_path / "race.json", make_agent("random"))
    assert resumed.state.game.positions == run.state.game.positions
    assert resumed.run().events == whole[len(run.events):]


def test_a_system_without_a_save_form_refuses_to_save_and_writes_no_file(tmp_path, monkeypatch):
    from deckquest.errors import DeckquestError
    from deckquest.runtime.agents import make_agent
    from deckquest.runtime.interpreter import Program, Run
    from deckquest.runtime.saves import save_run
    from deckquest.systems import GameSystem

    monkeypatch.setattr(dice_race.DiceRace, "game_data", GameSystem.game_data)
    run = Run(Program(compile_source(RACE.read_text(), str(RACE))), make_agent("first"), random.Random(0))
    run.step()
    with pytest.raises(DeckquestError, match="cannot be saved yet"):
        save_run(run, tmp_path / "race.json")
    assert not (tmp_path / "race.json").exists()
