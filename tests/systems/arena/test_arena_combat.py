"""Combat dice (A-19 to A-21): the exact wound distribution, checked by hand and against Monte
Carlo of the engine's own attacks; the exact duel (a Markov chain) against whole engine games."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from arena_helpers import card, chance_first, duel_game, run_game
from hypothesis import given
from hypothesis import strategies as st

from deckquest.engine.game import draw_chance
from deckquest.systems.arena.agents import GreedyAgent
from deckquest.systems.arena.combat import Duelist, duel_odds, wound_distribution
from deckquest.systems.arena.rules import DiceFaces

F = Fraction


def test_a19_two_attack_dice_against_one_defence_die_by_hand():
    """A-19, A-20: 2 dice (sword 1/2) against 1 (shield 1/3): 0, 1, 2 wounds = 5/12, 5/12, 1/6."""
    assert wound_distribution(2, 1) == (F(5, 12), F(5, 12), F(1, 6))


def test_a20_one_die_against_none_is_the_sword_chance():
    assert wound_distribution(1, 0) == (F(1, 2), F(1, 2))
    assert wound_distribution(1, 0, DiceFaces(2, 2, 2)) == (F(2, 3), F(1, 3))


def test_a21_height_advantage_is_one_more_die():
    """A-21: the attacker standing higher rolls 4 dice instead of 3; the defender higher, 3 instead of 2."""
    assert wound_distribution(3, 2, height=1) == wound_distribution(4, 2)
    assert wound_distribution(3, 2, height=-1) == wound_distribution(3, 3)


@given(st.integers(0, 8), st.integers(0, 8), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))
def test_a19_wound_distribution_sums_to_one(attack, defence, swords, shields, blanks):
    if swords + shields + blanks == 0:
        return
    table = wound_distribution(attack, defence, DiceFaces(swords, shields, blanks))
    assert sum(table) == 1 and len(table) == attack + 1 and all(p >= 0 for p in table)


def _attack_state(attack: int, defence: int, levels: str = "0 0"):
    """p1's figure adjacent to p2's, p1 to attack: the state at p1's attack decision."""
    game = duel_game([levels], card("A", life=99, attack=attack, move=0), card("D", life=99, defence=defence),
                     starts={"p1": ((1, 1),), "p2": ((2, 1),)})
    state = game.new_state()
    rng = random.Random(1)
    state.apply(("place", ((1, 1),)), rng, [])
    state.apply(("place", ((2, 1),)), rng, [])
    chance_first(state, rng)
    state.apply(("activate", "A"), rng, [])
    state.apply(("done",), rng, [])  # no move
    assert state.decision().kind == "attack"
    return state


@pytest.mark.slow
@pytest.mark.parametrize("attack,defence,levels,height", [(4, 3, "0 0", 0), (3, 2, "1 0", 1), (2, 2, "0 1", -1)])
def test_a19_engine_attacks_match_the_exact_wound_table(attack, defence, levels, height):
    """A-19, A-21: 20,000 attacks through the engine's step API (attack action, chance decision
    drawn from the Random, wound events) agree with the exact table within 4 standard errors."""
    state = _attack_state(attack, defence, levels)
    rng = random.Random(15)
    samples = 20_000
    counts: dict[int, int] = {}
    for _ in range(samples):
        trial = state.clone()
        events: list[dict] = []
        trial.apply(("attack", "p1.A", "p2.D"), rng, events)
        trial.apply(draw_chance(trial.decision(), rng), rng, events)
        wounds = sum(e["damage"] for e in events if e["event"] == "wound")
        counts[wounds] = counts.get(wounds, 0) + 1
    for wounds, p in enumerate(wound_distribution(attack, defence, height=height)):
        observed = counts.get(wounds, 0) / samples
        error = (float(p) * (1 - float(p)) / samples) ** 0.5
        assert abs(observed - float(p)) <= 4 * error + 1e-9, (wounds, observed, float(p))


def test_a21_engine_rolls_the_extra_die_for_the_higher_figure():
    events: list[dict] = []
    state = _attack_state(3, 2, "1 0")
    state.apply(("attack", "p1.A", "p2.D"), random.Random(1), events)
    assert (events[-1]["attack dice"], events[-1]["defence dice"]) == (4, 2)
    assert state.decision().kind == "attack roll" and len(state.decision().actions) == 5 * 3


def test_duel_odds_by_hand():
    """Each side kills with one die (1/2) and goes first or second: with 2 player turns the first
    wins 1/2, the second 1/4, the turn limit leaves 1/4; with no limit in sight, 2/3 against 1/3."""
    one = Duelist(life=1, attack=1, defence=0)
    assert duel_odds(one, one, 2) == type(duel_odds(one, one, 2))(F(1, 2), F(1, 4), F(1, 4))
    long = duel_odds(one, one, 60)
    assert abs(long.first - F(2, 3)) < F(1, 10**15) and abs(long.second - F(1, 3)) < F(1, 10**15)


GIDEON = card("Gideon", life=6, move=5, range=1, attack=4, defence=2, size=5)
LILIANA = card("Liliana", life=5, move=5, range=4, attack=3, defence=3, size=5)


def exact_duel(first, second, rounds: int = 30) -> Fraction:
    """P(p1 wins) when a d20 roll-off (1/2 each) decides who attacks first (A-3)."""
    a = Duelist(first.life, first.attack, first.defence)
    b = Duelist(second.life, second.attack, second.defence)
    return (duel_odds(a, b, 2 * rounds).first + duel_odds(b, a, 2 * rounds).second) / 2


@pytest.mark.slow
def test_a24_duel_win_rate_matches_the_markov_chain():
    """A-19, A-24: Gideon and Liliana placed adjacent at the same level, played by the greedy
    agent (which stays engaged and attacks), 4,000 whole engine games: p1's win rate is within
    4 standard errors of the exact Markov chain over wounds."""
    game = duel_game(["0 0 0"], GIDEON, LILIANA, starts={"p1": ((1, 1),), "p2": ((2, 1),)})
    games = 4_000
    wins = sum(run_game(game, {"p1": GreedyAgent(), "p2": GreedyAgent()}, seed)[0].outcome()["winner"] == "p1"
               for seed in range(games))
    exact = float(exact_duel(GIDEON, LILIANA))
    error = (exact * (1 - exact) / games) ** 0.5
    assert abs(wins / games - exact) <= 4 * error, (wins / games, exact)


def test_a3_duel_between_equal_figures_is_even():
    """A-3: the d20 roll-off makes a duel of two equal figures exactly even, draws aside."""
    assert exact_duel(GIDEON, GIDEON) == F(1, 2) * (1 - duel_odds(*[Duelist(6, 4, 2)] * 2, 60).draw)
