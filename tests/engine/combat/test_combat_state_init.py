"""The battle's and the checks' plain-data classes that spell out their `__init__` (docs/development.md,
"Compiled build": the one `dataclasses` generates runs interpreted even compiled) must take
exactly their fields, in order, with the same defaults: saves rebuild them by field name
(runtime/saves.py), `Battle.copy` and `Horde.copy` through `dataclasses.replace`."""

from dataclasses import MISSING, fields, replace

import pytest

from deckquest.engine.combat.battle import BattleResult, EnemyResult, PCBattleResult
from deckquest.engine.combat.state import Attack, StackItem, Tally
from deckquest.engine.permanents import Permanent
from deckquest.systems.trpg.statements import CheckInProgress


@pytest.mark.parametrize("cls, required", [
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
])
def test_written_out_init_takes_the_fields_in_order(cls, required):
    made = cls(**required)
    for field in fields(cls):
        if field.name in required:
            assert getattr(made, field.name) == required[field.name]
        elif field.default is not MISSING:
            assert getattr(made, field.name) == field.default, field.name
        else:
            assert getattr(made, field.name) == field.default_factory(), field.name
    values = [getattr(made, field.name) for field in fields(cls)]
    assert cls(*values) == made  # positionally, in the fields' order
    assert cls(**{field.name: value for field, value in zip(fields(cls), values)}) == made
    assert replace(made) == made and replace(made) is not made


def test_a_permanents_copy_is_replace():
    """`Permanent.copy` (written out: `PC.copy` makes one per permanent at every battle)
    copies every field, so a field added to `Permanent` and not to `copy` fails here."""
    values = {"card": 3, "owner": "pc9"}  # then each field a value of its own, none its default
    values.update({f.name: (not f.default) if isinstance(f.default, bool) else 100 + index
                   for index, f in enumerate(fields(Permanent)) if f.name not in values})
    made = Permanent(**values)
    assert made.copy() == replace(made) and made.copy() is not made
    assert [getattr(made.copy(), f.name) for f in fields(Permanent)] == list(values.values())


def test_attacks_do_not_share_a_blockers_list():
    """The default blockers are a new list for each attack (as the `default_factory`)."""
    first, second = Attack("pc0", 1, "horde"), Attack("pc0", 2, "horde")
    first.blockers.append(("horde", 5))
    assert second.blockers == []
