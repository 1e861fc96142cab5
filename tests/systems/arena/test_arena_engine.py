"""The Arena engine through its step API: setup and turn (A-1 to A-10), summoning (A-6, A-R1),
spells (A-7, A-23), attacks (A-19, A-22, A-R3), glyphs (A-14), swipes and falls as chance
decisions (A-11, A-15), victory and the turn limit (A-4, A-24, A-R4)."""

from __future__ import annotations

import random

import pytest
from arena_helpers import card, duel_game, run_game

from deckquest.engine.game import CHANCE, OVER
from deckquest.systems.arena.agents import GreedyAgent, RandomAgent
from deckquest.systems.arena.battlefield import Glyph
from deckquest.systems.arena.cards import Bonus, Damage, Draw, Spell, Target
from deckquest.systems.arena.rules import ArenaRules
from deckquest.systems.arena.state import DONE

FLAT = ["0 0 0 0 0 0 0"] * 4
ROW1 = tuple((c, 1) for c in range(1, 8))
ROW4 = tuple((c, 4) for c in range(1, 8))
SMITE = Spell("Smite", (Damage(2, Target(range=4)),))


def legion(rules=ArenaRules(), **more):
    squad = card("Knights", life=1, move=5, attack=2, defence=2, figures=3)
    zombies = card("Zombies", life=1, move=4, attack=2, defence=1, figures=4)
    return duel_game(FLAT, card("Gideon", life=6, attack=4, defence=2, size=5), card("Liliana", life=5, range=4, attack=3, defence=3, size=5),
                     rules, starts={"p1": ROW1, "p2": ROW4}, p1_cards=(squad,), p2_cards=(zombies,), **more)


def setup(game, p1=(4, 1), p2=(4, 4), first="p1"):
    state = game.new_state()
    rng = random.Random(3)
    events: list[dict] = []
    state.apply(("place", (p1,)), rng, events)
    state.apply(("place", (p2,)), rng, events)
    state.apply(first, rng, events)
    return state, rng, events


def test_a2_planeswalker_is_placed_on_its_start_zone():
    """A-2: only the planeswalker starts on the map, on a hex of its start zone."""
    state = legion().new_state()
    decision = state.decision()
    assert (decision.actor, decision.kind) == ("p1", "place")
    assert {a[1][0] for a in decision.actions} == set(ROW1)
    state.apply(("place", ((2, 1),)), random.Random(1), [])
    assert [f.id for f in state.on_map()] == ["p1.Gideon"]
    assert len(state.army_figures("p1", None, "stock")) == 3


def test_a3_turn_order_is_an_even_chance_and_three_cards_are_drawn():
    """A-3: a d20 roll-off (every seat 1/2), then each spell deck is shuffled and 3 drawn."""
    game = legion(p1_spells=("Smite",) * 10, spells={"Smite": SMITE})
    state = game.new_state()
    state.apply(("place", ((1, 1),)), random.Random(1), [])
    state.apply(("place", ((1, 4),)), random.Random(1), [])
    decision = state.decision()
    assert (decision.actor, decision.kind, decision.probabilities) == (CHANCE, "order", (0.5, 0.5))
    state.apply("p2", random.Random(1), [])
    assert state.seat == "p2" and len(state.hands["p1"]) == 3 and len(state.decks["p1"]) == 7


def test_a5_draw_one_each_turn_and_an_empty_deck_does_not_lose():
    game = legion(p1_spells=("Smite",) * 4, spells={"Smite": SMITE})
    state, rng, events = setup(game)
    assert len(state.hands["p1"]) == 4 and state.decks["p1"] == []  # 3 + the turn's draw
    state.apply(("activate", "Gideon"), rng, events)
    while state.seat == "p1":
        state.apply(DONE if DONE in state.decision().actions else state.decision().actions[0], rng, events)
    while state.seat == "p2":
        state.apply(DONE if DONE in state.decision().actions else state.decision().actions[0], rng, events)
    assert state.decision().actor == "p1" and state.outcome() is None  # drew nothing, goes on


