"""Driving a run: step limit, stuck runs, snapshots and clones, determinism."""

from __future__ import annotations

import random

from deckquest.runtime.agents import BestAgent, RandomAgent
from deckquest.runtime.interpreter import Program, Run, run_scenario
from deckquest.runtime.transcript import render_jsonl
from runtime_helpers import SCENARIOS, narration, play, start

SHRINE = SCENARIOS / "drowned_shrine" / "drowned_shrine.quest"


def test_two_scenes_that_go_to_each_other_forever_end_as_stuck(tmp_path):
    """A loop with no way out ends as "stuck" at the step limit, naming the scene."""
    result, events = play(tmp_path, '''start scene ping "Ping":
    -> pong
scene pong "Pong":
    -> ping
''', max_steps=500)
    assert result.outcome == "stuck"
    assert result.scene in ("ping", "pong") and "500 steps" in result.text
    assert result.steps == 501
    assert events[-1]["event"] == "end" and events[-1]["outcome"] == "stuck"


def test_a_choice_with_no_option_available_is_stuck(tmp_path):
    result, _ = play(tmp_path, '''flag never
start scene one "A":
    choice:
        "Only if never" if never:
            end victory ""
    end defeat ""
''')
    assert result.outcome == "stuck" and "no option" in result.text and result.scene == "one"


def test_same_seed_same_events_different_seed_different_events():
    program = Program(_shrine())
    first = [render_jsonl(Run(program, BestAgent(), random.Random(7), seed=7).run().events)
             for _ in range(2)]
    assert first[0] == first[1]
    others = {render_jsonl(Run(program, BestAgent(), random.Random(s), seed=s).run().events)
              for s in range(8)}
    assert len(others) > 1


def _shrine():
    from deckquest.dsl.resolver import compile_file
    from runtime_helpers import DB

    return compile_file(SHRINE, DB)


def test_restore_a_snapshot_replays_the_same_continuation():
    """The state is plain data: restoring a snapshot and running on repeats the run exactly."""
    run = Run(Program(_shrine()), RandomAgent(), random.Random(3), seed=3)
    for _ in range(6):
        run.step()
    saved = run.snapshot()
    first = run.run()
    first_events = list(first.events)
    run.restore(saved)
    second = run.run()
    assert second.events == first_events and second.outcome == first.outcome


def test_clones_at_every_step_continue_identically():
    """Clone at each decision or chance point: every clone finishes like the original."""
    program = Program(_shrine())
    original = Run(program, RandomAgent(), random.Random(11), seed=11)
    clones = []
    while original.step():
        clones.append(original.clone())
    for clone in clones:
        clone.run()
        assert clone.events == original.events
        assert clone.state.pcs["mira"].library == original.state.pcs["mira"].library


def test_a_clone_is_independent_of_its_original():
    program = Program(_shrine())
    original = Run(program, RandomAgent(), random.Random(5), seed=5)
    original.step()
    clone = original.clone()
    clone.state.counters["air"] = 99
    clone.state.pcs["mira"].life = 1
    assert original.state.counters["air"] == 3 and original.state.pcs["mira"].life == 20


def test_a_clone_carries_everything_its_run_holds():
    """`clone()` names what it copies (the compiled build's `Run` has no `__dict__` to copy):
    every attribute of the run has the original's value in the clone, and its generator,
    state, events and memory are copies. A run attribute added and not cloned fails here."""
    program = Program(_shrine())
    original = Run(program, RandomAgent(), random.Random(5), seed=5, listener=print, kinds=["check"],
                   on_statement=repr, on_check=len, on_scene=str, max_steps=77, battle_events=False)
    original.step()
    original.forced, original.memory["plan"], original.script_changes = True, 3, "line 4"
    twin = original.clone()
    copied = {"rng", "state", "events", "memory"}
    names = [name for name in dir(original) if not name.startswith("__")
             and not callable(getattr(type(original), name, None)) and name not in ("seats", "WAIT")]
    assert copied < set(names) and "forced" in names
    for name in names:
        if name in copied:
            assert getattr(twin, name) is not getattr(original, name), name
        if name != "rng":  # (a generator is equal to none but itself: its state is)
            assert getattr(twin, name) == getattr(original, name), name
    assert twin.rng.getstate() == original.rng.getstate()


