"""Checks under the 2014 base rules (T-5.1 to T-5.5)."""

from __future__ import annotations

import random

import pytest

from deckquest.cards.model import Card
from deckquest.engine.checks import begin_check, boost, make_check
from deckquest.engine.colors import KIND_2014_TO_2019, KINDS_2014, bonus_2014
from deckquest.engine.pc import PC, RuleError

FOREST = Card.build("Forest", None, "Basic Land — Forest")
GUILDGATE = Card.build("Gruul Guildgate", None, "Land — Gate")
CRAW_WURM = Card.build("Craw Wurm", "{4}{G}{G}", "Creature — Wurm")
MIND_STONE = Card.build("Mind Stone", "{2}", "Artifact")
RG = Card.build("Rubblebelt Recluse", "{4}{R}{G}", "Creature — Ogre")  # stands for any R/G card
PLAINS = Card.build("Plains", None, "Basic Land — Plains")
ISLAND = Card.build("Island", None, "Basic Land — Island")
SWAMP = Card.build("Swamp", None, "Basic Land — Swamp")
MOUNTAIN = Card.build("Mountain", None, "Basic Land — Mountain")
LANDS = {"W": PLAINS, "U": ISLAND, "B": SWAMP, "R": MOUNTAIN, "G": FOREST}

TABLE = {  # T-5.2: negotiation intellect dexterity reflex body
    "W": (5, 4, 2, 1, 3),
    "U": (3, 5, 4, 2, 1),
    "B": (1, 3, 5, 4, 2),
    "R": (2, 1, 3, 5, 4),
    "G": (4, 2, 1, 3, 5),
}


def stacked(top: list[Card], critical: tuple[int, ...] = ()) -> PC:
    cards = tuple(top) + (MIND_STONE,) * 5
    return PC(id="pc", name="Ann", cards=cards, critical_cards=frozenset(critical), library=list(range(len(cards))))


def test_T_5_1_kinds():
    assert KINDS_2014 == ("negotiation", "intellect", "dexterity", "reflex", "body")
    with pytest.raises(ValueError, match="unknown 2014 check kind"):
        begin_check(stacked([FOREST]), "green", 3, random.Random(1), rules="2014")


@pytest.mark.parametrize("color", "WUBRG")
def test_T_5_2_table_through_a_basic_land(color):
    for column, kind in enumerate(KINDS_2014):
        record = make_check(stacked([LANDS[color]]), kind, 0, random.Random(1), rules="2014")
        assert record.result == TABLE[color][column]


def test_T_5_2_top_card_goes_to_the_exhaustion_zone_and_value_must_exceed_target():
    pc = stacked([FOREST])
    record = make_check(pc, "body", 5, random.Random(1), rules="2014")
    assert pc.exhaustion_zone == [0] and 0 not in pc.library
    assert (record.result, record.target, record.success) == (5, 5, False)  # equal fails
    record = make_check(stacked([FOREST]), "body", 4, random.Random(1), rules="2014")
    assert (record.success, record.degree) == (True, 1)


def test_T_5_3_forest_in_a_body_check_is_5():
    record = make_check(stacked([FOREST]), "body", 4, random.Random(1), rules="2014")
    assert (record.result, record.color, record.revealed) == (5, "G", ("Forest",))


def test_T_5_3_multicolor_card_takes_the_players_best_color():
    record = make_check(stacked([RG]), "body", 0, random.Random(1), rules="2014")
    assert (record.result, record.color) == (6 + 5, "G")
    record = make_check(stacked([RG]), "negotiation", 0, random.Random(1), rules="2014")
    assert (record.result, record.color) == (6 + 4, "G")
    assert bonus_2014(("W", "U"), "reflex") == (2, "U")


def test_T_5_4_colorless_card_gives_2_in_every_kind():
    for kind in KINDS_2014:
        assert make_check(stacked([GUILDGATE]), kind, 0, random.Random(1), rules="2014").result == 2
        assert make_check(stacked([MIND_STONE]), kind, 0, random.Random(1), rules="2014").result == 4


def test_T_5_5_kind_correspondence():
    assert KIND_2014_TO_2019 == {
        "negotiation": "white",
        "intellect": "blue",
        "dexterity": "black",
        "reflex": "red",
        "body": "green",
    }


def test_2014_has_no_critical_cards_a_designated_card_counts_as_itself():
    record = make_check(stacked([CRAW_WURM], critical=(0,)), "body", 10, random.Random(1), rules="2014")
    assert (record.result, record.critical, record.success) == (11, None, True)


def test_2014_has_no_boost():
    pc = stacked([FOREST])
    pending = begin_check(pc, "body", 3, random.Random(1), rules="2014")
    with pytest.raises(RuleError, match="no boost"):
        boost(pc, pending)


def test_2014_support_adds_power():
    """The 2014 text already lets a creature tap to add its power to a check (T-3.3)."""
    record = make_check(stacked([GUILDGATE]), "reflex", 4, random.Random(1), rules="2014", support=3)
    assert (record.result, record.success) == (5, True)


def test_2014_empty_library_fails_without_drawing():
    pc = PC(id="pc", name="Ann", cards=(FOREST,), library=[])
    record = make_check(pc, "body", 0, random.Random(1), rules="2014")
    assert not record.success and pc.status == "ok"
