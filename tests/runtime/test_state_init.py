"""The run's plain-data classes that spell out their `__init__` (docs/development.md, "Compiled
build": the one `dataclasses` generates runs interpreted even compiled, and every run makes
them) must take exactly their fields, in order, with the same defaults, a fresh container each:
saves rebuild them by field name (runtime/saves.py), `RunState.copy` through
`dataclasses.replace`."""

from dataclasses import MISSING, fields, replace

import pytest

from deckquest.engine.checks import CheckHistory
from deckquest.runtime.interpreter import RunResult
from deckquest.runtime.state import Asked, Frame, NpcState, RunState


@pytest.mark.parametrize("cls, required", [
    (Frame, {"block": 4}),
    (Asked, {"kind": "boost", "actions": (False, True), "frame": 0, "at": 2, "about": {"pc": "ann"}}),
    (NpcState, {}),
    (RunState, {"pcs": {}, "flags": {"open": False}, "counters": {"air": 3}, "npcs": {"troll": NpcState()}}),
    (RunResult, dict(outcome="victory", text="Over the bridge.", scene="bridge", steps=5, clock=30, events=None)),
    (CheckHistory, {}),
])
def test_written_out_init_takes_the_fields_in_order(cls, required):
    made, again = cls(**required), cls(**required)
    for field in fields(cls):
        if field.name in required:
            assert getattr(made, field.name) == required[field.name]
        elif field.default is not MISSING:
            assert getattr(made, field.name) == field.default, field.name
        else:
            assert getattr(made, field.name) == field.default_factory(), field.name
            assert getattr(made, field.name) is not getattr(again, field.name), field.name
    values = [getattr(made, field.name) for field in fields(cls)]
    assert cls(*values) == made  # positionally, in the fields' order
    assert cls(**{field.name: value for field, value in zip(fields(cls), values)}) == made
    assert replace(made) == made and replace(made) is not made


def test_asked_keeps_the_decision_shape():
    """`Asked` answers like `engine.game.Decision`: the party decides, with no chance, never over."""
    asked = Asked("choice", (0, 1), 0, 1, {"labels": ["Knock", "Leave"]})
    assert (asked.actor, asked.probabilities, asked.over) == ("party", None, False)
