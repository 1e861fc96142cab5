"""Deck lists in the MTGO and Arena text formats (docs/decklists.md).

A deck is a player character (T-1.1); a Commander deck designates 5 critical
cards instead of 3 (T-4.7), so telling the two apart and counting the
commander in are tested here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.cards.database import CardDatabase, CardIndex
from deckquest.cards.decklist import Deck, DeckEntry, load_deck, parse_deck
from deckquest.cards.model import Card
from deckquest.errors import CompileError, DeckquestError, Span

CARDS = [
    Card.build("Lightning Bolt", "{R}", "Instant", name_ja="稲妻"),
    Card.build("Forest", None, "Basic Land — Forest", name_ja="森"),
    Card.build("Mountain", None, "Basic Land — Mountain", name_ja="山"),
    Card.build("Duress", "{B}", "Sorcery"),
    Card.build("Boom // Bust", "{1}{R}", "Sorcery"),
    Card.build("Sol Ring", "{1}", "Artifact"),
    Card.build("Atraxa, Praetors' Voice", "{G}{W}{U}{B}", "Legendary Creature — Phyrexian Angel Horror",
               power="4", toughness="4"),
    Card.build("Lurrus of the Dream-Den", "{3}{W/B}{W/B}", "Legendary Creature — Cat Nightmare",
               power="3", toughness="2"),
    Card.build("Zombie", None, "Token Creature — Zombie", power="2", toughness="2", is_token=True),
]


@pytest.fixture(scope="module")
def db() -> CardDatabase:
    return CardDatabase(CardIndex(CARDS))


def parse(text: str, db: CardDatabase) -> Deck:
    return parse_deck(text, "deck.txt", db)


def errors_of(text: str, db: CardDatabase) -> list:
    with pytest.raises(CompileError) as caught:
        parse(text, db)
    return caught.value.diagnostics


def only_error(text: str, db: CardDatabase):
    (diagnostic,) = errors_of(text, db)
    return diagnostic


def names(entries: list[DeckEntry]) -> list[tuple[int, str]]:
    return [(entry.count, entry.card.name) for entry in entries]


# MTGO format


def test_mtgo_counts_with_and_without_x(db):
    deck = parse("4 Lightning Bolt\n4x Forest\n2X Mountain\n", db)
    assert names(deck.main) == [(4, "Lightning Bolt"), (4, "Forest"), (2, "Mountain")]
    assert deck.size == 10


def test_mtgo_blank_line_starts_the_sideboard(db):
    deck = parse("\n\n4 Lightning Bolt\n20 Mountain\n\n2 Duress\n\n1 Sol Ring\n", db)
    assert names(deck.main) == [(4, "Lightning Bolt"), (20, "Mountain")]
    assert names(deck.sideboard) == [(2, "Duress"), (1, "Sol Ring")]


def test_mtgo_sb_prefix_marks_sideboard_lines_and_blank_lines_are_separators(db):
    deck = parse("4 Lightning Bolt\n\n20 Mountain\nSB: 2 Duress\nsb:1 Sol Ring\n", db)
    assert names(deck.main) == [(4, "Lightning Bolt"), (20, "Mountain")]
    assert names(deck.sideboard) == [(2, "Duress"), (1, "Sol Ring")]


# Arena format


ARENA = """\
About
Name Red Deck Wins

Deck
4 Lightning Bolt (M10) 146
20 Mountain (2XM) 117
1 Boom // Bust (TSR) 146a
1 Sol Ring (PLST) ★

