"""Comparing two option sets on the same seeds (docs/grizzly.md, "A worked balance question")."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckquest.systems.grizzly.compare import apply_changes, compare, format_text, main

ROOT = Path(__file__).resolve().parents[3]
SWORD_COAST = str(ROOT / "scenarios" / "sword_coast" / "sword_coast.quest")


def test_changes_switch_options_and_readings():
    options, readings = apply_changes(frozenset({"dungeon"}), {"home": "corner"},
                                      "no option dungeon, option dragon bounty, reading home square")
    assert options == frozenset({"dragon bounty"}) and readings == {"home": "square"}
    with pytest.raises(ValueError, match="is not `option NAME`"):
        apply_changes(frozenset(), {}, "reading home porch")


def test_without_the_dragon_bounty_games_last_longer_and_no_dragon_treasure_is_gained():
    """G-17 ☆ off: no Treasure from Dragons, so games need more laps."""
    data = compare(SWORD_COAST, "no option dragon bounty", runs=40, seed=1)
    assert data["b"]["treasures_by_source"].get("dragon", 0) == 0 < data["a"]["treasures_by_source"]["dragon"]
    figures = {figure["figure"]: figure for figure in data["figures"]}
    difference, low, high = figures["rounds"]["difference"]
    assert low > 0 and low <= difference <= high
    assert figures["dragon"]["b"] == 0 and figures["dragon"]["difference"][2] < 0
    for seat in data["seats"]:
        d, low, high = seat["difference"]
        assert low <= d <= high and abs(d - (seat["b"] - seat["a"])) < 1e-9
    text = format_text(data)
    assert "B: no option dragon bounty" in text and "Dragon Treasures" in text


def test_same_seed_same_report(capsys):
    assert main([SWORD_COAST, "reading counter power", "-n", "10", "--seed", "2"]) == 0
    first = capsys.readouterr().out
    assert main([SWORD_COAST, "reading counter power", "-n", "10", "--seed", "2"]) == 0
    assert capsys.readouterr().out == first
