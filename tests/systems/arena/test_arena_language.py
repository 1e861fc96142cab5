"""Arena in the scenario language: the contract example (scenarios/the_duel) compiles and runs
as written; the battlefield, armies, spells, abilities, victory conditions and triggers; every
DQ30xx diagnostic at its line:col (docs/errors.md); readings as header options (A-R1..A-R7)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from deckquest.cli import main
from deckquest.dsl.resolver import compile_file, compile_source
from deckquest.engine.game import play
from deckquest.errors import CompileError
from deckquest.systems.arena import ArenaSystem
from deckquest.systems.arena.agents import GreedyAgent
from deckquest.systems.arena.cards import Activated, Bonus, Damage, Target, Triggered
from deckquest.systems.arena.state import HoldGlyph, Score

ROOT = Path(__file__).resolve().parents[3]
DUEL = ROOT / "scenarios" / "the_duel" / "the_duel.quest"
HEADER = '''scenario "Test":
    author "t"
    version "1.0.0"
    system arena
    players 2
'''
FIELD = '''battlefield "Field":
    row "0 0 0"
    row "0 0 0"
    start p1 at 1,1
    start p2 at 3,2
'''
ARMIES = '''army p1 "One":
    planeswalker "A" life 5 move 4 range 1 attack 3 defence 2 size 5
army p2 "Two":
    planeswalker "B" life 5 move 4 range 1 attack 3 defence 2 size 5
'''


class TranscriptSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def transcript_snapshot(snapshot):
    return snapshot.use_extension(TranscriptSnapshot)


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def problems(text: str) -> list[tuple[str, int, int]]:
    with pytest.raises(CompileError) as failure:
        compile_source(text, "t.quest")
    return [(d.code, d.span.line, d.span.col) for d in failure.value.diagnostics]


def codes(text: str) -> list[str]:
    return [code for code, _, _ in problems(text)]


def test_the_contract_example_compiles_as_written():
    scenario = compile_file(DUEL)
    table = scenario.system_table
    assert scenario.system == "arena" and scenario.readings == ArenaSystem.default_readings()
    assert (table.battlefield.terrain.width, table.battlefield.terrain.height) == (7, 4)
    assert table.battlefield.starts["p2"] == tuple((c, 4) for c in range(1, 8))
    [glyph] = table.battlefield.glyphs
    assert (glyph.name, glyph.pos, glyph.effects) == ("Glyph of Valor", (4, 2), (Bonus("attack", 1, "army"),))
    gideon, knights = table.armies[0].cards
    assert (gideon.category, gideon.life, gideon.move, gideon.range, gideon.attack, gideon.defence, gideon.size) == \
        ("planeswalker", 6, 5, 1, 4, 2, 5)
    assert (knights.category, knights.figures) == ("squad", 3)
    assert table.armies[0].spells == ("Smite",) * 10 and table.armies[1].spells == ()
    assert table.spells["Smite"].effects == (Damage(2, Target("any", 4, "planeswalker", False)),)
    assert (table.rules.turn_limit, table.rules.limit) == (30, "rounds")


def test_check_and_run_the_duel(transcript_snapshot):
    """`deckquest run` plays the whole game with the map at each round and the script's trigger."""
    assert cli("check", DUEL).exit_code == 0
    result = cli("run", DUEL, "--seed", 3)
    assert result.exit_code == 0, result.output
    assert "== Round 1 ==" in result.stdout and " 1   0 0 " in result.stdout
    assert "Liliana falls." in result.stdout
    assert result.stdout.replace(str(ROOT), "ROOT") == transcript_snapshot


def test_run_jsonl_has_the_engine_events():
    result = cli("run", DUEL, "--seed", 3, "--agent", "random", "--format", "jsonl")
    events = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = {e["event"] for e in events}
    assert {"start", "place", "turn order", "round start", "activate", "end"} <= kinds
    start = events[0]
    assert start["system"] == "arena" and [s["agent"] for s in start["seats"]] == ["random", "random"]
    assert cli("run", DUEL, "--seed", 3, "--agent", "random", "--format", "jsonl").stdout == result.stdout