Sideboard
2 Duress (m21) 88
"""


def test_arena_sections_name_and_set_codes(db):
    deck = parse(ARENA, db)
    assert deck.name == "Red Deck Wins"
    assert names(deck.main) == [(4, "Lightning Bolt"), (20, "Mountain"), (1, "Boom // Bust"), (1, "Sol Ring")]
    assert names(deck.sideboard) == [(2, "Duress")]
    printings = [(e.set_code, e.collector_number) for e in deck.main + deck.sideboard]
    assert printings == [("M10", "146"), ("2XM", "117"), ("TSR", "146a"), ("PLST", "★"), ("M21", "88")]


def test_arena_set_code_without_collector_number(db):
    (entry,) = parse("1 Sol Ring (C21)\n", db).main
    assert (entry.card.name, entry.set_code, entry.collector_number) == ("Sol Ring", "C21", None)


def test_moxfield_and_archidekt_marks_after_the_printing_are_dropped(db):
    """Moxfield marks foils `*F*` (etched `*E*`); Archidekt appends `[Category]` and `^Tag^`."""
    deck = parse("1 Lightning Bolt (M10) 146 *F*\n1x Sol Ring (C21) 263 [Ramp] ^Have^\n"
                 "2 Mountain [Lands]\n1 Duress (M21) 88 *E*\n", db)
    assert names(deck.main) == [(1, "Lightning Bolt"), (1, "Sol Ring"), (2, "Mountain"), (1, "Duress")]
    assert [(e.set_code, e.collector_number) for e in deck.main] == [
        ("M10", "146"), ("C21", "263"), (None, None), ("M21", "88")]
    error = only_error("4 Lightnig Bolt (M10) 146 *F*\n", db)
    assert error.code == "DQ1001" and error.message == "unknown card `Lightnig Bolt`"


def test_entry_span_covers_the_name_as_written(db):
    entry = parse("Deck\n  4x Lightning Bolt (M10) 146\n", db).main[0]
    assert entry.name_as_written == "Lightning Bolt"
    assert entry.span == Span("deck.txt", 2, 6, 2, 20)


def test_headers_are_case_insensitive_and_may_have_a_colon_or_a_tally(db):
    deck = parse("DECK:\n4 Lightning Bolt\nsideboard (2)\n2 Duress\n", db)
    assert names(deck.main) == [(4, "Lightning Bolt")]
    assert names(deck.sideboard) == [(2, "Duress")]


def test_japanese_arena_headers(db):
    deck = parse("デッキ\n4 稲妻\n\nサイドボード\n2 Duress\n", db)
    assert names(deck.main) == [(4, "Lightning Bolt")]
    assert names(deck.sideboard) == [(2, "Duress")]


def test_explicit_deck_header_then_unlabelled_sideboard_after_blank_line(db):
    deck = parse("Deck\n4 Lightning Bolt\n\n2 Duress\n", db)
    assert names(deck.sideboard) == [(2, "Duress")]


def test_companion_stays_outside_the_deck(db):
    deck = parse("Companion\n1 Lurrus of the Dream-Den\n\nDeck\n4 Lightning Bolt\n", db)
    assert names(deck.companion) == [(1, "Lurrus of the Dream-Den")]
    assert deck.size == 4
    assert deck.count_of("Lurrus of the Dream-Den") == 0


# Commander decks (T-4.7: 5 critical cards for a Commander deck)


COMMANDER = "Commander\n1 Atraxa, Praetors' Voice (2XM) 190\n\nDeck\n1 Sol Ring\n98 Forest\n"


def test_t4_7_commander_section_makes_a_commander_deck_and_the_commander_is_in_the_library(db):
    deck = parse(COMMANDER, db)
    assert deck.is_commander
    assert names(deck.commander) == [(1, "Atraxa, Praetors' Voice")]
    assert deck.size == 100
    cards = deck.main_cards()
    assert len(cards) == 100
    assert cards[0].name == "Atraxa, Praetors' Voice"
    assert deck.count_of("atraxa, praetors' voice") == 1


def test_t4_7_blank_line_after_commander_section_returns_to_the_main_deck(db):
    deck = parse("Commander\n1 Atraxa, Praetors' Voice\n\n1 Sol Ring\n98 Forest\n", db)
    assert names(deck.main) == [(1, "Sol Ring"), (98, "Forest")]
    assert deck.sideboard == []


def test_t4_7_a_100_card_list_without_commander_section_is_a_commander_deck(db):
    assert parse("1 Sol Ring\n99 Forest\n", db).is_commander
    assert not parse("40 Forest\n20 Mountain\n", db).is_commander


def test_commander_section_may_follow_the_deck(db):
    deck = parse("Deck\n1 Sol Ring\n98 Forest\n\nCommander\n1 Atraxa, Praetors' Voice\n", db)
    assert deck.size == 100 and deck.sideboard == []


# Deck methods


def test_main_cards_has_one_element_per_copy_in_list_order(db):
    deck = parse("2 Lightning Bolt\n1 Forest\n1 Lightning Bolt\n\n3 Duress\n", db)
    assert [card.name for card in deck.main_cards()] == ["Lightning Bolt"] * 2 + ["Forest", "Lightning Bolt"]


def test_count_of_sums_lines_and_accepts_english_japanese_and_any_case(db):
    deck = parse("10 Forest\n7 森\n4 Lightning Bolt\n\n2 Forest\n", db)
    assert deck.count_of("Forest") == 17
    assert deck.count_of("森") == 17
    assert deck.count_of("FOREST") == 17
    assert deck.count_of("稲妻") == 4
    assert deck.count_of("Duress") == 0


def test_count_of_split_card_by_full_or_front_name(db):
    deck = parse("2 Boom // Bust\n", db)
    assert deck.count_of("Boom // Bust") == deck.count_of("Boom") == 2


def test_t6_13_horde_deck_names_tokens_as_cards(db):
    deck = parse("40 Zombie\n20 Lightning Bolt\n", db)
    assert deck.count_of("Zombie") == 40 and deck.main_cards()[0].is_token


# Names and text details


def test_japanese_names_and_full_width_digits(db):
    deck = parse("4 森\n４　山\n", db)
    assert names(deck.main) == [(4, "Forest"), (4, "Mountain")]
    assert deck.main[1].name_as_written == "山"


def test_names_are_case_insensitive(db):
    assert names(parse("4 lightning BOLT\n", db).main) == [(4, "Lightning Bolt")]


@pytest.mark.parametrize("written", ["Boom // Bust", "Boom", "boom//bust", "Boom /// Bust"])
def test_split_card_by_full_name_or_front_face(db, written):
    (entry,) = parse(f"1 {written}\n", db).main
    assert entry.card.name == "Boom // Bust"
    assert entry.name_as_written == written


def test_split_card_database_keyed_by_front_face(db):
    front_only = CardDatabase(CardIndex([Card.build("Fire", "{1}{R}", "Instant")]))
    assert parse("1 Fire // Ice\n", front_only).main[0].card.name == "Fire"
    (entry,) = parse("1 Fire // Ice (DMR) 12\n", front_only).main
    assert (entry.card.name, entry.name_as_written, entry.set_code) == ("Fire", "Fire // Ice", "DMR")


@pytest.mark.parametrize("name", ["Erase (Not the Urza's Legacy One)", "Goblin Chief (Boss)"])
def test_a_name_ending_in_parentheses_is_not_mistaken_for_a_set_code(name):
    """A real card, and a card a GM made up in the user database, may end in `(...)`."""
    card = Card.build(name, "{W}", "Instant")
    (entry,) = parse(f"1 {name}\n", CardDatabase(CardIndex([card]))).main
    assert entry.card is card and entry.set_code is None


def test_comments_trailing_whitespace_and_indentation(db):
    text = "# Burn\n// Creatures: none\n  4 Lightning Bolt   \t\n   // spells\n20 Mountain \n"
    deck = parse(text, db)
    assert names(deck.main) == [(4, "Lightning Bolt"), (20, "Mountain")]


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_endings_keep_line_numbers(db, newline):
    deck = parse(newline.join(["4 Lightning Bolt", "20 Mountain", "", "2 Duress"]), db)
    assert deck.main[1].span.line == 2
    assert deck.sideboard[0].span.line == 4


def test_byte_order_mark_is_ignored_in_text_and_files(db, tmp_path):
    assert parse("\ufeff4 Lightning Bolt\n", db).main[0].span.col == 3
    path = tmp_path / "bom.txt"
    path.write_bytes("4 Lightning Bolt\r\n".encode("utf-8-sig"))
    deck = load_deck(path, db)
    assert deck.path == str(path) and deck.size == 4


# Errors: every bad line, with the span of the exact token and a hint


def test_unknown_card_points_at_the_name_and_suggests(db):
    error = only_error("4 Lightning Bolt\n4x  Lightnig Bolt (M10) 146\n", db)
    assert (error.code, error.severity) == ("DQ1001", "error")
    assert error.message == "unknown card `Lightnig Bolt`"
    assert error.span == Span("deck.txt", 2, 5, 2, 18)
    assert error.hint == ("did you mean `Lightning Bolt`? If it is another card, import it with "
                          "`deckquest cards import`")
    assert error.source_line == "4x  Lightnig Bolt (M10) 146"


def test_unknown_card_with_a_close_name_also_hints_at_importing(db):
    """A real card missing from the database can look like a typo of a known one (`Snapcaster
    Mage` is close to nothing, `Lightning Bolts` is close to `Lightning Bolt`): the hint gives
    both the closest name and the way to add the card (issue 2)."""
    error = only_error("4 Lightning Bolts\n", db)
    assert error.hint.startswith("did you mean `Lightning Bolt`?")
    assert "deckquest cards import" in error.hint


def test_unknown_card_without_a_close_name_hints_at_importing(db):
    error = only_error("1 Xyzzy Qwerty\n", db)
    assert "deckquest cards import" in error.hint


def test_unknown_card_in_the_sideboard_is_reported_too(db):
    error = only_error("4 Lightning Bolt\nSB: 2 Durress\n", db)
    assert error.span == Span("deck.txt", 2, 7, 2, 14)
    assert error.hint.startswith("did you mean `Duress`?")


@pytest.mark.parametrize(
    ("line", "code", "message", "end_col"),
    [
        ("0 Forest", "DQ1003", "count must be at least 1, not `0`", 2),
        ("0x Forest", "DQ1003", "count must be at least 1, not `0x`", 3),
        ("-2 Forest", "DQ1003", "count must be at least 1, not `-2`", 3),
        ("251 Forest", "DQ1003", "count `251` is too large (at most 250)", 4),
        ("9" * 20 + " Forest", "DQ1003", f"count `{'9' * 20}` is too large (at most 250)", 21),
        ("4a Forest", "DQ1002", "count `4a` is not a whole number", 3),
        ("2.5 Forest", "DQ1002", "count `2.5` is not a whole number", 4),
        ("four Forest", "DQ1002", "count `four` is not a whole number", 5),
    ],
)
def test_bad_count_points_at_the_count(db, line, code, message, end_col):
    error = only_error(f"4 Lightning Bolt\n{line}\n", db)
    assert (error.code, error.message) == (code, message)
    assert error.span == Span("deck.txt", 2, 1, 2, end_col)
    assert error.hint


def test_count_of_250_is_allowed(db):
    assert parse("250 Forest\n", db).size == 250


def test_missing_count(db):
    error = only_error("4 Lightning Bolt\n  Forest (M10) 250\n", db)
    assert (error.code, error.message) == ("DQ1004", "missing count before `Forest`")
    assert error.span == Span("deck.txt", 2, 3, 2, 9)
    assert error.hint == "write `1 Forest` for one copy"


def test_count_without_a_name(db):
    error = only_error("4 Lightning Bolt\n4\n", db)
    assert error.code == "DQ1005" and error.span == Span("deck.txt", 2, 1, 2, 2)


def test_sb_prefix_without_a_card(db):
    error = only_error("4 Lightning Bolt\nSB:\n", db)
    assert error.code == "DQ1005" and error.message == "expected a card after `SB:`"


def test_a_line_that_is_not_a_card_line(db):
    error = only_error("4 Lightning Bolt\nburn them all\n", db)
    assert (error.code, error.message) == ("DQ1005", "not a card line")
    assert error.span == Span("deck.txt", 2, 1, 2, 14)
    assert "4 Lightning Bolt" in error.hint


@pytest.mark.parametrize(
    ("line", "title", "hint"),
    [
        ("Sidebord", "Sidebord", "did you mean `Sideboard`?"),
        ("Creatures:", "Creatures", "the sections are Deck, Sideboard, Commander, Companion, About"),
        ("Maybe Board (3)", "Maybe Board", None),
    ],
)
def test_unknown_section_header(db, line, title, hint):
    error = only_error(f"4 Lightning Bolt\n{line}\n", db)
    assert (error.code, error.message) == ("DQ1006", f"unknown section header `{title}`")
    assert error.span == Span("deck.txt", 2, 1, 2, 1 + len(title))
    assert hint is None or error.hint == hint


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "Deck\n\nSideboard\n"])
def test_empty_deck(db, text):
    with pytest.raises(DeckquestError) as caught:
        parse(text, db)
    assert caught.value.code == "DQ1007"
    assert caught.value.span == Span("deck.txt")


def test_empty_deck_with_only_a_sideboard_explains_the_blank_line(db):
    with pytest.raises(DeckquestError) as caught:
        parse("\nSB: 2 Duress\n", db)
    assert caught.value.code == "DQ1007" and "sideboard" in caught.value.hint


def test_every_bad_line_is_reported_at_once(db):
    text = "4 Lightnig Bolt\n20 Mountain\n0 Forest\nhello there\n\nSB: 1 Durres\n"
    found = [(d.span.line, d.code) for d in errors_of(text, db)]
    assert found == [(1, "DQ1001"), (3, "DQ1003"), (4, "DQ1005"), (6, "DQ1001")]


def test_a_line_with_bad_count_and_unknown_name_reports_both(db):
    assert [d.code for d in errors_of("0 Lightnig Bolt\n", db)] == ["DQ1003", "DQ1001"]


def test_rendered_errors_look_like_a_compiler(db):
    with pytest.raises(CompileError) as caught:
        parse("4 Lightning Bolt\n4 Lightnig Bolt\n0 Forest\n", db)
    assert caught.value.render() == (
        "deck.txt:2:3: error[DQ1001]: unknown card `Lightnig Bolt`\n"
        "    4 Lightnig Bolt\n"
        "      ^^^^^^^^^^^^^\n"
        "hint: did you mean `Lightning Bolt`? If it is another card, import it with `deckquest cards import`\n"
        "deck.txt:3:1: error[DQ1003]: count must be at least 1, not `0`\n"
        "    0 Forest\n"
        "    ^\n"
        "hint: delete the line to leave the card out\n"
        "2 errors"
    )


# Errors: files


def test_missing_file(db, tmp_path):
    with pytest.raises(DeckquestError) as caught:
        load_deck(tmp_path / "nope.txt", db)
    assert caught.value.code == "DQ1008" and "does not exist" in caught.value.message


def test_directory_is_not_a_deck_list(db, tmp_path):
    with pytest.raises(DeckquestError) as caught:
        load_deck(tmp_path, db)
    assert "is a directory" in caught.value.message


def test_shift_jis_file_points_at_the_first_bad_byte(db, tmp_path):
    path = tmp_path / "sjis.txt"
    path.write_bytes("4 Lightning Bolt\r\n20 森\r\n".encode("shift_jis"))
    with pytest.raises(DeckquestError) as caught:
        load_deck(path, db)
    error = caught.value
    assert error.code == "DQ1008" and "not UTF-8" in error.message
    assert error.span == Span(str(path), 2, 4, 2, 5)
    assert "Shift_JIS" in error.hint
    assert error.render().startswith(f"{path}:2:4: error[DQ1008]: deck list is not UTF-8 text (byte 0x90)\n")


def test_utf16_file_gets_a_utf16_hint(db, tmp_path):
    path = tmp_path / "utf16.txt"
    path.write_bytes("4 Lightning Bolt\n".encode("utf-16"))
    with pytest.raises(DeckquestError) as caught:
        load_deck(path, db)
    assert "UTF-16" in caught.value.hint


def test_utf16_without_bom_is_caught_by_its_nul_bytes(db, tmp_path):
    path = tmp_path / "utf16le.txt"
    path.write_bytes("4 Lightning Bolt\n".encode("utf-16-le"))
    with pytest.raises(DeckquestError) as caught:
        load_deck(path, db)
    assert "NUL" in caught.value.message and caught.value.span.line == 1


# Robustness: random input is a user error at worst, never a crash

CARD_LINE_PIECES = st.sampled_from(
    ["4", "4x", "0", "-1", "SB:", "Deck", "Sideboard", "Commander", "About", "Name", "Lightning Bolt",
     "Boom // Bust", "//", "#", "(M10)", "146", "★", "森", "(", ")", " ", "\t", "\ufeff", "\r", ":"]
)
LINES = st.one_of(st.text(max_size=30), st.lists(CARD_LINE_PIECES, max_size=6).map("".join))


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=12).map("\n".join))
def test_random_text_raises_only_deckquest_errors(db, text):
    try:
        deck = parse(text, db)
    except DeckquestError as error:
        assert error.render()
    else:
        assert deck.size == len(deck.main_cards()) > 0


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_deckquest_errors(db, data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deck.txt"
        path.write_bytes(data)
        try:
            load_deck(path, db)
        except DeckquestError as error:
            assert error.render()


def test_t_1_1_cards_that_allow_any_number_or_up_to_seven_are_exempt_from_the_copy_limit():
    """T-1.1: a deck of any constructed format; "A deck can have any number of cards named …"
    and "… up to seven cards named …" change the copy limit (DQ5000 reads `not_constructed`)."""
    from deckquest.cards.decklist import not_constructed

    rats = Card.build("Relentless Rats", "{1}{B}{B}", "Creature — Rat", power="2", toughness="2",
                      oracle_text="A deck can have any number of cards named Relentless Rats.")
    dwarves = Card.build("Seven Dwarves", "{1}{R}", "Creature — Dwarf", power="2", toughness="2",
                         oracle_text="A deck can have up to seven cards named Seven Dwarves.")
    swamp = Card.build("Swamp", None, "Basic Land — Swamp")
    db = CardDatabase(CardIndex([rats, dwarves, swamp]))
    legal = parse_deck("30 Relentless Rats\n7 Seven Dwarves\n23 Swamp\n", "deck.txt", db)
    assert not_constructed(legal) is None
    eight = parse_deck("30 Relentless Rats\n8 Seven Dwarves\n22 Swamp\n", "deck.txt", db)
    assert not_constructed(eight) == "8 copies of Seven Dwarves (at most 7)"

# Limits: a deck list may be a stranger's (issue 12, item 4)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, db):
    from deckquest.cards.decklist import MAX_DECK_BYTES

    path = tmp_path / "deck.txt"
    path.write_text("4 Forest\n" * (MAX_DECK_BYTES // 9 + 1))
    with pytest.raises(DeckquestError) as caught:
        load_deck(path, db)
    assert caught.value.code == "DQ1009" and caught.value.span == Span(str(path))


def test_a_fifo_is_refused_without_blocking(tmp_path, db):
    import os

    os.mkfifo(tmp_path / "deck.txt")
    with pytest.raises(DeckquestError) as caught:
        load_deck(tmp_path / "deck.txt", db)
    assert caught.value.code == "DQ1008" and "not a regular file" in caught.value.message


def test_too_many_lines(db):
    from deckquest.cards.decklist import MAX_LINES

    with pytest.raises(DeckquestError) as caught:
        parse("4 Forest\n" * (MAX_LINES + 1), db)
    assert caught.value.code == "DQ1011"
    assert parse("1 Forest\n" * MAX_LINES, db).size == MAX_LINES  # the limit itself is fine


def test_a_line_too_long_is_reported_with_a_short_excerpt(db):
    error = only_error("4 Forest\n4 " + "A" * 10_000 + "\n", db)
    assert (error.code, error.span.line) == ("DQ1010", 2)
    assert len(error.render()) < 600


def test_errors_past_the_fiftieth_are_counted_in_one_error(db):
    """The first 50 errors in full, the first 20 unknown names with a "did you mean"."""
    errors = errors_of("".join(f"1 Lightnig Bolt {i}\n" for i in range(200)), db)
    assert [d.code for d in errors] == ["DQ1001"] * 50 + ["DQ1012"]
    assert errors[-1].message == "150 more errors in this deck list are not shown"
    assert sum("did you mean" in d.hint for d in errors[:50]) == 20


def test_a_file_with_no_deck_line_is_refused_unquoted(db):
    """Item 11: a file that is not a deck list (/etc/passwd) is refused as a whole: no line of it is shown."""
    with pytest.raises(DeckquestError) as caught:
        parse("root:x:0:0:root:/root:/bin/bash\nAPI_KEY=secret\n", db)
    assert caught.value.code == "DQ1013" and "root" not in caught.value.render()


@pytest.mark.parametrize("text", ["Forest\n", "burn them all\n4 Lightning Bolt\n", "Sidebord\n1 Forest\n"])
def test_a_list_with_one_deck_like_line_still_gets_line_errors(db, text):
    assert all(d.code != "DQ1013" for d in errors_of(text, db))


def test_suggestions_compare_names_of_about_the_same_length(db):
    assert db.suggest("Lightnig Bolt") == "Lightning Bolt"
    assert db.suggest("sol rign") == "Sol Ring"
    assert db.suggest("Lightning Bolt and then some more") is None  # too long to be a typo of it
    assert db.suggest("x" * 300) is None
