"""The turn (G-3, G-5 to G-8), laps and Treasures (G-1, G-16, G-R1), through the step API."""

from __future__ import annotations

import pytest

from deckquest.engine.game import CHANCE, OVER

from grizzly_helpers import Game

WALLS = ["Wall of Wood"] * 6  # 0/3: a fight with one changes nothing
HANDS = [["Forest", "Forest", "Forest"], ["Forest", "Forest", "Forest"]]


def test_g3_setup_deals_three_cards_and_lays_three_squares_per_player():
    """G-3: each player draws 3 and lays 3 squares; 4 players make a loop of 12."""
    game = Game([["Forest"] * 3] * 4, ["Wall of Wood"] * 12, ["Forest"] * 10)
    assert [len(hand) for hand in game.state.hands] == [3, 3, 3, 3]
    assert game.state.loop_length == 12
    assert all(card >= 0 for card in game.state.sq_card)
    assert game.decision.kind == "main" and game.decision.actor == "p1"


def test_g5_turn_order_roll_moves_clockwise_and_flips():
    """G-5: main 1, roll a d6 (a chance decision with six equal outcomes), move, flip."""
    game = Game(HANDS, WALLS, ["Forest"] * 10)
    game.answer(("roll",))
    decision = game.decision
    assert decision.actor == CHANCE and decision.actions == (1, 2, 3, 4, 5, 6)
    assert decision.probabilities == pytest.approx((1 / 6,) * 6)
    game.answer(4)
    assert game.state.square_of(0) == 3  # the corner home, then squares 0, 1, 2, 3
    assert game.kinds("flip")[0]["card"] == "Wall of Wood"
    assert game.decision.kind == "main" and ("end",) in game.decision.actions  # main 2


def test_g5_turn_start_draws_only_with_an_empty_hand():
    """G-5: a player with no cards draws 1 at the start of the turn."""
    game = Game([[], []], WALLS, ["Forest"] * 10, hand_size=0)
    assert len(game.state.hands[0]) == 1
    assert game.kinds("cards_drawn")[0]["why"] == "empty hand"


def test_g5_cleanup_discards_down_to_three():
    """G-5: at cleanup the active player discards down to 3, choosing which."""
    game = Game(HANDS, WALLS, ["Forest"] * 10)
    game.roll(2).answer(("end",))
    assert game.decision.kind == "main" and game.decision.actor == "p2"  # 3 cards: no discard
    game = Game(HANDS, ["Divination"] + ["Wall of Wood"] * 5, ["Forest"] * 10)
    game.roll(1)
    game.answer(("cast",))  # the flipped Divination: draw 2, five cards in hand
    game.answer(("end",))
    assert game.decision.kind == "discard" and game.decision.actor == "p1"
    game.answer(game.decision.actions[0]).answer(game.decision.actions[0])
    assert len(game.state.hands[0]) == 3 and game.decision.actor == "p2"


def test_g6_one_spell_from_hand_per_turn():
    """G-6: at most one spell from hand per turn: after a cast, main 2 offers no cast."""
    game = Game([["Divination", "Divination", "Forest"], HANDS[1]], WALLS, ["Forest"] * 10)
    divination = game.id("Divination")
    assert ("cast", divination) in game.decision.actions
    game.answer(("cast", divination))
    assert ("cast", divination) not in game.decision.actions
    game.roll(1)
    assert not [a for a in game.decision.actions if a[0] == "cast"]


def test_g6_g_r4_creatures_and_instants_from_hand_only_with_reading_all():
    """G-6 lists enchantments, artifacts and sorceries; G-R4 ``all`` adds the rest."""
    hand = [["Giant Growth", "Hill Giant", "Shatter"], HANDS[1]]
    listed = Game(hand, WALLS, ["Forest"] * 10)
    assert not [a for a in listed.decision.actions if a[0] == "cast"]
    every = Game(hand, WALLS, ["Forest"] * 10, readings={"spells": "all"})
    casts = {every.state.name(a[1]) for a in every.decision.actions if a[0] == "cast"}
    assert casts == {"Giant Growth", "Hill Giant"}  # Shatter: no artifact to target


