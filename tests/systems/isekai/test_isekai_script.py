"""Isekai TCG scripts through the paths a user takes: `deckquest check`, `run` (text and JSONL
transcripts, snapshot-tested), `sim` (the duel section), and the resolver's coded diagnostics
at line:col (I-1, I-2, I-18; DQ4001-DQ4017)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from deckquest.cli import main
from deckquest.dsl.resolver import compile_source
from deckquest.errors import CompileError
from deckquest.systems import load_all
from deckquest.systems.isekai.rules import Rules
from isekai_helpers import FRONTIER, ROAD

LANGUAGE = Path("/work/shared/language.md")
HEADER = '''scenario "T":
    author "t"
    version "1.0.0"
    system isekai
    players 2
'''
CARDS = '''unit knight "Road Knight":
    cost 2
    range near
    attack 2
    hp 3
    speed 2
skill parry "Parry":
    cost 1
    speed 3
    prevent 2 damage to a unit
'''
DECK = '''deck road "Road":
    main knight x50
    skills parry x50
'''
DUELISTS = 'duelist ana "Ana" with road\nduelist ben "Ben" with road\n'


class TranscriptSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def transcript_snapshot(snapshot):
    return snapshot.use_extension(TranscriptSnapshot)


def deckquest(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def diagnostics(text: str) -> list[tuple[str, int, int]]:
    load_all()
    with pytest.raises(CompileError) as failure:
        compile_source(text, "duel.quest")
    return [(d.code, d.span.line, d.span.col) for d in failure.value.diagnostics]


@pytest.mark.skipif(not LANGUAGE.exists(), reason="../shared/language.md is not beside the checkout")
def test_road_duel_is_the_contract_example_as_written():
    block = LANGUAGE.read_text(encoding="utf-8").split("`scenarios/road_duel/road_duel.quest`", 1)[1]
    example = block.split("```", 2)[1].lstrip("\n")
    assert ROAD.read_text(encoding="utf-8") == example


@pytest.mark.parametrize("path", [ROAD, FRONTIER], ids=lambda p: p.stem)
def test_check_accepts_the_bundled_duels(path):
    result = deckquest("check", path)
    assert result.exit_code == 0, result.stderr
    assert "ok (0 scenes)" in result.stderr


@pytest.mark.parametrize("path", [ROAD, FRONTIER], ids=lambda p: p.stem)
def test_run_transcript_text(path, transcript_snapshot):
    """Same script and seed, same duel: the action rights, answers, hits and the end."""
    result = deckquest("run", path, "--seed", "2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == transcript_snapshot


def test_run_transcript_jsonl(transcript_snapshot):
    result = deckquest("run", FRONTIER, "--seed", "2", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert events[0]["system"] == "isekai" and [s["id"] for s in events[0]["seats"]] == ["kai", "mira"]
    assert {"right", "cast", "attack", "hit", "damage", "duel end"} <= {e["event"] for e in events}
    assert result.stdout == transcript_snapshot


def test_triggers_on_duel_events_run_their_narration():
    """`when a duelist takes damage if duelist.main <= 5` fires with the duelist bound."""
    result = deckquest("run", FRONTIER, "--seed", "2")
    lines = re.findall(r"(Kai|Mira) has (\d) cards left in the main deck\.", result.stdout)
    assert lines and all(int(count) <= 5 for _, count in lines)


def test_readings_in_the_header_reach_the_engine():
    load_all()
    text = HEADER + "    reading mana_charge one\n    reading extra_attack_gap 3\n" + CARDS + DECK + DUELISTS
    scenario = compile_source(text, "duel.quest")
    assert Rules.from_readings(scenario.readings) == Rules(triangular_charge=False, extra_attack_gap=3)


def test_a_wrong_reading_value_names_the_values(tmp_path):
    result = deckquest_text(HEADER + "    reading mana_charge square\n" + CARDS + DECK + DUELISTS, tmp_path)
    assert "error[DQ0124]" in result and "triangular" in result


def deckquest_text(text: str, folder: Path) -> str:
    """What `deckquest check` says of `text`, written in `folder` (a test's tmp_path)."""
    path = folder / "duel_case.quest"
    path.write_text(text, encoding="utf-8")
    return deckquest("check", path).stderr


@pytest.mark.parametrize("deck, code, line, col", [
    ("deck road \"Road\":\n    main knight x49\n    skills parry x50\n", "DQ4001", 17, 10),
    ("deck road \"Road\":\n    main knight x50\n    skills parry x51\n", "DQ4002", 18, 12),
    ("deck road \"Road\":\n    main knight x49, parry x1\n    skills parry x50\n", "DQ4003", 17, 22),
    ("deck road \"Road\":\n    main knight x50\n    skills parry x49, knight\n", "DQ4004", 18, 23),
    ("deck road \"Road\":\n    main knight x50\n    skills parry x50\n    status knight\n", "DQ4005", 19, 12),
    ("deck road \"Road\":\n    main knigt x50\n    skills parry x50\n", "DQ4008", 17, 10),
    ("deck road \"Road\":\n    mian knight x50\n    skills parry x50\n", "DQ4017", 17, 5),
])
def test_I1_deck_diagnostics_point_at_the_entry(deck, code, line, col):
    found = diagnostics(HEADER + CARDS + deck + DUELISTS)
    assert (code, line, col) in found


def test_I1_unknown_card_hint_in_the_cli(tmp_path):
    text = HEADER + CARDS + DECK.replace("knight x50", "knigt x50") + DUELISTS
    shown = deckquest_text(text, tmp_path)
    assert "error[DQ4008]: unknown card 'knigt' in deck 'road'" in shown
    assert "hint: did you mean `knight`?" in shown
    assert "        main knigt x50\n             ^^^^^^^^^" in shown


def test_I2_blessing_and_unique_are_checked_across_the_deck():
    cards = CARDS + 'unit hero "Hero":\n    cost 1\n    range near\n    attack 1\n    hp 1\n    speed 1\n    unique\n    blessing 6\n'
    found = diagnostics(HEADER + cards + "deck road \"Road\":\n    main knight x48, hero x2\n    skills parry x50\n" + DUELISTS)
    assert {code for code, _, _ in found} == {"DQ4006", "DQ4007"}


@pytest.mark.parametrize("line, code", [
    ("reversal if your graveyard has 5 or fewer cards", "DQ4009"),
    ("reversal if your main deck has 0 or more cards", "DQ4009"),
    ("reversal when it hurts", "DQ4009"),
    ("deal two damage to a unit", "DQ4010"),
    ("deal 2 damage to the moon", "DQ4010"),
    ("range sky", "DQ4010"),
])
def test_I18_bad_card_lines_are_coded_at_their_line(line, code):
    card = CARDS.replace("    prevent 2 damage to a unit\n", f"    prevent 2 damage to a unit\n    {line}\n")
    found = diagnostics(HEADER + card + DECK + DUELISTS)
    assert found[0][0] == code and found[0][1] == 16


def test_I10_a_unit_needs_its_stats():
    found = diagnostics(HEADER + CARDS.replace("    hp 3\n", "") + DECK + DUELISTS)
    assert found[0][:2] == ("DQ4010", 6)


@pytest.mark.parametrize("duelists, code", [
    ('duelist ana "Ana" with raod\nduelist ben "Ben" with road\n', "DQ4014"),
    ('duelist ana "Ana" with road\n', "DQ4015"),
    ('duelist ana "Ana" with road:\n    plays greedyy\nduelist ben "Ben" with road\n', "DQ4016"),
])
def test_duelist_diagnostics(duelists, code):
    assert code in {c for c, _, _ in diagnostics(HEADER + CARDS + DECK + duelists)}


def test_a_duelist_plays_the_agent_the_script_names(tmp_path):
    text = HEADER + CARDS + DECK + 'duelist ana "Ana" with road:\n    plays random\nduelist ben "Ben" with road\n'
    path = tmp_path / "duel_agents.quest"
    path.write_text(text, encoding="utf-8")
    result = deckquest("run", path, "--seed", "1")
    assert "seats: Ana (random), Ben (greedy)" in result.stdout


def test_human_plays_a_duel_at_the_terminal():
    """`--agent human`: both seats ask; the board and each action's cost and speed are shown."""
    result = deckquest("run", ROAD, "--agent", "human", "--seed", "1", stdin="1\n" * 400)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "ana: right" in out and "your hand:" in out and "field:" in out
    assert re.search(r"play Road Knight from hand: cost 2 \(\d mana, \d from the skill deck\), speed 2", out)
    assert "== The end:" in out


def test_sim_reports_win_rates_with_intervals_length_and_duel_counts(tmp_path):
    report = tmp_path / "report.json"
    result = deckquest("sim", FRONTIER, "--runs", "60", "--jobs", "1", "--no-progress", "--json", report)
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    for heading in ("Win rates by seat", "Win rates by deck", "first player", "draws (stalls)",
                    "Duel length in action rights", "speed-locked hits", "with a Reversal"):
        assert heading in text
    data = json.loads(report.read_text())
    section = next(value for value in _sections(data) if isinstance(value, dict) and "seats" in value)
    seats = section["seats"]
    assert set(seats) == {"kai", "mira"}
    assert sum(s["wins"] for s in seats.values()) + section["draws"]["wins"] == 60
    for rate in list(seats.values()) + list(section["decks"].values()):
        assert 0 <= rate["low"] <= rate["share"] <= rate["high"] <= 1
    assert section["rights"]["min"] <= section["rights"]["median"] <= section["rights"]["max"]


def _sections(data):
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _sections(value)


MISTFORD = FRONTIER.parents[1] / "mistford_toll" / "mistford_toll.quest"
ADVENTURE = HEADER.replace("players 2", "players 1") + '''pc rin "Rin":
    deck "decks/green.txt"
    critical "Forest" x3
''' + CARDS + DECK + '''magic bolt "Bolt":
    cost 1
    speed 1
    deal 2 damage to the opponent
deck strong "Strong":
    main knight x50
    skills bolt x50
duelist keeper "Keeper" with strong

when a duelist takes damage if duelist.main < 3:
    "{duelist} is nearly out of cards ({duelist.main})."

start scene bridge "Bridge":
    duel against keeper with road by rin:
        victory:
            "Rin wins the duel."
            end victory "won"
        defeat:
            "Rin loses the duel."
            end defeat "lost"
    "Nobody wins."
    end "draw" "a draw"
'''


def test_an_adventure_runs_a_duel_and_its_outcome_block(tmp_path):
    """`duel against NPC with DECK by PC:` plays an I-1..I-19 duel and runs the block of its
    outcome; the duel triggers bind the duelist (here the NPC or the PC)."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "green.txt").write_text("20 Forest\n20 Grizzly Bears\n20 Llanowar Elves\n")
    path = tmp_path / "bridge.quest"
    path.write_text(ADVENTURE, encoding="utf-8")
    endings = set()
    for seed in range(4):
        result = deckquest("run", path, "--seed", seed, "--agent", "first")
        assert result.exit_code == 0, result.stderr
        out = result.stdout
        assert "Rin goes first" in out or "Keeper goes first" in out
        ending = re.search(r"== The end: (\w+) ==", out).group(1)
        said = {"victory": "Rin wins the duel.", "defeat": "Rin loses the duel.", "draw": "Nobody wins."}[ending]
        assert said in out
        if ending != "draw":
            assert re.search(r"(Rin|Keeper) is nearly out of cards \([0-2]\)\.", out)
        endings.add(ending)
    assert endings & {"victory", "defeat"}


@pytest.mark.parametrize("statement, code", [
    ("duel against keepr with road by rin:", "DQ4018"),
    ("duel against keeper with raod by rin:", "DQ4014"),
    ("duel against keeper with road by rn:", "DQ0033"),
])
def test_an_adventure_duel_names_a_duelist_a_deck_and_a_pc(statement, code):
    text = ADVENTURE.replace("duel against keeper with road by rin:", statement)
    assert code in {c for c, _, _ in diagnostics_in_folder(text)}


def diagnostics_in_folder(text: str):
    load_all()
    from deckquest.dsl.resolver import compile_file
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "decks").mkdir()
        (Path(folder) / "decks" / "green.txt").write_text("20 Forest\n20 Grizzly Bears\n20 Llanowar Elves\n")
        path = Path(folder) / "bridge.quest"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(CompileError) as failure:
            compile_file(path)
        return [(d.code, d.span.line, d.span.col) for d in failure.value.diagnostics]


def test_the_bundled_adventure_with_a_duel(transcript_snapshot):
    result = deckquest("run", MISTFORD, "--seed", "1", "--agent", "first")
    assert result.exit_code == 0, result.stderr
    assert "== The Duel on the Bridge ==" in result.stdout
    assert result.stdout == transcript_snapshot


def test_sim_of_an_adventure_counts_only_the_runs_that_dueled():
    result = deckquest("sim", MISTFORD, "--runs", "40", "--jobs", "1", "--no-progress")
    assert result.exit_code == 0, result.stderr
    duels = int(re.search(r"Duels \((\d+)\)", result.stdout).group(1))
    reached = int(re.search(r"standoff\s+(\d+)", result.stdout).group(1))
    assert duels == reached < 40


def test_an_isekai_adventure_s_checks_are_mtg_trpg_checks():
    """The adventure part of an isekai-world adventure is MTG-TRPG's (T-4: a 2019 check)."""
    result = deckquest("run", MISTFORD, "--choose", "2", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    assert 'Rin the Summoned checks green, difficulty 4 ("Sneak past the keeper")' in result.stdout
    assert re.search(r"revealed .+; colour green; target \d+, result \d+ -> (success|failure)", result.stdout)


def test_the_best_agent_acts_between_statements_of_an_isekai_adventure():
    """`deckquest sim` uses `best`, which prepares PCs between statements (MTG-TRPG's PC
    actions): an isekai adventure offers them too."""
    result = deckquest("sim", MISTFORD, "--runs", "20", "--jobs", "1", "--no-progress")
    assert result.exit_code == 0, result.stderr
    assert "runtime error" not in result.stdout


def test_a_person_duels_in_an_adventure_through_the_run_s_own_prompt():
    """`--agent human`: the choice, then the duel's rights are asked at the same terminal."""
    result = deckquest("run", MISTFORD, "--agent", "human", "--seed", "1", stdin="1\n" * 600)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "rin: right" in out and "your hand:" in out
    assert re.search(r"play Mist Wolf from hand: cost 2 \(\d mana, \d from the skill deck\), speed 3", out)
    assert "== The end:" in out


def test_sim_html_report_has_the_duel_section(tmp_path):
    page = tmp_path / "report.html"
    result = deckquest("sim", ROAD, "--runs", "10", "--jobs", "1", "--no-progress", "--html", page)
    assert result.exit_code == 0, result.stderr
    html = page.read_text(encoding="utf-8")
    assert '<h2 id="duels">Duels</h2>' in html and "<td>seat ana</td>" in html and "<td>deck road</td>" in html
