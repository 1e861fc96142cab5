"""The Isekai TCG engine through its step API, rule by rule (I-3 to I-19, readings I-R1 to I-R8)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from deckquest.engine.game import CHANCE, OVER, play
from deckquest.systems.isekai.agents import RandomAgent
from deckquest.systems.isekai.cards import ANY_UNIT, BOUNCE, MAGIC, MOVE, SKILL, CardDef, CardSet, Deck, Duelist, Effect
from deckquest.systems.isekai.duel import DuelState, new_duel
from deckquest.systems.isekai.rules import Rules
from isekai_helpers import CARDS, KNIGHTS_DECK, act, deck, duel, summon, uids

KNIGHTS = KNIGHTS_DECK


def test_I3_setup_puts_five_mana_and_deals_five_and_six():
    state, _rng = duel(KNIGHTS, KNIGHTS)
    a, b = state.players
    assert (len(a.mana), len(a.hand), len(a.main)) == (5, 5, 40)
    assert (len(b.mana), len(b.hand), len(b.main)) == (5, 6, 39)
    assert state.decision().actor == "a" and state.decision().kind == "right"


def test_I3_higher_status_speed_goes_first_equal_speeds_toss_a_coin():
    fast = Deck("f", "f", KNIGHTS.main, KNIGHTS.skills, (("quick", 1),))
    state = new_duel((Duelist("a", "A", KNIGHTS), Duelist("b", "B", fast)), CARDS)
    assert state.decision().actions == (("deal", "b"),)
    even = new_duel((Duelist("a", "A", KNIGHTS), Duelist("b", "B", KNIGHTS)), CARDS)
    decision = even.decision()
    assert decision.actor == CHANCE and decision.probabilities == (0.5, 0.5)


def test_I5_playing_a_card_passes_the_right():
    state, rng = duel(KNIGHTS, KNIGHTS)
    act(state, rng, ("play", "hand", "knight", None, 2))
    assert state.decision().actor == "b"


@pytest.mark.parametrize("reading, moved", [("triangular", [1, 2, 3, 4]), ("one", [1, 1, 1, 1])])
def test_I6_IR8_consecutive_mana_charges(reading, moved):
    """I-6 (1), I-R8: the n-th consecutive charge moves n cards (triangular) or 1."""
    state, rng = duel(KNIGHTS, KNIGHTS, Rules.from_readings({"mana_charge": reading}))
    a = state.players[0]
    for count in moved:
        before = len(a.mana)
        act(state, rng, ("charge",), ("pass",))
        assert len(a.mana) - before == count


@pytest.mark.parametrize("charges", range(1, 10))
def test_I6_hand_computation_cards_moved_by_k_consecutive_charges(charges):
    """k consecutive charges move k(k+1)/2 cards, no more than the main deck holds (40)."""
    state, rng = duel(KNIGHTS, KNIGHTS)
    for _ in range(charges):
        act(state, rng, ("charge",), ("pass",))
    assert len(state.players[0].mana) - 5 == min(charges * (charges + 1) // 2, 40)


def test_I6_another_action_ends_the_charge_streak():
    state, rng = duel(KNIGHTS, KNIGHTS)
    act(state, rng, ("charge",), ("pass",), ("pass",), ("pass",), ("charge",))
    assert len(state.players[0].mana) == 7


def test_I6_taking_mana_cards_to_hand_and_returning_an_exiled_skill_card():
    state, rng = duel(deck({"knight": 50}, {"mend": 50}), KNIGHTS)
    a = state.players[0]
    act(state, rng, ("take", "knight", 2))
    assert (len(a.mana), len(a.hand)) == (3, 7)
    act(state, rng, ("pass",), ("play", "skill", "mend", None, 0), ("pass",))
    assert len(a.exile_skill) == 2  # the cost and the resolved magic, face down
    act(state, rng, ("restore", "mend"))
    assert (len(a.exile_skill), len(a.skill)) == (1, 49)


def test_I7_costs_send_mana_to_the_main_deck_and_skill_cards_face_down_to_exile():
    state, rng = duel(KNIGHTS, KNIGHTS)
    a = state.players[0]
    act(state, rng, ("play", "hand", "knight", None, 1))
    assert (len(a.mana), len(a.main), len(a.skill), len(a.exile_skill)) == (4, 41, 49, 1)


def test_I7_a_cost_larger_than_mana_and_skill_deck_together_cannot_be_paid():
    state, rng = duel(deck({"phoenix": 50}, {"parry": 50}), KNIGHTS)
    plays = [a for a in state.decision().actions if a[0] == "play" and a[2] == "phoenix"]
    assert sorted(a[4] for a in plays) == [0, 1, 2, 3]


def test_I8_a_unit_attacks_at_once_and_the_attack_passes_the_right():
    state, rng = duel(KNIGHTS, KNIGHTS)
    knight, _ = summon(state, rng, "knight", "knight")
    act(state, rng, ("pass",))
    assert ("attack", knight, ("player", "b")) in state.decision().actions
    act(state, rng, ("attack", knight, ("player", "b")))
    assert (state.decision().actor, state.decision().kind) == ("b", "answer")


@pytest.mark.parametrize("reading, damage", [("lifo", 0), ("fifo", 2)])
def test_I9_IR5_answers_within_one_speed_resolve_in_the_reading_order(reading, damage):
    """Flare (speed 1) answered by Ward (speed 2, a gap of 1, no interrupt): last in first
    out, Ward shields the knight first; first in first out, Flare hits first."""
    state, rng = duel(deck({"knight": 50}, {"flare": 50}), deck({"knight": 50}, {"ward": 50}),
                      Rules.from_readings({"answer_order": reading}))
    _, theirs = summon(state, rng, "knight", "knight")
    act(state, rng, ("pass",), ("play", "skill", "flare", ("unit", theirs), 0),
        ("play", "skill", "ward", ("unit", theirs), 0), ("pass",))
    assert state.unit(theirs).damage == damage


@pytest.mark.parametrize("reading", ["lifo", "fifo"])
def test_I9_a_speed_gap_of_two_interrupts_in_either_order(reading):
    """Parry (speed 3) against Flare (speed 1) resolves first whatever the order reading."""
    state, rng = duel(deck({"knight": 50}, {"flare": 50}), KNIGHTS, Rules.from_readings({"answer_order": reading}))
    _, theirs = summon(state, rng, "knight", "knight")
    events: list = []
    act(state, rng, ("pass",), ("play", "skill", "flare", ("unit", theirs), 0),
        ("play", "skill", "parry", ("unit", theirs), 0), ("pass",), events=events)
    assert state.unit(theirs).damage == 0
    assert [e["card"] for e in events if e["event"] == "interrupt"] == ["parry"]


def test_I10_near_reaches_near_middle_reaches_near_and_middle_far_reaches_all():
    state, rng = duel(deck({"knight": 25, "lancer": 25}), deck({"archer": 50}), seed=3)
    a = state.players[0]
    assert {CARDS.cards[state.cards[c].id].id for c in a.hand} == {"knight", "lancer"}
    act(state, rng, ("play", "hand", "knight", None, 2), ("play", "hand", "archer", None, 1),
        ("play", "hand", "lancer", None, 1), ("pass",))
    units = {state.cards[unit.card].id: unit.uid for unit in state.players[0].field}
    knight, lancer = units["knight"], units["lancer"]
    archer = uids(state, "b")[0]
    targets = {(a[1], a[2]) for a in state.decision().actions if a[0] == "attack"}
    assert (knight, ("unit", archer)) not in targets and (lancer, ("unit", archer)) not in targets
    assert (knight, ("player", "b")) in targets


def test_I11_a_blocker_must_be_as_fast_and_summoning_to_block_costs_one_more():
    state, rng = duel(KNIGHTS, deck({"archer": 50}))
    knight, archer = summon(state, rng, "knight", "archer")
    act(state, rng, ("pass",), ("attack", knight, ("player", "b")))
    actions = state.decision().actions
    assert ("block", archer) in actions
    assert sorted(a[2] for a in actions if a[0] == "summon") == [1, 2]  # cost 1 + 1, at least 1 mana
    slow, rng = duel(KNIGHTS, deck({"blob": 50}))
    knight, _blob = summon(slow, rng, "knight", "blob")
    act(slow, rng, ("pass",), ("attack", knight, ("player", "b")))
    assert not [a for a in slow.decision().actions if a[0] in ("block", "summon")]


def test_I11_a_block_turns_the_hit_into_a_fight_with_the_blocker():
    state, rng = duel(KNIGHTS, deck({"archer": 50}))
    knight, archer = summon(state, rng, "knight", "archer")
    act(state, rng, ("pass",), ("attack", knight, ("player", "b")), ("block", archer), ("pass",))
    assert len(state.players[1].main) == 40 and state.unit(archer) is None  # no hit on b; 2 damage, 2 HP
    assert state.unit(knight).damage == 1  # the archer (far) strikes back


def test_I12_fighters_heal_fully_when_nothing_targets_them():
    state, rng = duel(KNIGHTS, KNIGHTS)
    mine, theirs = summon(state, rng, "knight", "knight")
    act(state, rng, ("pass",), ("attack", mine, ("unit", theirs)), ("pass",))
    assert (state.unit(mine).damage, state.unit(theirs).damage) == (2, 2)
    act(state, rng, ("pass",))
    assert state.unit(theirs).damage == 2
    act(state, rng, ("pass",))
    assert (state.unit(mine).damage, state.unit(theirs).damage) == (0, 0)


def test_I12_an_action_on_either_fighter_keeps_both_damaged():
    state, rng = duel(KNIGHTS, deck({"knight": 50}, {"ward": 50}))
    mine, theirs = summon(state, rng, "knight", "knight")
    act(state, rng, ("pass",), ("attack", mine, ("unit", theirs)), ("pass",), ("pass",),
        ("play", "skill", "ward", ("unit", theirs), 0))
    act(state, rng, ("pass",))
    assert (state.unit(mine).damage, state.unit(theirs).damage) == (2, 2)


def test_I13_defend_reduces_the_hit_by_one_and_the_answer_may_not_charge():
    state, rng = duel(KNIGHTS, KNIGHTS)
    knight, _ = summon(state, rng, "knight", "knight")
    b = state.players[1]
    before = len(b.main)
    act(state, rng, ("pass",), ("attack", knight, ("player", "b")))
    actions = state.decision().actions
    assert ("defend",) in actions
    assert not [a for a in actions if a[0] in ("charge", "take", "restore")]
    act(state, rng, ("defend",))
    assert ("defend",) not in state.decision().actions
    act(state, rng, ("pass",))
    assert (before - len(b.main), len(b.exile_main)) == (1, 1)


def test_I14_answering_an_attack_needs_an_action_as_fast():
    state, rng = duel(deck({"knight": 25, "hawk": 25}), KNIGHTS, seed=1)
    assert {state.cards[c].id for c in state.players[0].hand} == {"knight", "hawk"}
    act(state, rng, ("play", "hand", "knight", None, 2), ("play", "hand", "knight", None, 2),
        ("play", "hand", "hawk", None, 1), ("pass",), ("pass",), ("pass",))
    units = {state.cards[unit.card].id: unit.uid for unit in state.players[0].field}
    knight, hawk = units["knight"], units["hawk"]
    act(state, rng, ("attack", knight, ("player", "b")))
    assert any(a[0] == "play" and a[2] == "parry" for a in state.decision().actions)  # 3 >= 2
    act(state, rng, ("pass",), ("attack", hawk, ("player", "b")))
    assert not any(a[0] == "play" for a in state.decision().actions)  # parry 3 < hawk 4


@pytest.mark.parametrize("reading, attacks, struck_back", [("2", 3, 1), ("3", 2, 0)])
def test_I15_IR7_speed_4_against_speed_1(reading, attacks, struck_back):
    """The worked example (seed line 59): speed 4 hits speed 1 without answer and attacks
    again at speed 3. Reading 2: again at speed 2, then a third attack at speed 2 against 1
    is answered by a strike-back. Reading 3: the attack at speed 3 ends it."""
    state, rng = duel(deck({"sprinter": 50}), deck({"blob": 50}), Rules.from_readings({"extra_attack_gap": reading}))
    sprinter, blob = summon(state, rng, "sprinter", "blob")
    events: list = []
    act(state, rng, ("pass",), ("attack", sprinter, ("unit", blob)), ("pass",), events=events)
    while state.decision().kind == "extra":
        act(state, rng, ("attack", sprinter, ("unit", blob)), ("pass",), events=events)
    hits = [e for e in events if e["event"] == "hit"]
    assert len(hits) == attacks
    assert [e["speed"] for e in events if e["event"] == "attack"] == [4, 3, 2][:attacks]
    assert state.unit(blob).damage == attacks and state.unit(sprinter).damage == struck_back
    assert sum(e["speed_locked"] for e in hits) == 2


def test_I16_after_a_faster_answer_only_as_fast_an_action_may_target_the_unit():
    state, rng = duel(deck({"knight": 50}, {"flare": 25, "zap": 25}), KNIGHTS, seed=2)
    mine, theirs = summon(state, rng, "knight", "knight")
    act(state, rng, ("pass",), ("attack", mine, ("unit", theirs)))
    act(state, rng, ("play", "skill", "parry", ("unit", theirs), 0))  # speed 3 protects it
    aimed = {a[2] for a in state.decision().actions if a[0] == "play" and a[3] == ("unit", theirs)}
    assert aimed == {"zap"}  # flare (speed 1) may no longer target it


@pytest.mark.parametrize("reading, passes", [("holder", 1), ("attacker", 2)])
def test_I17_IR1_the_hit_lands_when_the_reading_s_player_passes(reading, passes):
    state, rng = duel(KNIGHTS, KNIGHTS, Rules.from_readings({"hit_by": reading}))
    knight, _ = summon(state, rng, "knight", "knight")
    b = state.players[1]
    before = len(b.main)
    act(state, rng, ("pass",), ("attack", knight, ("player", "b")), ("pass",))
    assert before - len(b.main) == (2 if passes == 1 else 0)
    if passes == 2:
        assert (state.decision().actor, state.decision().kind) == ("a", "answer")
        act(state, rng, ("pass",))
        assert before - len(b.main) == 2
    assert len(b.exile_main) == 2 and not b.exile_up  # face down (I-17)


def charge_down(state, rng, charges: int = 8) -> None:
    """b charges (a passing in between) until its main deck holds 39 - 36 = 3 cards; then b
    passes and the right is a's."""
    act(state, rng, ("pass",))
    for _ in range(charges):
        act(state, rng, ("charge",), ("pass",))
    act(state, rng, ("pass",))