def test_a6_planeswalker_summons_up_to_two_within_five_hexes_in_sight():
    """A-6, A-R1: activating the planeswalker summons at most 2 figures, onto empty hexes within 5."""
    state, rng, events = setup(legion())
    assert [a[1] for a in state.decision().actions] == ["Gideon"]  # only cards with figures on the map
    state.apply(("activate", "Gideon"), rng, events)
    decision = state.decision()
    assert decision.kind == "summon"
    places = {a[2][0] for a in decision.actions if a != DONE}
    assert places and all(max(abs(c - 4), 0) <= 5 for c, _ in places) and (4, 1) not in places
    state.apply(decision.actions[0], rng, events)
    state.apply(state.decision().actions[0], rng, events)
    assert state.decision().kind != "summon"  # the third is not offered
    assert len(state.army_figures("p1", "Knights")) == 2
    assert [a[1] for a in state.decision().actions if a != DONE] == ["p1.Gideon"]  # summoned figures do not move


def test_ar1_summon_reading_three():
    state, rng, events = setup(legion(ArenaRules.from_readings({"summon": "three"})))
    state.apply(("activate", "Gideon"), rng, events)
    for _ in range(3):
        assert state.decision().kind == "summon"
        state.apply(state.decision().actions[0], rng, events)
    assert len(state.army_figures("p1", "Knights")) == 3


def test_a6_summoning_needs_sight():
    """A-6: a hex behind a wall, within 5 hexes, is not offered for summoning."""
    rows = ["0 # 0", "0 # 0"]
    game = duel_game(rows, card("W", size=4), card("V"), starts={"p1": ((1, 1),), "p2": ((3, 2),)},
                     p1_cards=(card("S", size=4),))
    state, rng, events = setup(game, (1, 1), (3, 2))
    state.apply(("activate", "W"), rng, events)
    assert {a[2][0] for a in state.decision().actions if a != DONE} == {(1, 2)}


def test_a7_at_most_three_spells_a_turn():
    """A-7, A-23: a fourth spell is not offered in the same turn."""
    spells = {"Boost": Spell("Boost", (Bonus("attack", 1),))}
    game = legion(p1_spells=("Boost",) * 10, spells=spells)
    state, rng, events = setup(game)
    state.apply(("activate", "Gideon"), rng, events)
    state.apply(DONE, rng, events)  # no summoning
    for _ in range(3):
        assert state.decision().kind == "cast"
        state.apply(("cast", "Boost", None), rng, events)
    assert state.decision().kind == "move"
    assert state.stat(state.figures["p1.Gideon"], "attack") == 4 + 3


def test_a10_discard_down_to_seven():
    spells = {"Draw": Spell("Draw", (Draw(6),))}
    game = legion(p1_spells=("Draw",) * 20, spells=spells)
    state, rng, events = setup(game)
    state.apply(("activate", "Gideon"), rng, events)
    state.apply(DONE, rng, events)
    state.apply(("cast", "Draw", None), rng, events)  # 4 - 1 + 6 = 9 cards
    state.apply(DONE, rng, events)  # cast window
    state.apply(DONE, rng, events)  # move
    state.apply(DONE, rng, events)  # attack
    assert state.decision().kind == "discard"
    state.apply(state.decision().actions[0], rng, events)
    state.apply(state.decision().actions[0], rng, events)
    assert len(state.hands["p1"]) == 7 and state.seat == "p2"


def test_a8_each_figure_moves_once_and_walks_its_route():
    state, rng, events = setup(legion())
    state.apply(("activate", "Gideon"), rng, events)
    state.apply(DONE, rng, events)
    state.apply(("move", "p1.Gideon"), rng, events)
    assert state.decision().kind == "destination"
    state.apply(("to", ((4, 3),)), rng, events)
    move = [e for e in events if e["event"] == "move"][-1]
    assert (move["from"], move["to"], len(move["path"])) == ("4,1", "4,3", 2)
    assert state.decision().kind == "attack"  # no second move


def test_a15_leaving_an_engaged_enemy_is_a_swipe_chance():
    """A-15: the swipe is a chance decision (sword 1/2 = 1 damage) before the figure leaves."""
    state, rng, events = setup(legion(), (4, 1), (4, 2))
    state.apply(("activate", "Gideon"), rng, events)
    state.apply(DONE, rng, events)
    state.apply(("move", "p1.Gideon"), rng, events)
    state.apply(("to", ((1, 1),)), rng, events)
    decision = state.decision()
    assert (decision.actor, decision.kind, decision.probabilities) == (CHANCE, "swipe", (0.5, 0.5))
    state.apply(1, rng, events)
    assert state.figures["p1.Gideon"].damage == 1
    assert [e["to"] for e in events if e["event"] == "move"] == ["1,1"]


