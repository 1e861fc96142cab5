"""Agents (random, greedy, human at the terminal) and golden traces of action rights."""

from __future__ import annotations

import random

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from deckquest.engine.game import OVER, play
from deckquest.systems.isekai.agents import GreedyAgent, HumanAgent, RandomAgent
from deckquest.systems.isekai.duel import new_duel
from deckquest.systems.isekai.transcript import render_duel
from isekai_helpers import KNIGHTS_DECK, act, bundled, duel, summon


class TraceSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def trace_snapshot(snapshot):
    return snapshot.use_extension(TraceSnapshot)


def traced(ember, bastion, seed: int) -> str:
    cards, duelists = bundled()
    state = new_duel(duelists, cards)
    events: list = []
    play(state, {"kai": ember, "mira": bastion}, random.Random(seed), events)
    return render_duel(events)


@pytest.mark.parametrize("seed", [1, 2])
def test_golden_trace_of_action_rights_greedy_against_greedy(seed, trace_snapshot):
    """I-5, I-6, I-13, I-17: who holds each right and what it did, frozen."""
    assert traced(GreedyAgent(), GreedyAgent(), seed) == trace_snapshot


def test_golden_trace_of_action_rights_random_against_greedy(trace_snapshot):
    assert traced(RandomAgent(), GreedyAgent(), 3) == trace_snapshot


def test_greedy_blocks_with_a_unit_that_survives_and_defends_otherwise():
    state, rng = duel(KNIGHTS_DECK, KNIGHTS_DECK)
    knight, theirs = summon(state, rng, "knight", "knight")
    act(state, rng, ("pass",), ("attack", knight, ("player", "b")))
    assert GreedyAgent().choose(state, state.decision(), rng) == ("block", theirs)


def test_human_sees_both_fields_hand_mana_and_each_action_s_cost_and_speed():
    state, rng = duel(KNIGHTS_DECK, KNIGHTS_DECK)
    summon(state, rng, "knight", "knight")
    shown: list[str] = []
    answers = iter(["x", "99", "²", "9" * 5000, "1"])  # ², 9…9: no int() (issue 28, item 2)
    human = HumanAgent(input=lambda prompt: next(answers), output=shown.append)
    action = human.choose(state, state.decision(), rng)
    text = "\n".join(shown)
    assert action == state.decision().actions[0]
    assert "a: main deck" in text and "b: main deck" in text and "field: #" in text
    assert "your hand: Road Knight (unit, cost 2, speed 2, near, 2/3)" in text
    assert "your mana cards:" in text
    assert "cost 2 (0 mana, 2 from the skill deck), speed 2" in text
    assert text.count("please answer with a number") == 4


def test_human_at_end_of_input_passes_and_the_duel_ends():
    state, rng = duel(KNIGHTS_DECK, KNIGHTS_DECK)

    def closed(prompt: str) -> str:
        raise EOFError

    human = HumanAgent(input=closed, output=lambda text: None)
    play(state, {"a": human, "b": human}, rng)
    assert state.decision().actor == OVER and state.outcome()["reason"] == "stall"
