"""The interpreter, statement by statement (docs: /work/shared/language.md)."""

from __future__ import annotations

import pytest

from deckquest.engine import pc as pcs
from deckquest.engine.permanents import Permanent
from deckquest.runtime.agents import BestAgent, FirstAgent, ScriptedAgent
from deckquest.runtime.interpreter import Run
from runtime_helpers import narration, of_kind, play, start


def test_narration_interpolates_counters_pcs_and_party_size(tmp_path):
    result, events = play(tmp_path, '''counter torches = 3
start scene one "A":
    "{torches} torches, {party size} PCs, {alice} has {alice.life} life and {bram.hand} cards."
    end victory "done"
''')
    assert narration(events) == ["3 torches, 2 PCs, Alice has 20 life and 7 cards."]
    assert result.outcome == "victory" and result.text == "done"


def test_choice_offers_only_options_whose_condition_holds(tmp_path):
    """A hidden option is not numbered: --choose 1 picks the first option offered."""
    body = '''flag open
start scene one "A":
    choice:
        "Open door" if open:
            end "door" "through the door"
        "Window":
            end "window" "through the window"
        "Chimney":
            end "chimney" "up the chimney"
'''
    result, events = play(tmp_path, body, ScriptedAgent([2]))
    choice = of_kind(events, "choice")[0]
    assert choice["options"] == ["Window", "Chimney"]
    assert choice["chosen"] == 2 and result.outcome == "chimney"


def test_first_agent_takes_the_first_offered_option(tmp_path):
    result, _ = play(tmp_path, '''start scene one "A":
    choice:
        "Left":
            end "left" ""
        "Right":
            end "right" ""
''')
    assert result.outcome == "left"


def test_check_by_pc_emits_every_field_and_runs_the_matching_block(tmp_path):
    """T-4.2 to T-4.4: target, result, degree; the block sees `degree` and `pc`."""
    result, events = play(tmp_path, '''start scene one "A":
    check green difficulty 2 by alice as "Climb":
        success:
            "{pc} climbs, degree {degree}."
            end victory ""
        failure:
            "{pc} slips, degree {degree}."
            end defeat ""
''')
    check = of_kind(events, "check")[0]
    for field in ("pc", "kind", "difficulty", "cards", "color", "target", "result", "degree",
                  "success", "critical", "boost", "clock"):
        assert field in check
    assert check["pc"] == "alice" and check["kind"] == "green" and check["label"] == "Climb"
    assert len(check["cards"]) >= 2
    assert check["degree"] == check["result"] - check["target"]
    verb = "climbs" if check["success"] else "slips"
    assert narration(events) == [f"Alice {verb}, degree {check['degree']}."]
    assert result.outcome == ("victory" if check["success"] else "defeat")


def test_check_by_party_first_agent_picks_the_first_declared_pc(tmp_path):
    _, events = play(tmp_path, '''start scene one "A":
    check red difficulty 1 by party:
        success:
            end victory ""
        failure:
            end defeat ""
''')
    assert of_kind(events, "check")[0]["pc"] == "alice"


def test_check_by_party_best_agent_picks_the_pc_with_the_best_exact_odds(tmp_path):
    """The red check goes to Bram (red deck), though Alice is declared first."""
    _, events = play(tmp_path, '''start scene one "A":
    check red difficulty 3:
        success:
            end victory ""
        failure:
            end defeat ""
''', BestAgent())
    assert of_kind(events, "check")[0]["pc"] == "bram"


def test_check_by_each_runs_the_block_after_each_pcs_check(tmp_path):
    _, events = play(tmp_path, '''start scene one "A":
    check colorless difficulty 0 by each:
        success:
            "{pc} made it."
        failure:
            "{pc} did not."
    end victory ""
''')
    kinds = [(e["event"], e.get("pc") or e.get("text")) for e in events if e["event"] in ("check", "narration")]
    assert [k for k, _ in kinds] == ["check", "narration", "check", "narration"]
    assert kinds[0][1] == "alice" and kinds[1][1].startswith("Alice")
    assert kinds[2][1] == "bram" and kinds[3][1].startswith("Bram")


