"""Hostile numbers in the newer games' scripts (issue 28, item 2): every number of the grizzly,
arena and isekai grammars has a stated bound (docs/grizzly.md, docs/arena.md and
docs/isekai.md, "Numbers"; docs/hostile.md) and is refused with a coded error at its place,
before anything proportional to it is built.

Each script is a bundled scenario with one number changed, checked the way a user checks it:
`deckquest check` in a subprocess under the limits of `run_hostile`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def scenario(cwd: Path, name: str, old: str, new: str) -> str:
    """The bundled scenario `name` (with its decks) in `cwd`, `old` written as `new` once."""
    shutil.copytree(SCENARIOS / name, cwd / name)
    path = cwd / name / f"{name}.quest"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return f"{name}/{name}.quest"


# ------------------------------------------------------------------ Arena's spell deck


@pytest.mark.parametrize("copies", ["x100000000", "x99999999999999999999"])
def test_a_spell_count_past_a_million_is_refused_at_once(run_hostile, folders, copies):
    """Item 2: `spells "Smite" x100000000` passed `check` after 37 s at 1.6 GB, and a count of
    10^20 stopped with OverflowError (exit 70). A count past 1,000,000 is the core's DQ0013 at
    the count (the builder reads `xN` through the core's `_int`)."""
    cwd, home = folders
    script = scenario(cwd, "the_duel", '"Smite" x10', f'"Smite" {copies}')
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code="DQ0013", memory_mb=256)
    assert f"{script}:23:20: error[DQ0013]" in result.stderr


def test_a_spell_deck_is_refused_before_it_is_built(run_hostile, folders):
    """Item 2: a hundred lines of a million spells each (10^8 cards, within DQ0013) are refused
    by the deck's bound, DQ3032 at the count that passes it, before any list of them is made:
    under 256 MB, where building the deck alone needs some 800 MB."""
    cwd, home = folders
    lines = "\n".join(['    spells "Smite" x1000000'] * 100)
    script = scenario(cwd, "the_duel", '    spells "Smite" x10', lines)
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code="DQ3032", memory_mb=256)
    assert f"{script}:23:12: error[DQ3032]" in result.stderr


@pytest.mark.parametrize("old, new, code, column", [
    ("attack 2 defence 2 size 4", "attack 1000000 defence 2 size 4", "DQ3012", 57),  # dice of an exact roll
    ("life 6 move 5", "life 6 move 999999", "DQ3012", 34),  # the length of a route search
])
def test_an_army_card_number_past_its_bound_is_refused_at_the_number(run_hostile, folders, old, new, code, column):
    """Item 2: an army card's numbers are bounded (docs/arena.md, "Numbers"): attack and defence
    are the dice of an exact roll, a move the length of a route search; DQ3012 at the number."""
    cwd, home = folders
    script = scenario(cwd, "the_duel", old, new)
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code=code)
    line = 21 if "life 6" in old else 22
    assert f"{script}:{line}:{column}: error[{code}]" in result.stderr


@pytest.mark.parametrize("effect", [
    "roll 1000000 attack dice against a figure in range 4 of your planeswalker",
    "attack +999999 for your army",
    "deal 2 damage to a figure in range 999999 of your planeswalker",
])
def test_an_effect_number_past_its_bound_is_refused(run_hostile, folders, effect):
    """Item 2: an effect's dice, bonus and range are bounded (DQ3033, at the effect's line)."""
    cwd, home = folders
    script = scenario(cwd, "the_duel", "deal 2 damage to a figure in range 4 of your planeswalker", effect)
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code="DQ3033")
    assert f"{script}:29:5: error[DQ3033]" in result.stderr


def test_a_battlefield_level_must_be_an_ascii_digit(run_hostile, folders):
    """Item 2: a row's level `²` is a digit to str.isdigit and none to int() (exit 70); it is an
    unknown symbol, DQ3002, at the cell."""
    cwd, home = folders
    script = scenario(cwd, "the_duel", 'row "0 0 0 1 0 0 0"', 'row "0 0 0 ² 0 0 0"')
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code="DQ3002")
    assert f"{script}:11:16: error[DQ3002]" in result.stderr


# ------------------------------------------------------------------ Isekai decks and cards


@pytest.mark.parametrize("copies, code", [("x1000001", "DQ0013"), ("x99999999999999999999", "DQ0013"),
                                          ("x1000", "DQ4020"), ("x0", "DQ4020")])
def test_a_deck_entry_count_is_bounded(run_hostile, folders, copies, code):
    """Item 2: `warcry x1000001` in an isekai deck stopped with VisitError (`'str' object has
    no attribute 'line'`, exit 70: the count was handed to `_int` as a str). A count past
    1,000,000 is DQ0013, and an entry holds 1 to 50 copies (DQ4020), at the entry."""
    cwd, home = folders
    script = scenario(cwd, "road_duel", "main knight x30", f"main knight {copies}")
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code=code)
    column = 17 if code == "DQ0013" else 10
    assert f"{script}:36:{column}: error[{code}]" in result.stderr


@pytest.mark.parametrize("value", ["9" * 5000, "²"])
def test_a_card_number_that_is_no_number_is_refused(run_hostile, folders, value):
    """Item 2: a card line's number of 5,000 digits passed Python's int() limit (ValueError,
    exit 70), and `²` (a NAME to the grammar, a digit to str.isdigit) failed int(). Both are
    DQ4010 at the word: a card number is 0 to 99."""
    cwd, home = folders
    script = scenario(cwd, "road_duel", "    cost 2\n", f"    cost {value}\n")
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code="DQ4010")
    assert re.search(rf"{re.escape(script)}:\d+:10: error\[DQ4010\]", result.stderr), result.stderr


# ------------------------------------------------------------------ Grizzly's header and seats


@pytest.mark.parametrize("old, new, code, line", [
    ("players 4", "players 1000000", "DQ2007", 2),
    ("treasures to win 5", "treasures to win 51", "DQ2006", 7),
    ("treasures to win 5", "treasures to win 10000000", "DQ0013", 7),
    ("squares 3 per player", "squares 999999 per player", "DQ2005", 13),
])
def test_grizzly_numbers_are_bounded(run_hostile, folders, old, new, code, line):
    """Item 2: grizzly's numbers have their bounds (docs/grizzly.md, "The script"), and a number
    past 1,000,000 is the core's DQ0013 there too."""
    cwd, home = folders
    script = scenario(cwd, "sword_coast", old, new)
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code=code)
    assert f"{script}:{line}:" in result.stderr
