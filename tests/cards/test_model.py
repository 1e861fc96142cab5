"""Unit tests of the card model: mana costs, type lines, colours (T-1.4, T-1.5)."""

from __future__ import annotations

import pytest

from deckquest.cards.model import Card, ManaCost, ManaCostError, TypeLine


@pytest.mark.parametrize(
    "text, mana_value, colors",
    [
        ("{2}{G}{G}", 4, ("G",)),
        ("{G}", 1, ("G",)),
        ("{X}{R}", 1, ("R",)),  # T-1.5: X counts 0
        ("{X}{W}{U}{U}", 3, ("W", "U")),
        ("{1}{G/W}{G/W}", 3, ("W", "G")),  # hybrid: 1 each, both colours
        ("{2/W}{2/W}{2/W}", 6, ("W",)),  # two-brid: 2 each
        ("{U/P}", 1, ("U",)),  # Phyrexian: 1
        ("{1}{B/P}{B/P}", 3, ("B",)),
        ("{W/U/P}", 1, ("W", "U")),  # hybrid Phyrexian
        ("{3}{C}", 4, ()),
        ("{S}", 1, ()),
        ("{11}", 11, ()),
        ("{0}", 0, ()),
        ("", 0, ()),
        ("{R}{W}", 2, ("W", "R")),  # colours come back in WUBRG order
    ],
)
def test_mana_cost_parse_value_and_colours(text, mana_value, colors):
    """T-1.5: the mana value of a cost; T-1.4: the colours its symbols give."""
    cost = ManaCost.parse(text)
    assert cost.mana_value == mana_value
    assert cost.colors == colors
    assert str(cost) == text


@pytest.mark.parametrize(
    "text, kinds",
    [
        ("{2}{G}", ("generic", "colored")),
        ("{G/W}", ("hybrid",)),
        ("{C/G}", ("hybrid",)),
        ("{2/R}", ("twobrid",)),
        ("{G/P}", ("phyrexian",)),
        ("{C}", ("colorless",)),
        ("{S}", ("snow",)),
        ("{X}{Y}", ("variable", "variable")),
    ],
)
def test_mana_symbol_kinds(text, kinds):
    assert tuple(symbol.kind for symbol in ManaCost.parse(text).symbols) == kinds


def test_mana_cost_parse_is_case_insensitive_but_keeps_the_text():
    cost = ManaCost.parse("{1}{g}")
    assert cost.mana_value == 2
    assert cost.colors == ("G",)


@pytest.mark.parametrize("text", ["{Q}", "2GG", "{2}x", "x{2}", "{G/Q}", "{2/2}", "{G/W/U}", "{}"])
def test_mana_cost_parse_rejects_bad_text(text):
    with pytest.raises(ManaCostError):
        ManaCost.parse(text)


def test_mana_cost_error_is_a_value_error():
    """Loaders catch ValueError to turn a bad cost into their own error."""
    assert issubclass(ManaCostError, ValueError)


@pytest.mark.parametrize(
    "text, supertypes, card_types, subtypes",
    [
        ("Instant", (), ("Instant",), ()),
        (
            "Legendary Creature — Goblin Warrior",
            ("Legendary",),
            ("Creature",),
            ("Goblin", "Warrior"),
        ),
        ("Basic Snow Land — Forest", ("Basic", "Snow"), ("Land",), ("Forest",)),
        ("Artifact Creature — Thopter", (), ("Artifact", "Creature"), ("Thopter",)),
        ("Land Creature — Forest Dryad", (), ("Land", "Creature"), ("Forest", "Dryad")),
        ("Legendary Planeswalker — Ajani", ("Legendary",), ("Planeswalker",), ("Ajani",)),
        ("Creature - Bear", (), ("Creature",), ("Bear",)),  # ASCII hyphen accepted
        ("Land", (), ("Land",), ()),
    ],
)
def test_type_line_parse(text, supertypes, card_types, subtypes):
    line = TypeLine.parse(text)
    assert (line.supertypes, line.card_types, line.subtypes) == (supertypes, card_types, subtypes)


def test_type_line_str_uses_the_em_dash():
    assert str(TypeLine.parse("Creature - Elf Druid")) == "Creature — Elf Druid"
    assert str(TypeLine.parse("Sorcery")) == "Sorcery"


