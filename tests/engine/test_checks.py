"""Checks under the 2019 rules, one test (or more) per rule T-4.1 to T-4.13, and E1-E4."""

from __future__ import annotations

import random

import pytest

from deckquest.cards.model import Card
from deckquest.engine.checks import (
    CheckHistory,
    begin_check,
    boost,
    boost_when_failing,
    can_boost,
    check_record,
    end_check,
    finish_check,
    make_check,
)
from deckquest.engine.colors import KINDS_2019, color_bonus, is_colorless_for_boost, rule_colors
from deckquest.engine.pc import PC, RuleError, boost_cleanup, concentrate, create_pc, play_land, scene_end

FOREST = Card.build("Forest", None, "Basic Land — Forest")
MOUNTAIN = Card.build("Mountain", None, "Basic Land — Mountain")
ISLAND = Card.build("Island", None, "Basic Land — Island")
PLAINS = Card.build("Plains", None, "Basic Land — Plains")
SWAMP = Card.build("Swamp", None, "Basic Land — Swamp")
TAIGA = Card.build("Taiga", None, "Land — Mountain Forest")
GUILDGATE = Card.build("Gruul Guildgate", None, "Land — Gate")
ELVISH_MYSTIC = Card.build("Elvish Mystic", "{G}", "Creature — Elf Druid", power="1", toughness="1")
LLANOWAR_ELVES = Card.build("Llanowar Elves", "{G}", "Creature — Elf Druid", power="1", toughness="1")
RUNECLAW_BEAR = Card.build("Runeclaw Bear", "{1}{G}", "Creature — Bear", power="2", toughness="2")
CRAW_WURM = Card.build("Craw Wurm", "{4}{G}{G}", "Creature — Wurm", power="6", toughness="4")
MIND_STONE = Card.build("Mind Stone", "{2}", "Artifact")
SHOCK = Card.build("Shock", "{R}", "Instant")
DEVOID = Card.build("Vile Aggregate", "{2}{B}", "Creature — Eldrazi Drone", keywords=("Devoid",))
GOLD = Card.build("Kiora's Follower", "{G}{U}", "Creature — Merfolk", power="2", toughness="1")
MONO = {"W": PLAINS, "U": ISLAND, "B": SWAMP, "R": MOUNTAIN, "G": FOREST}
FILLER = [MIND_STONE] * 10


def stacked(top: list[Card], rest: list[Card] = FILLER, critical: tuple[int, ...] = ()) -> PC:
    """A PC whose library is ``top`` then ``rest``, in that order (index 0 = top)."""
    cards = tuple(top) + tuple(rest)
    return PC(id="pc", name="Ann", cards=cards, critical_cards=frozenset(critical), library=list(range(len(cards))))


# --- worked examples ------------------------------------------------------------------


def test_E1_green_check_elvish_mystic_then_runeclaw_bear():
    pc = stacked([ELVISH_MYSTIC, RUNECLAW_BEAR])
    record = make_check(pc, "green", 2, random.Random(1))
    assert (record.target, record.result, record.success, record.degree) == (3, 7, True, 4)
    assert record.revealed == ("Elvish Mystic", "Runeclaw Bear")
    assert record.color == "G"


@pytest.mark.parametrize(
    "second, result", [(LLANOWAR_ELVES, 1), (SHOCK, 1), (RUNECLAW_BEAR, 2), (MIND_STONE, 2)]
)
def test_E2_colorless_check_result_is_mana_value_only(second, result):
    pc = stacked([ISLAND, second])
    record = make_check(pc, "colorless", 0, random.Random(1))
    assert (record.target, record.result, record.success, record.degree) == (0, result, True, result)
    assert record.color is None


def test_E3_boost_counts_forest_mountain_and_devoid_card():
    six = [FOREST, MOUNTAIN, RUNECLAW_BEAR, DEVOID, CRAW_WURM, LLANOWAR_ELVES]
    pc = stacked([CRAW_WURM, ELVISH_MYSTIC] + six)
    pending = begin_check(pc, "green", 2, random.Random(1))
    assert boost(pc, pending) == 3
    record = finish_check(pc, pending, random.Random(1))
    assert record.boost_cards == tuple(card.name for card in six)
    assert record.boost_bonus == 3
    assert record.result == 1 + 5 + 3


def test_E4_critical_craw_wurm_first_target_25_automatic_failure():
    pc = stacked([CRAW_WURM, CRAW_WURM], critical=(0,))
    record = make_check(pc, "green", 5, random.Random(1))
    assert record.target == 25
    assert record.critical == "failure"
    assert not record.success


