"""Laps' ☆ dungeon, the Dragon bounty and the special rules (G-16 to G-27, G-R3 to G-R8)."""

from __future__ import annotations

from deckquest.engine.game import OVER

from grizzly_helpers import FORESTS, WALL, Game, end_turn, meet, two


def _lap(game: Game) -> Game:
    """p1 rolls 6 then (after p2's turn) 1: the first lap from the home corner (7 steps)."""
    game.roll(6).answer(("end",)).roll(1).answer(("end",))
    return game.roll(1)


def test_g16_dungeon_option_offers_venture_instead_of_a_counter():
    """G-16 ☆: the lap bonus's third part is a +1/+1 counter or a venture into the dungeon;
    G-R8 phandelver: the first room, Cave Entrance, scries 1."""
    game = _lap(two([WALL] * 6, options=frozenset({"dungeon"}), rest=["Divination"] + ["Forest"] * 20))
    assert game.decision.kind == "lap" and game.decision.actions == (("counter",), ("venture",))
    assert game.state.treasures[0] == 1
    game.answer(("venture",))
    assert game.kinds("venture")[0]["room"] == "Cave Entrance" and game.state.counters[0] == 0
    assert game.decision.kind == "scry" and game.decision.actor == "p1"
    top = game.decision.actions[1][1]
    game.answer(("bottom", top))
    assert game.state.library[0] == top


def test_g16_without_the_option_the_lap_gives_a_counter():
    """G-16: without ☆ dungeon, no question: the counter."""
    game = _lap(two([WALL] * 6))
    assert game.decision.kind != "lap"
    assert game.kinds("bear_counter")[0]["why"] == "lap"


def test_g_r8_the_mad_mage_dungeon_is_another_reading():
    """G-R8: the dungeon's rooms come from the reading: the Mad Mage's first room."""
    game = _lap(two([WALL] * 6, options=frozenset({"dungeon"}), readings={"dungeon": "madmage"}))
    game.answer(("venture",))
    assert game.kinds("venture")[0]["room"] == "Yawning Portal"
    assert "G-26" in game.kinds("venture")[0]["note"]


def test_g17_dragon_bounty_gives_a_treasure_for_a_dragon():
    """G-17 ☆: killing a Dragon gives a Treasure; without the option it does not."""
    game = two(["Furnace Whelp"] + [WALL] * 5, options=frozenset({"dragon bounty"}))
    game.roll(1)
    assert game.kinds("treasure_gained") == [{"event": "treasure_gained", "seat": "p1", "source": "dragon",
                                              "treasures": 1, "round": 1}]
    plain = two(["Furnace Whelp"] + [WALL] * 5)
    plain.roll(1)
    assert plain.state.treasures[0] == 0 and plain.kinds("kill")


def test_g15_g_r6_the_dragon_bounty_is_the_turn_players_or_shared():
    """G-15 / G-R6: the bounty is a kill bonus: the turn player's only (turn), or the co-op
    partner's too (shared)."""
    turn = meet("Furnace Whelp", options=frozenset({"dragon bounty"}))
    turn.answer(("offer", "p2")).answer(("accept",))
    assert [e["seat"] for e in turn.kinds("treasure_gained")] == ["p1"]
    shared = meet("Furnace Whelp", options=frozenset({"dragon bounty"}), readings={"bounty": "shared"})
    shared.answer(("offer", "p2")).answer(("accept",))
    assert [e["seat"] for e in shared.kinds("treasure_gained")] == ["p1", "p2"]


def test_g18_until_end_of_turn_lasts_until_just_before_the_casters_next_turn():
    """G-18: Giant Growth (G-R4 all) on one's bears holds through the other players' turns."""
    game = two([WALL] * 6, hands=(["Giant Growth", "Forest", "Forest"], FORESTS), readings={"spells": "all"})
    game.answer(("cast", game.id("Giant Growth"))).answer(("bear", 0))
    assert game.state.bear_stats(0)[:2] == (5, 5)
    game.answer(("dash", game.id("Forest"))).answer(("end",))  # moves 0: stays at the home corner
    assert game.state.active == 1 and game.state.bear_stats(0)[:2] == (5, 5)
    game.answer(("dash", game.id("Forest"))).answer(("end",))
    assert game.state.active == 0 and game.state.bear_stats(0)[:2] == (2, 2)


def _wurm_on_square_0(**settings) -> Game:
    """p1 loses to a Craw Wurm on square 0: it stays face up there (G-R2)."""
    game = two(["Craw Wurm"] + [WALL] * 5, hands=(FORESTS, ["Journey to Nowhere", "Flame Slash", "Forest"]),
               **settings)
    game.roll(1).answer(("end",))
    assert game.state.sq_up[0]
    return game