def test_sim_reports_armies_length_glyphs_and_the_map(tmp_path):
    report = tmp_path / "r.json"
    page = tmp_path / "r.html"
    result = cli("sim", DUEL, "--runs", 60, "--agent", "random", "--json", report, "--html", page, "--jobs", 1)
    assert result.exit_code == 0, result.output
    assert "Armies" in result.stdout and "Glyph Glyph of Valor (4,2)" in result.stdout
    section = next(value for value in _sections(json.loads(report.read_text())) if "armies" in value)
    assert sum(a["wins"] for a in section["armies"].values()) + section["draws"] == 60
    assert set(section) >= {"turn_order", "length", "turn_limit", "figures_lost", "glyphs", "battlefield"}
    glyph = section["glyphs"]["Glyph of Valor"]
    assert glyph["held"]["games"] + glyph["not_held"]["games"] == 120
    assert sum(section["battlefield"]["falls"].values()) == pytest.approx(sum(section["figures_lost"].values()) * 60)
    html = page.read_text()
    assert "<svg" in html and "Where figures fell" in html and "fell</title>" in html


def _sections(value):
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _sections(inner)


FULL = HEADER + '''    turn limit 10 turns
    reading summon three
    dice 2 swords 2 shields 2 blanks

battlefield "Ridge":
    row "0 0 1 0 0"
    row "0 1 2 1 0"
    row "0 0 1 0 0"
    start p1 at 1,1 1,2
    start p2 at 5,3 5,2
    glyph "Glyph of Dagda" at 3,2:
        defence +1 for its army

army p1 "Sky":
    plays random
    points 200
    planeswalker "Aerin" life 5 move 5 range 3 attack 3 defence 3 size 5 cost 100
    hero "Roc" life 4 move 6 range 1 attack 3 defence 2 size 6 cost 80 hexes 2:
        flying
        attack +1
        when destroyed:
            deal 1 damage to each enemy figure in range 1
        ability "Dive":
            roll 4 attack dice against an enemy figure in range 2 of it
    spells "Mend" x2, "Rally"
army p2 "Earth":
    planeswalker "Borr" life 6 move 4 range 1 attack 4 defence 2 size 5

spell "Mend":
    remove 2 damage from a friendly figure
spell "Rally":
    attack +1 for your army
    draw 1 spell

victory hold "Glyph of Dagda" for 2 rounds
victory score 100 points

when a glyph is taken:
    "{figure} ({figure.army}) takes {figure.glyph}."
when round 3:
    "Round three."
when a figure is destroyed if figure.life > 4:
    "{figure} had {figure.damage} damage."
'''


def test_abilities_spells_victories_and_header_settings_compile():
    table = compile_source(FULL, "t.quest").system_table
    roc = table.armies[0].cards[1]
    assert roc.hexes == 2 and roc.flying and roc.cost == 80
    assert Bonus("attack", 1, "figure") in roc.abilities
    assert any(isinstance(a, Triggered) and a.event == "destroyed" and a.effects[0].target.each for a in roc.abilities)
    dive = next(a for a in roc.abilities if isinstance(a, Activated))
    assert dive.name == "Dive" and dive.effects[0].target == Target("enemy", 2, "self", False)
    assert table.armies[0].spells == ("Mend", "Mend", "Rally") and table.armies[0].points == 200
    assert table.plays == {"p1": "random", "p2": None}
    assert table.victories == (HoldGlyph("Glyph of Dagda", 2), Score(100))
    rules = table.rules
    assert (rules.turn_limit, rules.limit, rules.summon, rules.dice.swords, rules.dice.blanks) == (10, "turns", 3, 2, 2)


def test_a_full_script_runs_with_its_triggers(tmp_path):
    path = tmp_path / "full.quest"
    path.write_text(FULL, encoding="utf-8")
    result = cli("run", path, "--seed", 5, "--agent", "greedy")
    assert result.exit_code == 0, result.output
    assert "Sky (random), Earth (greedy)" in result.stdout


def test_a14_hold_glyph_victory_ends_the_game():
    """A-4 (3+ players' own conditions): holding the glyph at a round's end wins."""
    text = FULL.replace('victory score 100 points\n', '').replace("for 2 rounds", "for 1 round")
    scenario = compile_source(text, "t.quest")
    game = scenario.system_table.game
    outcomes = set()
    for seed in range(20):
        state = game.new_state()
        play(state, {"p1": GreedyAgent(), "p2": GreedyAgent()}, random.Random(seed))
        outcomes.add(state.outcome()["reason"])
    assert "held Glyph of Dagda" in outcomes


