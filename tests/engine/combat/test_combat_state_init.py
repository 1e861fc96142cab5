"""`Permanent.copy` and the attacks' blocker lists, written out for speed like the plain-data
classes' `__init__` (whose fields tests/runtime/test_written_out_inits.py checks)."""

from dataclasses import fields, replace

from deckquest.engine.combat.state import Attack
from deckquest.engine.permanents import Permanent


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
