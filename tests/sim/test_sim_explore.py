"""`deckquest sim --explore`: every choice option and both outcomes of every check, forced,
and the dead ends, errors and unreached lines they show."""

from __future__ import annotations

from sim_helpers import SCENARIOS, SHRINE, line_of

from deckquest.sim.explore import explore


def test_finds_the_planted_dead_end_with_its_forced_path():
    path = SCENARIOS / "dead_end.quest"
    report = explore(path)
    (finding,) = report.findings
    assert finding.kind == "stuck" and finding.scene == "hall"
    assert finding.line == line_of(path, "choice:")
    assert [str(step) for step in finding.path] == [
        f'line {line_of(path, "check green")} (hall): "Find a key" forced to fail']
    assert report.never_taken == [f'line {line_of(path, "Pick the lock")}: option "Pick the lock"']
    assert report.unreached_lines == [line_of(path, "The lock bites back")]
    assert report.problems


def test_covers_every_alternative_of_the_bundled_adventure():
    report = explore(SHRINE)
    assert report.taken == report.alternatives and not report.never_taken
    assert not report.findings
    assert report.runs <= report.alternatives + 1


def test_a_loop_is_a_dead_end_not_a_hang():
    report = explore(SCENARIOS / "loop.quest", max_steps=100)
    (finding,) = report.findings
    assert finding.kind == "stuck" and "more than 100 steps" in finding.message


def test_a_loop_through_a_choice_prints_its_repeated_step_once(tmp_path):
    """The path of a loop past the step limit repeats one decision thousands of times: the
    text shows it once with its count (the JSON keeps every step)."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "green.txt").write_text((SCENARIOS / "decks" / "green.txt").read_text())
    script = tmp_path / "round.quest"
    script.write_text('scenario "Round":\n    rules 2019\npc alice "Alice":\n    deck "decks/green.txt"\n'
                      '    critical "Forest" x3\nflag key\nstart scene room "Room":\n    choice:\n'
                      '        "Go round":\n            -> room\n        "Leave" if key:\n            end victory\n')
    report = explore(script, max_steps=200)
    (finding,) = report.findings
    assert len(finding.path) > 50 and len(finding.as_dict()["path"]) == len(finding.path)
    path_lines = [line for line in report.text().splitlines() if line.startswith("    line ")]
    assert path_lines == [f'    line 8 (room): chose "Go round"  (x{len(finding.path)} in a row)']


def test_forcing_reaches_both_endings_of_a_single_check():
    report = explore(SCENARIOS / "single_check.quest")
    assert report.taken == report.alternatives == 2
    assert report.unreached_lines == []
    data = report.as_dict()
    assert data["stuck"] == [] and data["errors"] == []
