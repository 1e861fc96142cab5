"""`deckquest tune`: the difficulty whose in-context success rate is closest to a target."""

from __future__ import annotations

import pytest
from sim_helpers import SCENARIOS, line_of

from deckquest.dsl.resolver import compile_file
from deckquest.errors import DeckquestError
from deckquest.runtime.interpreter import Program
from deckquest.engine.odds import check_probability
from deckquest.sim.tune import parse_target, tune

SINGLE = SCENARIOS / "single_check.quest"


def alice_odds(difficulty: int) -> float:
    member = Program(compile_file(SINGLE)).party[0]
    return float(check_probability(member.cards, member.critical_cards, "green", difficulty))


@pytest.mark.parametrize("known", [2, 6])
def test_finds_the_difficulty_whose_exact_odds_are_the_target(known):
    """The target is the exact odds at a known difficulty (T-4.2 to T-4.7); tune finds it."""
    result = tune(SINGLE, "Climb the cliff", alice_odds(known), runs=3000, seed=1, jobs=1, agent="first")
    assert result.best.difficulty == known
    low, high = result.best.interval
    assert low <= alice_odds(known) <= high
    assert result.original.difficulty == 4
    assert f"difficulty {known}: success" in result.text()


def test_the_script_is_left_unchanged():
    scenario = compile_file(SINGLE)
    line = str(line_of(SINGLE, "check green"))
    result = tune(scenario, line, 0.5, runs=200, seed=0, jobs=1, agent="first")  # by line number
    assert result.site.label == "Climb the cliff"
    assert scenario.scenes["cliff"].body[0].difficulty == 4


def test_unknown_check_suggests_a_label():
    with pytest.raises(DeckquestError) as caught:
        tune(SINGLE, "Climb the clif", 0.5, runs=10, jobs=1)
    assert "Climb the cliff" in caught.value.hint


@pytest.mark.parametrize("text, value", [("60%", 0.6), ("0.6", 0.6), ("60", 0.6), ("100%", 1.0)])
def test_parse_target(text, value):
    assert parse_target(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["sixty", "150%", "-5%"])
def test_bad_target(text):
    with pytest.raises(DeckquestError):
        parse_target(text)
