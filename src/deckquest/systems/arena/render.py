"""The battlefield drawn as text (for the terminal and transcripts), and actions in words.

A cell is its level (``0``-``9``), ``~`` water, ``#`` a wall, blank for no hex, ``*`` a glyph
nobody stands on, or the letter of the figure standing there (the first seat's figures in
capitals, the second's in small letters, ...). Odd rows are drawn half a hex (one character)
to the right, as the battlefield's rows are read. Marks (reachable hexes, targets) replace a
cell's character.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Hashable, Mapping

from deckquest.systems.arena.battlefield import WATER
from deckquest.systems.arena.hexes import Pos, label

if TYPE_CHECKING:
    from deckquest.systems.arena.state import ArenaState

ALPHABETS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ",
             "αβγδεζηθικλμνξοπρστυφχψω", "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШ")


def letters(state: "ArenaState") -> dict[str, str]:
    """A letter for every figure, fixed for the whole game (by seat, in army order)."""
    found: dict[str, str] = {}
    for index, seat in enumerate(state.game.seats):
        alphabet = ALPHABETS[index % len(ALPHABETS)]
        ids = [f.id for f in state.figures.values() if f.seat == seat]
        for number, fid in enumerate(ids):
            found[fid] = alphabet[number % len(alphabet)]
    return found


def cell(state: "ArenaState", pos: Pos, names: Mapping[str, str]) -> str:
    fid = state.occupant.get(pos)
    if fid is not None:
        return names[fid]
    terrain = state.game.terrain
    if pos in terrain.walls:
        return "#"
    if pos not in terrain.levels:
        return " "
    if pos in state.game.glyph_hexes:
        return "*"
    level = terrain.levels[pos]
    return "~" if level == WATER else str(level)


def draw_map(state: "ArenaState", marks: Mapping[Pos, str] | None = None) -> str:
    """The battlefield with its figures, and a legend of the figures on the map and glyphs."""
    terrain = state.game.terrain
    names = letters(state)
    marks = marks or {}
    lines = ["    " + " ".join(str(c % 10) for c in range(1, terrain.width + 1))]
    for row in range(1, terrain.height + 1):
        cells = [marks.get((col, row)) or cell(state, (col, row), names) for col in range(1, terrain.width + 1)]
        lines.append(f"{row:>2}  " + (" " if row % 2 else "") + " ".join(cells).rstrip())
    for f in state.on_map():
        level = "water" if f.level == WATER else f"level {f.level}"
        lines.append(f"  {names[f.id]} {f.seat} {f.name} at {label(f.hexes[0])} ({level}), damage {f.damage}/{f.card.life}")
    for glyph in state.game.battlefield.glyphs:
        holder = state.occupant.get(glyph.pos)
        held = f", held by {state.figures[holder].seat}" if holder else ""
        lines.append(f"  * {glyph.name} at {label(glyph.pos)}{held}")
    return "\n".join(lines)


def describe(state: "ArenaState", action: Hashable) -> str:
    """An action in words, for a person choosing it."""
    if not isinstance(action, tuple):
        return str(action)
    kind = action[0]
    name = lambda fid: state.figures[fid].name if fid else "-"  # noqa: E731
    if kind == "done":
        return "done"
    if kind in ("place", "to"):
        return f"{kind} {label(action[1][0])}"
    if kind == "activate":
        return f"activate {action[1]}"
    if kind == "summon":
        return f"summon {action[1]} at {label(action[2][0])}"
    if kind == "cast":
        return f"cast {action[1]}" + (f" on {name(action[2])}" if action[2] else "")
    if kind == "move":
        return f"move {name(action[1])}"
    if kind == "attack":
        f, g = state.figures[action[1]], state.figures[action[2]]
        attack, defence = state.attack_dice(f, g)
        return f"{f.name} attacks {g.name} ({attack} dice against {defence})"
    if kind == "ability":
        return f"{name(action[1])} uses {action[2]}" + (f" on {name(action[3])}" if action[3] else "")
    if kind == "discard":
        return f"discard {action[1]}"
    return " ".join(map(str, action))