def test_E4_critical_craw_wurm_second_result_25_automatic_success():
    pc = stacked([CRAW_WURM, CRAW_WURM], critical=(1,))
    record = make_check(pc, "green", 5, random.Random(1))
    assert record.result == 25
    assert record.critical == "success"
    assert record.success


# --- T-4.1 to T-4.5 -------------------------------------------------------------------


def test_T_4_1_kinds_are_five_colors_and_colorless():
    assert KINDS_2019 == ("white", "blue", "black", "red", "green", "colorless")
    with pytest.raises(ValueError, match="unknown 2019 check kind"):
        begin_check(stacked([FOREST, FOREST]), "purple", 1, random.Random(1))
    with pytest.raises(ValueError, match="unknown rules"):
        begin_check(stacked([FOREST, FOREST]), "green", 1, random.Random(1), rules="2020")


def test_T_4_2_target_is_first_card_mana_value_plus_difficulty():
    pending = begin_check(stacked([CRAW_WURM, FOREST]), "green", 3, random.Random(1))
    assert pending.target == 6 + 3


TABLE = {  # T-4.3, row: card colour, columns: white blue black red green
    "W": (5, 3, 0, 0, 3),
    "U": (3, 5, 3, 0, 0),
    "B": (0, 3, 5, 3, 0),
    "R": (0, 0, 3, 5, 3),
    "G": (3, 0, 0, 3, 5),
}


@pytest.mark.parametrize("color", "WUBRG")
def test_T_4_3_color_bonus_table(color):
    assert tuple(color_bonus(color, kind) for kind in KINDS_2019[:5]) == TABLE[color]
    assert color_bonus(color, "colorless") == 0
    assert all(color_bonus(None, kind) == 0 for kind in KINDS_2019)


@pytest.mark.parametrize("color", "WUBRG")
def test_T_4_3_basic_land_counts_as_its_color_in_the_result(color):
    """T-1.4: a basic land type gives the land that colour; mana value 0 + bonus."""
    for column, kind in enumerate(KINDS_2019[:5]):
        pending = begin_check(stacked([MIND_STONE, MONO[color]]), kind, 0, random.Random(1))
        assert pending.result == TABLE[color][column]


def test_T_4_3_colorless_card_gets_no_bonus():
    pending = begin_check(stacked([FOREST, GUILDGATE]), "green", 0, random.Random(1))
    assert (pending.result, pending.color) == (0, None)
    assert rule_colors(GUILDGATE) == () and rule_colors(DEVOID) == ()


def test_T_4_4_success_iff_result_at_least_target_degree_can_be_negative():
    equal = make_check(stacked([RUNECLAW_BEAR, FOREST]), "green", 3, random.Random(1))
    assert (equal.target, equal.result, equal.success, equal.degree) == (5, 5, True, 0)
    below = make_check(stacked([RUNECLAW_BEAR, FOREST]), "green", 4, random.Random(1))
    assert (below.success, below.degree) == (False, -1)


def test_T_4_5_multicolor_result_card_color_is_random_and_uniform():
    colors = []
    for seed in range(400):
        pending = begin_check(stacked([MIND_STONE, GOLD]), "green", 0, random.Random(seed))
        colors.append(pending.color)
        assert pending.result == 2 + (5 if pending.color == "G" else 0)
    assert set(colors) == {"G", "U"}
    assert 150 < colors.count("G") < 250


def test_T_4_5_land_with_two_basic_land_types_random_too():
    assert rule_colors(TAIGA) == ("R", "G")
    seen = {begin_check(stacked([FOREST, TAIGA]), "red", 0, random.Random(seed)).result for seed in range(60)}
    assert seen == {5, 3}  # red as red (+5) or green (+3 as an ally)


def test_T_4_5_same_seed_same_color():
    first = [begin_check(stacked([FOREST, GOLD]), "blue", 0, random.Random(7)).color for _ in range(3)]
    assert len(set(first)) == 1


def test_T_4_5_T_4_9_only_a_multicolour_result_card_in_a_coloured_check_draws_a_colour():
    """One colour, no colour, or a colourless check (T-4.9): nothing is drawn, so the
    generator is where it was; a multicoloured result card in a coloured check draws."""
    for second, kind, colors, draws in ((FOREST, "blue", {"G"}, False), (MIND_STONE, "red", {None}, False),
                                        (GOLD, "colorless", {None}, False), (GOLD, "green", {"G", "U"}, True)):
        rng = random.Random(5)
        before = rng.getstate()
        pending = begin_check(stacked([MIND_STONE, second]), kind, 0, rng)
        assert (rng.getstate() != before) is draws
        assert pending.color in colors
        assert pending.result == second.mana_value + color_bonus(pending.color, kind)


