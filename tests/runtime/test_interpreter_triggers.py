"""Triggers: every event of the language, their scope and their order."""

from __future__ import annotations

from deckquest.runtime.agents import FirstAgent
from runtime_helpers import PRELUDE, narration, of_kind, play, start


def test_scene_starts_and_ends_fire_around_the_scene_change(tmp_path):
    _, events = play(tmp_path, '''counter torches = 1
when the scene starts:
    "any scene starts"
start scene one "A":
    when the scene ends:
        "leaving A"
    "in A"
    -> two
scene two "B":
    when the scene starts if torches < 2:
        "dark B"
    when the scene ends:
        "never"
    "in B"
    end victory ""
''')
    assert narration(events) == ["any scene starts", "in A", "leaving A", "any scene starts", "dark B", "in B"]


def test_triggers_fire_in_declaration_order_scenario_before_scene(tmp_path):
    _, events = play(tmp_path, '''when the scene starts:
    "first"
when the scene starts:
    "second"
start scene one "A":
    when the scene starts:
        "third"
    end victory ""
''')
    assert narration(events) == ["first", "second", "third"]


def test_check_succeeds_and_fails_fire_with_pc_bound_before_the_block(tmp_path):
    for seed in range(1, 6):
        _, events = play(tmp_path, '''when a check succeeds:
    "{pc} succeeded"
when a check fails:
    "{pc} failed"
start scene one "A":
    check green difficulty 3 by bram:
        success:
            "block success"
        failure:
            "block failure"
    end victory ""
''', seed=seed)
        word = "succeeded" if of_kind(events, "check")[0]["success"] else "failed"
        block = "block success" if word == "succeeded" else "block failure"
        assert narration(events) == [f"Bram {word}", block]


def test_a_critical_card_is_revealed_fires(tmp_path):
    """T-4.7: put a critical Forest on top of Alice's library; the trigger fires first."""
    run = start(tmp_path, '''when a critical card is revealed:
    "critical for {pc}"
start scene one "A":
    check green difficulty 1 by alice:
        success:
            "ok"
        failure:
            "no"
    end victory ""
''')
    alice = run.state.pcs["alice"]
    critical = min(alice.critical_cards)
    for zone in (alice.library, alice.hand):
        if critical in zone:
            zone.remove(critical)
    alice.library.insert(0, critical)
    run.run()
    check = of_kind(run.events, "check")[0]
    assert check["criticals"] == ["Forest"]
    assert narration(run.events)[0] == "critical for Alice"


def test_pc_dying_and_pc_dies_fire(tmp_path):
    """T-7.1 life 0 is dying; T-7.4 further loss while dying kills."""
    _, events = play(tmp_path, '''when a pc is dying:
    "{pc} is dying"
when a pc dies:
    "{pc} is dead"
start scene one "A":
    bram loses 20 life
    bram loses 1 life
    end victory ""
''')
    assert narration(events) == ["Bram is dying", "Bram is dead"]
    assert [e["status"] for e in of_kind(events, "status")] == ["dying", "dead"]


def test_pc_falls_unconscious_fires_when_the_library_runs_out(tmp_path):
    """T-7.2: drawing from an empty library makes the PC unconscious; sleep wakes it (T-2.8)."""
    run = start(tmp_path, '''when a pc falls unconscious:
    "{pc} faints"
start scene one "A":
    alice draws 60
    the party sleeps
    end victory ""
''')
    run.run()
    assert narration(run.events) == ["Alice faints"]
    assert [e["status"] for e in of_kind(run.events, "status")] == ["unconscious", "ok"]
    assert run.state.pcs["alice"].status == "ok"


def test_the_last_death_runs_its_triggers_then_the_run_ends_in_defeat(tmp_path):
    prelude = '''scenario "Solo":
    rules 2019
pc alice "Alice":
    deck "decks/green.txt"
    critical "Forest" x3
'''
    result, events = play(tmp_path, '''when a pc dies:
    "{pc} is gone"
start scene one "A":
    alice loses 20 life
    alice loses 1 life
    "never told"
    end victory ""
''', prelude=prelude)
    assert narration(events) == ["Alice is gone"]
    assert result.outcome == "defeat" and result.text == "Every PC is dead."


def test_npc_is_defeated_fires_only_for_its_npc(tmp_path):
    run = start(tmp_path, '''creature bear "Bear" from card "Grizzly Bears"
creature wolf "Wolf" from card "Grizzly Bears"
when bear is defeated:
    "bear down"
when wolf is defeated:
    "wolf down"
start scene one "A":
    fight bear holding back
    end victory ""
''', _FightWithFirstCreature())
    from test_interpreter_statements import _with_creature

    _with_creature(run, "alice", "Centaur Courser")
    run.run()
    assert narration(run.events) == ["bear down"]


class _FightWithFirstCreature(FirstAgent):
    def fighter(self, run, decision):
        return decision.actions[1]  # the first candidate (None, no creature, comes first)


def test_after_n_minutes_fires_once_on_the_game_clock(tmp_path):
    _, events = play(tmp_path, '''when after 30 minutes:
    "half an hour"
start scene one "A":
    wait 20 minutes
    "twenty"
    wait 20 minutes
    "forty"
    wait 20 minutes
    end victory ""
''')
    assert narration(events) == ["twenty", "half an hour", "forty"]


def test_after_n_minutes_in_a_scene_counts_from_the_scene_start(tmp_path):
    _, events = play(tmp_path, '''start scene one "A":
    wait 50 minutes
    -> two
scene two "B":
    when after 10 minutes:
        "ten minutes in B"
    wait 5 minutes
    "five"
    wait 5 minutes
    end victory ""
''')
    assert narration(events) == ["five", "ten minutes in B"]


def test_time_spent_by_pc_actions_fires_after_n_minutes_before_the_decision(tmp_path):
    """The best agent's actions take minutes (T-2.4, T-2.6); a due trigger runs first."""
    from deckquest.runtime.agents import BestAgent

    _, events = play(tmp_path, '''when after 2 minutes:
    "two minutes gone"
start scene one "A":
    choice:
        "Go":
            end victory ""
''', BestAgent())
    kinds = [e["event"] for e in events]
    assert kinds.index("narration") < kinds.index("choice")
    assert narration(events) == ["two minutes gone"]
    assert [e for e in events if e["event"] == "choice"][0]["clock"] >= 2


def test_no_critical_cards_under_the_2014_rules(tmp_path):
    """T-4.7 is a 2019 rule; T-5 has no critical cards: a designated Forest revealed in a
    2014 check is an ordinary card, so `a critical card is revealed` never fires and the
    check event lists no critical card (docs/checks.md)."""
    prelude = PRELUDE.replace("rules 2019", "rules 2014")
    body = '''counter crits = 0
when a critical card is revealed:
    crits += 1
start scene one "A":
''' + "".join(f'''    check body difficulty {n} by alice:
        success:
            "ok"
''' for n in range(12)) + '''    "{crits}"
    end victory ""
'''
    revealed = 0
    for seed in range(1, 8):
        _, events = play(tmp_path, body, seed=seed, prelude=prelude)
        checks = of_kind(events, "check")
        revealed += sum(1 for c in checks if c["cards"] == ["Forest"])
        assert all(c["criticals"] == [] and c["critical"] is None for c in checks)
        assert narration(events)[-1] == "0"
    assert revealed > 0  # Forests (3 of them designated) were revealed
