"""Hostile card data and deck lists (issue 12, items 4, 5, 6, 8 and 12): each is refused with a
coded error within the budgets of docs/packs.md ("Limits and budgets"), with nothing left
behind. Inputs are generated in tmp_path; the large ones are written in a few big chunks."""

from __future__ import annotations

import json
import os

import pytest

GOOD_CARD = {"object": "card", "name": "Grizzly Bears", "oracle_id": "bears", "type_line": "Creature — Bear",
             "mana_cost": "{1}{G}", "cmc": 2, "colors": ["G"], "color_identity": ["G"], "power": "2",
             "toughness": "2", "layout": "normal", "lang": "en"}


def card(name: str, cmc: str) -> str:
    """A card object whose `cmc` is written as the raw JSON text `cmc`."""
    return f'{{"object": "card", "name": "{name}", "type_line": "Creature", "cmc": {cmc}}}'


def write_repeated(path, head: bytes, unit: bytes, count: int, tail: bytes = b"") -> None:
    """`head + unit * count + tail`, written in 1 MiB pieces so the test itself stays small."""
    per_piece = max(1, (1 << 20) // len(unit))
    with open(path, "wb") as out:
        out.write(head)
        while count > 0:
            out.write(unit * min(per_piece, count))
            count -= per_piece
        out.write(tail)


# ------------------------------------------------------------------ card data (items 5, 6, 12)


def test_a_card_file_of_100000_brackets_is_DQ8004_not_a_recursion_error(run_hostile, folders):
    """Items 5 and 6: 100,000 `[` ended in RecursionError (exit 70)."""
    cwd, home = folders
    write_repeated(cwd / "deep.json", b"", b"[", 100_000)
    result = run_hostile(["cards", "import", "deep.json"], cwd=cwd, env_home=home, code="DQ8004", seconds=10)
    assert result.stderr.count("\n") < 10


@pytest.mark.parametrize("cmc", ["1e400", "Infinity", "-Infinity", "NaN", "9" * 5000, "1000001"])
def test_an_impossible_mana_value_is_skipped_and_counted(run_hostile, folders, cmc):
    """Item 6: `"cmc": 1e400` or `Infinity` (OverflowError), a 5,000-digit cmc (ValueError) ended
    in exit 70. Like every other bad card object, such an object is skipped and counted by reason;
    the file's good cards are imported."""
    cwd, home = folders
    (cwd / "cards.json").write_text(f"[{json.dumps(GOOD_CARD)}, {card('Broken', cmc)}]")
    result = run_hostile(["cards", "import", "cards.json"], cwd=cwd, env_home=home, seconds=10,
                         expect_refusal=False)
    assert result.returncode == 0
    assert "imported 1 card" in result.stdout
    assert "1 mana value out of range" in result.stdout
    assert sorted(path.name for path in home.iterdir()) == ["cards-scryfall.sqlite"]


def test_a_file_of_only_impossible_mana_values_imports_nothing(run_hostile, folders):
    cwd, home = folders
    (cwd / "cards.json").write_text(f"[{card('A', '1e400')}, {card('B', 'Infinity')}, {card('C', '9' * 5000)}]")
    run_hostile(["cards", "import", "cards.json"], cwd=cwd, env_home=home, code="DQ8007", seconds=10)


def test_one_huge_card_object_is_refused_within_the_memory_budget(run_hostile, folders):
    """Item 12: one 200 MB card object imported at 1.4 GB. A value over 8 Mi characters is
    refused as soon as the reader has read that much of it (64 MB here, 256 MB address space)."""
    cwd, home = folders
    write_repeated(cwd / "huge.json", b'[{"object": "card", "name": "', b"x" * 1024, 64 * 1024, b'"}]')
    result = run_hostile(["cards", "import", "huge.json"], cwd=cwd, env_home=home, code="DQ8005",
                         memory_mb=256, seconds=10)
    assert result.peak_kb < 200_000


def test_a_fifo_as_card_file_is_refused_without_blocking(run_hostile, folders):
    cwd, home = folders
    os.mkfifo(cwd / "cards.json")
    run_hostile(["cards", "import", "cards.json"], cwd=cwd, env_home=home, code="DQ8001", seconds=10)


# ------------------------------------------------------------------ kill -9 during an import (item 8)


def test_a_killed_imports_temporary_file_is_removed_by_the_next_import(kill_while_writing, run_command, folders):
    """Item 8: kill -9 during an import left `.cards-*.sqlite.tmp` (25-167 MB) that stayed after
    the next import. The next import removes it (its process is gone and its lock is free).
    The import of 30,000 cards (an 11 MB database) is ended as it writes its 4th megabyte."""
    cwd, home = folders
    cards = [{**GOOD_CARD, "name": f"Bear {i}", "oracle_id": f"bear{i}"} for i in range(30_000)]
    (cwd / "many.json").write_text(json.dumps(cards))
    (cwd / "one.json").write_text(json.dumps([GOOD_CARD]))
    kill_while_writing(["cards", "import", "many.json"], cwd=cwd, env_home=home, size=4 << 20)
    assert list(home.glob(".cards-*.sqlite.tmp")), "the killed import left no temporary file to clean up"
    result = run_command(["cards", "import", "one.json"], cwd=cwd, env_home=home)
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in home.iterdir()) == ["cards-scryfall.sqlite"]


