"""`rules 2014` scripts (issue 17, item 13): the 2014 rules have no critical cards (T-5.1 to
T-5.4; T-4.7 is the 2019 rules'), so `check` does not demand three of them."""

from __future__ import annotations

import shutil

from click.testing import CliRunner

from deckquest.cli import main
from dsl_helpers import DECKS

SCRIPT = '''scenario "Old Rules":
    rules {rules}
pc alice "Alice":
    deck "decks/green.txt"
start scene s "S":
    end victory
'''


def check(tmp_path, rules: int):
    shutil.copytree(DECKS, tmp_path / "decks", dirs_exist_ok=True)
    script = tmp_path / f"rules{rules}.quest"
    script.write_text(SCRIPT.format(rules=rules), encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(script)])


def test_t_5_a_2014_script_needs_no_critical_cards(tmp_path):
    result = check(tmp_path, 2014)
    assert result.exit_code == 0, result.stderr
    assert "DQ0053" not in result.stderr


def test_t_4_7_a_2019_script_still_needs_exactly_three(tmp_path):
    result = check(tmp_path, 2019)
    assert result.exit_code == 1 and "error[DQ0053]" in result.stderr


def test_t_5_odds_in_the_2014_rules_say_there_are_no_critical_cards(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("24 Forest\n36 Llanowar Elves\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["odds", str(deck), "--rules", "2014"])
    assert result.exit_code == 0
    assert "critical cards: none, the 2014 rules have none (T-5.2)" in result.output
    assert "T-4.7" not in result.output


def test_t_5_a_2014_script_without_critical_cards_runs(tmp_path):
    check(tmp_path, 2014)
    result = CliRunner().invoke(main, ["run", str(tmp_path / "rules2014.quest"), "--agent", "first"])
    assert result.exit_code == 0, result.output
    assert "== The end: victory ==" in result.output


# --- T-1.1: a PC's deck is a deck of a constructed format --------------------------------


def check_deck(tmp_path, deck_text: str):
    shutil.copytree(DECKS, tmp_path / "decks", dirs_exist_ok=True)
    (tmp_path / "decks" / "pc.txt").write_text(deck_text, encoding="utf-8")
    script = tmp_path / "deck.quest"
    script.write_text(SCRIPT.format(rules=2014).replace("decks/green.txt", "decks/pc.txt"), encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(script)])


def test_t_1_1_a_deck_legal_in_no_constructed_format_gets_a_warning(tmp_path):
    result = check_deck(tmp_path, "50 Mountain\n5 Goblin Guide\n4 Lightning Bolt\n")
    assert result.exit_code == 0
    assert ("warning[DQ5000]: the deck of `alice` is legal in no constructed format: 59 cards (at least 60), "
            "5 copies of Goblin Guide (at most 4) (T-1.1)") in result.stderr


def test_t_1_1_constructed_and_commander_decks_get_no_warning(tmp_path):
    assert "DQ5000" not in check_deck(tmp_path, "52 Mountain\n4 Goblin Guide\n4 Lightning Bolt\n").stderr
    commander = "Commander\n1 Krenko, Mob Boss\n\nDeck\n98 Mountain\n1 Goblin Guide\n"
    assert "DQ5000" not in check_deck(tmp_path, commander).stderr


def test_t_1_1_a_commander_deck_is_singleton(tmp_path):
    result = check_deck(tmp_path, "Commander\n1 Krenko, Mob Boss\n\nDeck\n97 Mountain\n2 Goblin Guide\n")
    assert "warning[DQ5000]" in result.stderr and "2 copies of Goblin Guide (at most 1)" in result.stderr
