"""The interpreter's hooks for tools that watch or steer runs (the simulator, explore mode):
event kinds a listener wants, the statement about to run, and forced check outcomes."""

from __future__ import annotations

import random

from deckquest.systems.trpg import nodes
from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import FirstAgent, RandomAgent
from deckquest.runtime.interpreter import Program, Run, check_key
from runtime_helpers import SCENARIOS, of_kind

SHRINE = Program(compile_file(SCENARIOS / "drowned_shrine" / "drowned_shrine.quest"))


def _run(seed: int, **options) -> Run:
    return Run(SHRINE, RandomAgent(), random.Random(seed), seed=seed, **options)


def test_a_listener_gets_only_the_kinds_it_names_and_the_run_is_unchanged():
    """Events nobody wants are not built; the wanted ones are those of a recorded run."""
    for seed in range(20):
        recorded = _run(seed)
        recorded.run()
        heard = []
        quiet = _run(seed, record=False, listener=heard.append, kinds={"check", "scene"})
        result = quiet.run()
        assert heard == [e for e in recorded.events if e["event"] in ("check", "scene")]
        assert (result.outcome, result.steps, result.clock) == (
            recorded.state.outcome, recorded.state.steps, recorded.state.clock)


def test_on_statement_sees_each_statement_that_runs_as_next_statement_announced_it():
    for seed in range(20):
        started = []
        run = _run(seed, record=False, on_statement=started.append)
        announced = []
        while True:
            upcoming = run.next_statement()
            before = run.state.steps
            if not run.step():
                break
            if run.state.steps != before:
                announced.append(upcoming)
        assert len(started) == run.state.steps
        assert [id(s) for s in started[:len(announced)]] == [id(s) for s in announced]


def test_forced_checks_reveal_the_natural_cards_with_the_forced_outcome_T_4_8():
    """A forced check moves the cards as dealt (the generator advances alike, T-4.8);
    only success and the sign of the degree change."""
    for seed in range(10):
        natural, forced = _run(seed), _run(seed)
        natural.forced, forced.forced = None, False
        first = {}
        for run in (natural, forced):
            while run.step():
                checks = of_kind(run.events, "check")
                if checks and checks[0]["cards"]:
                    first[run is forced] = checks[0]
                    break
        assert first[True]["cards"] == first[False]["cards"]
        assert first[True]["success"] is False and first[True]["degree"] < 0
        assert abs(first[True]["degree"]) in (abs(first[False]["degree"]), 1)


def test_forcing_success_passes_every_check():
    run = _run(3)
    run.forced = True
    statements = []
    run.on_statement = statements.append
    run.run()
    checks = [e for e in of_kind(run.events, "check") if e["cards"]]
    assert checks and all(e["success"] and e["degree"] >= 0 for e in checks)
    assert any(isinstance(s, (nodes.Check, nodes.Recruit)) for s in statements)


def test_forcing_a_degree_decides_it_too():
    run = _run(3)
    run.forced = (False, -7)
    run.run()
    checks = [e for e in of_kind(run.events, "check") if e["cards"]]
    assert checks and all(not e["success"] and e["degree"] == -7 for e in checks)


def test_run_and_step_by_step_play_alike():
    """``run()`` does the common steps itself (a statement, closing a block); stepping the
    run with ``step()`` goes through ``_step`` alone. Both give the same events and state,
    at the step limit too."""
    for seed in range(25):
        for max_steps in (10_000, 12):
            whole = _run(seed, max_steps=max_steps)
            whole.run()
            stepped = _run(seed, max_steps=max_steps)
            while stepped.step():
                pass
            assert whole.events == stepped.events
            assert whole.state == stepped.state
            assert whole.rng.getstate() == stepped.rng.getstate()


def test_on_check_reports_each_check_event_in_short():
    """``on_check((site, pc, success, revealed))`` is called once per ``check`` event,
    refused checks included (no card revealed), with the event's PC and success (forced
    too) and the ``check_key`` of the statement that made the check."""
    for seed in range(20):
        for forced in (None, False):
            started = []
            recorded = _run(seed, on_statement=started.append)
            recorded.forced = forced
            recorded.run()
            heard = []
            quiet = _run(seed, record=False, on_check=heard.append)
            quiet.forced = forced
            quiet.run()
            assert [(pc, success, revealed) for _, pc, success, revealed in heard] == [
                (e["pc"], e["success"], bool(e["cards"])) for e in of_kind(recorded.events, "check")]
            checks = {check_key(stmt) for stmt in started if isinstance(stmt, (nodes.Check, nodes.Recruit))}
            assert {site for site, *_ in heard} == checks

def test_on_scene_hears_each_scene_start_as_the_scene_event_does():
    for seed in range(20):
        recorded = _run(seed)
        recorded.run()
        heard = []
        quiet = _run(seed, record=False, on_scene=heard.append)
        quiet.run()
        assert heard == [e["id"] for e in of_kind(recorded.events, "scene")]


class _ActingFirst(FirstAgent):
    """``first`` letting its PCs act: ``acts`` True, so it is asked every decision point's
    pc_action (and answers "done" at once)."""

    acts = True

    def __init__(self):
        self.moments = []

    def pc_action(self, run, decision):
        self.moments.append(decision.about["moment"])
        return "done"


def test_an_agent_is_asked_pc_actions_unless_it_never_acts():
    """The run asks no pc_action of an agent whose ``acts`` is False (``first``, ``random``);
    an agent that acts is asked at every decision point."""
    assert not FirstAgent.acts and not RandomAgent.acts
    agent = _ActingFirst()
    run = Run(SHRINE, agent, random.Random(1), seed=1)
    assert run.agent_acts and not _run(1).agent_acts
    run.run()
    assert agent.moments.count("choice") == len(of_kind(run.events, "choice"))
    assert "check" in agent.moments and set(agent.moments) <= {"choice", "check", "fight", "battle"}
