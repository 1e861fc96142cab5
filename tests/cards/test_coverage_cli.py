"""`deckquest cards coverage DECK`: which cards a battle (T-6.1) simulates, honestly."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from deckquest.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_coverage_of_a_deck_lists_each_level(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    deck = tmp_path / "deck.txt"
    deck.write_text("20 Mountain\n4 Lightning Bolt\n2 Baneslayer Angel\n1 Time Walk\n", encoding="utf-8")
    result = run("cards", "coverage", str(deck))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{deck}: 27 cards, 93% simulated (full 24, partly 2, not at all 1)"
    assert lines[1:] == [
        "",
        "simulated fully:",
        "  20 Mountain",
        "   4 Lightning Bolt",
        "",
        "simulated partly:",
        "   2 Baneslayer Angel",
        "       not simulated: protection from Demons and from Dragons",
        "",
        "not simulated:",
        "   1 Time Walk",
        "       not simulated: Take an extra turn after this one.",
    ]


def test_coverage_of_the_krenko_deck(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    result = run("cards", "coverage", str(ROOT / "scenarios/goblin_cave/decks/krenko.txt"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{ROOT / 'scenarios/goblin_cave/decks/krenko.txt'}: 60 cards, ")
    assert "   1 Krenko, Mob Boss" in result.stdout


def test_unknown_card_in_the_deck_is_a_user_error(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Lightning Blot\n", encoding="utf-8")
    result = run("cards", "coverage", str(deck))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "Lightning Blot" in result.stderr


def test_missing_deck_file_is_a_user_error(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    result = run("cards", "coverage", str(tmp_path / "nope.txt"))
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def test_coverage_reports_what_changes_play_t_6_1(tmp_path, monkeypatch):
    """Issue 18 item 11: a battle (T-6.1) plays a creature's body and a basic-typed land's mana
    even when their text is ignored, so Blood Crypt (it taps for {B} or {R}), Vampire Lacerator
    and Jackal Pup (drawbacks ignored) are simulated partly; only a card of which nothing plays
    (Cast Down's text not read: the spell does nothing) is not simulated."""
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    deck = tmp_path / "rook.txt"
    deck.write_text("10 Swamp\n10 Mountain\n4 Blood Crypt\n4 Vampire Lacerator\n4 Jackal Pup\n"
                    "4 Cast Down\n24 Hill Giant\n", encoding="utf-8")
    result = run("cards", "coverage", str(deck))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{deck}: 60 cards, 83% simulated (full 44, partly 12, not at all 4)"
    partly = lines[lines.index("simulated partly:"):lines.index("not simulated:")]
    assert "   4 Blood Crypt" in partly and "   4 Vampire Lacerator" in partly and "   4 Jackal Pup" in partly
    assert lines[lines.index("not simulated:") + 1] == "   4 Cast Down"
