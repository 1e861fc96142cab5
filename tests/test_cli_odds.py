"""`deckquest odds`: the T-1.6 deck memo and exact check odds, as text and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckquest.cards.decklist import load_deck
from deckquest.cli import main
from deckquest.engine.pc import designate_critical
from deckquest.engine.odds import check_probability

BUNDLED = Path(__file__).resolve().parents[1] / "scenarios" / "goblin_cave" / "decks" / "mono_green.txt"
KINDS = ["white", "blue", "black", "red", "green", "colorless"]


@pytest.fixture(autouse=True)
def no_user_database(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))


@pytest.fixture
def deck(tmp_path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text("24 Forest\n12 Island\n4 Gruul Guildgate\n20 Llanowar Elves\n", encoding="utf-8")
    return path


def run(*args: str):
    return CliRunner().invoke(main, ["odds", *args])


def test_text_output_has_the_memo_and_both_tables(deck):
    result = run(str(deck), "--critical", "Forest:3")
    assert result.exit_code == 0, result.output
    assert "deck memo (T-1.6): U12 G44 colorless 4 / 60" in result.output
    assert "critical cards (T-4.7): 3 (Forest x3)" in result.output
    assert "with boost when failing" in result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.startswith("difficulty"))
    assert header.split()[1:] == [str(d) for d in range(9)]
    assert sum(line.split()[:1] in [[kind] for kind in KINDS] for line in lines) == 12


def test_json_is_one_object_with_odds_and_boost_odds(deck):
    result = CliRunner().invoke(main, ["odds", str(deck), "--critical", "Forest:3", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report) == {"rules", "library", "colors", "odds", "odds_boost"}
    assert report["rules"] == "2019" and report["library"] == 60
    assert report["colors"] == {"white": 0, "blue": 12, "black": 0, "red": 0, "green": 44, "colorless": 4}
    for table in (report["odds"], report["odds_boost"]):
        assert list(table) == KINDS
        for row in table.values():
            assert list(row) == [str(d) for d in range(9)]
            assert all(0.0 <= p <= 1.0 for p in row.values())
    cards = load_deck(deck).main_cards()
    critical = designate_critical(cards, "Forest", 3)
    assert report["odds"]["green"]["2"] == float(check_probability(cards, critical, "green", 2))
    assert report["odds_boost"]["blue"]["5"] == float(check_probability(cards, critical, "blue", 5, boost=True))


def test_json_2014_is_keyed_by_target_number_without_boost(deck):
    result = run(str(deck), "--rules", "2014", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["rules"] == "2014" and "odds_boost" not in report
    assert list(report["odds"]) == ["negotiation", "intellect", "dexterity", "reflex", "body"]
    assert list(report["odds"]["body"]) == [str(t) for t in range(13)]
    # body values: Forest 5 (24), Island 1 (12), Guildgate 2 (4), Llanowar Elves 1 + 5 = 6 (20)
    assert report["odds"]["body"]["4"] == pytest.approx(44 / 60)


def test_critical_count_defaults_to_one_copy(deck):
    cards = load_deck(deck).main_cards()
    result = CliRunner().invoke(main, ["odds", str(deck), "--critical", "Island", "--json"])
    report = json.loads(result.stdout)
    critical = designate_critical(cards, "Island", 1)
    assert report["odds"]["red"]["3"] == float(check_probability(cards, critical, "red", 3))
    assert "T-4.7 designates exactly 3 critical cards; these odds use 1" in result.stderr


def test_critical_options_add_up(deck):
    result = run(str(deck), "--critical", "Forest:2", "--critical", "Llanowar Elves")
    assert result.exit_code == 0
    assert "critical cards (T-4.7): 3 (Forest x2, Llanowar Elves x1)" in result.output


def test_too_many_critical_copies_is_an_error_naming_the_option(deck):
    result = run(str(deck), "--critical", "Gruul Guildgate:5")
    assert result.exit_code == 1
    assert "--critical 'Gruul Guildgate:5'" in result.output
    assert "only 4" in result.output
    assert "Traceback" not in result.output


def test_unknown_critical_card_is_an_error_with_a_suggestion(deck):
    result = run(str(deck), "--critical", "Forrest:3")
    assert result.exit_code == 1
    assert "--critical 'Forrest:3'" in result.output
    assert "did you mean `Forest`?" in result.output


def test_bad_deck_is_the_loaders_error_and_exit_1(tmp_path):
    missing = run(str(tmp_path / "nope.txt"))
    assert missing.exit_code == 1 and "does not exist" in missing.output
    bad = tmp_path / "bad.txt"
    bad.write_text("4 Forrest\n", encoding="utf-8")
    result = run(str(bad))
    assert result.exit_code == 1 and "Forrest" in result.output
    assert "Traceback" not in result.output


def test_bad_rules_is_a_usage_error(deck):
    assert run(str(deck), "--rules", "2020").exit_code == 2


@pytest.mark.skipif(not BUNDLED.exists(), reason="the bundled deck is written by another engineer")
def test_readme_first_command_on_the_bundled_deck():
    result = run(str(BUNDLED), "--critical", "Forest:3")
    assert result.exit_code == 0, result.output
    assert "/ 60" in result.output and "critical cards (T-4.7): 3 (Forest x3)" in result.output


SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_a_script_gives_every_pcs_odds_at_every_check():
    """Issue 18, item 14: `odds SCRIPT.quest` reads the script's PCs (decks and T-4.7 critical
    cards) and gives each one's exact odds at each check, instead of reading it as a deck list."""
    from deckquest.dsl.resolver import compile_file
    from deckquest.runtime.party import party_from_scenario

    script = SCENARIOS / "goblin_cave" / "goblin_cave.quest"
    result = run(str(script), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    members = {m.id: m for m in party_from_scenario(compile_file(script))}
    labels = [check["label"] for check in report["checks"]]
    assert labels == ["Move the boulder", "Recruit Wounded Bear", "Sneak past the sentries"]
    for check in report["checks"]:
        assert {row["pc"] for row in check["pcs"]} == set(members)
        for row in check["pcs"]:
            member = members[row["pc"]]
            exact = check_probability(member.cards, member.critical_cards, check["kind"], check["difficulty"])
            boosted = check_probability(member.cards, member.critical_cards, check["kind"], check["difficulty"],
                                        boost=True)
            assert row["success"] == pytest.approx(float(exact))
            assert row["with_boost"] == pytest.approx(float(boosted))


def test_a_2014_script_has_no_boost_column():
    result = run(str(SCENARIOS / "bandit_toll" / "bandit_toll.quest"))
    assert result.exit_code == 0, result.output
    assert "2014 rules" in result.output and "target number" in result.output
    assert "with boost" not in result.output and "not a card line" not in result.output


def test_a_script_with_deck_options_is_a_usage_error():
    result = run(str(SCENARIOS / "goblin_cave" / "goblin_cave.quest"), "--critical", "Forest:3")
    assert result.exit_code == 2
    assert "a script names its PCs' critical cards" in result.output
