"""Agents: first, random, greedy, seat policies (which take precedence) and the terminal."""

from __future__ import annotations

import random

import pytest

from deckquest.engine.game import StopRun, play
from deckquest.systems.grizzly import GrizzlyConfig, GrizzlyState, PolicyRule, Seat
from deckquest.systems.grizzly.agents import (AGENTS, FirstAgent, GreedyAgent, HumanAgent, PolicyAgent,
                                              RandomAgent, render_board)

from grizzly_helpers import FORESTS, WALL, card, meet, two

RNG = random.Random(0)


def test_greedy_dashes_a_big_card_that_does_not_pass_home():
    """G-7: greedy dashes a mana value 5+ card when the dash costs no lap bonus."""
    game = two([WALL] * 6, hands=(["Craw Wurm", "Forest", "Forest"], FORESTS))
    action = GreedyAgent().choose(game.state, game.decision, RNG)
    assert action == ("dash", game.id("Craw Wurm"))
    game = two([WALL] * 6, hands=(["Hill Giant", "Forest", "Forest"], FORESTS))
    assert GreedyAgent().choose(game.state, game.decision, RNG) == ("roll",)


def test_greedy_aims_a_removal_at_the_flipped_creature():
    """G-13: Ravenous Chupacabra's enters ability: greedy destroys the Chupacabra itself (a
    kill outside combat) rather than the other bears."""
    game = two(["Ravenous Chupacabra"] + [WALL] * 5)
    game.roll(1)
    assert GreedyAgent().choose(game.state, game.decision, RNG) == ("square", 0)


def test_greedy_offers_co_op_against_a_face_up_creature_it_cannot_beat_alone():
    """G-15: Horned Turtle (1/4) stands off one 2/2 but dies to two: greedy offers co-op, and
    greedy as the partner accepts a fight the two win."""
    game = two([WALL, WALL, WALL, "Horned Turtle", WALL, WALL])
    game.roll(1).answer(("end",))
    game.roll(1).answer(("end",))  # p2 stands off the Turtle, which stays face up beside it
    game.roll(3)
    assert GreedyAgent().choose(game.state, game.decision, RNG) == ("offer", "p2")
    game.answer(("offer", "p2"))
    assert GreedyAgent().choose(game.state, game.decision, RNG) == ("accept",)


def test_seat_policy_takes_precedence_over_the_agent():
    """A seat's ordered rules answer first: ``dash if hand has mana value 4 or more``."""
    game = two([WALL] * 6, hands=(["Hill Giant", "Forest", "Forest"], FORESTS))
    policy = PolicyAgent([PolicyRule("dash", 4, "dash if hand has mana value 4 or more")], GreedyAgent())
    assert policy.choose(game.state, game.decision, RNG) == ("dash", game.id("Hill Giant"))
    assert GreedyAgent().choose(game.state, game.decision, RNG) == ("roll",)


def test_policy_refuse_co_op_and_fall_through():
    """``refuse co-op`` gives the cheapest card; a rule that does not apply falls through."""
    game = meet("Hill Giant")
    game.answer(("offer", "p2"))
    refuse = PolicyAgent([PolicyRule("dash", 5), PolicyRule("refuse co-op")], FirstAgent())
    assert refuse.choose(game.state, game.decision, RNG) == ("refuse", game.id("Forest"))
    accept = PolicyAgent([PolicyRule("dash", 5)], FirstAgent())
    assert accept.choose(game.state, game.decision, RNG) == ("accept",)


def test_policy_offers_co_op_only_above_the_face_up_power():
    """``offer co-op if the flipped power is 3 or more``: the card is face down before the
    flip (G-8), so the rule applies only to a face-up creature of that power (G-R2)."""
    game = meet("Hill Giant")
    rule = PolicyAgent([PolicyRule("offer co-op", 3)], FirstAgent())
    assert rule.choose(game.state, game.decision, RNG) == ("alone",)  # face down: falls through
    always = PolicyAgent([PolicyRule("offer co-op")], FirstAgent())
    assert always.choose(game.state, game.decision, RNG) == ("offer", "p2")


def test_human_agent_draws_the_loop_and_reads_a_number():
    """The terminal: the loop with homes and bears, each bear's counters and Treasures, the
    hand, numbered choices; a bad answer is asked again."""
    game = two(["Craw Wurm"] + [WALL] * 5, hands=(["Hill Giant", "Forest", "Forest"], FORESTS))
    game.roll(1).answer(("end",))
    said: list[str] = []
    answers = iter(["9", "x", "²", "9" * 5000, "2"])  # ², 9…9: no int() (issue 28, item 2)
    human = HumanAgent(ask=lambda prompt: next(answers), say=said.append)
    action = human.choose(game.state, game.decision, RNG)
    text = "\n".join(said)
    assert action == game.decision.actions[1]
    assert "|p1| 0[Craw Wurm 6/4]" in text and "|p2| 3[?]" in text
    assert "p1       home" in text and "Treasures 0" in text
    assert "Your hand: Forest (mana value 0), Forest (mana value 0), Forest (mana value 0)" in text
    assert "1. roll the die" in text and "Please type a number from 1 to" in text
    leaving = HumanAgent(ask=lambda prompt: "quit", say=said.append)
    with pytest.raises(StopRun):
        leaving.choose(game.state, game.decision, RNG)


def test_render_board_shows_counters_and_gear():
    game = two(["Scryb Sprites"] + [WALL] * 5, hands=(["Bonesplitter", "Forest", "Forest"], FORESTS))
    game.answer(("cast", game.id("Bonesplitter"))).roll(1)
    text = render_board(game.state, 0)
    assert "square 0" in text and "bears 5/3" in text and "counters 1" in text and "(Bonesplitter)" in text


def test_every_agent_plays_whole_games_to_an_end():
    """first, random and greedy finish 4-seat games with the ☆ options on (G-1)."""
    names = ["Craw Wurm", "Hill Giant", "Shivan Dragon", "Typhoid Rats", "Lightning Bolt", "Pyroclasm",
             "Divination", "Rancor", "Bonesplitter", "Glorious Anthem", "Frost Lynx", "Forest"]
    config = GrizzlyConfig(seats=tuple(Seat(s, s) for s in "abcd"), library=tuple(card(n) for n in names * 5),
                           options=frozenset({"dungeon", "dragon bounty"}), readings={"spells": "all"})
    for agent in (FirstAgent, RandomAgent, GreedyAgent):
        for seed in range(3):
            rng = random.Random(seed)
            state = GrizzlyState.new(config, rng)
            play(state, {s: agent() for s in "abcd"}, rng)
            assert state.outcome() is not None
    assert set(AGENTS) == {"first", "random", "greedy", "human"}
