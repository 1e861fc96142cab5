"""Each card's importance: the win-rate change when it is taken out (same seeds for every
variant), and taking out keeps the deck legal (I-1)."""

from __future__ import annotations

from deckquest.systems.isekai.cards import Duelist
from deckquest.systems.isekai.decks import check_deck
from deckquest.systems.isekai.importance import importance, without
from isekai_helpers import CARDS, deck

BURN = deck({"knight": 50}, {"blast": 25, "parry": 25}, {"quick": 1}, name="burn")
WALL = deck({"knight": 50}, {"parry": 50}, name="wall")


def test_taking_a_card_out_keeps_fifty_cards_with_the_most_plentiful_other():
    changed = without(BURN, "blast")
    assert changed.skills == (("parry", 50),) and check_deck(changed, CARDS) == []
    assert without(WALL, "parry") is None  # nothing else to stand in


def test_a_card_that_wins_duels_matters_more_than_one_that_does_not():
    duelists = (Duelist("a", "A", BURN), Duelist("b", "B", WALL))
    base, ranked = importance(duelists, CARDS, "a", runs=12)
    by_card = {item.card: item for item in ranked}
    assert set(by_card) == {"blast", "parry"}  # knight is alone in the main deck
    assert by_card["blast"].change > 0.5 and base > 0.5
    assert by_card["blast"].change > by_card["parry"].change
    assert ranked[0].card == "blast"