def test_a11_a_fall_is_a_chance_and_can_destroy():
    rows = ["6 0 0"]
    game = duel_game(rows, card("W", life=1, size=4), card("V"), starts={"p1": ((1, 1),), "p2": ((3, 1),)})
    state, rng, events = setup(game, (1, 1), (3, 1))
    state.apply(("activate", "W"), rng, events)
    state.apply(("move", "p1.W"), rng, events)
    state.apply(("to", ((2, 1),)), rng, events)
    assert state.decision().kind == "fall"
    state.apply(1, rng, events)
    assert state.outcome()["winner"] == "p2"  # its planeswalker fell
    assert [e["at"] for e in events if e["event"] == "figure destroyed"] == ["2,1"]


def test_a22_engaged_figure_attacks_only_engaged_enemies():
    """A-22, A-R3: Liliana (range 4), engaged with Gideon, may not shoot a knight two hexes away
    (reading ``engaged``, the default); reading ``free`` lets her."""
    for reading, expected in (("engaged", {"p1.Gideon"}), ("free", {"p1.Gideon", "p1.Knights.1"})):
        state, rng, events = setup(legion(ArenaRules.from_readings({"attacks": reading})), (4, 1), (4, 2), first="p1")
        state.put(state.figures["p1.Knights.1"], ((2, 3),))
        liliana = state.figures["p2.Liliana"]
        assert {g.id for g in state.attack_targets(liliana)} == expected, reading


def test_a14_glyph_power_goes_to_the_army_standing_on_it():
    """A-14: a glyph's "attack +1 for its army" counts for every figure of the holder's army."""
    glyphs = (Glyph("Glyph of Valor", (4, 2), (Bonus("attack", 1),)),)
    state, rng, events = setup(legion(glyphs=glyphs))
    state.apply(("activate", "Gideon"), rng, events)
    state.apply(DONE, rng, events)
    state.apply(("move", "p1.Gideon"), rng, events)
    state.apply(("to", ((4, 2),)), rng, events)
    assert {"event": "glyph taken", "glyph": "Glyph of Valor", "seat": "p1", "figure": "p1.Gideon"} in events
    assert state.stat(state.figures["p1.Gideon"], "attack") == 5
    assert state.stat(state.figures["p2.Liliana"], "attack") == 3


def test_a4_destroying_the_planeswalker_wins():
    state, rng, events = setup(legion(), (4, 1), (4, 2))
    state.apply(("activate", "Gideon"), rng, events)
    state.apply(DONE, rng, events)
    state.apply(DONE, rng, events)
    state.apply(("attack", "p1.Gideon", "p2.Liliana"), rng, events)
    state.apply((4, 0), rng, events)  # 4 swords, no shield: 4 wounds, life 5
    assert state.outcome() is None and state.figures["p2.Liliana"].damage == 4
    assert state.decision().actor == "p2"


@pytest.mark.parametrize("unit,turns", [("rounds", 60), ("turns", 30)])
def test_a24_turn_limit_counts_rounds_or_turns(unit, turns):
    """A-24, A-R4: far-apart figures that never meet: the game ends at the limit, a draw on score."""
    game = legion(ArenaRules.from_readings({"limit": unit}))
    state, rng, events = setup(game, (1, 1), (7, 4))

    class Idle:
        def choose(self, state, decision, rng):
            return DONE if DONE in decision.actions else decision.actions[0]
    from deckquest.engine.game import play
    play(state, {"p1": Idle(), "p2": Idle()}, rng, events)
    assert state.outcome()["reason"] == "turn limit" and state.outcome()["turns"] == turns


