"""`deckquest sim` of a whole-game system's script (no scenes, no party): the text and HTML
reports show what applies to the game (its endings, the system's own section, stuck runs and
errors, lines) and the system's verdict (GameSystem.verdict), never MTG-TRPG's party
verdict, scenes, checks, PCs, clock or battles (issue 13c, item 1)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import dice_race  # noqa: F401  registers the example system (tests/systems/dice_race)
from deckquest.cli import main

ROOT = Path(__file__).resolve().parents[2]
RACE = ROOT / "tests" / "systems" / "dice_race" / "race.quest"
SWORD_COAST = ROOT / "scenarios" / "sword_coast" / "sword_coast.quest"
TRPG_HEADINGS = ("Scenes ", "Checks ", "PCs ", "Game clock", "Battles", "Cards in battles", "the party")
TRPG_SECTIONS = ('id="scenes"', 'id="graph"', 'id="checks"', 'id="pcs"', 'id="battles"', 'id="coverage"', "the party")


def sim(tmp_path: Path, script: Path, *options: str) -> tuple[str, dict, str]:
    json_file, html_file = tmp_path / "r.json", tmp_path / "r.html"
    result = CliRunner().invoke(main, ["sim", str(script), "-n", "40", "--jobs", "1", "--no-progress",
                                       "--json", str(json_file), "--html", str(html_file), *options])
    assert result.exit_code == 0, result.output
    return result.stdout, json.loads(json_file.read_text()), html_file.read_text()


def test_a_whole_game_without_a_verdict_shows_only_its_endings_section_and_lines(tmp_path):
    """The dice race gives no verdict (the hook's default): no verdict line, no party sections."""
    text, data, html = sim(tmp_path, RACE, "--agent", "greedy")
    assert data["verdict"] is None
    assert "Verdict" not in text and 'id="verdict"' not in html
    for heading in TRPG_HEADINGS:
        assert heading not in text, heading
    for section in TRPG_SECTIONS:
        assert section not in html, section
    assert text.index("Endings") < text.index("Racers") < text.index("Lines no run reached")
    assert '<h2 id="endings">' in html and '<h2 id="racers">' in html and 'id="problems"' in html


def test_grizzly_gives_the_verdict_of_its_balance_report(tmp_path):
    """G-1 (a race to the Treasures between seats): the verdict is about seat balance."""
    text, data, html = sim(tmp_path, SWORD_COAST, "--agent", "greedy")
    verdict = data["verdict"]
    balance = data["system"]["balance"]
    assert verdict["headline"] == f"{'FAIR' if balance >= 0.8 else 'UNEVEN'}: balance {balance:.2f} between 4 seats"
    assert f"Verdict: {verdict['headline']}" in text and "the party" not in text
    assert verdict["headline"] in html
    for heading in TRPG_HEADINGS:
        assert heading not in text, heading


def test_a_scene_script_keeps_every_section(tmp_path):
    text, data, html = sim(tmp_path, ROOT / "scenarios" / "goblin_cave" / "goblin_cave.quest")
    assert data["verdict"]["headline"] in text
    for heading in ("Scenes ", "Checks ", "PCs ", "Game clock"):
        assert heading in text, heading
    for section in ('id="scenes"', 'id="checks"', 'id="pcs"'):
        assert section in html, section


def test_sims_default_agent_plays_grizzly_seats_as_greedy(tmp_path):
    """`sim`'s default agent, `best`, is no Grizzly agent: the seats without `plays` play the
    fair stand-in, `greedy`, so the G-1 balance verdict is about the seats and not about a
    seat stuck with `first` (which aims every harmful effect at the first seat)."""
    reports = []
    for name, options in (("default", ()), ("greedy", ("--agent", "greedy"))):
        result = CliRunner().invoke(main, ["sim", str(SWORD_COAST), "-n", "12", "--jobs", "1",
                                           "--json", str(tmp_path / name), *options])
        assert result.exit_code == 0, result.output
        reports.append(json.loads((tmp_path / name).read_text())["system"])
    assert reports[0] == reports[1]