def test_I4_a_main_deck_emptied_by_charges_loses_only_to_damage():
    state, rng = duel(deck({"knight": 50}, {"blast": 50}), KNIGHTS)
    charge_down(state, rng, 9)
    assert not state.players[1].main and state.outcome() is None
    act(state, rng, ("play", "skill", "blast", ("player", "b"), 0), ("pass",))
    assert state.outcome() == {"winner": "a", "reason": "damage", "rights": state.rights}
    assert state.decision().actor == OVER


REVERSAL_DECK = deck({"phoenix": 2, "blob": 48})


def lethal_blast(seed: int, rules: Rules | None = None):
    """b charges down to 3 cards, a's Blast deals 3: the whole main deck is damage."""
    state, rng = duel(deck({"knight": 50}, {"blast": 50}), REVERSAL_DECK, rules, seed=seed)
    charge_down(state, rng)
    assert len(state.players[1].main) == 3
    act(state, rng, ("play", "skill", "blast", ("player", "b"), 0), ("pass",))
    return state, rng


@pytest.mark.slow
def test_I18_hand_computation_reversal_among_the_damage_cards_of_a_lethal_hit():
    """The 3 damage cards are a uniform 3 of 50 holding 2 Reversals: 1 - C(48,3)/C(50,3).
    Monte Carlo of the engine: each duel dealt anew, every damage card turned face up."""
    exact = 1 - (48 * 47 * 46) / (50 * 49 * 48)
    runs = 3000
    found = 0
    for seed in range(runs):
        state, rng = lethal_blast(seed)
        act(state, rng, ("reveal", 3))
        found += state.decision().kind == "reversal"
    share = found / runs
    assert abs(share - exact) < 4 * (exact * (1 - exact) / runs) ** 0.5