def test_whole_games_are_deterministic_and_clones_independent():
    game = legion(p1_spells=("Smite",) * 10, spells={"Smite": SMITE})
    agents = {"p1": GreedyAgent(), "p2": RandomAgent()}
    a, events_a = run_game(game, agents, 7)
    b, events_b = run_game(game, agents, 7)
    assert events_a == events_b and a.outcome() == b.outcome()
    state, rng, _ = setup(game)
    copy = state.clone()
    state.apply(("activate", "Gideon"), rng, [])
    assert copy.decision().kind == "activate" and copy.activated is None
    assert a.decision().actor == OVER


def test_state_as_plain_data_for_a_save():
    """The state's plain-data form (engine.game: what a saved session stores) is JSON."""
    import json

    state, rng, events = setup(legion(), (4, 1), (4, 2))
    state.apply(("activate", "Gideon"), rng, events)
    data = json.loads(json.dumps(state.to_data()))
    assert data["figures"]["p1.Gideon"] == {"place": "map", "at": ["4,1"], "damage": 0}
    assert data["figures"]["p1.Knights.1"]["place"] == "stock" and data["stage"] == "summon"


def test_a17_two_hex_figure_is_summoned_on_two_hexes_and_walks_across_a_stream():
    """A-17 through the step API: a two-hex squad is summoned onto two hexes of one level, then
    crosses a one-hex stream like land and ends on one level."""
    rows = ["0 0 0 ~ 0 0 0", "0 0 0 0 0 0 0"]
    wyrm = card("Wyrm", move=4, hexes=2)
    game = duel_game(rows, card("W", move=0), card("V"), starts={"p1": ((1, 2),), "p2": ((7, 2),)}, p1_cards=(wyrm,))
    state, rng, events = setup(game, (1, 2), (7, 2))
    state.apply(("activate", "W"), rng, events)
    summons = [a for a in state.decision().actions if a != DONE]
    assert all(len(a[2]) == 2 for a in summons) and ("summon", "Wyrm", ((3, 1), (2, 1))) in summons
    state.apply(("summon", "Wyrm", ((3, 1), (2, 1))), rng, events)
    finish_turn(state, rng, events)
    finish_turn(state, rng, events)  # p2
    state.apply(("activate", "Wyrm"), rng, events)
    state.apply(("move", "p1.Wyrm"), rng, events)
    places = {a[1] for a in state.decision().actions}
    assert ((5, 1), (4, 1)) not in places and ((6, 1), (5, 1)) in places  # no end straddling water and land
    state.apply(("to", ((6, 1), (5, 1))), rng, events)
    assert state.figures["p1.Wyrm"].hexes == ((6, 1), (5, 1))
    assert [e["path"] for e in events if e["event"] == "move"][-1] == ["4,1", "5,1", "6,1"]


def finish_turn(state, rng, events):
    seat = state.seat
    while state.seat == seat and state.outcome() is None:
        decision = state.decision()
        state.apply(DONE if DONE in decision.actions else decision.actions[0], rng, events)


def test_a4_three_players_the_last_planeswalker_standing_wins():
    """A-4: with 3 players a seat whose planeswalker is destroyed is out (its figures leave the
    map); the game goes on until one seat is left."""
    from arena_helpers import battlefield
    from deckquest.systems.arena.cards import Army
    from deckquest.systems.arena.state import ArenaGame

    armies = tuple(Army(seat, seat, (card(f"W{seat}", "planeswalker"), card(f"S{seat}"))) for seat in ("p1", "p2", "p3"))
    field = battlefield(["0 0 0 0 0"], {"p1": ((1, 1),), "p2": ((3, 1),), "p3": ((5, 1),)})
    state = ArenaGame(field, armies).new_state()
    rng = random.Random(1)
    events: list[dict] = []
    for action in (("place", ((1, 1),)), ("place", ((3, 1),)), ("place", ((5, 1),)), "p1"):
        state.apply(action, rng, events)
    state.put(state.figures["p2.Sp2"], ((4, 1),))
    state.wound(state.figures["p2.Wp2"], 5, "p1", events)
    assert state.outcome() is None and "p2" in state.defeated
    assert state.figures["p2.Sp2"].place == "graveyard" and (4, 1) not in state.occupant
    state.wound(state.figures["p3.Wp3"], 5, "p1", events)
    assert state.outcome()["winner"] == "p1" and state.outcome()["reason"] == "planeswalker"
