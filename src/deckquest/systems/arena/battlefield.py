"""A battlefield: the hex map (A-1) with levels, water, walls, glyphs and start zones.

Authors draw it as text, one ``row "..."`` line per row of hexes: a cell is a level ``0``-``9``,
``~`` water (level -1, A-13), ``#`` a wall (A-12) or ``.`` no hex. Spaces between cells are
optional. ``read_rows`` turns those lines into terrain and reports, with line and column,
ragged rows and unknown symbols; ``check_starts`` reports start zones off the map, on walls, or
cut off from the other zones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from deckquest.errors import Diagnostic, Span
from deckquest.systems.arena.cards import Effect
from deckquest.systems.arena.hexes import Pos, label, neighbours

WATER = -1
LEVELS = "0123456789"
MAX_SIDE = 60  # rows and columns; a shared battlefield is untrusted input
CELL_HINT = "a cell is a level 0-9, ~ water, # wall or . no hex"


@dataclass(frozen=True)
class Glyph:
    """A glyph tile (A-14): its power goes to the army of the figure standing on it."""

    name: str
    pos: Pos
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Terrain:
    """The hexes of a battlefield: ``levels`` holds every hex a figure can stand on (water at
    -1), ``walls`` the hexes no figure enters (A-12); anything else is no hex."""

    width: int
    height: int
    levels: dict[Pos, int]
    walls: frozenset[Pos]


@dataclass(frozen=True)
class Battlefield:
    """A whole battlefield: terrain, start zones by seat (A-2) and glyphs (A-14)."""

    name: str
    terrain: Terrain
    starts: dict[str, tuple[Pos, ...]] = field(default_factory=dict)
    glyphs: tuple[Glyph, ...] = ()

    @property
    def levels(self) -> dict[Pos, int]:
        return self.terrain.levels


@dataclass(frozen=True)
class RowText:
    """One ``row "..."`` line: its text (inside the quotes) and where that text starts in the
    file (1-based line and column of its first character)."""

    text: str
    line: int = 0
    col: int = 1


def read_rows(rows: Sequence[RowText], file: str = "<battlefield>") -> tuple[Terrain, list[Diagnostic]]:
    """The terrain the rows draw, and a diagnostic for each ragged row (DQ3001), unknown
    symbol (DQ3002), and a battlefield with no hex or over 60 hexes a side (DQ3006)."""
    diagnostics: list[Diagnostic] = []
    levels: dict[Pos, int] = {}
    walls: set[Pos] = set()
    widths: list[int] = []
    for number, row in enumerate(rows, start=1):
        cells = [(i, ch) for i, ch in enumerate(row.text) if not ch.isspace()]
        widths.append(len(cells))
        for column, (offset, ch) in enumerate(cells, start=1):
            pos = (column, number)
            if ch in LEVELS:  # not str.isdigit: `²` is a digit to it, and no level to int()
                levels[pos] = int(ch)
            elif ch == "~":
                levels[pos] = WATER
            elif ch == "#":
                walls.add(pos)
            elif ch != ".":
                span = Span(file, row.line, row.col + offset, row.line, row.col + offset + 1)
                diagnostics.append(Diagnostic("error", f"unknown symbol {ch!r} in a battlefield row", span, "DQ3002", CELL_HINT))
    width = max(widths, default=0)
    for number, (row, count) in enumerate(zip(rows, widths), start=1):
        if count != widths[0]:
            span = Span(file, row.line, row.col, row.line, row.col + len(row.text))
            diagnostics.append(Diagnostic(
                "error", f"row {number} has {count} hexes, row 1 has {widths[0]}: the rows are ragged", span, "DQ3001",
                "every row has the same number of cells; write . where there is no hex"))
    if not levels or len(rows) > MAX_SIDE or width > MAX_SIDE:
        span = Span(file, rows[0].line if rows else 0, rows[0].col if rows else 0)
        what = "no hex a figure can stand on" if not levels else f"{max(len(rows), width)} hexes on a side (at most {MAX_SIDE})"
        diagnostics.append(Diagnostic("error", f"the battlefield has {what}", span, "DQ3006"))
    return Terrain(width, len(rows), levels, frozenset(walls)), diagnostics


def connected(terrain: Terrain, start: Pos) -> set[Pos]:
    """Every hex a walk from ``start`` reaches through hexes that are not walls, whatever the
    levels (the loosest test: a flyer aside, every figure needs at least this)."""
    seen = {start}
    frontier = [start]
    while frontier:
        pos = frontier.pop()
        for nxt in neighbours(pos):
            if nxt in terrain.levels and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


@dataclass(frozen=True)
class PlacedText:
    """A position as written in a script (``4,2``) and where: for diagnostics."""

    pos: Pos
    line: int = 0
    col: int = 1
    end_col: int | None = None

    def span(self, file: str) -> Span:
        return Span(file, self.line, self.col, self.line, self.end_col or self.col + len(label(self.pos)))


def check_position(terrain: Terrain, where: PlacedText, what: str, file: str) -> Diagnostic | None:
    """A start hex or a glyph must be a hex a figure can stand on: DQ3004 off the map or no
    hex, DQ3005 a wall."""
    pos = where.pos
    if pos in terrain.walls:
        return Diagnostic("error", f"{what} at {label(pos)} is on a wall", where.span(file), "DQ3005",
                          "walls cannot be entered (A-12); pick a hex with a level or water")
    if pos not in terrain.levels:
        return Diagnostic("error", f"{what} at {label(pos)} is not on the battlefield", where.span(file), "DQ3004",
                          f"columns run 1-{terrain.width}, rows 1-{terrain.height}, and . is no hex")
    return None


def check_starts(terrain: Terrain, zones: Mapping[str, Sequence[PlacedText]], file: str = "<battlefield>") -> list[Diagnostic]:
    """Diagnostics for start zones: each hex on the map (DQ3004/DQ3005), and each zone joined
    by a walk to every other zone (DQ3003), else its planeswalker could never meet the enemy."""
    diagnostics: list[Diagnostic] = []
    good: dict[str, list[PlacedText]] = {}
    for seat, hexes in zones.items():
        for where in hexes:
            problem = check_position(terrain, where, f"start hex of {seat}", file)
            if problem:
                diagnostics.append(problem)
            else:
                good.setdefault(seat, []).append(where)
    seats = [s for s in zones if s in good]
    for seat in seats:
        reach: set[Pos] = set()
        for where in good[seat]:
            reach |= connected(terrain, where.pos)
        for other in seats:
            if other != seat and not any(w.pos in reach for w in good[other]):
                first = good[seat][0]
                diagnostics.append(Diagnostic(
                    "error", f"the start zone of {seat} cannot reach the start zone of {other}: walls or no-hex cells cut it off",
                    first.span(file), "DQ3003", "open a way through the walls, or move the start zone"))
                break
    return diagnostics