# ------------------------------------------------------------------ deck lists (item 4)


def test_40000_unknown_names_are_refused_by_size(run_hostile, folders):
    """Item 4: 40,000 unknown names took 96 s of "did you mean"."""
    cwd, home = folders
    (cwd / "deck.txt").write_text("".join(f"1 Unknown Card Number {i}\n" for i in range(40_000)))
    run_hostile(["cards", "coverage", "deck.txt"], cwd=cwd, env_home=home, code="DQ1009", seconds=5)


def test_a_deck_list_at_the_line_limit_of_unknown_names_is_quick(run_hostile, folders):
    """Within the size and line limits, 5,000 unknown names: 50 errors in full (20 suggestions),
    then one DQ1012 error counting the rest."""
    cwd, home = folders
    (cwd / "deck.txt").write_text("".join(f"1 Lightnig Bolt {i}\n" for i in range(5_000)))
    result = run_hostile(["cards", "coverage", "deck.txt"], cwd=cwd, env_home=home, code="DQ1012", seconds=10)
    assert result.stderr.count("error[DQ1001]") == 50
    assert "4,950 more errors" in result.stderr
    assert result.stderr.count("did you mean") == 20


def test_a_million_junk_lines_are_refused_by_size(run_hostile, folders):
    """Item 4: 10^6 junk lines used 968 MB and wrote 177 MB of errors."""
    cwd, home = folders
    write_repeated(cwd / "deck.txt", b"", b"junk junk junk\n", 1_000_000)
    run_hostile(["cards", "coverage", "deck.txt"], cwd=cwd, env_home=home, code="DQ1009", memory_mb=256,
                seconds=10)


def test_too_many_short_lines_are_refused(run_hostile, folders):
    cwd, home = folders
    (cwd / "deck.txt").write_text("4 Forest\n" + "\n" * 6_000)
    run_hostile(["cards", "coverage", "deck.txt"], cwd=cwd, env_home=home, code="DQ1011", seconds=10)


def test_one_50_mb_line_is_refused_before_it_is_read(run_hostile, folders):
    """Item 4: one 50 MB line used 2.2 GB; it is refused by size, reading at most 256 KiB + 1."""
    cwd, home = folders
    write_repeated(cwd / "deck.txt", b"4 ", b"A" * 1024, 50 * 1024, b"\n")
    result = run_hostile(["cards", "coverage", "deck.txt"], cwd=cwd, env_home=home, code="DQ1009",
                         memory_mb=256, seconds=10)
    assert result.peak_kb < 150_000


def test_a_long_line_within_the_size_limit_is_reported_with_a_short_excerpt(run_hostile, folders):
    cwd, home = folders
    (cwd / "deck.txt").write_text("4 Forest\n4 " + "A" * 100_000 + "\n")
    result = run_hostile(["cards", "coverage", "deck.txt"], cwd=cwd, env_home=home, code="DQ1010", seconds=10)
    assert len(result.stderr) < 1_000
