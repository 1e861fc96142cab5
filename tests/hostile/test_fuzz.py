"""A few seconds of the seeded mutation fuzzer (tests/hostile/fuzzing.py) over the scripts and
saves of every game (compiled and played; resumed and played), deck lists and pack manifests:
every input succeeds or raises DeckquestError (issues 12 and 28). `benchmarks/fuzz.py
--minutes N` runs the same fuzzer at length (docs/hostile.md)."""

from __future__ import annotations

import pytest

from fuzzing import KINDS, Fuzzer

INPUTS = 30  # per target: a count, not a time, so CI tries the same inputs on any machine
# Short inputs keep each one fast: a long deck list of unknown names costs seconds today
# (issue 12, item 4), and the fuzzer only looks at the clock between inputs.
MAX_INPUT = 3_000


@pytest.fixture(scope="module")
def fuzzer(tmp_path_factory):
    return Fuzzer(tmp_path_factory.mktemp("fuzz"), seed=12, max_input=MAX_INPUT)


def test_every_game_has_its_scripts_and_its_saves_among_the_seeds(fuzzer):
    """Issue 28, item 11: the fuzzer starts from every bundled scenario of every game, and from
    real saves of every game that can be saved (an arena game cannot yet)."""
    assert set(KINDS) <= set(fuzzer.targets)
    assert all(fuzzer.seeds[kind] for kind in KINDS)
    assert {kind for kind in KINDS if kind.startswith("save:")} == {"save:trpg", "save:grizzly", "save:isekai"}


@pytest.mark.parametrize("target", KINDS)
def test_mutated_inputs_are_accepted_or_refused_never_crash(fuzzer, target):
    fuzzer.rng.seed(f"12 {target}")  # the fuzzer is shared: each target's inputs, whatever ran before
    figures = fuzzer.run(targets=[target], inputs=INPUTS)
    assert figures.tried[target] == INPUTS, figures.tried
    crashes = "\n\n".join(f"{c.signature}\n{c.text[:500]!r}\n{c.trace[-1500:]}" for c in figures.crashes[:3])
    assert not figures.crashes, f"{len(figures.crashes)} crashes:\n{crashes}"
