"""The adventure's decisions as data (issue 13, items 3 to 5): a run says which decision of the
party it waits for and its legal actions (``Run.decision()``), ``Run.apply(action)`` refuses
anything else and goes on with the statement that asked; a run is cloned and saved at any of
them and goes on identically."""

from __future__ import annotations

import random

import pytest

from deckquest.runtime.agents import FirstAgent, make_agent
from deckquest.runtime.interpreter import DONE, IllegalAction, Program, Run
from deckquest.runtime.saves import load_run, save_data, save_run
from deckquest.dsl.resolver import compile_file
from deckquest.engine.game import OVER
from runtime_helpers import SCENARIOS, of_kind, start

SHRINE = SCENARIOS / "drowned_shrine" / "drowned_shrine.quest"
CELLAR = SCENARIOS / "rat_cellar" / "rat_cellar.quest"

CHOICE = '''flag key
start scene hall "Hall":
    choice:
        "Open the door" if key:
            end victory "open"
        "Knock":
            end "knocked" "knock"
        "Leave":
            end defeat "gone"
'''

# T-4.12: the same check, in the same situation, by the same PC, fails unrevealed; leaving and
# entering the scene again changes nothing.
AGAIN = '''start scene gate "Gate":
    check green difficulty 40 by party as "Force the gate":
        success:
            end victory "in"
        failure:
            -> gate
'''

# T-4.6: one boost a scene; the 2014 rules have none.
TWO_CHECKS = '''start scene gate "Gate":
    check green difficulty 40 by alice as "Push":
        failure:
            "stuck"
    check green difficulty 40 by alice as "Push harder":
        failure:
            end defeat "shut"
    end victory "through"
'''


class Booster(FirstAgent):
    """Boosts every check it may (T-4.6), else plays like `first`."""

    def boost(self, run, decision):
        return True


def test_a_choice_offers_its_available_options_only(tmp_path):
    """An option whose condition fails is not an action; the labels are the offered ones."""
    run = start(tmp_path, CHOICE)
    decision = run.next_decision()
    assert (decision.actor, decision.kind, decision.actions) == ("party", "choice", (0, 1))
    assert decision.about["labels"] == ["Knock", "Leave"]
    run.apply(1)
    assert run.decision() is None  # the option's block runs next: no one is asked
    assert run.next_decision().over and run.state.outcome == "defeat"
    assert of_kind(run.events, "choice")[0]["label"] == "Leave"


def test_T_4_12_a_pc_that_made_the_very_same_check_is_not_offered(tmp_path):
    """T-4.12: after Alice failed `Force the gate`, entering the gate again offers only Bram."""
    run = start(tmp_path, AGAIN)
    decision = run.next_decision()
    assert (decision.kind, decision.actions) == ("pick_pc", ("alice", "bram"))
    assert decision.about == {"kind": "green", "difficulty": 40}
    run.apply("alice")
    if run.next_decision().kind == "boost":  # T-4.6: Alice may boost her failing check
        run.apply(False)
    decision = run.next_decision()
    assert (decision.kind, decision.actions) == ("pick_pc", ("bram",))
    with pytest.raises(IllegalAction):
        run.apply("alice")
    run.apply("bram")
    run.run()  # (then no one is left to make it: it fails unrevealed, round and round: stuck)
    assert [check["pc"] for check in of_kind(run.events, "check")][:3] == ["alice", "bram", None]


def _kinds_asked(run: Run) -> list[str]:
    asked = []
    while not run.next_decision().over:
        asked.append(run.decision().kind)
        run.apply(run.agent.choose(run, run.decision()))
    return asked


def test_T_4_6_boost_is_asked_only_while_the_pc_may_boost(tmp_path):
    """T-4.6: Alice's first check asks whether to boost; once boosted, her second check in the
    same scene does not; under the 2014 rules no check asks."""
    run = start(tmp_path, TWO_CHECKS, agent=Booster())
    assert _kinds_asked(run) == ["boost"]
    assert [check["boost"] for check in of_kind(run.events, "check")] == [True, False]
    no_boost = start(tmp_path, TWO_CHECKS.replace("green", "body"), agent=Booster(), prelude=_prelude_2014())
    assert _kinds_asked(no_boost) == []


