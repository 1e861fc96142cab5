"""Golden maps: movement (A-8, A-11 to A-17, A-R2, A-R5) and line of sight (A-R6), one small
battlefield per rule (golden/README.md), checked against the engine's routes and sight."""

from __future__ import annotations

import pytest
from arena_helpers import GOLDEN, grid, pos, read_golden

from deckquest.systems.arena.sight import sees_hex

MOVES = sorted(GOLDEN.glob("move_*.txt"))
SIGHTS = sorted(GOLDEN.glob("sight_*.txt"))


@pytest.mark.parametrize("path", MOVES, ids=lambda p: p.stem)
def test_movement_golden_map(path):
    golden = read_golden(path)
    state, mover = golden.game()
    routes = state.routes(mover)
    if golden.places is not None:
        expected = {frozenset(pos(h) for h in place.split("+")) for place in golden.places}
        assert {frozenset(place) for place in routes} == expected, f"{golden.rule}: {path.name}"
    else:
        ends = {place[0] for place in routes}
        cells = grid(golden.expect)
        expected = {p for p, ch in cells.items() if ch in "oS"}
        assert ends == expected, f"{golden.rule}: {path.name}: extra {sorted(ends - expected)}, missing {sorted(expected - ends)}"
    for where, numbers in golden.routes:
        route = routes[(pos(where),)]
        for name, value in numbers.items():
            assert getattr(route, name) == value, f"{golden.rule}: {path.name}: route to {where}: {name}"


@pytest.mark.parametrize("path", SIGHTS, ids=lambda p: p.stem)
def test_sight_golden_map(path):
    golden = read_golden(path)
    state, viewer = golden.game()
    size = int(path.read_text().split("target: size")[1].split()[0])
    terrain = state.game.terrain
    flat = state.game.rules.sight == "flat"
    heads = state.heads(viewer)
    for p, ch in grid(golden.expect).items():
        if ch in "v-":
            seen = sees_hex(terrain, viewer.hexes, viewer.card.size, p, size, heads, flat)
            assert seen == (ch == "v"), f"{golden.rule}: {path.name}: {p} should {'' if ch == 'v' else 'not '}be in sight"


def test_golden_maps_cover_every_movement_rule():
    """Each movement rule A-11 to A-17 and the readings A-R2, A-R5, A-R6 has a golden map."""
    rules = {read_golden(p).rule for p in MOVES + SIGHTS}
    readings = {k for p in MOVES + SIGHTS for k in read_golden(p).readings}
    assert {"A-11", "A-12", "A-13", "A-14", "A-15", "A-16", "A-17", "A-R6"} <= rules
    assert {"engagement", "enemies", "sight"} <= readings
