"""T-4.12: the situation a check is made in (``systems.trpg.statements.situation``) is kept
by the values it digests: every check of a batch asks for it. The digest kept must be the
one made afresh from the same values (the plain digest below, as ``situation`` made it for
every check before), on states of every shape the language and save.schema.json allow
(flags booleans, counters integers, NPCs' states, items), asked in any order and again."""

from __future__ import annotations

from hashlib import blake2b
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.systems.trpg.statements import situation


def plain(state) -> str:
    values = (tuple(state.flags.values()), tuple(state.counters.values()),
              tuple((n.status, n.cooperating, n.controller, n.damage) for n in state.npcs.values()),
              tuple((pc, tuple(items)) for pc, items in state.items.items()))
    return blake2b(repr(values).encode(), digest_size=8).hexdigest()


NAMES = st.sampled_from(["a", "b", "gate", "troll"])
NPC = st.builds(SimpleNamespace, status=st.sampled_from(["absent", "present", "dead", "unconscious"]),
                cooperating=st.booleans(), controller=st.none() | st.sampled_from(["alice", "bram"]),
                damage=st.integers(0, 5))
STATE = st.builds(SimpleNamespace, flags=st.dictionaries(NAMES, st.booleans()),
                  counters=st.dictionaries(NAMES, st.integers(-3, 3)), npcs=st.dictionaries(NAMES, NPC),
                  items=st.dictionaries(st.sampled_from(["alice", "bram"]), st.lists(NAMES, max_size=3)))


@settings(max_examples=200, deadline=None)
@given(st.lists(STATE, min_size=1, max_size=6))
def test_T_4_12_the_situation_kept_is_the_one_made_afresh(states):
    for state in states + states:  # each asked twice: the second answer is the one kept
        assert situation(state) == plain(state)


def test_T_4_12_a_flag_and_a_counter_of_the_same_value_are_different_situations():
    """A flag set and a counter at 1 are equal as Python values; as situations they are not,
    and neither is a flag moved to a counter's place."""
    flag = SimpleNamespace(flags={"f": True}, counters={}, npcs={}, items={})
    counter = SimpleNamespace(flags={}, counters={"c": 1}, npcs={}, items={})
    assert situation(flag) == plain(flag) and situation(counter) == plain(counter)
    assert situation(flag) != situation(counter)
