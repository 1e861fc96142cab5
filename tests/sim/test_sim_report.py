"""The difficulty report: its JSON against the shipped schema, the verdict, the text page,
run-time errors with the seed that replays them, and battle results (T-6, T-7)."""

from __future__ import annotations

import random

import jsonschema
import pytest
from sim_helpers import ROOT, SCENARIOS, SHRINE, report_schema

ROOT_SCENARIOS = ROOT / "scenarios"

from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import RandomAgent
from deckquest.runtime.interpreter import Program, Run
from deckquest.sim import simulate
from deckquest.sim.batch import Batch
from deckquest.sim.report import build_report
from deckquest.sim.trace import ScriptMap, Tally, play, run_seed


@pytest.fixture(scope="module")
def shrine():
    return simulate(SHRINE, runs=1000, seed=4, jobs=1)


def validate(data: dict) -> None:
    jsonschema.validate(data, report_schema(), cls=jsonschema.Draft202012Validator)


def test_shipped_schema_is_valid_and_accepts_reports(shrine):
    jsonschema.Draft202012Validator.check_schema(report_schema())
    validate(shrine.data)
    validate(simulate(SCENARIOS / "loop.quest", runs=20, jobs=1, max_steps=100).data)


def test_schema_rejects_a_broken_report(shrine):
    broken = dict(shrine.data)
    del broken["endings"]
    with pytest.raises(jsonschema.ValidationError):
        validate(broken)


def test_required_fields(shrine):
    data = shrine.data
    assert data["runs"] == 1000 and data["seed"] == 4
    assert set(data["endings"]) == {"victory", "escaped"}
    assert data["scenes"]["steps"]["reached"] == 1000
    for site in data["checks"]:
        assert {"scene", "line", "label", "kind", "difficulty", "attempts", "successes", "exact"} <= set(site)
        if site["attempts"]:
            low, high = site["interval"]
            assert low <= site["rate"] <= high
    assert set(data["pcs"]) == {"mira", "oren"}
    assert {"dying", "unconscious", "dead"} <= set(data["pcs"]["mira"])
    assert data["stuck"] == 0


def test_exact_odds_beside_the_simulated_rate(shrine):
    """A check by one named PC shows that PC's fresh-deck odds, as `deckquest odds` prints them."""
    from deckquest.engine.odds import check_probability

    site = shrine.check("Kindle the lantern")
    member = next(m for m in Program(compile_file(SHRINE)).party if m.id == "mira")
    expected = float(check_probability(member.cards, member.critical_cards, "white", site["difficulty"]))
    assert site["exact"] == pytest.approx(expected, abs=1e-6)
    assert site["pcs_checking"] == ["mira"]


def test_verdict_names_failing_checks_and_the_final_scene(shrine):
    verdict = shrine.data["verdict"]
    assert verdict["rating"] in ("easy", "fair", "hard", "very hard")
    assert verdict["headline"].startswith(verdict["rating"].upper())
    hardest = max(shrine.data["checks"], key=lambda s: s["attempts"] - s["successes"])
    assert hardest["label"] in verdict["reasons"][1]
    assert any("most parties end in the scene" in reason for reason in verdict["reasons"])
    victory = next(d for d in shrine.data["ending_details"] if d["outcome"] == "victory")
    assert victory["scene"] == "altar" and victory["reasons"]


def test_text_report_sections(shrine):
    text = shrine.text()
    for heading in ("Verdict:", "Endings", "Scenes", "Checks", "PCs", "Game clock", "Lines no run reached"):
        assert heading in text
    assert "Kindle the lantern" in text


def test_single_check_ratings():
    report = simulate(SCENARIOS / "single_check.quest", runs=500, seed=0, jobs=1, agent="first")
    share = report.share("victory")
    expected = "easy" if share >= 0.8 else "fair" if share >= 0.55 else "hard" if share >= 0.3 else "very hard"
    assert report.data["verdict"]["rating"] == expected


class Exploding(RandomAgent):
    """An agent that fails at the choice in some runs, as a buggy engine would."""

    def choice(self, run, decision):
        if run.rng.random() < 0.5:
            raise RuntimeError("boom")
        return super().choice(run, decision)


def test_runtime_errors_are_reported_with_the_seed_that_replays_them():
    scenario = compile_file(SHRINE)
    program = Program(scenario)
    script_map = ScriptMap(program)
    tally = Tally()
    for index in range(40):
        play(program, script_map, Exploding(), run_seed(9, index), index, 10_000, tally)
    report = build_report(script_map, tally, Batch(scenario, None, "random", 9, 10_000),
                          runs_requested=40, interrupted=False)
    errors = report.data["errors"]
    assert {e["scene"] for e in errors} <= {"steps", "vault"}  # the shrine's two choices
    error = next(e for e in errors if e["scene"] == "steps")
    assert error["message"] == "RuntimeError: boom"
    assert 0 < error["runs"] < 40 and error["seed"] == run_seed(9, error["run"])
    assert f"--seed {error['seed']}" in error["command"]
    replay = Run(program, Exploding(), random.Random(error["seed"]), record=False)
    with pytest.raises(RuntimeError):
        replay.run()
    validate(report.data)


