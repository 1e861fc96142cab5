"""Hex geometry of an Arena battlefield: odd-r offset positions, cube coordinates, lines.

A position is ``(column, row)`` counted from ``(1, 1)`` at the top left, as a player reads the
battlefield's ``row "..."`` lines. Odd rows (1, 3, 5, ...) sit half a hex to the right of even
rows, as the contract example says ("odd rows sit half a hex to the right (odd-r)"). In the
zero-based terms of Red Blob Games' hex guide that is the "even-r" layout (zero-based row 0, 2,
... shoved right); the conversion below is the only place that knows it.

Distances and lines go through cube coordinates (x + y + z = 0), where a hex line is a lerp
between the two centres rounded to hexes (A-R6).
"""

from __future__ import annotations

Pos = tuple[int, int]  # (column, row), 1-based
Cube = tuple[int, int, int]

CUBE_DIRECTIONS: tuple[Cube, ...] = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def to_cube(pos: Pos) -> Cube:
    """A 1-based odd-row-shoved position as cube coordinates."""
    col, row = pos[0] - 1, pos[1] - 1
    x = col - (row + (row & 1)) // 2
    z = row
    return (x, -x - z, z)


def from_cube(cube: Cube) -> Pos:
    x, _, z = cube
    col = x + (z + (z & 1)) // 2
    return (col + 1, z + 1)


def neighbours(pos: Pos) -> tuple[Pos, ...]:
    """The six positions around ``pos`` (some may be off the map)."""
    x, y, z = to_cube(pos)
    return tuple(from_cube((x + dx, y + dy, z + dz)) for dx, dy, dz in CUBE_DIRECTIONS)


def distance(a: Pos, b: Pos) -> int:
    """Hexes between ``a`` and ``b`` (1 for neighbours), ignoring levels: range ignores levels (A-R3)."""
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def _cube_round(x: float, y: float, z: float) -> Cube:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (int(rx), int(ry), int(rz))


def hex_line(a: Pos, b: Pos, nudge: float = 1e-6) -> tuple[Pos, ...]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` passes
    through, ``a`` and ``b`` included (lerp and round in cube coordinates). ``nudge`` shifts
    the line a hair off hex edges; a line along an edge is looked at both ways (see sight)."""
    n = distance(a, b)
    if n == 0:
        return (a,)
    qa, ra, sa = to_cube(a)
    bx, by, bz = to_cube(b)
    ax, ay, az = qa + nudge, ra + nudge, sa - 2 * nudge
    cells = []
    for i in range(n + 1):
        t = i / n
        cells.append(from_cube(_cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t)))
    return tuple(cells)


def label(pos: Pos) -> str:
    """A position as players write it: ``column,row``."""
    return f"{pos[0]},{pos[1]}"