@pytest.mark.parametrize("who", ["all", "any"])
def test_check_by_all_and_any_combine_the_pcs_checks(tmp_path, who):
    """`all` succeeds if every PC does, `any` if one does; `degree` is the deciding check's."""
    for seed in range(1, 13):
        _, events = play(tmp_path, f'''start scene one "A":
    check green difficulty 3 by {who}:
        success:
            "ok {{degree}}"
        failure:
            "no {{degree}}"
    end victory ""
''', seed=seed)
        checks = of_kind(events, "check")
        group = of_kind(events, "check_group")[0]
        combine = all if who == "all" else any
        assert group["success"] == combine(c["success"] for c in checks)
        degrees = [c["degree"] for c in checks]
        assert group["degree"] == (min(degrees) if who == "all" else max(degrees))
        assert narration(events) == [f"{'ok' if group['success'] else 'no'} {group['degree']}"]


def test_encounter_and_recruit_make_the_npc_cooperate_on_success(tmp_path):
    """T-8.4: recruiting is a white check in the 2019 rules."""
    for seed in range(1, 8):
        run = start(tmp_path, '''creature bear "Bear" from card "Grizzly Bears"
start scene one "A":
    encounter bear
    recruit bear difficulty 2 by alice:
        success:
            "joined"
        failure:
            "refused"
    end victory ""
''', seed=seed)
        run.run()
        check = of_kind(run.events, "check")[0]
        assert check["kind"] == "white"
        assert of_kind(run.events, "encounter")[0]["name"] == "Bear"
        assert run.state.npcs["bear"].cooperating == check["success"]
        assert of_kind(run.events, "recruit")[0]["success"] == check["success"]


def test_recruit_uses_negotiation_in_the_2014_rules(tmp_path):
    """T-8.4 with T-5.5: the 2014 edition recruits by negotiation."""
    prelude = '''scenario "Old":
    rules 2014
pc alice "Alice":
    deck "decks/green.txt"
    critical "Forest" x3
'''
    _, events = play(tmp_path, '''creature bear "Bear" from card "Grizzly Bears"
start scene one "A":
    recruit bear difficulty 2:
        success:
            end victory ""
        failure:
            end defeat ""
''', prelude=prelude)
    assert of_kind(events, "check")[0]["kind"] == "negotiation"


def _with_creature(run: Run, pc_id: str, name: str) -> None:
    pc = run.state.pcs[pc_id]
    card_id = next(i for i, card in enumerate(pc.cards) if card.name == name)
    for zone in (pc.library, pc.hand):
        if card_id in zone:
            zone.remove(card_id)
    pc.battlefield.append(Permanent(card=card_id, owner=pc_id, summoning_sick=False))


class Fighter(FirstAgent):
    def fighter(self, run, decision):
        return decision.actions[1]  # the first candidate (None, no creature, comes first)


def test_fight_holding_back_leaves_the_npc_unconscious(tmp_path):
    """T-3.4: a Centaur Courser (3/3) defeats a 2/2 held back: unconscious, not dead."""
    run = start(tmp_path, '''creature bear "Bear" from card "Grizzly Bears"
when bear is defeated:
    "The bear sleeps."
start scene one "A":
    fight bear holding back
    end victory ""
''', Fighter())
    _with_creature(run, "alice", "Centaur Courser")
    run.state.pcs["alice"].concentration_counter = True  # T-3.1: attacking needs it
    run.run()
    fight = of_kind(run.events, "fight")[0]
    assert (fight["creature"], fight["dealt"], fight["taken"]) == ("Centaur Courser", 3, 2)
    assert fight["npc_defeated"] and not fight["creature_died"]
    assert run.state.npcs["bear"].status == "unconscious"
    assert narration(run.events) == ["The bear sleeps."]
    assert run.state.pcs["alice"].battlefield[0].tapped  # T-3.1: fighting taps


