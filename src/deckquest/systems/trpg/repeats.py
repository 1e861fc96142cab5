"""T-4.12 ahead of time: a loop of scenes that can only bring a check back the very same.

A PC cannot make the very same check twice (T-4.12); at run time a check is no longer the
same once the situation changed: a flag, a counter, an NPC or the items given
(``deckquest.systems.trpg.statements.situation``, docs/checks.md). Leaving a scene and
entering it again changes none of them. So when a scene with a check leads back to itself
through scenes none of whose statements (nor any trigger that may fire on the way) can
change the situation, every later visit asks for the very same check: T-4.12 refuses it,
the check fails unrevealed, and the loop goes round until the run's step limit. ``check``
warns about such a loop (DQ5001) at the check.
"""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence

from deckquest.dsl import ast
from deckquest.systems.trpg import nodes

#: The statements that may change the situation of a check (T-4.12).
CHANGES = (ast.SetFlag, ast.ClearFlag, ast.CounterAssign, nodes.Recruit, nodes.Encounter, nodes.Fight,
           nodes.Battle, nodes.Give, nodes.TakeControl)


def identical_check_loops(scenes: Mapping[str, ast.Scene], triggers: Sequence[ast.Trigger],
                          gotos: Mapping[str | None, set[str]]) -> list[tuple[nodes.Check | nodes.Recruit, list[str]]]:
    """(the first check of the scene, the loop of scene ids from it back to it) for each
    scene with a check on such a loop. ``scenes`` maps scene ids to resolved scenes,
    ``triggers`` are the scenario's, ``gotos`` the scenes each scene leads to."""
    if any(_changes(t.body) for t in triggers if t.event.kind != "after_minutes"):
        return []  # a trigger that may fire anywhere can change the situation on the way
    quiet = {sid for sid, scene in scenes.items()
             if not _changes(scene.body) and not any(_changes(t.body) for t in scene.triggers)}
    found = []
    for sid, scene in scenes.items():
        check = _first_check(scene.body) if sid in quiet else None
        if check is None:
            continue
        loop = _loop(sid, quiet, gotos)
        if loop is not None:
            found.append((check, loop))
    return found


def _loop(start: str, quiet: set[str], gotos: Mapping[str | None, set[str]]) -> list[str] | None:
    """The shortest way from ``start`` back to it through quiet scenes, or None."""
    before: dict[str, str] = {}
    todo = [start]
    while todo:
        following = []
        for scene in todo:
            for target in sorted(gotos.get(scene, ())):
                if target == start:
                    path = [scene]
                    while path[-1] != start:
                        path.append(before[path[-1]])
                    return [start, *reversed(path[:-1]), start] if scene != start else [start, start]
                if target in quiet and target not in before:
                    before[target] = scene
                    following.append(target)
        todo = following
    return None


def _statements(statements: Sequence[ast.Statement]) -> Iterator[ast.Statement]:
    for stmt in statements:
        yield stmt
        for block in ast.nested_blocks(stmt):
            yield from _statements(block)


def _changes(statements: Sequence[ast.Statement]) -> bool:
    return any(isinstance(stmt, CHANGES) for stmt in _statements(statements))


def _first_check(statements: Sequence[ast.Statement]) -> nodes.Check | nodes.Recruit | None:
    return next((stmt for stmt in _statements(statements) if isinstance(stmt, (nodes.Check, nodes.Recruit))), None)
