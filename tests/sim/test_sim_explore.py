"""`deckquest sim --explore`: every choice option, both outcomes of every check and every
written outcome of every battle, then the alternatives new in each situation while a line
is unreached; and the dead ends, errors and unreached lines they show."""

from __future__ import annotations

import pytest
from sim_helpers import SCENARIOS, SHRINE, line_of

from deckquest.sim.explore import BATTLE_TRIES, explore

HEADER = 'scenario "{title}":\n    rules 2019\npc alice "Alice":\n    deck "decks/green.txt"\n    critical "Forest" x3\n'


def write_script(tmp_path, name: str, text: str):
    """A script beside a copy of the test decks."""
    (tmp_path / "decks").mkdir(exist_ok=True)
    for deck in ("green.txt", "horde.txt"):
        (tmp_path / "decks" / deck).write_text((SCENARIOS / "decks" / deck).read_text())
    script = tmp_path / name
    script.write_text(HEADER.format(title=name) + text)
    return script


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
    """Victory needs three relics and air left: a combination the first round of plans
    misses, and the situations' round finds. What stays unreached is what no simulated run
    reaches either: the dying and death triggers and the crab's defeat."""
    report = explore(SHRINE)
    assert report.taken == report.alternatives and not report.never_taken
    assert not report.findings and report.complete
    assert line_of(SHRINE, 'end victory "You surface') not in report.unreached_lines
    assert report.unreached_lines == [line_of(SHRINE, "slumps against"), line_of(SHRINE, "The tide takes"),
                                      line_of(SHRINE, "The crab folds")]
    assert "Every alternative was tried in each of the" in report.text()


def test_a_line_behind_a_combination_is_reached_in_its_situation(tmp_path):
    """Each alternative once is not enough: the first run takes the lamp and a success; the
    dark with the cards (which always fail at difficulty 40) would miss the line. The dark
    *with* a forced success opens it: in that situation (no lamp, nothing found) success is
    untaken, so the second run takes it."""
    script = write_script(tmp_path, "glyph.quest", """flag lamp
counter found = 0
start scene hall "The Hall":
    choice:
        "Take the lamp":
            set lamp
        "Go in the dark":
            "You stumble."
    check green difficulty 40 by alice as "Spot the glyph":
        success:
            found += 1
    if not lamp and found > 0:
        end victory "The glyph glows in the dark."
    end defeat "Nothing here."
""")
    report = explore(script)
    assert report.unreached_lines == [] and report.complete and not report.findings
    assert report.runs == 3  # the lamp and a success; the dark and a success; the lamp and a failure
    assert report.situations == 3  # the choice; the check with and without the lamp

    stopped = explore(script, max_runs=1)
    assert line_of(script, "glows in the dark") in stopped.unreached_lines and not stopped.complete
    assert "The search stopped at 1 runs" in stopped.text()
    assert stopped.as_dict()["complete"] is False


def test_battle_outcomes_are_brought_about_by_dealing_again():
    """The skirmish is mostly won as dealt; defeat and escape come from other deals, and the
    lines of every outcome's block are reached."""
    path = SCENARIOS / "skirmish.quest"
    report = explore(path)
    assert report.taken == report.alternatives == 3
    assert report.unreached_lines == [] and not report.never_taken
    assert explore(path).as_dict() == report.as_dict()  # the same search, deal for deal


def test_an_escape_is_the_partys_choice_taken_in_the_battle_as_dealt_t_6_6(tmp_path):
    """T-6.6: escaping is a PC's choice (its turn's non-combat action), so explore takes it
    as it takes an option: in a clone of the battle as the run dealt it, the party tries to
    escape at every chance; no other deal is needed."""
    script = write_script(tmp_path, "ditch.quest", """horde raiders "Goblin Raiders":
    deck "decks/horde.txt"
flag rescued
start scene road "The Road":
    battle against raiders:
        victory:
            end victory "The raiders scatter."
        escape:
            "You run into the woods."
    choice:
        "Wait for help" if rescued:
            end victory "Help comes."
""")
    report = explore(script)
    (finding,) = report.findings
    assert finding.kind == "stuck" and finding.line == line_of(script, "choice:")
    (step,) = finding.path
    assert step.line == line_of(script, "battle against")
    assert step.what == "battle against raiders ended in escape (the party fled at every chance)"
    assert report.never_taken == [f'line {line_of(script, "Wait for help")}: option "Wait for help"']


def test_a_plan_through_a_fled_battle_replays_the_flight(tmp_path):
    """A dead end behind the choice after an escape: its plan replays the battle the party
    fled (the same deal, the same flight), else the run would end in the victory."""
    script = write_script(tmp_path, "ford.quest", """horde raiders "Goblin Raiders":
    deck "decks/horde.txt"
flag wet
start scene road "The Road":
    battle against raiders:
        victory:
            end victory "The raiders scatter."
        escape:
            "You run into the woods."
    choice:
        "Hide":
            end victory "They pass you by."
        "Wade the ford":
            set wet
            choice:
                "Dry off" if not wet:
                    end victory "Dry at last."
""")
    report = explore(script, max_runs=20)  # "Dry at last." is unreachable: no need of sim's 2,000 runs
    (finding,) = report.findings
    assert finding.kind == "stuck" and finding.line == line_of(script, "            choice:")
    assert [step.what for step in finding.path] == [
        "battle against raiders ended in escape (the party fled at every chance)", 'chose "Wade the ford"']
    assert explore(script, max_runs=20).as_dict() == report.as_dict()


