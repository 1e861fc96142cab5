"""Battlefields as text (A-1): rows of levels, water, walls and no-hex cells; diagnostics for
ragged rows (DQ3001), unknown symbols (DQ3002), unreachable start zones (DQ3003), positions off
the map (DQ3004) or on walls (DQ3005); army checks (A-2, A-18: DQ3010-DQ3012, DQ3020)."""

from __future__ import annotations

from arena_helpers import card

from deckquest.systems.arena.battlefield import WATER, PlacedText, RowText, check_starts, read_rows
from deckquest.systems.arena.cards import Army, check_army

DUEL = ["0 0 0 1 0 0 0", "0 0 1 2 1 0 0", "0 ~ ~ 1 0 # 0", "0 0 0 0 0 0 0"]


def rows(lines, line=10, col=9):
    return [RowText(text, line + i, col) for i, text in enumerate(lines)]


def test_the_duel_reads_without_problems():
    terrain, problems = read_rows(rows(DUEL))
    assert problems == []
    assert (terrain.width, terrain.height) == (7, 4)
    assert terrain.levels[(4, 2)] == 2 and terrain.levels[(2, 3)] == WATER and (6, 3) in terrain.walls


def test_cells_without_spaces_and_no_hex_cells():
    terrain, problems = read_rows(rows(["01.", ".~#"]))
    assert problems == [] and set(terrain.levels) == {(1, 1), (2, 1), (2, 2)} and terrain.walls == {(3, 2)}


def test_dq3001_ragged_row_points_at_the_row():
    _, problems = read_rows(rows(["0 0 0", "0 0", "0 0 0"], line=5, col=9))
    [problem] = problems
    assert problem.code == "DQ3001" and (problem.span.line, problem.span.col) == (6, 9)
    assert "row 2 has 2 hexes, row 1 has 3" in problem.message and "." in problem.hint


def test_dq3002_unknown_symbol_points_at_the_cell():
    _, problems = read_rows(rows(["0 0 X 0"], 3), "duel.quest")
    [problem] = problems
    assert problem.code == "DQ3002" and (problem.span.file, problem.span.line, problem.span.col) == ("duel.quest", 3, 13)
    assert problem.render().splitlines()[0] == "duel.quest:3:13: error[DQ3002]: unknown symbol 'X' in a battlefield row"


def test_dq3003_start_zone_cut_off_by_walls():
    terrain, _ = read_rows(rows(["0 # 0", "0 # 0", "0 # 0"]))
    zones = {"p1": [PlacedText((1, 1), 20, 14)], "p2": [PlacedText((3, 3), 21, 14)]}
    problems = check_starts(terrain, zones, "x.quest")
    assert [p.code for p in problems] == ["DQ3003", "DQ3003"] and problems[0].span.line == 20
    open_terrain, _ = read_rows(rows(["0 # 0", "0 0 0", "0 # 0"]))
    assert check_starts(open_terrain, zones, "x.quest") == []


def test_dq3004_dq3005_start_hex_off_the_map_or_on_a_wall():
    terrain, _ = read_rows(rows(["0 # .", "0 0 0"]))
    zones = {"p1": [PlacedText((9, 1)), PlacedText((2, 1)), PlacedText((3, 1))], "p2": [PlacedText((1, 2))]}
    assert [p.code for p in check_starts(terrain, zones)] == ["DQ3004", "DQ3005", "DQ3004"]


def test_dq3006_empty_battlefield():
    _, problems = read_rows(rows([". . #"]))
    assert [p.code for p in problems] == ["DQ3006"]


def test_a2_army_needs_one_planeswalker_and_keeps_to_its_points():
    walker = card("Gideon", "planeswalker", cost=100)
    squad = card("Knights", cost=60, figures=3)
    assert check_army(Army("p1", "Legion", (walker, squad), points=200)) == []
    problems = check_army(Army("p1", "Legion", (squad,), ("Smite",), points=50), {})
    assert [p.code for p in problems] == ["DQ3010", "DQ3011", "DQ3020"]
    assert [p.code for p in check_army(Army("p1", "L", (walker, card("Bad", life=0))))] == ["DQ3012"]