def test_g7_dash_moves_by_mana_value_and_gives_no_lap_bonus():
    """G-7: discard a card and move by its mana value; passing home gives no lap bonus."""
    game = Game([["Craw Wurm", "Forest", "Forest"], HANDS[1]], WALLS, ["Forest"] * 10)
    state = game.state
    state_pos = state.pos[0]
    game.answer(("dash", game.id("Craw Wurm")))
    assert state.pos[0] == state_pos + 6 and state.square_of(0) == 5
    assert game.kinds("dash")[0]["steps"] == 6
    assert game.id("Craw Wurm") in game.state.graveyards[0]


def test_g7_dash_passing_home_gives_no_treasure():
    """G-7: no lap bonus on a dash turn, even when the move passes home."""
    game = Game([["Craw Wurm", "Craw Wurm", "Forest"], HANDS[1]], WALLS, ["Forest"] * 10)
    wurm = game.id("Craw Wurm")
    game.roll(5).answer(("end",))  # p1 on square 4 of 6
    game.roll(1).answer(("end",))  # p2
    game.answer(("dash", wurm))  # 6 steps: passes home
    laps = game.kinds("lap_completed")
    assert laps and laps[0]["bonus"] is False
    assert game.state.treasures[0] == 0 and not game.kinds("treasure_gained")


@pytest.mark.parametrize("home, steps_to_first_lap", [("corner", 7), ("square", 6)])
def test_g16_g_r1_lap_bonus_draws_a_treasure_and_a_counter(home, steps_to_first_lap):
    """G-16 and G-R1: with 6 squares, the first lap needs 7 steps from the home corner, or 6
    when home is the square itself; the bonus is a card, a Treasure and a +1/+1 counter."""
    game = Game(HANDS, WALLS, ["Forest"] * 20, readings={"home": home})
    game.roll(steps_to_first_lap - 1).answer(("end",))
    assert game.state.treasures[0] == 0
    game.roll(1).answer(("end",))  # p2
    cards_before = len(game.state.hands[0])
    game.roll(1)
    assert game.state.treasures[0] == 1
    assert [(e["why"], e["counters"]) for e in game.kinds("bear_counter")][0] == ("lap", 1)
    assert game.kinds("cards_drawn")[0]["why"] == "lap" and len(game.state.hands[0]) >= cards_before + 1
    assert game.kinds("treasure_gained")[0] == {"event": "treasure_gained", "seat": "p1", "source": "lap",
                                                "treasures": 1, "round": 2}


def test_g1_the_game_ends_the_moment_a_player_has_enough_treasures():
    """G-1: the player wins the moment it has the Treasures to win (here 1)."""
    game = Game(HANDS, WALLS, ["Forest"] * 20, treasures_to_win=1)
    game.roll(6).answer(("end",)).roll(1).answer(("end",))
    game.answer(("roll",)).answer(1)
    assert game.decision.actor == OVER
    outcome = game.state.outcome()
    assert {k: outcome[k] for k in ("winner", "reason", "round", "turns", "treasures")} == {
        "winner": "p1", "reason": "treasures", "round": 2, "turns": 3, "treasures": {"p1": 1, "p2": 0}}
    assert outcome["record"]["sources"] == {"lap": 1, "dragon": 0}


def test_turn_limit_stops_a_game_with_its_reason():
    """A game that has not ended after the turn limit is stopped, not looped forever."""
    game = Game(HANDS, WALLS, ["Forest"] * 20, turn_limit=1)
    game.roll(1).answer(("end",)).roll(1).answer(("end",))
    assert game.state.outcome()["reason"] == "turn limit"
    assert game.state.outcome()["winner"] is None


def test_clone_is_independent():
    """Plain data: a clone plays on without touching the original."""
    game = Game(HANDS, WALLS, ["Forest"] * 20)
    copy = game.state.clone()
    game.roll(3)
    assert copy.pos[0] == 0 and game.state.pos[0] == 3
    assert copy.decision().kind == "main"
