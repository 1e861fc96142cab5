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


def test_a_target_above_the_easiest_check_cannot_be_reached():
    """T-4.2: even difficulty 0 can fail (no card of the kind among the two revealed), so a
    target above difficulty 0's odds is out of reach and tune says so (issue 18, item 10)."""
    target = (1 + alice_odds(0)) / 2
    result = tune(SINGLE, "Climb the cliff", target, runs=2000, seed=1, jobs=1, agent="first")
    assert result.best.difficulty == 0 and not result.reached
    assert "cannot be reached: even at difficulty 0" in result.text()


def test_a_target_below_the_critical_odds_cannot_be_reached():
    """T-4.7: a critical card succeeds at any difficulty, so no difficulty brings the rate to 0%."""
    result = tune(SINGLE, "Climb the cliff", 0.0, runs=2000, seed=1, jobs=1, agent="first")
    assert result.hardest.rate > 0
    assert "cannot be reached: even at difficulty 20" in result.text()


def test_a_target_between_two_difficulties_names_both():
    """The rate falls in steps: a target inside a step is reached by neither neighbour."""
    result = tune(SINGLE, "Climb the cliff", 0.8, runs=2000, seed=1, jobs=1, agent="first")
    assert not result.reached  # with this seed no interval holds 80%
    text = result.text()
    assert "no difficulty gives 80%" in text
    rates = {t.difficulty: t.rate for t in result.trials}
    assert rates[result.best.difficulty - 1] > 0.8 > rates[result.best.difficulty + 1]


def test_a_reached_target_has_no_reason():
    result = tune(SINGLE, "Climb the cliff", alice_odds(5), runs=3000, seed=1, jobs=1, agent="first")
    assert result.reached and result.unreachable() is None
