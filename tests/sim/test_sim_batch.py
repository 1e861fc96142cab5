"""`deckquest.sim.simulate`: seeded batches, identical for any number of jobs, agreeing
with the exact odds of engine/odds.py (T-4.2 to T-4.7) within 4 standard errors."""

from __future__ import annotations

import math

import pytest
from sim_helpers import SCENARIOS, SHRINE, line_of

from deckquest.dsl.resolver import compile_file
from deckquest.runtime.interpreter import Program, run_scenario
from deckquest.sim import simulate
from deckquest.engine.odds import check_probability
from deckquest.sim.trace import run_seed


def exact(scenario_path, pc_id: str, kind: str, difficulty: int) -> float:
    program = Program(compile_file(scenario_path))
    member = next(m for m in program.party if m.id == pc_id)
    return float(check_probability(member.cards, member.critical_cards, kind, difficulty))


def within_four_standard_errors(count: int, runs: int, p: float) -> bool:
    return abs(count / runs - p) <= 4 * math.sqrt(p * (1 - p) / runs)


def test_run_seed_depends_on_seed_and_index_only():
    assert run_seed(7, 3) == run_seed(7, 3)
    assert len({run_seed(7, i) for i in range(1000)}) == 1000
    assert run_seed(7, 0) != run_seed(8, 0)


def test_same_report_on_one_and_two_jobs():
    one = simulate(SHRINE, runs=600, seed=11, jobs=1)
    two = simulate(SHRINE, runs=600, seed=11, jobs=2)
    assert one.to_json() == two.to_json()
    assert one.runs == 600 and sum(one.endings.values()) + one.data["stuck"] == 600


def test_another_seed_gives_other_runs():
    first = simulate(SHRINE, runs=300, seed=1, jobs=1)
    second = simulate(SHRINE, runs=300, seed=2, jobs=1)
    assert first.data["lines"]["hits"] != second.data["lines"]["hits"]


def test_single_check_matches_exact_odds_T_4_7():
    """One green check, difficulty 4: P(victory) is the check's exact probability."""
    path = SCENARIOS / "single_check.quest"
    p = exact(path, "alice", "green", 4)
    report = simulate(path, runs=4000, seed=3, jobs=1, agent="first")
    assert within_four_standard_errors(report.endings["victory"], 4000, p)
    site = report.check("Climb the cliff")
    assert site["exact"] == pytest.approx(p, abs=1e-6)
    assert site["attempts"] == 4000 and site["who"] == "alice"


def test_two_checks_in_sequence_multiply():
    """Alice's then Bram's check (independent decks): victory = p(a) p(b), fell = p(a) (1 - p(b))."""
    path = SCENARIOS / "two_checks.quest"
    pa = exact(path, "alice", "green", 3)
    pb = exact(path, "bram", "red", 5)
    runs = 4000
    report = simulate(path, runs=runs, seed=5, jobs=2, agent="first")
    assert within_four_standard_errors(report.endings["victory"], runs, pa * pb)
    assert within_four_standard_errors(report.endings["fell"], runs, pa * (1 - pb))
    assert within_four_standard_errors(report.endings["defeat"], runs, 1 - pa)
    assert report.data["scenes"]["bridge"]["reached"] == report.check("Lift the gate")["successes"]


def test_a_loop_is_counted_as_stuck_with_its_scene_and_replay_seed():
    path = SCENARIOS / "loop.quest"
    report = simulate(path, runs=40, seed=0, jobs=1, max_steps=200)
    assert report.data["stuck"] == 40
    assert report.endings == {}
    stuck = report.data["stuck_scenes"]
    assert set(stuck) <= {"hall", "yard"} and sum(row["runs"] for row in stuck.values()) == 40
    row = next(iter(stuck.values()))
    assert "--seed" in row["command"] and "--max-steps 200" in row["command"]
    replay = run_scenario(path, "random", seed=row["seed"], max_steps=200, record=False)
    assert replay.outcome == "stuck"


def test_every_line_counted_and_unreached_lines_listed():
    report = simulate(SHRINE, runs=300, seed=0, jobs=1)
    hits = report.data["lines"]["hits"]
    altar_if = str(line_of(SHRINE, "if relics >= 3"))
    assert hits[altar_if] == report.data["scenes"]["altar"]["reached"]
    dies = str(line_of(SHRINE, "when a pc dies:") + 1)  # its narration: no PC dies in the shrine
    assert hits[dies] == 0 and dies in report.data["lines"]["unreached"]
    assert set(report.data["lines"]["unreached"]) == {line for line, n in hits.items() if n == 0}


def test_interrupt_reports_the_runs_finished(monkeypatch):
    """Ctrl-C (a KeyboardInterrupt) stops between chunks; the report covers what finished."""
    calls = []

    def progress(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    report = simulate(SHRINE, runs=2000, seed=0, jobs=1, progress=progress)
    assert report.interrupted
    assert report.runs == calls[0] < 2000
    assert report.data["runs_requested"] == 2000


@pytest.mark.slow
def test_interrupt_with_worker_processes():
    def progress(done, total):
        raise KeyboardInterrupt

    report = simulate(SHRINE, runs=20_000, seed=0, jobs=2, progress=progress)
    assert report.interrupted and 0 < report.runs < 20_000
    assert sum(report.endings.values()) + report.data["stuck"] == report.runs


def test_bad_inputs_are_user_errors(tmp_path):
    from deckquest.errors import DeckquestError

    with pytest.raises(DeckquestError):
        simulate(tmp_path / "missing.quest", runs=10)
    with pytest.raises(DeckquestError):
        simulate(SHRINE, runs=0)
    with pytest.raises(DeckquestError):
        simulate(SHRINE, runs=10, agent="human")


@pytest.mark.parametrize("agent", ["random", "best"])
def test_each_run_is_what_deckquest_run_plays_with_its_seed(agent):
    """Run i of the batch is `deckquest run --agent A --seed run_seed(S, i)`, battles included."""
    from deckquest.sim.batch import Player, make_batch

    path = SCENARIOS / "skirmish.quest"
    player = Player(make_batch(path, agent=agent, seed=21))
    for index in range(6):
        tally = player.play(index, index + 1)
        replay = run_scenario(path, agent, seed=run_seed(21, index), record=False)
        assert dict(tally.endings) == {replay.outcome: 1}
        assert dict(tally.clock) == {replay.clock: 1} and dict(tally.steps) == {replay.steps: 1}
