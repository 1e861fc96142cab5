"""`deckquest cards import` and `deckquest cards show` through click's CliRunner."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckquest.cards.database import CardIndex
from deckquest.cards.model import Card
from deckquest.cards.userdb import database_file

DATABASE_FILE = database_file("scryfall")
from deckquest.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    built_in = CardIndex([
        Card.build("Grizzly Bears", "{1}{G}", "Creature — Bear", power="2", toughness="2", name_ja="灰色熊"),
        Card.build("Forest", None, "Basic Land — Forest"),
    ])
    monkeypatch.setattr("deckquest.cards.database.builtin_index", lambda: built_in)
    return tmp_path / "home"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_import_prints_a_summary_by_reason(home):
    result = run("cards", "import", str(FIXTURES / "scryfall-edge.json"))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"imported 7 cards from {FIXTURES / 'scryfall-edge.json'} (Scryfall) into {home / DATABASE_FILE}"
    assert lines[1] == "skipped 13:"
    assert "  2 malformed card object" in lines and "  1 fractional mana value (un-card)" in lines
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    assert (home / DATABASE_FILE).is_file()


def test_import_mtgjson_with_forced_format(home):
    result = run("cards", "import", "--format", "mtgjson", str(FIXTURES / "mtgjson-edge.json"))
    assert result.exit_code == 0, result.stderr
    assert "(MTGJSON)" in result.stdout.splitlines()[0]
    shown = run("cards", "show", "火")
    assert shown.exit_code == 0 and "name:            Fire // Ice" in shown.stdout


def test_show_an_imported_card_by_english_or_japanese_name(home):
    run("cards", "import", str(FIXTURES / "scryfall-edge.json"))
    english = run("cards", "show", "grizzly", "bears")
    japanese = run("cards", "show", "灰色熊")
    assert english.exit_code == japanese.exit_code == 0
    assert english.stdout == japanese.stdout
    assert "Japanese name:   灰色熊" in english.stdout
    assert "power/toughness: 2/2" in english.stdout
    assert f"source:          imported from {FIXTURES / 'scryfall-edge.json'}" in english.stdout


def test_show_a_built_in_card(home):
    result = run("cards", "show", "Forest")
    assert result.exit_code == 0
    assert "type line:       Basic Land — Forest" in result.stdout and "source:          built-in" in result.stdout


def test_show_an_unknown_card_suggests_a_name(home):
    result = run("cards", "show", "Grizly Bears")
    assert result.exit_code == 1
    assert result.stderr == "error: unknown card `Grizly Bears`\nhint: did you mean `Grizzly Bears`?\n"


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "error[DQ8001]: cannot read"),
        ("[{\"object\": \"card\",\n  \"name\": }]", ":2:11: error[DQ8003]: malformed JSON: Expecting value"),
        ("4 Grizzly Bears\n", ":1:1: error[DQ8002]: not a card data file"),
        ("[]", "error[DQ8007]: no cards found"),
    ],
)
def test_bad_files_exit_1_and_leave_the_previous_database(home, tmp_path, content, message):
    run("cards", "import", str(FIXTURES / "scryfall-edge.json"))
    before = (home / DATABASE_FILE).read_bytes()
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    result = run("cards", "import", str(bad))
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert (home / DATABASE_FILE).read_bytes() == before
    assert sorted(path.name for path in home.iterdir()) == [DATABASE_FILE]


def test_malformed_json_error_shows_the_line_and_a_caret(home, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[\n{"object": "card", "name": "A",, "lang": "en"}\n]')
    result = run("cards", "import", str(bad))
    assert result.stderr.splitlines() == [
        f"{bad}:2:32: error[DQ8003]: malformed JSON: Expecting property name enclosed in double quotes",
        '    {"object": "card", "name": "A",, "lang": "en"}',
        "                                   ^",
    ]


def test_import_output_is_the_same_whatever_the_format_option(home):
    auto = run("cards", "import", str(FIXTURES / "scryfall-edge.json"))
    forced = run("cards", "import", "--format", "scryfall", str(FIXTURES / "scryfall-edge.json"))
    replaced = f"replaced 7 cards of the Scryfall import of {(FIXTURES / 'scryfall-edge.json').resolve()}"
    assert forced.stdout.splitlines() == [auto.stdout.splitlines()[0], replaced, *auto.stdout.splitlines()[1:]]


def test_imports_add_to_what_is_there_and_say_what_they_replaced(home):
    """Issue 18 item 13: a second import of another source used to replace the first silently."""
    run("cards", "import", str(FIXTURES / "scryfall-edge.json"))
    mtgjson = run("cards", "import", str(FIXTURES / "mtgjson-edge.json"))
    assert mtgjson.exit_code == 0, mtgjson.stderr
    assert mtgjson.stdout.splitlines()[1] == (
        f"kept 7 cards of the Scryfall import of {(FIXTURES / 'scryfall-edge.json').resolve()} "
        "(where both know a card, this import's values win)")
    assert run("cards", "show", "灰色熊").exit_code == 0 and run("cards", "show", "火").exit_code == 0
    again = run("cards", "import", str(FIXTURES / "scryfall-edge.json"))
    assert f"replaced 7 cards of the Scryfall import of {(FIXTURES / 'scryfall-edge.json').resolve()}" in again.stdout
    assert "kept 4 cards of the MTGJSON import of" in again.stdout


def test_show_a_split_card_with_both_halves_costs(home):
    """Issue 18 item 13: `cards show` of a split card showed only the first half's cost."""
    run("cards", "import", str(FIXTURES / "scryfall-edge.json"))
    shown = run("cards", "show", "Boom // Bust")
    assert "mana cost:       {1}{R} // {5}{R}\nmana value:      8\n" in shown.stdout


def test_unknown_format_option_is_a_usage_error(home):
    result = run("cards", "import", "--format", "csv", str(FIXTURES / "scryfall-edge.json"))
    assert result.exit_code == 2


def test_files_with_json_written_by_hand(home, tmp_path):
    cards = tmp_path / "mine.json"
    cards.write_text(json.dumps([{"object": "card", "name": "Homebrew Bear", "layout": "normal",
                                  "mana_cost": "{G}", "type_line": "Creature — Bear", "power": "2", "toughness": "2"}]))
    assert run("cards", "import", str(cards)).exit_code == 0
    shown = run("cards", "show", "homebrew bear")
    assert "colours:         green" in shown.stdout and "mana value:      1" in shown.stdout


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_stderr_only_when_it_is_a_terminal(home, monkeypatch, capsys):
    from deckquest.cli import cards_import

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    cards_import.callback(FIXTURES / "scryfall-edge.json", "auto")
    assert "importing" in terminal.getvalue() and "100%" in terminal.getvalue()
    assert capsys.readouterr().out.startswith("imported 7 cards")
