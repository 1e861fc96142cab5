"""The plain-data classes that spell out their `__init__` (docs/development.md, "Compiled
build": the one `dataclasses` generates runs interpreted even compiled, and runs, checks and
battles make these by the thousand) must take exactly their fields, in order, with the same
defaults, a fresh container each: saves rebuild them by field name (runtime/saves.py), copies
go through `dataclasses.replace` (`RunState.copy`, `Battle.copy`, `Horde.copy`). One test for
the engine's, the system's and the runtime's, here at the top of the layers that define them."""

from dataclasses import MISSING, fields, replace

import pytest

from deckquest.engine.checks import CheckHistory, PendingCheck
from deckquest.engine.combat.battle import BattleResult, EnemyResult, PCBattleResult
from deckquest.engine.combat.state import Attack, StackItem, Tally
from deckquest.engine.pc import PC
from deckquest.engine.permanents import Permanent
from deckquest.runtime.interpreter import RunResult
from deckquest.runtime.state import Asked, Frame, NpcState, RunState
from deckquest.systems.trpg.statements import CheckInProgress


@pytest.mark.parametrize("cls, required", [
    (PC, {"id": "ann", "name": "Ann", "cards": ()}),
    (PendingCheck, {"pc": "ann", "rules": "2019", "kind": "green", "difficulty": 3}),
    (CheckHistory, {}),
    (Permanent, {"card": 3, "owner": "pc0"}),
    (Attack, {"owner": "pc0", "card": 3, "defender": "horde"}),
    (StackItem, {"controller": "pc0", "card": 3}),
    (Tally, {}),
    (PCBattleResult, dict(id="pc0", life_before=20, life_after=12, status="ok", life_lost=9, life_gained=1,
                          damage_dealt=7, damage_taken=9, cards_milled=2, spells_cast=3)),
    (EnemyResult, {"id": "krenko", "kind": "player", "defeated": True}),
    (BattleResult, dict(outcome="victory", turns=6, survivor_turns=3, horde_turns=3, preparation_turns=1,
                        pcs=(), horde_library_left=40, horde_creatures_left=0, horde_cut=0)),
    (CheckInProgress, {"mode": "one", "difficulty": 3}),
    (Frame, {"block": 4}),
    (Asked, {"kind": "boost", "actions": (False, True), "frame": 0, "at": 2, "about": {"pc": "ann"}}),
    (NpcState, {}),
    (RunState, {"pcs": {}, "flags": {"open": False}, "counters": {"air": 3}, "npcs": {"troll": NpcState()}}),
    (RunResult, dict(outcome="victory", text="Over the bridge.", scene="bridge", steps=5, clock=30, events=None)),
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