def first_seed_with_reversal() -> int:
    for seed in range(200):
        state, rng = lethal_blast(seed)
        act(state, rng, ("reveal", 3))
        if state.decision().kind == "reversal":
            return seed
    raise AssertionError("no deal puts a Reversal among the last 3 cards")


def test_I18_I4_a_reversal_saves_the_duel_once_and_takes_the_right():
    state, rng = lethal_blast(first_seed_with_reversal())
    act(state, rng, ("reveal", 3), ("reversal", "phoenix", None))
    b = state.players[1]
    assert state.outcome() is None and [state.cards[c].id for c in b.main] == ["phoenix"]
    assert len(b.exile_up) == 2  # the other damage cards stay face up, out of reach
    assert state.decision().actor == "a"  # b's right went to the reversal
    act(state, rng, ("play", "skill", "blast", ("player", "b"), 0), ("pass",), ("reveal", 1))
    assert state.outcome()["winner"] == "a"  # the activated card cannot activate on the next hit


def test_I18_declining_the_reversal_loses():
    state, rng = lethal_blast(first_seed_with_reversal())
    act(state, rng, ("reveal", 3), ("decline",))
    assert state.outcome()["winner"] == "a"


def test_I18_IR2_hand_reading_offers_reversals_from_the_hand():
    state, rng = duel(deck({"knight": 50}, {"blast": 50}), deck({"phoenix": 50}),
                      Rules.from_readings({"reversal_cards": "hand"}))
    charge_down(state, rng)
    act(state, rng, ("play", "skill", "blast", ("player", "b"), 0), ("pass",))
    decision = state.decision()
    assert (decision.actor, decision.kind) == ("b", "reversal")
    act(state, rng, ("reversal", "phoenix", None))
    assert len(state.players[1].hand) == 5 and len(state.players[1].main) == 1