def test_end_check_and_check_record_make_what_finish_check_makes():
    """``end_check`` moves the cards (a batch run stops there); ``check_record`` names them."""
    for seed in range(40):
        rngs = random.Random(seed), random.Random(seed)
        pcs = [create_pc("pc", "Ann", tuple([FOREST, GOLD, RUNECLAW_BEAR, MIND_STONE] * 10),
                         frozenset({0, 4, 8}), rng) for rng in rngs]
        pendings = [begin_check(pc, "green", 3, rng) for pc, rng in zip(pcs, rngs)]
        whole = finish_check(pcs[0], pendings[0], rngs[0])
        end_check(pcs[1], pendings[1], rngs[1])
        assert check_record(pcs[1], pendings[1]) == whole
        assert pcs[0] == pcs[1] and rngs[0].getstate() == rngs[1].getstate()
        assert (pendings[1].success, pendings[1].degree) == (whole.success, whole.degree)


# --- T-4.6 boost ----------------------------------------------------------------------


def test_T_4_6_basic_lands_are_colorless_for_boost_but_not_for_the_result():
    assert is_colorless_for_boost(FOREST) and rule_colors(FOREST) == ("G",)
    assert is_colorless_for_boost(TAIGA) and is_colorless_for_boost(DEVOID)
    assert not is_colorless_for_boost(RUNECLAW_BEAR)


def test_T_4_6_boost_after_target_and_result_and_the_six_stay_exiled():
    pc = stacked([CRAW_WURM, FOREST], [FOREST] * 6 + [MIND_STONE] * 4)
    pending = begin_check(pc, "green", 0, random.Random(1))
    assert (pending.target, pending.result, pending.success) == (6, 5, False)
    boost(pc, pending)
    assert pending.result == 11 and pending.success
    finish_check(pc, pending, random.Random(1))
    assert len(pc.boost_exile) == 6
    assert not set(pc.boost_exile) & set(pc.library)
    assert len(pc.library) == 6  # 4 left + the 2 revealed at the bottom


def test_T_4_6_one_boost_per_check():
    pc = stacked([CRAW_WURM, FOREST], [FOREST] * 20)
    pending = begin_check(pc, "green", 0, random.Random(1))
    boost(pc, pending)
    pc.boost_used = False  # even with the scene limit lifted
    with pytest.raises(RuleError, match="one boost per check"):
        boost(pc, pending)


def test_T_4_6_boost_once_per_scene_until_scene_end():
    pc = stacked([CRAW_WURM, FOREST, CRAW_WURM, FOREST], [FOREST] * 20)
    rng = random.Random(1)
    make_check(pc, "green", 0, rng, boost_policy=boost_when_failing)
    assert pc.boost_used
    pending = begin_check(pc, "green", 0, rng)
    assert not can_boost(pc, pending)
    with pytest.raises(RuleError, match="T-4.6"):
        boost(pc, pending)
    finish_check(pc, pending, rng)
    scene_end(pc, rng)
    assert not pc.boost_used and pc.boost_exile == []
    assert len(pc.library) == 24


def test_T_4_6_scene_end_cleanup_puts_boost_cards_on_library_bottom():
    pc = stacked([CRAW_WURM, FOREST], [MOUNTAIN] * 6 + [MIND_STONE] * 3)
    rng = random.Random(3)
    pending = begin_check(pc, "green", 0, rng)
    boost(pc, pending)
    exiled = list(pc.boost_exile)
    finish_check(pc, pending, rng)
    scene_end(pc, rng)
    assert sorted(pc.library[-6:]) == sorted(exiled)
    assert pc.exhaustion_zone == []  # nothing moves boost cards but the cleanup


def test_T_4_6_combat_turn_end_cleanup_makes_boost_available_again():
    pc = stacked([CRAW_WURM, FOREST], [FOREST] * 12)
    rng = random.Random(1)
    make_check(pc, "green", 0, rng, boost_policy=boost_when_failing)
    boost_cleanup(pc, rng)  # the battle engine calls this at each turn's cleanup step
    assert not pc.boost_used and len(pc.library) == 14


def test_T_4_6_boost_needs_six_cards_in_library():
    pc = stacked([CRAW_WURM, FOREST], [FOREST] * 5)
    pending = begin_check(pc, "green", 0, random.Random(1))
    assert not can_boost(pc, pending)
    with pytest.raises(RuleError, match="fewer than 6"):
        boost(pc, pending)