def test_unrecorded_runs_have_the_same_outcome():
    """record=False (for batch runs) changes nothing but the event list."""
    program = Program(_shrine())
    for seed in range(5):
        recorded = run_scenario(program, "random", seed)
        bare = run_scenario(program, "random", seed, record=False)
        assert bare.events is None
        assert (bare.outcome, bare.steps, bare.clock) == (recorded.outcome, recorded.steps, recorded.clock)


def test_run_scenario_accepts_a_path_and_an_agent_name():
    result = run_scenario(SHRINE, "first", 1)
    assert result.outcome in ("victory", "escaped")


def test_best_agent_prepares_each_scene_once(tmp_path):
    """The documented policy: concentrate, play a land, cast creatures, rest (T-2.3 to T-2.6)."""
    run = start(tmp_path, '''start scene one "A":
    check green difficulty 2 by alice:
        success:
            "ok"
        failure:
            "no"
    check green difficulty 2 by bram:
        success:
            "ok"
        failure:
            "no"
    end victory ""
''', BestAgent())
    run.run()
    actions = [(e["pc"], e["action"]) for e in run.events if e["event"] == "action"]
    assert actions[0] == ("alice", "concentrate") and ("alice", "rest") in actions
    assert actions.count(("alice", "concentrate")) <= 2  # once more only if it cast a creature
    assert not any(pc.concentration_counter for pc in run.state.pcs.values())
    assert run.state.clock == len(actions)  # each action takes one minute
    assert len(narration(run.events)) == 2


def test_best_agent_casts_a_creature_that_then_supports_the_check(tmp_path):
    """T-2.10: after casting, the second concentration ends summoning sickness; T-3.3 support."""
    run = start(tmp_path, '''start scene one "A":
    check green difficulty 2 by alice:
        success:
            end victory ""
        failure:
            end defeat ""
''', BestAgent())
    alice = run.state.pcs["alice"]
    forest = next(i for i in range(len(alice.cards))
                  if alice.cards[i].name == "Forest" and i not in alice.critical_cards)
    elves = next(i for i in range(len(alice.cards)) if alice.cards[i].name == "Llanowar Elves")
    for card in (forest, elves):
        for zone in (alice.library, alice.hand):
            if card in zone:
                zone.remove(card)
    alice.library.extend(alice.hand)
    alice.hand = [forest, elves]
    run.run()
    actions = [(e["pc"], e["action"], e["card"]) for e in run.events if e["event"] == "action"]
    assert actions[:6] == [("alice", "concentrate", None), ("alice", "play_land", "Forest"),
                           ("alice", "cast", "Llanowar Elves"), ("alice", "rest", None),
                           ("alice", "concentrate", None), ("alice", "rest", None)]
    check = [e for e in run.events if e["event"] == "check"][0]
    assert (check["support"], check["supporter"]) == (1, "Llanowar Elves")


def test_T_2_2_checks_choices_and_narration_take_no_game_time(tmp_path):
    """Only the actions of T-2.3 to T-2.8 and `wait` move the clock (T-2.2)."""
    from runtime_helpers import play

    body = '''start scene one "A":
    "Nothing but talk."
    choice:
        "Look":
            check green difficulty 2 by alice as "Look":
                success:
                    end "seen" ""
                failure:
                    end "missed" ""
'''
    result, _ = play(tmp_path, body)
    assert result.clock == 0
    result, _ = play(tmp_path, body.replace('"Nothing but talk."', 'wait 5 minutes'))
    assert result.clock == 5