def test_g13_killing_a_face_up_creature_with_a_spell_draws_and_places():
    """G-13 / G-19: a sorcery may target a face-up creature on a square; killing it outside
    combat draws 1 and places a card on its square, with no counter."""
    game = _wurm_on_square_0()
    hand = len(game.state.hands[1])
    game.answer(("cast", game.id("Flame Slash")))
    game.answer(("square", 0))
    assert game.kinds("kill")[-1]["card"] == "Craw Wurm"
    assert game.decision.kind == "place" and game.decision.actor == "p2"
    assert len(game.state.hands[1]) == hand - 1 + 1 and game.state.counters[1] == 0


def test_g14_g20_exiled_creature_is_replaced_and_goes_to_the_graveyard_at_end_of_turn():
    """G-14: exile is leaving other than by dying: the library's top card takes the square;
    G-20: the exiled card goes to the graveyard at end of turn."""
    game = _wurm_on_square_0()
    wurm = game.id("Craw Wurm")
    game.answer(("cast", game.id("Journey to Nowhere")))
    game.answer(("square", 0))
    assert game.state.exile == [wurm] and game.state.sq_card[0] == game.id("Forest")
    game.roll(1).answer(("end",))
    assert game.state.exile == [] and wurm in game.state.graveyards[0]


def test_g21_tap_and_no_untap_skips_that_players_next_turn():
    """G-21: Frost Lynx taps the other player's bears "and it doesn't untap": p2 skips."""
    game = two(["Frost Lynx"] + [WALL] * 5)
    game.roll(1)
    assert game.decision.kind == "target"
    game.answer(("bear", 1))
    while game.decision.kind != "main" or game.state.active != 0:
        game.answer(game.decision.actions[0])
    game.answer(("end",))
    assert game.kinds("skip_turn") == [{"event": "skip_turn", "seat": "p2", "round": 1}]
    assert game.state.active == 0 and game.state.round == 2


def test_g22_anthems_reach_the_creature_on_your_square():
    """G-22: "creatures you control" are your bears and the creatures on your square: Glorious
    Anthem makes the flipped 2/2 a 3/3 too."""
    game = two([WALL, "Runeclaw Bear"] + [WALL] * 4, hands=(["Glorious Anthem", "Forest", "Forest"], FORESTS))
    game.answer(("cast", game.id("Glorious Anthem")))
    assert game.state.bear_stats(0)[:2] == (3, 3)
    game.roll(2)
    combat = game.kinds("bears_fight")[0]
    assert (combat["power"], combat["toughness"], combat["result"]) == (3, 3, "trade")


def test_g23_an_empty_library_shuffles_the_graveyard_in():
    """G-23: the library runs out: the graveyard is shuffled into a new library."""
    game = two(["Divination"] + [WALL] * 5, rest=["Shatter"])
    game.answer(("dash", game.id("Forest"))).answer(("end",))  # a Forest to the graveyard
    game.answer(("dash", game.id("Forest"))).answer(("end",))
    game.roll(1).answer(("cast",))
    assert game.kinds("shuffle")
    assert "Shatter" in game.hand(0) and game.hand(0).count("Forest") == 3


def test_g24_artifact_removal_destroys_a_treasure():
    """G-24: Treasures are permanents and artifacts: Vindicate (a sorcery) can destroy one."""
    game = two([WALL] * 6, hands=(FORESTS, ["Vindicate", "Forest", "Forest"]))
    end_turn(_lap(game).answer(("place", game.id("Forest"))))  # the 3/3 bears beat the wall
    assert game.state.treasures[0] == 1
    game.answer(("cast", game.id("Vindicate")))
    assert ("treasure", 0) in game.decision.actions
    game.answer(("treasure", 0))
    assert game.state.treasures[0] == 0
    assert game.kinds("treasure_lost")[0]["seat"] == "p1"


def test_g26_life_and_tokens_do_nothing():
    """G-26: no life totals, no tokens: Lava Axe and Dragon Fodder change nothing."""
    game = two([WALL] * 6, hands=(["Lava Axe", "Forest", "Forest"], ["Dragon Fodder", "Forest", "Forest"]))
    game.answer(("cast", game.id("Lava Axe"))).answer(("player", 1))
    game.roll(1).answer(("end",))
    game.answer(("cast", game.id("Dragon Fodder")))
    effects = game.kinds("effect")
    assert [e["effect"] for e in effects] == ["damage", "token"] and effects[1]["ignored"] is True
    assert game.state.allies == [[], []] and game.state.perms == [[], []]


def test_g27_expert_graveyards_are_per_player_and_an_empty_library_ends_the_game():
    """G-27: cards go to the turn player's graveyard; a draw from an empty library ends the game."""
    game = two(["Divination"] + [WALL] * 5, rest=["Shatter"], expert=True)
    game.answer(("dash", game.id("Forest"))).answer(("end",))
    game.answer(("dash", game.id("Forest"))).answer(("end",))
    forest = game.id("Forest")
    assert game.state.graveyards == [[forest], [forest]]
    game.roll(1).answer(("cast",))
    assert game.decision.actor == OVER
    assert game.state.outcome()["reason"] == "library out" and game.state.outcome()["winner"] is None


