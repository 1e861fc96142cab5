"""A GM's own cards (`card id "Name":`) and NPC `text` lines: rules text in the effect
vocabulary, usable in NPC decks (T-8.3) and as planeswalker loyalty abilities (T-8.2)."""

from __future__ import annotations

from deckquest.cards.oracle import recognise
from dsl_helpers import compile_in, diagnostics_of, errors_of, scene

SHAMAN = '''card shaman "Goblin Shaman":
    cost "{2}{R}"
    type "Creature — Goblin Shaman"
    stats 2/2
    keywords haste
    text "When Goblin Shaman enters, create a 1/1 red Goblin creature token."
    text "{T}: Goblin Shaman deals 1 damage to target player or planeswalker."
'''
FIREBOMB = '''card firebomb "Goblin Firebomb":
    cost "{1}{R}"
    type "Instant"
    text "Goblin Firebomb deals 2 damage to any target."
'''
GRUM = '''card grum_card "Mother Grum":
    cost "{2}{R}{R}"
    type "Legendary Planeswalker — Grum"
    loyalty 4
    text "+1: Create a 1/1 red Goblin creature token."
    text "-2: Mother Grum deals 3 damage to target creature."
'''
BATTLE = 'battle against boss:\n    victory:\n        end victory "Won."\n    defeat:\n        end defeat "Lost."'


def test_card_declaration_builds_a_card(pack, db):
    scenario = compile_in(pack, scene('end victory "Done."', SHAMAN), db)
    card = scenario.cards["Goblin Shaman"]
    assert (str(card.mana_cost), str(card.type_line), card.power, card.toughness) == ("{2}{R}", "Creature — Goblin Shaman", "2", "2")
    assert card.keywords == ("Haste",) and card.colors == ("R",)
    recognition = recognise(card)
    assert recognition.level == "full"
    assert [a.timing for a in recognition.abilities] == ["enters", "activated"]


def test_custom_cards_in_a_player_npc_deck_t_8_3(pack, db):
    """T-8.3: a player-type NPC's deck may name the GM's own cards."""
    (pack / "decks" / "grum.txt").write_text("24 Mountain\n20 Goblin Shaman\n16 Goblin Firebomb\n")
    declarations = SHAMAN + FIREBOMB + 'player boss "Grum\'s Champion":\n    deck "decks/grum.txt"\n'
    scenario = compile_in(pack, scene(BATTLE, declarations), db)
    deck = scenario.npcs["boss"].deck
    assert deck.count_of("Goblin Shaman") == 20 and deck.count_of("Goblin Firebomb") == 16
    assert {c.name for c in deck.main_cards()} == {"Mountain", "Goblin Shaman", "Goblin Firebomb"}
    assert any(c is scenario.cards["Goblin Shaman"] for c in deck.main_cards())


def test_an_unknown_card_in_a_deck_next_to_the_gms_cards_is_dq1001_not_a_crash(pack, db):
    """With the script's cards layered over the card database, a misspelt name (here the
    GM's own card) still gets its located error and a hint from both layers."""
    (pack / "decks" / "grum.txt").write_text("24 Mountain\n20 Goblin Shamann\n16 Lightnig Bolt\n")
    declarations = SHAMAN + 'player boss "Grum\'s Champion":\n    deck "decks/grum.txt"\n'
    found = diagnostics_of(pack, scene(BATTLE, declarations), db)
    assert [(d.code, d.span.line) for d in found] == [("DQ1001", 2), ("DQ1001", 3)]
    assert "`Goblin Shaman`" in found[0].hint and "`Lightning Bolt`" in found[1].hint


def test_custom_planeswalker_as_an_npc_t_8_2(pack, db):
    """T-8.2: a planeswalker NPC from the GM's card has its loyalty and loyalty abilities."""
    declarations = GRUM + 'planeswalker grum "Mother Grum" from card "Mother Grum"\n'
    scenario = compile_in(pack, scene("encounter grum\nend victory \"Done.\"", declarations), db)
    card = scenario.npcs["grum"].battle_card()
    assert card.loyalty == "4" and card.is_type("Planeswalker")
    abilities = recognise(card).abilities
    assert [a.cost.loyalty for a in abilities] == [1, -2]


