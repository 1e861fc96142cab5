"""Combat with the flipped card (G-9 to G-15) and co-op, through the step API.

Two seats and a loop of 6 squares: p1's home corner is before square 0, p2's before square 3.
"""

from __future__ import annotations

from grizzly_helpers import FORESTS, WALL, meet, two


def test_g10_win_draws_a_card_gets_a_counter_and_places_a_card_from_hand():
    """G-10: the flipped creature dies and the bears survive: draw 1, a +1/+1 counter, then a
    card from hand face down on the square."""
    game = two(["Scryb Sprites"] + [WALL] * 5)
    game.roll(1)
    combat = game.kinds("bears_fight")[0]
    assert combat["result"] == "win" and combat["card"] == "Scryb Sprites"
    assert game.state.counters[0] == 1 and len(game.state.hands[0]) == 4
    assert game.decision.kind == "place" and game.decision.actor == "p1"
    game.answer(("place", game.id("Forest")))
    assert game.state.sq_card[0] == game.id("Forest") and not game.state.sq_up[0]
    assert game.id("Scryb Sprites") in game.state.graveyards[0]


def test_g25_nothing_in_hand_to_place_takes_the_library_top():
    """G-25: a winner with no card in hand places the library's top card instead (a dash
    emptied the hand and a dash kill draws nothing, G-7)."""
    game = two([WALL, WALL, "Scryb Sprites", WALL, WALL, WALL], hands=(["Centaur Courser"], ["Forest"]),
                rest=["Divination"] + ["Forest"] * 20)
    game.answer(("dash", game.id("Centaur Courser")))
    assert game.kinds("bears_fight")[0]["result"] == "win" and game.state.hands[0] == []
    assert game.kinds("place")[-1]["source"] == "library"
    assert game.state.sq_card[2] == game.id("Divination")
    assert game.decision.kind == "main"


def test_g11_loss_loses_counters_auras_and_equipment_and_sends_the_bear_home():
    """G-11: the bears die: counters go, auras to the graveyard, equipment comes off, home."""
    game = two(["Scryb Sprites", "Gigantosaurus"] + [WALL] * 4, hands=(["Rancor", "Bonesplitter", "Forest"], FORESTS))
    rancor, splitter = game.id("Rancor"), game.id("Bonesplitter")
    game.answer(("cast", rancor)).answer(("attach", 0))
    game.roll(1).answer(("place", game.id("Forest"))).answer(("end",))  # beat the Sprites: counter 1
    game.roll(1).answer(("end",))  # p2
    game.answer(("cast", splitter))
    assert game.state.bear_stats(0)[:2] == (2 + 1 + 2 + 2, 2 + 1)  # counter, Rancor +2/+0, Bonesplitter +2/+0
    game.roll(1)  # Gigantosaurus 10/10
    assert game.kinds("bears_fight")[-1]["result"] == "lose"
    state = game.state
    assert state.counters[0] == 0 and state.auras[0] == [] and state.pos[0] == 0
    assert rancor in state.graveyards[0]
    assert state.equipped[0] == [] and state.perms[0] == [splitter]
    assert ("equip", splitter) in game.decision.actions  # equip is free (G-26)
    assert game.kinds("bear_dies")[0] == {"event": "bear_dies", "seat": "p1", "cause": "combat",
                                          "card": "Gigantosaurus", "round": 2}


def test_g12_trade_does_the_loss_then_the_win():
    """G-12: both die: the bears go home without counters, then draw, get a counter and place."""
    game = two(["Runeclaw Bear"] + [WALL] * 5)
    game.roll(1)
    assert game.kinds("bears_fight")[0]["result"] == "trade"
    assert game.state.pos[0] == 0 and game.state.counters[0] == 1
    assert game.decision.kind == "place"
    kinds = [e["event"] for e in game.events]
    assert kinds.index("bear_dies") < kinds.index("bear_counter")