def test_T_4_6_policy_boosts_only_a_failing_check():
    winning = stacked([FOREST, CRAW_WURM], [FOREST] * 10)
    assert make_check(winning, "green", 0, random.Random(1), boost_policy=boost_when_failing).boost_bonus == 0
    losing = stacked([CRAW_WURM, FOREST], [FOREST] * 10)
    assert make_check(losing, "green", 0, random.Random(1), boost_policy=boost_when_failing).boost_bonus == 6


# --- T-4.7 critical cards -------------------------------------------------------------


def test_T_4_7_critical_first_card_fails():
    record = make_check(stacked([FOREST, CRAW_WURM], critical=(0,)), "green", 0, random.Random(1))
    assert (record.target, record.result) == (20, 11)
    assert record.critical == "failure" and not record.success


def test_T_4_7_critical_second_card_succeeds_whatever_the_target():
    record = make_check(stacked([CRAW_WURM, ISLAND], critical=(1,)), "red", 8, random.Random(1))
    assert (record.target, record.result) == (14, 20)
    assert record.critical == "success" and record.success


def test_T_4_7_critical_second_card_wins_even_if_target_is_higher():
    record = make_check(stacked([CRAW_WURM, ISLAND], critical=(1,)), "red", 20, random.Random(1))
    assert record.target > record.result and record.success


def test_T_4_7_both_critical_go_to_bottom_and_two_new_cards_are_revealed():
    pc = stacked([FOREST, ISLAND, ELVISH_MYSTIC, RUNECLAW_BEAR], [MIND_STONE] * 3, critical=(0, 1))
    record = make_check(pc, "green", 2, random.Random(1))
    assert record.redo == 1
    assert record.revealed == ("Forest", "Island", "Elvish Mystic", "Runeclaw Bear")
    assert (record.target, record.result, record.success) == (3, 7, True)
    assert set(pc.library[3:5]) == {0, 1}  # the criticals went below the rest
    assert set(pc.library[5:]) == {2, 3}  # then the revealed pair (T-4.8)


def test_T_4_7_only_critical_cards_left_fails():
    pc = stacked([FOREST, FOREST, FOREST], [], critical=(0, 1, 2))
    record = make_check(pc, "green", 0, random.Random(1))
    assert record.critical == "failure" and not record.success
    assert "only critical cards" in record.note
    assert len(pc.library) == 3


def test_T_4_7_redo_reaches_the_returned_criticals_when_one_card_is_fresh():
    """Library: critical, critical, ordinary. After the redo the 2nd card is a returned critical."""
    pc = stacked([FOREST, FOREST, MIND_STONE], [], critical=(0, 1))
    record = make_check(pc, "green", 0, random.Random(1))
    assert record.redo == 1 and record.critical == "success"


def test_T_4_7_critical_is_an_ordinary_card_outside_checks():
    pc = stacked([FOREST, MIND_STONE], [], critical=(0,))
    pc.hand, pc.library = [0], [1]
    concentrate(pc)
    permanent = play_land(pc, 0)
    assert permanent.card == 0


# --- T-4.8 to T-4.13 ------------------------------------------------------------------


def test_T_4_8_revealed_cards_go_to_the_bottom_in_random_order():
    orders = set()
    for seed in range(30):
        pc = stacked([CRAW_WURM, FOREST])
        make_check(pc, "green", 0, random.Random(seed))
        assert len(pc.library) == 12
        orders.add(tuple(pc.library[-2:]))
    assert orders == {(0, 1), (1, 0)}


def test_T_4_9_colorless_check_ignores_colors_and_draws_no_random_color():
    pc = stacked([MIND_STONE, GOLD])
    rng = random.Random(5)
    state = rng.getstate()
    pending = begin_check(pc, "colorless", 0, rng)
    assert pending.result == 2 and pending.color is None
    assert rng.getstate() == state


def test_T_4_10_known_cards_set_aside_and_returned_on_top_in_order():
    pc = stacked([SHOCK, MOUNTAIN, ELVISH_MYSTIC, RUNECLAW_BEAR])
    pending = begin_check(pc, "green", 2, random.Random(1), known=2)
    assert [pc.cards[i].name for i in pending.revealed] == ["Elvish Mystic", "Runeclaw Bear"]
    finish_check(pc, pending, random.Random(1))
    assert pc.library[:2] == [0, 1]
    assert set(pc.library[-2:]) == {2, 3}


def test_T_4_10_whole_library_known_is_shuffled_first():
    pc = stacked([CRAW_WURM, FOREST], [MIND_STONE, SHOCK])
    before = list(pc.library)
    pending = begin_check(pc, "green", 0, random.Random(2), known=4)
    assert pending.known == []
    finish_check(pc, pending, random.Random(2))
    assert sorted(pc.library) == sorted(before)