def test_npc_text_lines_are_loyalty_abilities(pack, db):
    declarations = ('planeswalker sage "The Hermit Sage":\n    cost "{2}{G}{G}"\n    loyalty 3\n'
                    '    text "+1: You gain 2 life."\n    text "-3: Destroy target creature with power 4 or greater."\n')
    scenario = compile_in(pack, scene("encounter sage\nend victory \"Done.\"", declarations), db)
    sage = scenario.npcs["sage"]
    assert sage.texts == ("+1: You gain 2 life.", "-3: Destroy target creature with power 4 or greater.")
    recognition = recognise(sage.battle_card())
    assert recognition.level == "full"
    assert [a.cost.loyalty for a in recognition.abilities] == [1, -3]


def test_creature_npc_from_card_keeps_its_text_under_its_own_name(pack, db):
    declarations = 'creature guide "Cave Guide" from card "Goblin Guide":\n    text "When Cave Guide dies, draw a card."\n'
    scenario = compile_in(pack, scene("encounter guide\nend victory \"Done.\"", declarations), db)
    card = scenario.npcs["guide"].battle_card()
    assert card.name == "Cave Guide" and card.power == "2"
    assert "Whenever Cave Guide attacks" in card.oracle_text
    assert [a.timing for a in recognise(card).abilities] == ["attacks", "dies"]  # its own attack trigger too


def test_text_outside_the_vocabulary_is_dq0058(pack, db):
    bad = FIREBOMB.replace("Goblin Firebomb deals 2 damage to any target.", "Take an extra turn after this one.")
    diagnostics = diagnostics_of(pack, scene('end victory "Done."', bad), db)
    (problem,) = [d for d in diagnostics if d.severity == "error"]
    assert problem.code == "DQ0058"
    assert problem.message == 'the battle engine does not understand "Take an extra turn after this one."'
    assert problem.span.line == 12 and problem.hint


def test_npc_text_outside_the_vocabulary_is_dq0058(pack, db):
    declarations = 'planeswalker sage "Sage":\n    loyalty 3\n    text "+1: Look at target player\'s hand."\n'
    assert errors_of(pack, scene("encounter sage\nend victory \"Done.\"", declarations), db) == ["DQ0058"]


def test_card_without_type_is_dq0055(pack, db):
    assert errors_of(pack, scene('end victory "Done."', 'card c "C":\n    cost "{R}"\n'), db) == ["DQ0055"]


def test_creature_card_without_stats_is_dq0055(pack, db):
    text = 'card c "C":\n    type "Creature — Goblin"\n'
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0055"]


def test_stats_on_an_instant_is_dq0056(pack, db):
    text = 'card c "C":\n    type "Instant"\n    stats 2/2\n'
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0056"]


def test_npc_line_in_a_card_is_a_syntax_error(pack, db):
    text = 'card c "C":\n    type "Instant"\n    life 3\n'
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0001"]


def test_type_line_without_a_card_type_is_dq0057(pack, db):
    text = 'card c "C":\n    type "Goblin Warrior"\n'
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0057"]


def test_unknown_keyword_is_dq0057_with_a_suggestion(pack, db):
    text = 'card c "C":\n    type "Creature — Goblin"\n    stats 1/1\n    keywords hast\n'
    (problem,) = [d for d in diagnostics_of(pack, scene('end victory "Done."', text), db) if d.severity == "error"]
    assert problem.code == "DQ0057" and problem.hint == "did you mean `haste`?"


def test_bad_cost_is_dq0057(pack, db):
    text = 'card c "C":\n    type "Instant"\n    cost "one red"\n    text "Draw a card."\n'
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0057"]


def test_field_twice_is_dq0021_but_text_may_repeat(pack, db):
    text = 'card c "C":\n    type "Instant"\n    cost "{R}"\n    cost "{R}"\n    text "Draw a card."\n    text "You gain 1 life."\n'
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0021"]


def test_same_card_name_twice_is_dq0030(pack, db):
    text = FIREBOMB + FIREBOMB.replace("card firebomb", "card firebomb2")
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0030"]


def test_same_card_id_twice_is_dq0030(pack, db):
    text = FIREBOMB + FIREBOMB.replace('"Goblin Firebomb":', '"Other Bomb":').replace(
        "Goblin Firebomb deals", "Other Bomb deals")
    assert errors_of(pack, scene('end victory "Done."', text), db) == ["DQ0030"]