def test_card_build_derives_colours_and_mana_value_from_the_cost():
    """T-1.4 and T-1.5 (worked example E1: Runeclaw Bear is green, mana value 2)."""
    bear = Card.build("Runeclaw Bear", "{1}{G}", "Creature — Bear", power="2", toughness="2")
    assert bear.colors == ("G",)
    assert bear.color_identity == ("G",)
    assert bear.mana_value == 2
    assert bear.is_creature and not bear.is_land


def test_card_build_devoid_is_colourless_but_keeps_its_identity():
    """T-4.6 / E3: a devoid Eldrazi counts as colourless."""
    drone = Card.build(
        "Dominator Drone", "{2}{B}", "Creature — Eldrazi Drone", keywords=("Devoid", "Ingest")
    )
    assert drone.colors == ()
    assert drone.color_identity == ("B",)
    assert drone.mana_value == 3


def test_card_build_colour_indicator_overrides_the_cost():
    arbor = Card.build("Dryad Arbor", None, "Land Creature — Forest Dryad", colors=("G",))
    assert arbor.colors == ("G",)
    assert arbor.mana_value == 0
    assert arbor.basic_land_types == ("Forest",)


def test_card_build_identity_includes_mana_symbols_in_the_rules_text():
    myr = Card.build("Iron Myr", "{2}", "Artifact Creature — Myr", oracle_text="{T}: Add {R}.")
    assert myr.colors == ()
    assert myr.color_identity == ("R",)


def test_card_build_land_identity_from_basic_land_types():
    """T-1.4: a land with basic land types; the card itself stays colourless."""
    sea = Card.build("Underground Sea", None, "Land — Island Swamp")
    assert sea.colors == ()
    assert sea.color_identity == ("U", "B")
    assert sea.basic_land_types == ("Island", "Swamp")
    gate = Card.build("Gruul Guildgate", None, "Land — Gate")
    assert gate.basic_land_types == ()


def test_card_build_ignores_unknown_symbols_in_rules_text():
    card = Card.build("Odd", "{1}", "Artifact", oracle_text="{T}: Do {Q} things.")
    assert card.color_identity == ()


def test_card_build_explicit_mana_value_wins():
    card = Card.build("Token", None, "Creature — Goblin", mana_value=0, colors=("R",))
    assert card.mana_value == 0 and card.colors == ("R",)


def test_card_build_bad_cost_raises_mana_cost_error():
    with pytest.raises(ManaCostError):
        Card.build("Broken", "{G}{Q}", "Creature — Bear")


def test_has_keyword_is_case_insensitive():
    angel = Card.build(
        "Serra Angel", "{3}{W}{W}", "Creature — Angel", keywords=("Flying", "Vigilance")
    )
    assert angel.has_keyword("flying") and angel.has_keyword("VIGILANCE")
    assert not angel.has_keyword("Trample")
    assert angel.is_type("Creature") and not angel.is_type("Artifact")


def test_cards_are_immutable_values():
    a = Card.build("Grizzly Bears", "{1}{G}", "Creature — Bear", power="2", toughness="2")
    b = Card.build("Grizzly Bears", "{1}{G}", "Creature — Bear", power="2", toughness="2")
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.name = "Other"  # type: ignore[misc]


def test_cards_survive_pickling_and_copying_with_every_field():
    """`sim --scheduler` (and `sim --jobs` where processes are spawned) pickles a scenario's
    cards for its workers. In the compiled build a frozen card restored by setting its fields
    one by one was refused (FrozenInstanceError), so each field given here must come back, and
    the copy must be an equal card."""
    import copy
    import pickle

    card = Card.build(
        "Fire // Ice", "{1}{R}", "Legendary Creature — Goblin", colors=["R", "U"], color_identity=["U", "R"],
        power="2", toughness="*", loyalty="3", keywords=["Haste"], oracle_text="{U}: draw.",
        is_token=True, name_ja="火／氷", mana_value=4, face_costs=["{1}{R}", "{1}{U}"],
    )
    for twin in (pickle.loads(pickle.dumps(card)), copy.deepcopy(card), copy.copy(card)):
        assert twin == card and hash(twin) == hash(card)
        assert twin.mana_cost == ManaCost.parse("{1}{R}") and twin.face_costs == ("{1}{R}", "{1}{U}")
        assert twin.type_line == TypeLine.parse("Legendary Creature — Goblin")
