"""Where a figure can move, and by which way (A-11 to A-17).

``routes`` searches every way a figure can walk with its MOVE this turn: climbing costs one
extra move per level and cannot exceed the figure's size (A-11), walls and the map's edge are
never entered (A-12), water and glyphs end the move (A-13, A-14), friends may be passed unless
engaged, enemies block (A-16, A-R5), and leaving an engaged enemy costs a swipe (A-15). Flyers
ignore levels, falls and walls and pass over figures (A-12). A two-hex figure's back follows its
front, turning around is free, it climbs when its front climbs, drops when both halves have
dropped, is stopped by water only when both halves are in it, and cannot end straddling two
heights (A-17).

Of all ways to one end hex the engine takes the one with the fewest swipes, then the fewest
falls (each a die that may wound), then the fewest moves spent: a player moving a figure by
hand would pick that way too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckquest.systems.arena.battlefield import WATER
from deckquest.systems.arena.hexes import Pos

if TYPE_CHECKING:
    from deckquest.systems.arena.state import ArenaState, Figure

Place = tuple[Pos, ...]  # the hexes a figure covers, front first


@dataclass(frozen=True)
class Route:
    """A way to an end place: the places passed (start excluded), moves spent, swipes taken
    and falls taken on the way."""

    path: tuple[Place, ...]
    cost: int
    swipes: int
    falls: int


def standing_level(levels: dict[Pos, int], place: Place) -> int:
    """The level a figure stands at: the highest of its hexes (a wall under a flyer counts 0)."""
    return max(levels.get(h, 0) for h in place)


def routes(state: "ArenaState", figure: "Figure") -> dict[Place, Route]:
    """Every place ``figure`` may end its move on, with the best way there; staying put is
    included (``Route((), 0, 0, 0)``)."""
    search = _Search(state, figure)
    return search.run()


class _Search:
    """A search by moves spent over (place, moves spent), keeping the fewest (swipes, falls)."""

    def __init__(self, state: "ArenaState", figure: "Figure"):
        terrain = state.game.terrain
        self.state = state
        self.figure = figure
        self.levels = terrain.levels
        self.walls = terrain.walls
        self.glyphs = state.game.glyph_hexes
        self.move = state.stat(figure, "move")
        self.size = figure.card.size
        self.flying = figure.card.flying
        self.enemies = [g for g in state.on_map() if g.seat != figure.seat]
        others = {h: g for g in state.on_map() if g is not figure for h in g.hexes}
        self.occupied = set(others)
        pass_enemies = state.game.rules.enemies == "pass"
        self.blocked: set[Pos] = set()
        if not self.flying:
            for h, g in others.items():
                if g.seat != figure.seat:
                    if not pass_enemies:
                        self.blocked.add(h)
                elif state.engaged_enemies(g):
                    self.blocked.add(h)  # an engaged friend cannot be passed
        self._engaged: dict[Place, frozenset[str]] = {}

    def engaged_at(self, place: Place) -> frozenset[str]:
        found = self._engaged.get(place)
        if found is None:
            level = standing_level(self.levels, place)
            found = frozenset(g.id for g in self.enemies
                              if self.state.engaged_between(place, level, self.size, g.hexes, g.level, g.card.size))
            self._engaged[place] = found
        return found

    def step(self, place: Place, front: Pos) -> tuple[Place, int, int, bool] | None:
        """Moving the front of ``place`` onto ``front``: (new place, cost, fall, stops) or None."""
        if front in place or front in self.blocked or not (front in self.levels or (self.flying and front in self.walls)):
            return None
        new = (front,) + place[:-1]
        levels = self.levels
        cost, fall = 1, 0
        if not self.flying:
            climb = levels[front] - levels[place[0]]
            if climb > self.size:
                return None
            cost += max(climb, 0)
            in_water = all(levels[h] == WATER for h in new)
            drop = standing_level(levels, place) - standing_level(levels, new)
            fall = int(drop > self.size and not in_water)
        else:
            in_water = all(levels.get(h) == WATER for h in new)
        stops = in_water or front in self.glyphs
        return new, cost, fall, stops

    def can_end(self, place: Place) -> bool:
        if any(h not in self.levels or h in self.occupied for h in place):
            return False
        return len({self.levels[h] for h in place}) == 1

    def run(self) -> dict[Place, Route]:
        start: Place = self.figure.hexes
        # (place, spent) -> (swipes, falls, stopped, parent)
        best: dict[tuple[Place, int], tuple[int, int, bool, tuple[Place, int] | None]] = {(start, 0): (0, 0, False, None)}
        buckets: list[list[Place]] = [[] for _ in range(self.move + 1)]
        buckets[0].append(start)
        expanded: dict[Place, list[tuple[int, int]]] = {}
        for spent in range(self.move + 1):
            for place in buckets[spent]:
                swipes, falls, stopped, _ = best[(place, spent)]
                if stopped:
                    continue
                # a place reached before with fewer moves and no more swipes and falls does all this one can
                earlier = expanded.setdefault(place, [])
                if any(s <= swipes and f <= falls for s, f in earlier):
                    continue
                earlier.append((swipes, falls))
                self._expand(place, spent, swipes, falls, best, buckets)
        return self._ends(best)

    def _expand(self, place: Place, spent: int, swipes: int, falls: int, best: dict, buckets: list[list[Place]]) -> None:
        here = self.engaged_at(place)
        for oriented in ((place, place[::-1]) if len(place) > 1 else (place,)):
            for front in self.state.game.adjacent[oriented[0]]:
                stepped = self.step(oriented, front)
                if stepped is None:
                    continue
                new, cost, fall, stops = stepped
                total = spent + cost
                if total > self.move:
                    continue
                left = len(here - self.engaged_at(new)) if here else 0
                key = (new, total)
                old = best.get(key)
                if old is None or (swipes + left, falls + fall) < old[:2]:
                    if old is None:
                        buckets[total].append(new)
                    best[key] = (swipes + left, falls + fall, stops, (place, spent))

    def _ends(self, best: dict) -> dict[Place, Route]:
        chosen: dict[Place, tuple[int, int, int]] = {}
        for (place, spent), (swipes, falls, _, _) in best.items():
            if self.can_end(place) or spent == 0 and place == self.figure.hexes:
                rank = (swipes, falls, spent)
                if place not in chosen or rank < chosen[place]:
                    chosen[place] = rank
        result: dict[Place, Route] = {}
        for place, (swipes, falls, spent) in chosen.items():
            path: list[Place] = []
            key: tuple[Place, int] | None = (place, spent)
            while key is not None and key[1] > 0:
                path.append(key[0])
                key = best[key][3]
            result[place] = Route(tuple(reversed(path)), spent, swipes, falls)
        return result