def test_I19_recovery_returns_face_down_exiled_cards_to_the_bottom():
    state, rng = duel(deck({"knight": 50}, {"bolt": 50}), deck({"knight": 50}, {"mend": 50}))
    for _ in range(4):
        act(state, rng, ("play", "skill", "bolt", ("player", "b"), 0), ("pass",))
    b = state.players[1]
    assert (len(b.main), len(b.exile_main)) == (35, 4)
    act(state, rng, ("pass",), ("play", "skill", "mend", None, 0), ("pass",))
    assert (len(b.main), len(b.exile_main)) == (38, 1)


@pytest.mark.parametrize("reading, may", [("yes", True), ("no", False)])
def test_IR3_a_duelist_with_attack_power_attacks_under_the_reading(reading, may):
    fighter = Deck("f", "f", KNIGHTS.main, KNIGHTS.skills, (("fighter", 1), ("quick", 1)))
    state, rng = duel(fighter, KNIGHTS, Rules.from_readings({"player_attacks": reading}))
    assert (("attack", "a", ("player", "b")) in state.decision().actions) is may


@pytest.mark.parametrize("reading, offered", [("chosen", {"flare", "zap"}), ("top", 1)])
def test_IR4_skills_are_chosen_from_the_skill_deck_or_only_its_top(reading, offered):
    state, rng = duel(deck({"knight": 50}, {"flare": 25, "zap": 25}), KNIGHTS, Rules.from_readings({"skill_play": reading}))
    summon(state, rng, "knight", "knight")
    act(state, rng, ("pass",))
    cards = {a[2] for a in state.decision().actions if a[0] == "play" and a[1] == "skill"}
    if reading == "top":
        assert cards == {state.cards[state.players[0].skill[-1]].id}
    else:
        assert cards == offered