def test_g_r5_expert_rules_keep_exiled_cards_exiled_unless_read_otherwise():
    """G-R5: under the expert rules exiled cards stay exiled (G-20 off); ``returns`` keeps G-20."""
    stays = _wurm_on_square_0(expert=True)
    stays.answer(("cast", stays.id("Journey to Nowhere"))).answer(("square", 0))
    stays.roll(1).answer(("end",))
    assert stays.state.exile == [stays.id("Craw Wurm")]
    returns = _wurm_on_square_0(expert=True, readings={"exile": "returns"})
    returns.answer(("cast", returns.id("Journey to Nowhere"))).answer(("square", 0))
    returns.roll(1).answer(("end",))
    assert returns.state.exile == [] and returns.id("Craw Wurm") in returns.state.graveyards[1]


def test_g_r3_a_flipped_land_goes_to_the_graveyard_or_is_flipped_again():
    """G-R3: a flipped land cannot be cast: graveyard and refill (default); reflip: the new
    card is flipped at once."""
    game = two(["Forest"] + [WALL] * 5, rest=["Scryb Sprites"] + ["Forest"] * 20)
    game.roll(1)
    assert game.kinds("flip")[0]["kind"] == "land" and not game.kinds("bears_fight")
    assert game.state.sq_card[0] == game.id("Scryb Sprites") and not game.state.sq_up[0]
    again = two(["Forest"] + [WALL] * 5, rest=["Scryb Sprites"] + ["Forest"] * 20, readings={"lands": "reflip"})
    again.roll(1)
    assert [f["card"] for f in again.kinds("flip")] == ["Forest", "Scryb Sprites"]
    assert again.kinds("bears_fight")[0]["result"] == "win"


def test_g_r3_a_mana_value_0_dash_moves_0():
    """G-R3: dashing a land moves the bears 0 squares."""
    game = two([WALL] * 6)
    game.answer(("dash", game.id("Forest")))
    assert game.kinds("move")[0]["steps"] == 0 and game.state.pos[0] == 0


def test_g_r7_the_counter_can_be_read_as_plus_one_plus_zero():
    """G-R7: +1/+1 (full, default) or +1/+0 (power)."""
    full = two(["Scryb Sprites"] + [WALL] * 5)
    full.roll(1)
    power = two(["Scryb Sprites"] + [WALL] * 5, readings={"counter": "power"})
    power.roll(1)
    assert full.state.bear_stats(0)[:2] == (3, 3) and power.state.bear_stats(0)[:2] == (3, 2)


def test_g6_an_aura_from_hand_enchants_a_bear():
    """G-6: an aura cast in a main phase goes on the bears its caster picks."""
    game = two([WALL] * 6, hands=(["Rancor", "Forest", "Forest"], FORESTS))
    game.answer(("cast", game.id("Rancor")))
    assert game.decision.kind == "attach" and game.decision.actions == (("attach", 0), ("attach", 1))
    game.answer(("attach", 0))
    assert game.state.bear_stats(0) == (4, 2, frozenset({"trample"}))


def test_g22_each_creature_you_control_includes_the_one_on_your_square():
    """G-22: Overrun ("creatures you control get +3/+3") reaches the face-up Horned Turtle
    standing on the caster's square, and not the other player's bears."""
    game = two([WALL, WALL, WALL, "Horned Turtle", WALL, WALL], hands=(FORESTS, ["Overrun", "Forest", "Forest"]))
    game.roll(1).answer(("end",))
    game.roll(1).answer(("end",))  # p2 stands off the Turtle (1/4) on square 3
    game.roll(1).answer(("end",))
    game.answer(("cast", game.id("Overrun")))
    assert game.state.square_stats(3)[:2] == (4, 7)
    assert game.state.bear_stats(1)[:2] == (5, 5) and game.state.bear_stats(0)[:2] == (2, 2)


def test_g4_face_down_squares_are_lands_a_land_spell_can_destroy():
    """G-4: face-down square cards count as lands: Stone Rain destroys one; the library's top
    card takes its place."""
    game = two([WALL] * 6, hands=(["Stone Rain", "Forest", "Forest"], FORESTS), rest=["Divination"] + ["Forest"] * 20)
    game.answer(("cast", game.id("Stone Rain")))
    assert game.decision.kind == "target" and game.decision.actions == tuple(("land", q) for q in range(6))
    game.answer(("land", 4))
    assert game.state.sq_card[4] == game.id("Divination") and game.id(WALL) in game.state.graveyards[0]


def test_g2_library_and_graveyard_are_shared():
    """G-2: one library and one graveyard for everybody (unlike G-27)."""
    game = two([WALL] * 6)
    game.answer(("dash", game.id("Forest"))).answer(("end",))
    game.answer(("dash", game.id("Forest"))).answer(("end",))
    assert game.state.graveyards == [[game.id("Forest"), game.id("Forest")]]