def test_an_outcome_no_deal_gives_is_listed_with_the_deals_tried(tmp_path):
    """Without `prepare by`, facing a horde of one token: defeat does not come."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "green.txt").write_text((SCENARIOS / "decks" / "green.txt").read_text())
    (tmp_path / "decks" / "tiny.txt").write_text("1 Goblin\n")
    script = tmp_path / "tiny.quest"
    script.write_text(HEADER.format(title="Tiny") + """horde gob "One Goblin":
    deck "decks/tiny.txt"
start scene road "The Road":
    battle against gob:
        victory:
            end victory "Gone."
        defeat:
            end defeat "Beaten by one goblin."
""")
    report = explore(script)
    assert report.never_taken == [f"line {line_of(script, 'battle against')}: battle against gob ending in defeat "
                                  f"(not in {BATTLE_TRIES} deals)"]
    assert report.unreached_lines == [line_of(script, "Beaten by one goblin")]


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


def test_a_battle_that_does_not_end_is_a_dead_end_not_a_search(tmp_path, monkeypatch):
    """A stalemate (past MAX_TURNS) plays MAX_TURNS turns: one as dealt is not searched
    past, and is reported as the dead end it makes."""
    from deckquest.engine.combat import battle
    from deckquest.sim.explore import Explorer

    monkeypatch.setattr(battle, "MAX_TURNS", 3)
    played = []
    play_battle = Explorer._play_battle
    monkeypatch.setattr(Explorer, "_play_battle", lambda self, run, deal: played.append(deal) or play_battle(self, run, deal))
    script = write_script(tmp_path, "wall.quest", """horde plants "Plant Wall":
    deck "decks/plants.txt"
start scene hall "Hall":
    battle against plants:
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
""")
    (tmp_path / "decks" / "plants.txt").write_text("30 Plant\n")
    report = explore(script)
    (finding,) = report.findings
    assert finding.kind == "stuck" and "did not end" in finding.message
    assert played == [0, 0]  # as dealt, wanting victory; and again, wanting defeat


def test_the_degree_a_condition_reads_is_forced_too(tmp_path):
    """No natural check reaches degree 30 or -40: forcing success or failure keeps the
    cards' degree, so those lines need the degrees the conditions compare with."""
    script = write_script(tmp_path, "relic.quest", """flag crowned
start scene hall "The Hall":
    check green difficulty 1 by alice as "Read the relic":
        success:
            if degree >= 30:
                -> vault
        failure:
            if degree <= -40:
                "The relic crumbles."
    end victory "Done."
scene vault "The Vault":
    choice:
        "Take the crown" if crowned:
            end victory "Crowned."
""")
    report = explore(script)
    assert report.unreached_lines == [line_of(script, "Crowned")]
    (finding,) = report.findings
    assert finding.kind == "stuck" and finding.line == line_of(script, "choice:")
    assert [str(step) for step in finding.path] == [
        f'line {line_of(script, "check green")} (hall): "Read the relic" forced to succeed with degree 30']


def test_without_degree_conditions_checks_have_two_outcomes_only():
    from deckquest.sim.explore import Explorer, _degree_variants
    from deckquest.sim.batch import load
    from deckquest.runtime.interpreter import Program

    scenario, members = load(SHRINE, None)
    assert _degree_variants(Program(scenario, members)) == ()
    assert Explorer(Program(scenario, members)).degrees == ()


def test_explore_plays_as_sims_default_agent_a_line_only_a_prepared_party_reaches(tmp_path):
    """Issue 17, item 14: explore's party is `sim`'s default, `best`: before a decision it
    concentrates and plays a land (T-2.4, T-2.5), so a line behind a smaller hand is
    reachable for explore as for `sim`."""
    from deckquest.sim.batch import simulate

    script = write_script(tmp_path, "ready.quest", """start scene camp "The Camp":
    choice:
        "Set out":
            if alice.hand < 7:
                end victory "Ready."
            end defeat "Not ready."
""")
    ready = line_of(script, 'end victory "Ready."')
    assert ready not in explore(script).unreached_lines
    assert str(ready) not in simulate(script, runs=20).data["lines"]["unreached"]


@pytest.mark.slow
def test_explore_and_sim_agree_on_the_ashen_abbey():
    """Issue 17, item 14 (the reported adventure): sim's 2,000 default runs reach every line
    (the Saint's defeat and the escapes from it among the rarest); explore, playing as sim's
    agent and then sim's own runs for what its search leaves, reaches them too."""
    path = SCENARIOS / "ashen_abbey" / "ashen_abbey.quest"
    report = explore(path)
    assert report.unreached_lines == [] and report.never_taken == []
    assert line_of(path, 'end defeat "The Saint claims') not in report.unreached_lines


def test_a_counter_that_grows_round_a_loop_does_not_make_every_trip_a_new_situation(tmp_path):
    """A counter the conditions only compare with numbers counts, in a situation, as its side
    of each number: `trips` grows on every trip round the loop, so with its bare value each
    trip was a new situation with every option untried again, and the search ran to its
    limit. Here the search ends by itself, having reached every line."""
    script = write_script(tmp_path, "loop.quest", """counter trips
start scene hub "The Hub":
    trips += 1
    choice:
        "Walk round again":
            -> hub
        "Rest" if trips >= 3:
            end victory "Rested at last."
        "Give up":
            end defeat "Gave up."
""")
    report = explore(script, max_runs=400)
    assert report.complete and report.runs < 50
    assert report.unreached_lines == [] and report.never_taken == []