@pytest.mark.parametrize("stall", ["50", "100"])
def test_IR6_a_duel_without_damage_is_a_draw(stall):
    state, rng = duel(KNIGHTS, KNIGHTS, Rules.from_readings({"stall": stall}))
    while state.decision().actor != OVER:
        act(state, rng, ("pass",))
    assert state.outcome() == {"winner": None, "reason": "stall", "rights": int(stall) + 1}


def test_clone_is_independent_and_same_seed_same_duel():
    from deckquest.engine.game import play
    from deckquest.systems.isekai.agents import GreedyAgent, RandomAgent
    from isekai_helpers import bundled

    cards, duelists = bundled()

    def run(seed: int):
        state = new_duel(duelists, cards)
        events: list = []
        play(state, {"kai": GreedyAgent(), "mira": RandomAgent()}, random.Random(seed), events)
        return state, events

    first, events = run(5)
    again, events_again = run(5)
    assert events == events_again and first.outcome() is not None
    state = new_duel(duelists, cards)
    rng = random.Random(1)
    play(state, {"kai": RandomAgent(), "mira": RandomAgent()}, rng, max_decisions=40)
    copy = state.clone()
    before = (len(copy.players[0].main), len(copy.players[1].mana), copy.rights)
    play(state, {"kai": RandomAgent(), "mira": RandomAgent()}, rng)
    assert (len(copy.players[0].main), len(copy.players[1].mana), copy.rights) == before


@pytest.mark.parametrize("seed", range(4))
def test_a_duel_saved_as_data_plays_on_exactly_as_the_uninterrupted_duel(seed):
    """to_data / from_data (JSON) at every 37th decision: the rest of the duel, event for
    event, is the uninterrupted one's (the save form of `deckquest run --save`)."""
    import json

    from deckquest.engine.game import draw_chance
    from deckquest.systems.isekai.agents import RandomAgent
    from isekai_helpers import bundled

    cards, duelists = bundled()
    state = new_duel(duelists, cards, Rules.from_readings({"reversal_cards": "hand"} if seed % 2 else {}))
    rng = random.Random(seed)
    agent = RandomAgent()
    steps = 0
    while state.decision().actor != OVER:
        if steps % 37 == 0:
            copy = DuelState.from_data(cards, json.loads(json.dumps(state.to_data())))
            assert copy.to_data() == state.to_data()
            assert copy.decision() == state.decision()
        decision = state.decision()
        action = draw_chance(decision, rng) if decision.actor == CHANCE else agent.choose(state, decision, rng)
        state.apply(action, rng)
        steps += 1
    assert state.outcome() is not None