def test_g_r2_a_surviving_creature_stays_face_up_or_leaves():
    """G-R2: stays (default) face up, damage removed, and fights the next bears; or leaves."""
    stays = two(["Craw Wurm"] + [WALL] * 5)
    stays.roll(1)
    assert stays.state.sq_up[0] and stays.state.sq_damage[0] == 0
    stays.answer(("end",)).roll(1).answer(("end",))
    stays.roll(1)  # p1 from home onto the face-up Wurm again: no flip of a new card
    assert [c["card"] for c in stays.kinds("bears_fight")] == ["Craw Wurm", "Wall of Wood", "Craw Wurm"]
    assert stays.kinds("flip")[-1]["face_up_before"] is True
    leaves = two(["Craw Wurm"] + [WALL] * 5, readings={"survivor": "leaves"})
    leaves.roll(1)
    assert not leaves.state.sq_up[0] and leaves.state.sq_card[0] == leaves.id("Forest")
    assert leaves.id("Craw Wurm") in leaves.state.graveyards[0]


def test_g9_first_strike_kills_the_bears_before_they_strike():
    """G-9: every creature attacks and blocks; Black Knight's first strike kills 2/2 bears first."""
    game = two([WALL, "Black Knight"] + [WALL] * 4)
    game.roll(2)
    assert game.kinds("bears_fight")[0]["result"] == "lose"
    assert game.state.sq_up[1]


def test_g9_attack_triggers_resolve_before_damage():
    """G-9: Borderland Marauder (1/2) gets +2/+0 when it attacks: 3 damage kills the bears."""
    game = two(["Borderland Marauder"] + [WALL] * 5)
    game.roll(1)
    assert game.kinds("bears_fight")[0]["power"] == 3
    assert game.kinds("bears_fight")[0]["result"] == "trade"


def test_g9_g13_enters_ability_is_the_turn_players_and_can_kill_the_flipped_creature():
    """G-9: "you" in the flipped creature's text is the turn player; G-13: killing it with its
    own enters ability draws 1 and places a card, with no counter."""
    game = two(["Ravenous Chupacabra"] + [WALL] * 5)
    game.roll(1)
    assert game.decision.kind == "target" and game.decision.actor == "p1"
    assert ("square", 0) in game.decision.actions  # G-19: creatures on squares are "an opponent's"
    game.answer(("square", 0))
    assert not game.kinds("bears_fight")
    assert game.kinds("kill")[0]["how"] == "destroyed"
    assert game.decision.kind == "place" and game.state.counters[0] == 0
    assert len(game.state.hands[0]) == 4


def test_g14_a_flipped_creature_leaving_is_replaced_from_the_library():
    """G-14: Man-o'-War returns itself to hand: the library's top card takes the square; the
    card goes to the turn player's hand (its "owner", seed line 79)."""
    game = two(["Man-o'-War"] + [WALL] * 5, rest=["Divination"] + ["Forest"] * 20)
    game.roll(1)
    game.answer(("square", 0))
    assert "Man-o'-War" in game.hand(0)
    assert game.state.sq_card[0] == game.id("Divination") and not game.state.sq_up[0]
    assert not game.kinds("bears_fight")


def test_g8_co_op_is_offered_before_the_flip():
    """G-8 (seed line 57): before the card is flipped, the active player may offer co-op to a
    bear on the square; the offered player answers."""
    game = meet("Hill Giant")
    assert game.decision.kind == "co-op" and game.decision.actions == (("alone",), ("offer", "p2"))
    assert not [f for f in game.kinds("flip") if f["square"] == 3 and f["card"] == "Hill Giant"]
    game.answer(("offer", "p2"))
    assert game.decision.kind == "co-op answer" and game.decision.actor == "p2"


def test_g15_example_1_flipped_power_3_and_two_2_toughness_bears_both_survive():
    """G-15 example 1 (seed line 111): power 3 against toughness 2 + 2: both bears survive
    (G-R7 power keeps p2's counter out of its toughness); both get the win bonus and only the
    turn player places a card."""
    game = meet("Hill Giant", readings={"counter": "power"})
    game.answer(("offer", "p2")).answer(("accept",))
    combat = game.kinds("bears_fight")[-1]
    assert (combat["power"], combat["bears_toughness"], combat["partner"]) == (3, 4, "p2")
    assert combat["result"] == "win" and not game.kinds("bear_dies")
    assert game.state.counters == [1, 2]
    assert game.decision.kind == "place" and game.decision.actor == "p1"