def test_battle_events_fill_the_battle_section():
    """Battle results (engine/combat BattleResult fields) become rates, TPKs and lengths."""
    scenario = compile_file(SCENARIOS / "single_check.quest")
    program = Program(scenario)
    script_map = ScriptMap(program)
    tally = Tally()
    from deckquest.sim.trace import Recorder

    for turns, status, outcome in ((4, "ok", "victory"), (6, "dying", "defeat"), (5, "ok", "escape")):
        record = Recorder(script_map, tally)
        record.begin()
        record.on_event({"event": "battle", "line": 12, "outcome": outcome, "turns": turns,
                         "pcs": [{"id": "alice", "status": status, "life_lost": 3,
                                  "damage_dealt": 5, "damage_taken": 3}]})
    tally.runs = 3
    report = build_report(script_map, tally, Batch(scenario, None, "random", 0, 10_000),
                          runs_requested=3, interrupted=False)
    (battle,) = report.data["battles"]
    assert battle["battles"] == 3 and battle["outcomes"] == {"defeat": 1, "escape": 1, "victory": 1}
    assert battle["tpk"] == 1 and battle["turns"]["p50"] == 5
    assert battle["damage_dealt_mean"] == 5
    validate(report.data)


def test_real_battles_agree_with_the_endings_they_lead_to():
    """A horde battle (T-6) whose outcome blocks end the run: the battle rows match the endings."""
    report = simulate(SCENARIOS / "skirmish.quest", runs=120, seed=2, jobs=2, agent="best")
    (battle,) = report.data["battles"]
    endings = report.endings
    assert battle["battles"] == 120 and battle["scene"] == "road"
    assert battle["outcomes"].get("victory", 0) == endings.get("victory", 0)
    assert battle["outcomes"].get("defeat", 0) == endings.get("defeat", 0)
    assert battle["outcomes"].get("escape", 0) == endings.get("fled", 0)
    assert battle["tpk"] == battle["outcomes"].get("defeat", 0)  # alone, Alice out = the party lost
    assert battle["turns"]["p10"] <= battle["turns"]["p50"] <= battle["turns"]["p90"]
    if battle["outcomes"].get("defeat"):
        assert any("the battle at line" in reason for reason in report.data["verdict"]["reasons"])
    validate(report.data)


def test_report_names_the_cards_battles_do_not_simulate(tmp_path):
    """Issue 6: the report says, per battling deck, which cards' text battles leave out."""
    import shutil

    shutil.copytree(SCENARIOS / "decks", tmp_path / "decks")
    green = (tmp_path / "decks" / "green.txt").read_text(encoding="utf-8")
    (tmp_path / "decks" / "green.txt").write_text(
        green.replace("4 Kalonian Tusker", "4 Arcane Signet\n4 Polluted Delta\n4 Lightning Greaves\n4 Sol Ring"),
        encoding="utf-8")
    shutil.copy(SCENARIOS / "skirmish.quest", tmp_path / "skirmish.quest")
    report = simulate(tmp_path / "skirmish.quest", runs=20, seed=1, jobs=1)
    validate(report.data)
    alice = next(row for row in report.data["coverage"] if row["owner"] == "alice")
    assert "Polluted Delta" in alice["not_simulated"] and alice["cards"] == 72
    assert alice["score"] < 1.0
    assert "Polluted Delta" in report.text()
    horde = next(row for row in report.data["coverage"] if row["owner"] == "raiders")
    assert horde["cards"] > 0


def test_a_script_without_battles_has_no_coverage_section(shrine):
    assert shrine.data["coverage"] == []
    assert "Cards in battles" not in shrine.text()


# ---------------------------------------------------------------- wording (issue 18, item 7)


def test_a_hard_check_reason_compares_success_with_success(shrine):
    """The verdict set a failure rate beside a success probability; both are success now."""
    reasons = [r for r in shrine.data["verdict"]["reasons"] if "attempts" in r]
    assert reasons
    for reason in reasons:
        assert "it succeeds" in reason and "(on a fresh deck it succeeds" in reason


def test_check_labels_and_kinds_are_never_cut(tmp_path):
    """A long label and the 2014 kind `negotiation` stand whole in the checks table."""
    label = "Talk the suspicious toll keeper into letting everyone pass"
    source = (SCENARIOS / "single_check.quest").read_text("utf-8").replace("Climb the cliff", label)
    script = tmp_path / "long.quest"
    script.write_text(source, encoding="utf-8")
    import shutil
    shutil.copytree(SCENARIOS / "decks", tmp_path / "decks")
    assert label in checks_table(simulate(script, runs=20, jobs=1, agent="first").text())
    toll = simulate(ROOT_SCENARIOS / "bandit_toll" / "bandit_toll.quest", runs=20, jobs=1).text()
    assert " negotiation " in checks_table(toll)