def test_fight_without_holding_back_kills_and_trades(tmp_path):
    """Grizzly Bears against Grizzly Bears: both die; the NPC is dead (no holding back)."""
    run = start(tmp_path, '''creature bear "Bear" from card "Grizzly Bears"
start scene one "A":
    fight bear
    end victory ""
''', Fighter())
    _with_creature(run, "alice", "Grizzly Bears")
    run.run()
    fight = of_kind(run.events, "fight")[0]
    assert fight["npc_defeated"] and fight["creature_died"]
    assert run.state.npcs["bear"].status == "dead"
    alice = run.state.pcs["alice"]
    assert alice.battlefield == [] and alice.cards[alice.graveyard[0]].name == "Grizzly Bears"


def test_fight_with_no_creature_hurts_the_pc(tmp_path):
    """With no creature to fight for the party, the NPC deals its power to a PC."""
    result, events = play(tmp_path, '''creature bear "Bear" from card "Grizzly Bears"
start scene one "A":
    fight bear holding back
    end victory "{alice.life}"
''')
    assert of_kind(events, "fight")[0]["creature"] is None
    assert result.text == "18"


def test_battle_outcome_runs_its_block_and_battle_turn_triggers_fire(tmp_path):
    """A real battle against a player NPC (seed 1: the party wins after turn 2): its outcome's
    block ends the run, and `when battle turn 2` fired once on the way."""
    import random

    from deckquest.runtime.interpreter import Program
    from runtime_helpers import PRELUDE, compile_text

    program = Program(compile_text(tmp_path, PRELUDE + '''player boss "Boss":
    deck "decks/red.txt"
when battle turn 2:
    "Turn two!"
start scene lair "Lair":
    battle against boss:
        victory:
            end victory "won"
        defeat:
            end defeat ""
'''))
    run = Run(program, FirstAgent(), random.Random(1))  # a real battle, won on turn 2 or later
    result = run.run()
    assert result.outcome == "victory" and narration(run.events) == ["Turn two!"]


def test_goto_runs_scene_end_for_every_pc(tmp_path):
    """T-2.9: permanents go to the exhaustion zone when the scene ends."""
    run = start(tmp_path, '''start scene one "A":
    -> two
scene two "B":
    end victory ""
''')
    _with_creature(run, "alice", "Grizzly Bears")
    run.run()
    alice = run.state.pcs["alice"]
    assert alice.battlefield == []
    assert [alice.cards[i].name for i in alice.exhaustion_zone] == ["Grizzly Bears"]
    assert [e["id"] for e in of_kind(run.events, "scene")] == ["one", "two"]
    assert of_kind(run.events, "scene_end")[0]["exhausted"] == {"alice": 1, "bram": 0}


def test_end_with_a_custom_outcome(tmp_path):
    result, events = play(tmp_path, '''start scene one "A":
    end "fled" "You ran."
''')
    assert (result.outcome, result.text) == ("fled", "You ran.")
    assert of_kind(events, "end")[0] == {"event": "end", "clock": 0, "outcome": "fled",
                                         "text": "You ran.", "scene": "one"}


def test_life_draw_and_give_effects(tmp_path):
    run = start(tmp_path, '''start scene one "A":
    each pc loses 3 life
    alice gains 1 life
    bram draws 2
    give "Rope" to alice
    end victory ""
''')
    run.run()
    alice, bram = run.state.pcs["alice"], run.state.pcs["bram"]
    assert (alice.life, bram.life) == (18, 17)
    assert len(bram.hand) == 9 and len(bram.library) == 60 - 9
    assert run.state.items == {"alice": ["Rope"]}


def test_rest_sleep_and_wait_advance_the_clock(tmp_path):
    """T-2.6 rest: 1 minute; T-2.8 sleep: 6 hours, life back to 20, new hand of 7."""
    run = start(tmp_path, '''start scene one "A":
    each pc loses 5 life
    wait 10 minutes
    the party rests
    the party sleeps
    end victory ""
''')
    run.run()
    assert run.state.clock == 10 + 1 + 360
    assert [e["clock"] for e in of_kind(run.events, "end")] == [371]
    for pc in run.state.pcs.values():
        assert pc.life == 20 and len(pc.hand) == 7 and not pc.concentration_counter