def test_g15_example_2_power_1_deathtouch_kills_both_bears():
    """G-15 example 2 (seed line 113): power 1 with deathtouch: both bears die."""
    game = meet("Typhoid Rats")
    game.answer(("offer", "p2")).answer(("accept",))
    assert sorted(e["seat"] for e in game.kinds("bear_dies")) == ["p1", "p2"]
    assert game.state.pos == [0, 0]
    assert game.state.counters == [1, 1]  # a trade: the loss, then the win for both (G-12)


def test_g8_refusing_co_op_gives_the_active_player_a_card():
    """G-8: the offered player accepts or refuses by giving a card."""
    game = meet("Hill Giant")
    game.answer(("offer", "p2"))
    forest = game.id("Forest")
    assert game.decision.actions == (("accept",), ("refuse", forest))
    before = (len(game.state.hands[0]), len(game.state.hands[1]))
    game.answer(("refuse", forest))
    assert game.kinds("co_op")[0]["accepted"] is False
    assert game.kinds("bears_fight")[-1]["partner"] is None
    assert (len(game.state.hands[0]) - before[0], len(game.state.hands[1]) - before[1]) in ((1, -1), (2, -1))


def test_g8_cannot_refuse_with_an_empty_hand():
    """G-8: with no card to give, accepting is the only answer."""
    game = two([WALL] * 6, hands=(["Forest"], ["Centaur Courser"]))
    game.roll(1).answer(("end",))  # p1 on square 0
    game.answer(("dash", game.id("Centaur Courser"))).answer(("end",))  # p2 on square 5, hand empty
    game.roll(5)
    game.answer(("offer", "p2"))
    assert game.state.hands[1] == [] and game.decision.actions == (("accept",),)


def test_g8_co_op_on_a_non_creature_the_partner_draws():
    """G-8: a flipped non-creature is cast or put into the graveyard, the square refilled from
    the library, and the co-op partner draws 1."""
    game = meet("Divination")
    game.answer(("offer", "p2")).answer(("accept",))
    assert game.decision.kind == "flipped spell"
    before = len(game.state.hands[1])
    game.answer(("graveyard",))
    assert len(game.state.hands[1]) == before + 1
    assert game.state.sq_card[3] == game.id("Forest") and game.id("Divination") in game.state.graveyards[0]


def test_g7_dash_kill_gives_the_active_player_no_draw():
    """G-7: a dash onto a creature and a win: a counter and a card placed, but no card drawn."""
    game = two([WALL] * 3 + ["Scryb Sprites"] + [WALL] * 2, hands=(["Hill Giant", "Forest", "Forest"], FORESTS))
    game.answer(("dash", game.id("Hill Giant")))  # mana value 4: square 3
    assert game.kinds("bears_fight")[0]["result"] == "win"
    assert not [e for e in game.kinds("cards_drawn") if e["seat"] == "p1"]
    assert game.state.counters[0] == 1 and game.decision.kind == "place"


def test_g7_dash_turn_the_co_op_partner_still_draws():
    """G-7: the co-op partner gets its normal bonus on the active player's dash turn."""
    game = two([WALL, WALL, WALL, "Scryb Sprites", WALL, WALL],
                hands=(["Centaur Courser", "Forest", "Forest"], ["Scryb Sprites", "Forest", "Forest"]))
    game.roll(1).answer(("end",))  # p1 on square 0
    game.roll(1).answer(("place", game.id("Scryb Sprites"))).answer(("end",))  # p2 on 3, Sprites face down
    game.answer(("dash", game.id("Centaur Courser")))  # 3 steps: square 3
    game.answer(("offer", "p2")).answer(("accept",))
    assert game.kinds("bears_fight")[-1]["result"] == "win"
    wins = [(e["seat"], e["why"]) for e in game.kinds("cards_drawn")[-1:]]
    assert wins == [("p2", "win")]
    assert game.state.counters == [1, 2]