@pytest.mark.parametrize("text,expected", [
    (HEADER + FIELD.replace('row "0 0 0"\n    row "0 0 0"', 'row "0 0 0"\n    row "0 0"') + ARMIES, [("DQ3001", 8, 10)]),
    (HEADER + FIELD.replace('row "0 0 0"\n', 'row "0 X 0"\n', 1) + ARMIES, [("DQ3002", 7, 12)]),
    (HEADER + FIELD.replace('row "0 0 0"\n    row "0 0 0"', 'row "0 # 0"\n    row "0 # 0"') + ARMIES, [("DQ3003", 9, 17), ("DQ3003", 10, 17)]),
    (HEADER + FIELD.replace("3,2", "4,2") + ARMIES, [("DQ3004", 10, 17)]),
    (HEADER + FIELD.replace('row "0 0 0"\n', 'row "0 0 #"\n', 1).replace("start p1 at 1,1", "start p1 at 3,1") + ARMIES,
     [("DQ3005", 9, 17)]),
    (HEADER + FIELD.replace('row "0 0 0"\n    row "0 0 0"', 'row "# . ."\n    row ". . ."').replace("3,2", "1,1") + ARMIES,
     [("DQ3006", 7, 10)]),
    (HEADER + ARMIES, [("DQ3007", 1, 1)]),
    (HEADER + FIELD + '    start p1 at 2,1\n' + ARMIES, [("DQ3008", 11, 5)]),
    (HEADER + FIELD + '    glyph "G" at 2,1\n    glyph "G" at 2,2\n' + ARMIES, [("DQ3009", 12, 5)]),
    (HEADER + FIELD + ARMIES.replace("planeswalker \"A\"", "squad \"A\""), [("DQ3010", 11, 1)]),
    (HEADER + FIELD + ARMIES.replace('"One":\n', '"One":\n    points 10\n').replace("size 5\narmy", "size 5 cost 20\narmy", 1),
     [("DQ3011", 11, 1)]),
    (HEADER + FIELD + ARMIES.replace("life 5 move 4", "life 0 move 4", 1), [("DQ3012", 12, 22)]),
    (HEADER + FIELD + ARMIES.replace(" size 5\narmy", "\narmy", 1), [("DQ3013", 12, 5)]),
    (HEADER + FIELD + ARMIES.replace("size 5\narmy", "size 5 life 2\narmy", 1), [("DQ3014", 12, 70)]),
    (HEADER + FIELD + ARMIES.replace('"One":\n', '"One":\n    plays greedie\n'), [("DQ3015", 12, 5)]),
    (HEADER + FIELD + ARMIES + '    spells "Smit"\nspell "Smite":\n    deal 1 damage to a figure\n', [("DQ3020", 15, 12)]),
    (HEADER + FIELD + ARMIES + 'spell "S":\n    draw 1 spell\nspell "S":\n    draw 1 spell\n', [("DQ3021", 17, 1)]),
    (HEADER + FIELD + ARMIES + 'spell "S":\n    attack +1\n', [("DQ3022", 16, 5)]),
    (HEADER + FIELD + ARMIES + 'spell "S":\n    deal 1 damage to a figure\n    deal 1 damage to an enemy figure\n',
     [("DQ3023", 17, 5)]),
    (HEADER + FIELD + ARMIES.replace("size 5\narmy", "size 5:\n        when destroyed:\n            deal 1 damage to a figure\narmy", 1),
     [("DQ3024", 14, 13)]),
    (HEADER.replace("players 2\n", "players 2\n    turn limit 0 rounds\n") + FIELD + ARMIES, [("DQ3026", 6, 5)]),
    (HEADER.replace("players 2\n", "players 2\n    dice 0 swords 2 shields 1 blank\n") + FIELD + ARMIES, [("DQ3027", 6, 5)]),
    (HEADER + FIELD + ARMIES + 'victory hold "Glyph" for 1 round\n', [("DQ3028", 15, 1)]),
    (HEADER + FIELD + ARMIES.split("army p2")[0], [("DQ3030", 11, 1), ("DQ3031", 10, 5)]),
    (HEADER + FIELD.replace("start p2", "start p3") + ARMIES, [("DQ3031", 13, 1), ("DQ3031", 10, 5)]),
])
def test_diagnostics_at_their_line_and_column(text, expected):
    assert problems(text) == expected


