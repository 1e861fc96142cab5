"""Line of sight on the hex grid with heights (A-6, A-19, A-R6).

Line of sight is physical in the published game (the digest's A-R6; the seed names it at line
25 and never explains it): look from behind the figure's head and see whether any of the target
shows. The engine approximates that (reading ``hexline``):

- a straight line runs from the centre of the viewer's hex to the centre of the target's hex
  (cube lerp and round, ``hexes.hex_line``), at the height of the viewer's head (its hex's level
  plus its size) at one end and the target's head at the other, rising or falling evenly;
- a hex on the way blocks when it is a wall (walls are taller than any figure), when its level
  stands above the line there, or when a figure on it has its head above the line there;
- when the line runs exactly along the edge between two hexes, it is looked at nudged to each
  side, and sight is clear if either way is clear (any part of the target showing);
- two-hex figures see and are seen from either of their hexes.

So a hill lower than the figures does not hide them, a cliff or a taller figure between does,
and a figure never sees through a wall. What it does not model: the figures' actual shapes,
seeing only a part of a base, sight over the brim of a hex the viewer stands back from.

Reading ``flat``: levels and figures never block; only walls do.
"""

from __future__ import annotations

from typing import Mapping

from deckquest.systems.arena.battlefield import Terrain
from deckquest.systems.arena.hexes import Pos, hex_line


def line_clear(terrain: Terrain, a: Pos, eye: float, b: Pos, top: float, heads: Mapping[Pos, int], flat: bool = False) -> bool:
    """Whether the sight line from ``a`` (eye height ``eye``) to ``b`` (height ``top``) is clear.

    ``heads`` maps hexes holding figures to the height of the figure's head."""
    for nudge in (1e-6, -1e-6):
        line = hex_line(a, b, nudge)
        n = len(line) - 1
        for i in range(1, n):
            pos = line[i]
            if pos in terrain.walls:
                break
            if flat:
                continue
            height = eye + (top - eye) * i / n
            if terrain.levels.get(pos, -99) > height or heads.get(pos, -99) > height:
                break
        else:
            return True
    return False


def in_sight(terrain: Terrain, viewer: tuple[Pos, ...], viewer_size: int, target: tuple[Pos, ...], target_size: int,
             heads: Mapping[Pos, int], flat: bool = False) -> bool:
    """Whether a figure on ``viewer`` hexes sees a figure on ``target`` hexes (A-R6)."""
    levels = terrain.levels
    for a in viewer:
        eye = levels[a] + viewer_size
        for b in target:
            if line_clear(terrain, a, eye, b, levels[b] + target_size, heads, flat):
                return True
    return False


def sees_hex(terrain: Terrain, viewer: tuple[Pos, ...], viewer_size: int, pos: Pos, size: int, heads: Mapping[Pos, int],
             flat: bool = False) -> bool:
    """Whether a figure of ``size`` standing on ``pos`` would be in sight (summoning, A-6)."""
    return in_sight(terrain, viewer, viewer_size, (pos,), size, heads, flat)