def test_rest_removes_the_concentration_counter(tmp_path):
    run = start(tmp_path, '''start scene one "A":
    the party rests
    end victory ""
''')
    pcs.concentrate(run.state.pcs["alice"])
    run.run()
    assert not run.state.pcs["alice"].concentration_counter


def test_flags_counters_and_if_else(tmp_path):
    result, events = play(tmp_path, '''flag lit
counter coins = 2
start scene one "A":
    set lit
    coins += 5
    coins -= 1
    if lit and coins == 6:
        "yes"
    else:
        "no"
    clear lit
    coins = 1
    if not lit or coins > 5:
        "second"
    end victory "{coins}"
''')
    assert narration(events) == ["yes", "second"]
    assert [e["value"] for e in of_kind(events, "counter")] == [7, 6, 1]
    assert result.text == "1"


def test_a_pc_with_a_concentration_counter_rests_before_a_check(tmp_path):
    """T-2.5: a PC with a concentration counter cannot check, so it rests first (T-2.6)."""
    run = start(tmp_path, '''start scene one "A":
    check green difficulty 0 by alice:
        success:
            end victory ""
        failure:
            end defeat ""
''')
    pcs.concentrate(run.state.pcs["alice"])
    run.run()
    kinds = [e["event"] for e in run.events]
    assert kinds.index("action") < kinds.index("check")
    assert of_kind(run.events, "action")[0]["action"] == "rest"


def test_the_very_same_check_twice_in_a_scene_fails(tmp_path):
    """T-4.12: the second time the same statement asks Alice, the check fails unrevealed."""
    _, events = play(tmp_path, '''when a pc is dying:
    check green difficulty 0 by pc as "Hold on":
        success:
            "held"
        failure:
            "slipped"
start scene one "A":
    alice loses 20 life
    alice gains 5 life
    alice loses 5 life
    end victory ""
''')
    checks = of_kind(events, "check")
    assert len(checks) == 2
    assert checks[0]["cards"] and "T-4.12" not in checks[0]["note"]
    assert checks[1]["cards"] == [] and not checks[1]["success"] and "T-4.12" in checks[1]["note"]


def test_interpolated_text_in_choice_labels_and_end(tmp_path):
    result, events = play(tmp_path, '''counter coins = 4
start scene one "A":
    choice:
        "Pay ({coins} coins)":
            end victory "paid from {coins}"
''')
    assert of_kind(events, "choice")[0]["label"] == "Pay (4 coins)"
    assert result.text == "paid from 4"


def test_fight_damage_follows_first_strike_double_strike_deathtouch_and_indestructible():
    """T-3.4 fights use the combat keywords: a first striker that kills takes nothing back."""
    from deckquest.engine.combat.profile import DEATHTOUCH, DOUBLE_STRIKE, FIRST_STRIKE, INDESTRUCTIBLE
    from deckquest.engine.adventure import destroyed, exchange_damage

    assert exchange_damage(2, FIRST_STRIKE, 2, 3, 0, 2) == (2, 0)  # kills first
    assert exchange_damage(1, FIRST_STRIKE, 2, 3, 0, 2) == (1, 3)  # survives, strikes back
    assert exchange_damage(2, DOUBLE_STRIKE, 2, 1, 0, 4) == (4, 1)  # hits twice
    assert exchange_damage(2, 0, 2, 2, 0, 2) == (2, 2)  # simultaneous
    assert destroyed(1, 5, DEATHTOUCH, 0) and not destroyed(9, 5, 0, INDESTRUCTIBLE)


def test_T_4_4_a_check_an_unconscious_pc_cannot_make_fails_with_a_negative_degree(tmp_path):
    """T-7.2: an unconscious PC makes no check; the failure has degree < 0 even at difficulty 0."""
    run = start(tmp_path, '''start scene one "A":
    check green difficulty 0 by alice as "Climb":
        success:
            end victory "up"
        failure:
            end defeat "{degree}"
''')
    run.state.pcs["alice"].status = "unconscious"
    result = run.run()
    check = of_kind(run.events, "check")[0]
    assert (check["success"], check["degree"], result.outcome) == (False, -1, "defeat")
    assert check["result"] - check["target"] == check["degree"]
