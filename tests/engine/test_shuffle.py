"""The engine's shuffle (T-1.2, T-2.8, T-4.8) deals what ``random.Random.shuffle`` deals.

``deckquest.engine.pc.shuffle`` is written out for speed; every golden transcript depends
on it making the very permutation the standard library makes from the same generator
state, and leaving the generator in the same state.
"""

import random

import pytest

from deckquest.engine.pc import shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 6, 7, 60, 100])
def test_shuffle_matches_random_shuffle_T_1_2(size):
    ours, theirs = random.Random(size), random.Random(size)
    for _ in range(50):
        mine, library = list(range(size)), list(range(size))
        shuffle(mine, ours)
        theirs.shuffle(library)
        assert mine == library
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 6])
def test_put_on_bottom_draws_what_shuffle_draws_T_4_8(size):
    """Two revealed cards go to the bottom by a written-out two-card Fisher-Yates walk."""
    from deckquest.engine.pc import PC, put_on_bottom

    ours, theirs = random.Random(size), random.Random(size)
    for _ in range(50):
        pc = PC(id="a", name="A", cards=(), library=[100, 101])
        cards = list(range(size))
        put_on_bottom(pc, cards, ours)
        expected = list(range(size))
        theirs.shuffle(expected)
        assert pc.library == [100, 101] + expected
        assert cards == list(range(size))  # the caller's list is not reordered
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 60, 1000])
def test_randbelow_draws_what_randrange_and_choice_draw(n):
    """The battle engine's random picks (T-6.8: the horde's modes and targets, the order in
    which a horde attacker deals damage to its blockers) draw with ``randbelow``: the number
    ``randrange(n)`` and ``choice`` of n items give from the same generator state, leaving
    it in the same state."""
    from deckquest.engine.pc import randbelow

    ours, theirs, chosen = random.Random(n), random.Random(n), random.Random(n)
    items = list(range(n))
    for _ in range(200):
        pick = randbelow(ours, n)
        assert pick == theirs.randrange(n) == chosen.choice(items)
    assert ours.getstate() == theirs.getstate() == chosen.getstate()


def test_shuffle_orders_any_items_as_random_shuffle_does():
    """T-6.8: a horde attacker's blockers (tuples, not card ids) are put in random order by
    the same walk as a library."""
    ours, theirs = random.Random(5), random.Random(5)
    for size in range(8):
        mine = [("horde", card, card % 3) for card in range(size)]
        expected = list(mine)
        shuffle(mine, ours)
        theirs.shuffle(expected)
        assert mine == expected
    assert ours.getstate() == theirs.getstate()
