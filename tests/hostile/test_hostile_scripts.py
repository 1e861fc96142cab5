"""Hostile scripts (issue 12, items 1, 7 and 9): each is refused with a coded error, within the
budgets of docs/packs.md ("Limits and budgets"), with nothing left behind."""

from __future__ import annotations

HEADER = 'scenario "Hostile":\n    rules 2019\n\n'
DECK = "24 Forest\n16 Grizzly Bears\n"


def write(folder, text, name="hostile.quest"):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path.name


def test_a_huge_critical_count_is_a_coded_error_not_a_crash(run_hostile, folders):
    """Item 7: `critical "Forest" x99999999` crashed the compiler (VisitError in critical_field)."""
    cwd, home = folders
    (cwd / "hero.txt").write_text(DECK)
    script = write(cwd, HEADER + 'pc hero "Hero":\n    deck "hero.txt"\n    critical "Forest" x99999999\n\n'
                   'start scene a "A":\n    end victory\n')
    result = run_hostile(["check", script], cwd=cwd, env_home=home, code="DQ0013")
    assert "x99999999" in result.stderr