def test_T_4_11_no_step_between_reveal_and_result_but_boost():
    """Target and result are fixed at begin; after finish nothing (not even a boost) applies."""
    pc = stacked([CRAW_WURM, FOREST], [FOREST] * 10)
    pending = begin_check(pc, "green", 0, random.Random(1))
    assert (pending.target, pending.result) == (6, 5)
    finish_check(pc, pending, random.Random(1))
    with pytest.raises(RuleError):
        boost(pc, pending)
    with pytest.raises(RuleError):
        finish_check(pc, pending, random.Random(1))


def test_T_4_12_the_very_same_check_cannot_be_repeated_except_escape():
    history = CheckHistory()
    assert history.allows("ann", "open the door", "green", 3)
    history.record("ann", "open the door", "green", 3)
    assert not history.allows("ann", "open the door", "green", 3)
    assert history.allows("ann", "open the door", "green", 4)  # changed difficulty
    assert history.allows("bob", "open the door", "green", 3)  # another PC
    history.record("ann", "escape", "red", 2)
    assert history.allows("ann", "escape", "red", 2)
    clone = history.copy()
    clone.record("bob", "open the door", "green", 3)
    assert history.allows("bob", "open the door", "green", 3)


def test_T_4_13_support_adds_the_creatures_power_to_the_result():
    record = make_check(stacked([CRAW_WURM, FOREST]), "green", 0, random.Random(1), support=2)
    assert (record.result, record.support, record.success) == (7, 2, True)


# --- who may check --------------------------------------------------------------------


def test_T_2_5_no_check_with_a_concentration_counter():
    pc = stacked([CRAW_WURM, FOREST])
    pc.concentration_counter = True
    with pytest.raises(RuleError, match="T-2.5"):
        begin_check(pc, "green", 0, random.Random(1))


def test_T_7_2_an_unconscious_pc_cannot_check():
    pc = stacked([CRAW_WURM, FOREST])
    pc.status = "unconscious"
    with pytest.raises(RuleError, match="T-7.2"):
        begin_check(pc, "green", 0, random.Random(1))


def test_a_library_of_one_card_cannot_reveal_two_and_fails():
    pc = stacked([FOREST], [])
    record = make_check(pc, "green", 0, random.Random(1))
    assert not record.success and record.revealed == () and "too few" in record.note
    assert pc.library == [0] and pc.status == "ok"  # revealing is not drawing (T-7.2)


def test_check_keeps_every_card_and_is_reproducible_from_the_seed():
    deck = [FOREST] * 20 + [CRAW_WURM] * 10 + [GOLD] * 10 + [MIND_STONE] * 20
    records = []
    for _ in range(2):
        rng = random.Random(11)
        pc = create_pc("pc", "Ann", deck, frozenset({0, 1, 2}), rng)
        run = [make_check(pc, kind, 3, rng, boost_policy=boost_when_failing) for kind in KINDS_2019]
        assert sorted(pc.library + pc.hand + pc.boost_exile) == list(range(60))
        records.append(run)
    assert records[0] == records[1]


def test_card_facts_are_each_cards_mana_value_and_colors_T_1_4_T_1_5_T_4_6():
    """The per-table facts a check reads agree with the card model and ``rule_colors``,
    and a new table (a token added: a longer tuple) gets its own facts."""
    from deckquest.engine.checks import card_facts

    cards = (FOREST, TAIGA, GUILDGATE, CRAW_WURM, MIND_STONE, DEVOID, GOLD, SHOCK)
    facts = card_facts(cards)
    assert facts.mana_values == tuple(card.mana_value for card in cards)
    assert facts.colors == tuple(rule_colors(card) for card in cards)
    assert facts.colorless_for_boost == tuple(is_colorless_for_boost(card) for card in cards)
    assert card_facts(cards) is facts
    longer = cards + (RUNECLAW_BEAR,)
    assert card_facts(longer).mana_values[-1] == 2


@pytest.mark.parametrize("color", [None, "W", "U", "B", "R", "G"])
def test_T_4_3_color_bonus_table_of_every_kind(color):
    """The bonus table worked out at import is the rule itself: own +5, ally +3, else 0."""
    from deckquest.engine.colors import ALLIES, KIND_COLOR

    for kind in KINDS_2019:
        wanted = KIND_COLOR.get(kind)
        expected = 0 if color is None or wanted is None else (
            5 if color == wanted else 3 if frozenset((color, wanted)) in ALLIES else 0)
        assert color_bonus(color, kind) == expected