def checks_table(text: str) -> str:
    """The lines of the text page's checks table."""
    return text.split("\nChecks ", 1)[1].split("\n\n", 1)[0]


def test_the_stuck_reason_names_a_heading_of_the_page():
    report = simulate(SCENARIOS / "loop.quest", runs=20, jobs=1, max_steps=100)
    assert report.data["stuck"]
    assert any('see "Stuck runs" below' in r for r in report.data["verdict"]["reasons"])
    assert "\nStuck runs\n" in report.text()


def test_battle_shares_and_every_pc_out_have_one_precision():
    """`defeat 2%` stood beside `TPK 2.5%`: both have one decimal now, and the column says what
    it counts (T-6.12: a PC out of the fight; a horde can lose to unconscious PCs)."""
    text = simulate(SCENARIOS / "skirmish.quest", runs=40, jobs=1).text()
    header = next(line for line in text.splitlines() if line.startswith("Battles"))
    assert "every PC out" in header and "TPK" not in header
    row = text.splitlines()[text.splitlines().index(header) + 1]
    import re
    assert re.findall(r"\d+\.\d%", row) and not re.findall(r"(?<![\d.])\d+%", row)


def test_html_numbers_have_no_padding_zeros(tmp_path):
    """The HTML showed `10.500` turns."""
    import re

    html = tmp_path / "report.html"
    simulate(SCENARIOS / "skirmish.quest", runs=40, jobs=1).write_html(html)
    cells = re.findall(r'<td class="num">([^<]*)</td>', html.read_text("utf-8"))
    assert cells and not [c for c in cells if re.fullmatch(r"\d+\.\d*0", c)]


def test_report_counts_a_shock_land_and_drawback_creatures_as_partly_simulated(tmp_path):
    """Issue 18 item 11: Blood Crypt taps for mana and Jackal Pup attacks as a 2/1 in a battle
    (T-6.1), so the report lists them as partly simulated, never "not simulated", and a deck
    whose only unread text is such riders adds no warning to the verdict."""
    import shutil

    shutil.copytree(SCENARIOS / "decks", tmp_path / "decks")
    green = (tmp_path / "decks" / "green.txt").read_text(encoding="utf-8")
    (tmp_path / "decks" / "green.txt").write_text(
        green.replace("4 Kalonian Tusker", "4 Blood Crypt\n4 Jackal Pup\n4 Vampire Lacerator"), encoding="utf-8")
    shutil.copy(SCENARIOS / "skirmish.quest", tmp_path / "skirmish.quest")
    report = simulate(tmp_path / "skirmish.quest", runs=10, seed=1, jobs=1)
    alice = next(row for row in report.data["coverage"] if row["owner"] == "alice")
    assert alice["not_simulated"] == []
    assert {"Blood Crypt", "Jackal Pup", "Vampire Lacerator"} <= set(alice["partly"])
    assert not any("battles simulate only" in reason for reason in report.data["verdict"]["reasons"])
    assert "not simulated: Blood Crypt" not in report.text()


PEACEFUL = '''scenario "Two ways through":
    rules 2019
    success endings victory, "peace"
pc alice "Alice":
    deck "decks/green.txt"
    critical "Forest" x3
start scene cliff "The Cliff":
    check green difficulty 4 by alice as "Talk them down":
        success:
            end "peace" "They let Alice pass."
        failure:
            check green difficulty 4 by alice as "Climb the cliff":
                success:
                    end victory "Alice reaches the top."
                failure:
                    end defeat "Alice falls."
'''


def test_the_verdict_counts_the_endings_the_script_calls_success(tmp_path):
    """Issue 18 item 8: only `victory` counted as success, so a peaceful ending made a winnable
    adventure look hard. With `success endings victory, "peace"` both count (T-4.2: each
    check here is one green check of difficulty 4)."""
    import shutil

    shutil.copytree(SCENARIOS / "decks", tmp_path / "decks")
    script = tmp_path / "two_ways.quest"
    script.write_text(PEACEFUL, encoding="utf-8")
    report = simulate(script, runs=400, seed=2, jobs=1)
    validate(report.data)
    endings, runs = report.data["endings"], report.data["runs"]
    assert report.data["scenario"]["success_endings"] == ["victory", "peace"]
    share = (endings.get("victory", 0) + endings.get("peace", 0)) / runs
    assert endings.get("peace", 0) and report.data["verdict"]["success_share"] == round(share, 6)
    assert report.data["verdict"]["headline"].endswith(f": the party ends in victory or peace in {share:.0%} of runs")
    plain = tmp_path / "plain.quest"
    plain.write_text(PEACEFUL.replace('    success endings victory, "peace"\n', ""), encoding="utf-8")
    counted_victory_only = simulate(plain, runs=400, seed=2, jobs=1).data["verdict"]["success_share"]
    assert counted_victory_only == round(endings.get("victory", 0) / runs, 6) < share