def test_a_diagnostic_as_the_user_sees_it(tmp_path):
    path = tmp_path / "t.quest"
    path.write_text(HEADER + FIELD.replace('row "0 0 0"\n', 'row "0 X 0"\n', 1) + ARMIES, encoding="utf-8")
    result = cli("check", path)
    assert result.exit_code == 1
    assert f"{path}:7:12: error[DQ3002]: unknown symbol 'X' in a battlefield row" in result.stderr
    assert '    row "0 X 0"\n               ^' in result.stderr
    assert "hint: a cell is a level 0-9, ~ water, # wall or . no hex" in result.stderr


def test_readings_are_header_options_with_defaults():
    """A-R1..A-R7: `reading NAME VALUE`; the first value is the default; an unknown one is DQ0124."""
    assert [r.rule for r in ArenaSystem.readings] == [f"A-R{i}" for i in range(1, 8)]
    assert all(r.source.startswith("seeds/003_f24437f5eb1b8ebf.txt:") for r in ArenaSystem.readings)
    table = compile_source(HEADER + "    reading engagement heroscape\n    reading sight flat\n" + FIELD + ARMIES, "t.quest").system_table
    assert (table.rules.engagement, table.rules.sight, table.rules.attacks) == ("heroscape", "flat", "engaged")
    assert codes(HEADER + "    reading summon four\n" + FIELD + ARMIES) == ["DQ0124"]


def test_odds_command_prints_the_exact_wound_table():
    result = cli("odds", "--attack", 4, "--defence", 3)
    assert result.exit_code == 0
    assert "     0    34.49%    100.00%   149/432" in result.stdout and "mean wounds: 1.1505" in result.stdout
    higher = json.loads(cli("odds", "--attack", 4, "--defence", 3, "--height", "attacker", "--json").stdout)
    assert higher["attack_dice"] == 5 and len(higher["wounds"]) == 6
    assert cli("odds", "--attack", 4).exit_code == 2


def test_run_jsonl_transcript_snapshot(transcript_snapshot):
    """The JSONL transcript of a short greedy game: every engine event with its fields."""
    result = cli("run", DUEL, "--seed", 1, "--format", "jsonl")
    assert result.exit_code == 0
    assert result.stdout.replace(str(ROOT), "ROOT") == transcript_snapshot


def test_human_seats_at_the_terminal():
    """`--agent human`: the map with the start zone marked, numbered actions, a number read."""
    result = CliRunner().invoke(main, ["run", str(DUEL), "--agent", "human"], input="4\n2\n")
    assert result.exit_code == 0, result.output
    assert " 1   o o o o o o o" in result.stdout and "  4. place 4,1" in result.stdout
    assert "Gideon (p1) takes the field at 4,1." in result.stdout
    assert "Liliana (p2) takes the field at 2,4." in result.stdout
    assert "(end of input: done from now on)" in result.stdout


def test_ar7_even_dice_change_the_engines_chances():
    """A-R7: `reading dice even` (2 swords, 2 shields, 2 blanks): an attack roll's chances follow."""
    scenario = compile_source(HEADER + "    reading dice even\n" + FIELD.replace("3,2", "2,1") + ARMIES, "t.quest")
    state = scenario.system_table.game.new_state()
    rng = random.Random(1)
    for action in (("place", ((1, 1),)), ("place", ((2, 1),)), "p1", ("activate", "A"), ("done",),
                   ("attack", "p1.A", "p2.B")):
        state.apply(action, rng, [])
    decision = state.decision()
    chances = dict(zip(decision.actions, decision.probabilities))
    assert chances[(3, 0)] == pytest.approx((1 / 3) ** 3 * (2 / 3) ** 2)


def test_win_rate_intervals_are_wilson_intervals():
    from deckquest.systems.arena.report import wilson

    assert wilson(50, 100) == pytest.approx([0.4038, 0.5962], abs=1e-4)
    assert wilson(0, 10) == pytest.approx([0.0, 0.2775], abs=1e-4)
