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
