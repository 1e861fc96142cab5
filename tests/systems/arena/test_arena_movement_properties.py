"""Movement invariants on random small battlefields (A-11 to A-16): whatever the map, every
route the engine offers keeps to the figure's MOVE, steps hex by hex, climbs no step higher
than its size, never enters a wall or an enemy, and stops at the first water or glyph."""

from __future__ import annotations

from arena_helpers import battlefield, card
from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.systems.arena.battlefield import Glyph
from deckquest.systems.arena.cards import Army
from deckquest.systems.arena.hexes import neighbours
from deckquest.systems.arena.state import ArenaGame

CELLS = "0000112349~~#."


@st.composite
def situations(draw):
    width, height = draw(st.integers(3, 5)), draw(st.integers(2, 4))
    rows = ["".join(draw(st.sampled_from(CELLS)) for _ in range(width)) for _ in range(height)]
    hexes = [(c, r) for r in range(1, height + 1) for c in range(1, width + 1) if rows[r - 1][c - 1] not in "#."]
    if len(hexes) < 3:
        rows[0] = "0" * width
        hexes = [(c, 1) for c in range(1, width + 1)] + hexes
        hexes = list(dict.fromkeys(hexes))
    chosen = draw(st.lists(st.sampled_from(hexes), min_size=3, max_size=min(6, len(hexes)), unique=True))
    return rows, chosen, draw(st.integers(0, 6)), draw(st.integers(1, 5)), draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(situations())
def test_a11_to_a16_every_route_keeps_the_rules(situation):
    rows, chosen, move, size, glyph = situation
    mover_at, glyph_at, *others = chosen
    enemies, friends = others[::2], others[1::2]
    p1 = (card("M", "planeswalker", move=move, size=size),) + tuple(card(f"F{i}") for i, _ in enumerate(friends))
    p2 = (card("E", "planeswalker"),) + tuple(card(f"E{i}") for i, _ in enumerate(enemies))
    glyphs = (Glyph("G", glyph_at),) if glyph else ()
    game = ArenaGame(battlefield(rows, glyphs=glyphs), (Army("p1", "P1", p1), Army("p2", "P2", p2)))
    state = game.new_state()
    mover = state.figures["p1.M"]
    state.put(mover, (mover_at,))
    for i, pos in enumerate(friends):
        state.put(state.figures[f"p1.F{i}"], (pos,))
    for i, pos in enumerate(enemies):
        state.put(state.figures[f"p2.E{i}"], (pos,))
    levels = game.terrain.levels
    stops = {p for p in levels if levels[p] == -1} | ({glyph_at} if glyph else set())
    routes = state.routes(mover)
    assert routes[(mover_at,)].cost == 0
    for end, route in routes.items():
        assert route.cost <= move
        assert end == (mover_at,) or (end[0] in levels and end[0] not in state.occupant)
        here, spent = mover_at, 0
        for (there,) in route.path:
            assert there in neighbours(here) and there in levels and there not in enemies
            assert levels[there] - levels[here] <= size
            spent += 1 + max(levels[there] - levels[here], 0)
            assert here == mover_at or here not in stops  # the move ended there
            here = there
        assert spent == route.cost
