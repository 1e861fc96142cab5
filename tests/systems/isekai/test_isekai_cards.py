"""Card model, deck construction (I-1, I-2) and the registered system's readings (I-R1..I-R8)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.errors import Span
from deckquest.systems import REGISTRY
from deckquest.systems.isekai import IsekaiSystem
from deckquest.systems.isekai.cards import CardDef, CardSet, Condition, Deck, UNIT
from deckquest.systems.isekai.decks import check_card, check_deck
from deckquest.systems.isekai.rules import Rules
from isekai_helpers import CARDS, ROAD, bundled

SEED = Path("/work/shared/seeds/002_bcf54f510b6a7297.txt")


def codes(deck: Deck, cards: CardSet = CARDS) -> list[str]:
    return [d.code for d in check_deck(deck, cards)]


@pytest.mark.parametrize("path", [None, ROAD])
def test_I1_bundled_decks_are_legal(path):
    cards, duelists = bundled() if path is None else bundled(path)
    assert len(duelists) == 2
    for duelist in duelists:
        assert check_deck(duelist.deck, cards) == []


def test_I1_main_and_skill_decks_hold_fifty_cards():
    assert codes(Deck("d", "d", (("knight", 49),), (("parry", 51),))) == ["DQ4001", "DQ4002"]


def test_I1_each_deck_holds_only_its_kinds():
    deck = Deck("d", "d", (("knight", 49), ("parry", 1)), (("parry", 49), ("knight", 1)), (("knight", 1),))
    assert codes(deck) == ["DQ4003", "DQ4004", "DQ4005"]


def test_I1_unknown_card_has_a_hint_and_the_entry_s_span():
    span = Span("x.quest", 7, 10, 7, 16)
    found = check_deck(Deck("d", "d", (("knigt", 50),), (("parry", 50),)), CARDS, {("main", 0): span})
    assert [(d.code, d.span, d.hint) for d in found] == [("DQ4008", span, "did you mean `knight`?")]


def test_I2_blessing_skill_levels_total_at_most_ten():
    blessed = CardSet({**CARDS.cards, "gift": CardDef("gift", "Gift", UNIT, range="near", blessing=4)})
    fine = Deck("d", "d", (("knight", 48), ("gift", 2)), (("parry", 50),))
    too_many = Deck("d", "d", (("knight", 47), ("gift", 3)), (("parry", 50),))
    assert codes(fine, blessed) == [] and codes(too_many, blessed) == ["DQ4006"]


def test_I2_a_unique_card_at_most_once_across_decks_and_status():
    unique = CardSet({**CARDS.cards, "hero": CardDef("hero", "Hero", UNIT, range="near", unique=True)})
    assert codes(Deck("d", "d", (("knight", 49), ("hero", 1)), (("parry", 50),)), unique) == []
    assert codes(Deck("d", "d", (("knight", 48), ("hero", 2)), (("parry", 50),)), unique) == ["DQ4007"]


@pytest.mark.parametrize("condition, ok", [
    (Condition("your main deck", 5, True), True),
    (Condition("your graveyard", 5, True), False),
    (Condition("your main deck", 101, True), False),
    (Condition("your hand", 0, False), False),
])
def test_I18_a_reversal_condition_must_be_able_to_fail_and_succeed(condition, ok):
    card = CardDef("p", "P", UNIT, range="near", reversal=condition)
    assert [d.code for d in check_card(card)] == ([] if ok else ["DQ4009"])


def test_the_system_registers_every_reading_with_its_default_and_seed_line():
    assert REGISTRY.get("isekai") is IsekaiSystem
    assert [r.rule for r in IsekaiSystem.readings] == [f"I-R{n}" for n in range(1, 9)]
    lines = SEED.read_text(encoding="utf-8").splitlines() if SEED.exists() else None
    for reading in IsekaiSystem.readings:
        match = re.fullmatch(r"seeds/002_bcf54f510b6a7297\.txt:(\d+)", reading.source)
        assert match, reading.source
        if lines is not None:
            assert int(match.group(1)) <= len(lines)
    assert Rules.from_readings(IsekaiSystem.default_readings()) == Rules()
    assert "DQ4001" in IsekaiSystem.codes and "DQ3999" not in IsekaiSystem.codes


def test_an_unknown_reading_value_is_refused():
    with pytest.raises(ValueError):
        Rules.from_readings({"mana_charge": "square"})