def test_a_duel_run_saved_mid_duel_resumes_exactly(tmp_path):
    """`deckquest run --save`: RunState.game is the duel's data (GameSystem.game_data) and a
    resumed run ends as the uninterrupted run does."""
    from deckquest.dsl.resolver import compile_file
    from deckquest.runtime.agents import make_agent
    from deckquest.runtime.interpreter import Program, Run
    from deckquest.runtime.saves import load_run, save_run
    from isekai_helpers import FRONTIER

    program = Program(compile_file(FRONTIER))
    whole = Run(program, make_agent("random"), random.Random(4)).run().events
    run = Run(program, make_agent("random"), random.Random(4))
    for _ in range(120):
        run.step()
    save_run(run, tmp_path / "duel.json", seed=4, agent="random")
    resumed = load_run(program, tmp_path / "duel.json", make_agent("random"))
    assert resumed.state.game.to_data() == run.state.game.to_data()
    assert resumed.run().events == whole[len(run.events):]


def _play_out(first: Deck, second: Deck, cards, rules: Rules, seed: int) -> dict:
    """A whole duel between random agents through the step API, chance drawn from one Random."""
    state = new_duel((Duelist("a", "A", first), Duelist("b", "B", second)), cards, rules)
    play(state, {"a": RandomAgent(), "b": RandomAgent()}, random.Random(seed), [])
    return state.outcome()


def test_a_restore_or_take_whose_card_a_waiting_move_took_away_is_a_pass_i_6_i_5():
    """I-6's options 2 and 3 name a card (take it from the mana zone, restore it from the
    exile); I-5: the waiting cards resolve first when the right is used so. A `move 2 cards
    from your exile to your skill deck` among them may take the very card: the option then
    does what is left to do (a pass), where it raised ValueError."""
    extra = (CardDef("shuffle", "Shuffle", SKILL, cost=1, speed=2, effects=(Effect(MOVE, 2, "", "", "exile", "skill deck"),)),
             CardDef("dig", "Dig", MAGIC, cost=0, speed=1, effects=(Effect(MOVE, 2, "", "", "main deck", "hand"),)),
             CardDef("skim", "Skim", SKILL, cost=1, speed=1, effects=(Effect(MOVE, 3, "", "", "skill deck", "hand"),)),
             CardDef("gust", "Gust", SKILL, cost=2, speed=3, effects=(Effect(BOUNCE, 0, ANY_UNIT),)))
    cards = CardSet({**CARDS.cards, **{card.id: card for card in extra}})
    first = deck({"knight": 20, "hawk": 15, "phoenix": 15}, {"shuffle": 20, "dig": 10, "skim": 10, "gust": 10},
                 {"fighter": 1}, name="m3")
    second = deck({"sprinter": 20, "blob": 20, "lancer": 10}, {"gust": 15, "zap": 15, "skim": 10, "shuffle": 10},
                  {"quick": 1}, name="m4")
    outcomes = [_play_out(first, second, cards, Rules(), seed) for seed in range(30)]
    assert all(outcome is not None for outcome in outcomes)


def test_a_reversal_offered_on_two_hits_is_activated_once_i_18_reading_hand():
    """I-18 with `reading reversal_cards hand`: two hits in a row each offer the same hand card
    as a [Reversal]; once activated on the first it is on the main deck, and the second offer
    no longer lists it (it raised ValueError)."""
    mix = deck({"knight": 10, "hawk": 10, "phoenix": 10, "archer": 10, "lancer": 10},
               {"parry": 10, "flare": 10, "zap": 10, "bolt": 10, "mend": 5, "blast": 5}, {"fighter": 1}, name="m1")
    mix2 = deck({"sprinter": 15, "blob": 15, "phoenix": 10, "lancer": 10},
                {"ward": 10, "flare": 10, "zap": 10, "blast": 10, "mend": 10}, {"quick": 1}, name="m2")
    assert _play_out(mix, mix2, CARDS, replace(Rules(), reversal_from_damage=False), 37) is not None
