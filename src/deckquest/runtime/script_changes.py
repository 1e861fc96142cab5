"""What changed in a script since a save was made, and whether it moves the saved position.

A GM fixes a word of narration between sessions; the save must still resume. A save therefore
keeps an outline of the script beside its sha256 (docs/saves.md): a short hash of each line,
the signature of its triggers, and for each block on the saved stack its place (the scene or
trigger it belongs to and the statement indexes down to it) and its shape (its statements
without their texts, labels and places). When the script's text differs, the outline says
whether the position still means what it meant:

* every block on the stack is found at its place with the same shape (its number may have
  moved: the frame is renumbered);
* the triggers are the same ones in the same order (`after N minutes` triggers already fired
  are kept by number), unless none has fired;
* every check made in this scene (T-4.12) is on a line that did not change (it is moved with
  its line);
* no flag, counter or NPC of the save is gone (new ones start as declared).

Anything else could change what the saved position means: the resume is refused with the
reason. Otherwise the changed lines are named, and the run goes on.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any, Sequence

from deckquest.dsl import ast
from deckquest.errors import Span
from deckquest.runtime.state import Frame

if TYPE_CHECKING:  # the interpreter's saves read this module
    from deckquest.runtime.interpreter import Program

LINE_HASH_CHARS = 8


@dataclass
class Changes:
    """The outcome of comparing a save's outline with the script as it is now."""

    changed_lines: str = ""  # "lines 61, 75-76 changed" (empty when the text is the same)
    refusals: list[str] = field(default_factory=list)  # why the saved position no longer fits
    block_numbers: dict[int, int] = field(default_factory=dict)  # saved block number -> now
    line_numbers: dict[int, int] = field(default_factory=dict)  # saved line -> now, unchanged lines


def line_hashes(text: str) -> list[str]:
    """A short hash of each line (newlines normalised, trailing blanks ignored)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [hashlib.sha256(line.rstrip().encode("utf-8")).hexdigest()[:LINE_HASH_CHARS] for line in lines]


def outline(program: Program, text: str, frames: Sequence[Frame]) -> dict[str, Any]:
    """What a save keeps of the script to judge a later edit of it."""
    places = block_places(program)
    return {
        "lines": line_hashes(text),
        "triggers": trigger_signature(program),
        "blocks": [{"place": places[frame.block], "shape": shape_of(program.blocks[frame.block])}
                   for frame in frames],
    }


def compare(saved: dict[str, Any], program: Program, text: str, data_state: dict[str, Any], saved_path: str) -> Changes:
    """Compare a save's outline (``saved``) and state with the script as it is now
    (``saved_path``: the script's path when saved, which names its checks made)."""
    changes = Changes()
    old, new = saved["lines"], line_hashes(text)
    changes.changed_lines, changes.line_numbers = _line_diff(old, new)
    places = {place: number for number, place in block_places(program).items()}
    for number, (frame, block) in enumerate(zip(data_state["frames"], saved["blocks"])):
        now = places.get(block["place"])
        if now is None:
            changes.refusals.append(f"the block the save is in ({_where(block['place'])}) is gone")
        elif shape_of(program.blocks[now]) != block["shape"]:
            changes.refusals.append(f"the statements of the block the save is in ({_where(block['place'])}) "
                                    "changed, not only their text")
        else:
            changes.block_numbers[frame["block"]] = now
    if data_state["fired"] and trigger_signature(program) != saved["triggers"]:
        changes.refusals.append("triggers were added, removed or changed, and the save has fired "
                                "`after N minutes` triggers")
    for _, (file, line, _), *_rest in data_state["checks_made"]:  # [pc, [file, line, col], situation, kind, difficulty]
        if file == saved_path and line not in changes.line_numbers:
            changes.refusals.append(f"line {line}, a check made in this scene, changed")
    scenario = program.scenario
    for kind, had, declared in (("flag", data_state["flags"], scenario.flags),
                           ("counter", data_state["counters"], scenario.counters),
                           ("NPC", data_state["npcs"], scenario.npcs)):
        gone = sorted(set(had) - set(declared))
        if gone:
            changes.refusals.append(f"the {kind}{'s' if len(gone) > 1 else ''} "
                                    f"{', '.join(f'`{name}`' for name in gone)} of the save "
                                    f"{'are' if len(gone) > 1 else 'is'} gone")
    if set(scenario.npcs) - set(data_state["npcs"]):
        changes.refusals.append("NPCs were added (a save holds every NPC's state)")
    return changes


def block_places(program: Program) -> dict[int, str]:
    """Each block's place, which an edit elsewhere does not move: `scene cellar`, `scene
    cellar/3.0` (the first block nested in its 4th statement), `trigger cloister:0`."""
    places: dict[int, str] = {}
    per_scene: dict[str | None, int] = {}
    for trigger, scene, block in program.triggers:
        count = per_scene.get(scene, 0)
        per_scene[scene] = count + 1
        _place(program, program.blocks[block], f"trigger {scene or ''}:{count}", places)
    for scene, block in program.scene_blocks.items():
        _place(program, program.blocks[block], f"scene {scene}", places)
    return places


def _place(program: Program, statements: list[ast.Statement], place: str, places: dict[int, str]) -> None:
    places[program.block_ids[id(statements)]] = place
    for index, stmt in enumerate(statements):
        for which, block in enumerate(ast.nested_blocks(stmt)):
            _place(program, block, f"{place}/{index}.{which}", places)


def trigger_signature(program: Program) -> str:
    """The triggers in order, by scene and event: what numbers the fired ones."""
    parts = [f"{scene}|{shape_of(trigger.event)}" for trigger, scene, _ in program.triggers]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:16]


def shape_of(value: object) -> str:
    """A digest of statements (or any AST value) without their texts, labels and places: an
    edit of narration leaves it as it was, a changed difficulty or target does not."""
    return hashlib.sha256(repr(_shape(value)).encode("utf-8")).hexdigest()[:16]


def _shape(value: object) -> object:
    if isinstance(value, ast.Text):
        return "text"
    if isinstance(value, Span):
        return None
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,
                tuple((f.name, _shape(getattr(value, f.name))) for f in fields(value)
                      if not f.name.endswith("span") and f.name not in ("label", "outcomes")))
    if isinstance(value, (list, tuple)):
        return tuple(_shape(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((str(key), _shape(item)) for key, item in value.items()))
    return value


def _line_diff(old: list[str], new: list[str]) -> tuple[str, dict[int, int]]:
    """Which lines (numbered as now) changed, and where each unchanged saved line is now."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    moved: dict[int, int] = {}
    ranges = []
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            moved.update({old_start + k + 1: new_start + k + 1 for k in range(old_end - old_start)})
        elif tag == "delete":
            ranges.append(f"{_span(old_start + 1, old_end)} removed (as saved)")
        else:
            ranges.append(f"{_span(new_start + 1, new_end)} {'added' if tag == 'insert' else 'changed'}")
    if not ranges:
        return "", moved
    shown = ranges[:6] + ([f"{len(ranges) - 6} more"] if len(ranges) > 6 else [])
    return "; ".join(shown), moved


def _span(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}-{last}"


def _where(place: str) -> str:
    kind, _, rest = place.partition(" ")
    name, _, path = rest.partition("/")
    if kind == "trigger":
        scene, _, number = name.partition(":")
        owner = f"trigger {int(number) + 1} of " + (f"the scene `{scene}`" if scene else "the scenario")
    else:
        owner = f"the scene `{name}`"
    return owner + (", inside a block" if path else "")
