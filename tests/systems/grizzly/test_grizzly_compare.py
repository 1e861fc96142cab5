"""`deckquest sim SCRIPT --compare "CHANGES"`: the script as written and with CHANGES played on
the same seeds (sim/compare.py over GameSystem.compare_figures; docs/grizzly.md, "A worked
balance question")."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from deckquest.cli import main

ROOT = Path(__file__).resolve().parents[3]
SWORD_COAST = str(ROOT / "scenarios" / "sword_coast" / "sword_coast.quest")
RACE = str(ROOT / "tests" / "systems" / "dice_race" / "race.quest")


def deckquest(*args: str):
    return CliRunner().invoke(main, list(args))


def figures(data: dict) -> dict[str, dict]:
    return {figure["figure"]: figure for figure in data["figures"]}


def test_without_the_dragon_bounty_games_last_longer_and_no_dragon_treasure_is_gained(tmp_path):
    """G-17 ☆ off: no Treasure from Dragons, so games need more laps (text and JSON)."""
    report = tmp_path / "compare.json"
    result = deckquest("sim", SWORD_COAST, "--compare", "no option dragon bounty", "-n", "40", "--seed", "1",
                       "--jobs", "1", "--agent", "greedy", "--json", str(report))
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert "dragon bounty" in data["a"]["options"] and "dragon bounty" not in data["b"]["options"]
    by_title = figures(data)
    rounds = by_title["rounds"]
    assert rounds["interval"][0] > 0 and rounds["interval"][0] <= rounds["difference"] <= rounds["interval"][1]
    assert by_title["dragon Treasures"]["b"] == 0 < by_title["dragon Treasures"]["a"]
    seats = [figure for title, figure in by_title.items() if title.endswith(" wins")]
    assert [seat["figure"] for seat in seats] == ["Ana wins", "Ben wins", "Cai wins", "Dee wins"]
    for seat in seats:
        low, high = seat["interval"]
        assert low <= seat["difference"] <= high and abs(seat["difference"] - (seat["b"] - seat["a"])) < 1e-6
    assert "B: no option dragon bounty" in result.stdout and "dragon Treasures" in result.stdout


def test_a_reading_change_is_the_same_on_any_number_of_jobs():
    """The two batches are the sim harness's: same seed, same figures, on 1 job or 2."""
    args = ("sim", SWORD_COAST, "--compare", "reading counter power", "-n", "30", "--seed", "2", "--agent", "greedy")
    one, two = deckquest(*args, "--jobs", "1"), deckquest(*args, "--jobs", "2")
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout


def test_a_change_the_system_does_not_know_is_a_usage_error():
    result = deckquest("sim", SWORD_COAST, "--compare", "reading home porch", "-n", "5")
    assert result.exit_code == 2
    assert "`reading home porch` is not `option NAME`" in result.output and "reading home corner|square" in result.output
    same = deckquest("sim", SWORD_COAST, "--compare", "option dragon bounty", "-n", "5")
    assert same.exit_code == 2 and "changes nothing" in same.output


def test_a_system_without_a_comparison_says_so():
    import dice_race  # noqa: F401  the example system gives no compare_figures

    result = deckquest("sim", RACE, "--compare", "option knock back", "-n", "5")
    assert result.exit_code == 2
    assert "gives no figures to compare" in result.output