def _prelude_2014() -> str:
    from runtime_helpers import PRELUDE

    return PRELUDE.replace("rules 2019", "rules 2014")


def test_an_illegal_action_is_refused_and_changes_nothing(tmp_path):
    run = start(tmp_path, CHOICE)
    run.next_decision()
    before = save_data(run)
    for wrong in (2, "Knock", None, (0,)):
        with pytest.raises(IllegalAction):
            run.apply(wrong)
    assert save_data(run) == before
    best = Run(Program(compile_file(SHRINE)), make_agent("best"), random.Random(0), seed=0)
    decision = best.next_decision()
    assert decision.kind == "pc_action" and decision.actions[-1] == DONE
    mira = best.state.pcs["mira"]
    for wrong in (("mira", "cast", mira.hand[0]), ("mira", "play_land", mira.library[0]), ("nobody", "rest", None),
                  ("mira", "fly", None), "mira"):
        assert wrong not in decision.actions
        with pytest.raises(IllegalAction):
            best.apply(wrong)
    run.apply(1)
    with pytest.raises(IllegalAction):
        run.apply(0)  # the run is over: no decision is pending


def test_a_clone_at_a_boost_decision_goes_on_as_the_original(tmp_path):
    """A clone taken at the boost question (the check's cards revealed, in the state) answers
    and ends exactly as the original, and changing one changes nothing of the other."""
    run = start(tmp_path, TWO_CHECKS, agent=Booster())
    assert run.next_decision().kind == "boost"
    twin = run.clone()
    assert twin.decision() == run.decision() and twin.decision() is not run.decision()
    twin.apply(True)
    assert run.decision().kind == "boost"  # the original still waits
    run.apply(True)
    assert twin.run().events == run.run().events


@pytest.mark.parametrize("path,agent,seed", [(SHRINE, "best", 0), (SHRINE, "random", 4), (CELLAR, "best", 2)],
                         ids=["shrine-best", "shrine-random", "cellar-best"])
def test_a_run_saved_at_any_decision_resumes_there_and_goes_on_identically(tmp_path, path, agent, seed):
    """Issue 13: saved at each of a run's decisions (PC actions, choices, who checks, boosts),
    the resumed run waits for the same decision and ends with the same events."""
    program = Program(compile_file(path))
    expected = Run(program, make_agent(agent), random.Random(seed), seed=seed).run().events
    run = Run(program, make_agent(agent), random.Random(seed), seed=seed)
    kinds = set()
    while not run.next_decision().over:
        decision = run.decision()
        kinds.add(decision.kind)
        save_run(run, tmp_path / "s.json", seed=seed, agent=agent)
        resumed = load_run(program, tmp_path / "s.json", make_agent(agent))
        assert resumed.decision() == decision
        assert run.events + resumed.run().events == expected
        run.apply(run.agent.choose(run, decision))
    assert run.events == expected
    assert kinds >= {"choice"} and (agent != "best" or "pc_action" in kinds)


@pytest.mark.parametrize("path", [SHRINE, CELLAR, SCENARIOS / "goblin_cave" / "goblin_cave.quest"],
                         ids=["shrine", "cellar", "cave"])
def test_best_answers_only_legal_pc_actions_so_the_batch_loop_needs_no_check(path):
    """T-2.3 to T-2.6: ``best`` is ``legal_by_construction``, so ``run()``'s loop applies its PC
    actions unchecked; stepped, each answer goes through ``Run.apply``, which refuses an illegal
    one. Both ways give the same events, run for run: every answer was legal."""
    program = Program(compile_file(path))
    for seed in range(12):
        batch = Run(program, make_agent("best"), random.Random(seed), seed=seed)
        batch.run()
        stepped = Run(program, make_agent("best"), random.Random(seed), seed=seed)
        answered = 0
        while (decision := stepped.next_decision()).actor != OVER:
            stepped.apply(stepped.agent.choose(stepped, decision))
            answered += 1
        assert answered and stepped.events == batch.events, seed
