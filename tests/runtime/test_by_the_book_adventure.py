"""Issue 17: the adventure part by the book, through the path a script takes.

Each test writes a ``.quest`` script and plays it with ``deckquest.run`` (the library's
face); the PCs act only through an agent's answers (``act``), which the run applies.
"""

from __future__ import annotations

from pathlib import Path

import deckquest
from deckquest.runtime.agents import FirstAgent

WARRIORS = "30 Forest\n30 Elvish Warrior\n"  # Elvish Warrior: {G}{G}, a 2/3

PRELUDE = '''scenario "By the book":
    rules 2019
pc alice "Alice":
    deck "warriors.txt"
    critical "Forest" x3
'''

# Two lands over two concentrations, then the 2/3 (T-2.5: one land per concentration).
CAST_WARRIOR = [("concentrate",), ("play_land", "Forest"), ("rest",),
                ("concentrate",), ("play_land", "Forest"), ("cast", "Elvish Warrior")]


def script(folder: Path, body: str, deck: str = WARRIORS) -> Path:
    (folder / "warriors.txt").write_text(deck, encoding="utf-8")
    path = folder / "adventure.quest"
    path.write_text(PRELUDE + body, encoding="utf-8")
    return path


class Plan(FirstAgent):
    """Alice's actions before each decision of a kind, in order: ``plans[moment][n]`` is the
    list of actions before the n-th such decision (card names find a card in hand)."""

    name = "plan"

    def __init__(self, **plans):
        self.plans = plans

    acts = True

    def pc_action(self, run, decision):
        """One action of the plan per decision, then "done" (its place in ``run.memory``)."""
        moment = decision.about["moment"]
        place = run.memory.get("place")
        if place is None:  # the decision point's first
            seen = run.memory.get(moment, 0)
            run.memory[moment] = seen + 1
            place = (seen, 0)
        seen, index = place
        steps = self.plans.get(moment, [])
        todo = steps[seen] if seen < len(steps) else []
        if index >= len(todo):
            run.memory.pop("place", None)
            return "done"
        run.memory["place"] = (seen, index + 1)
        step = todo[index]
        pc = run.state.pcs["alice"]
        card = None
        if len(step) > 1:
            card = next(c for c in pc.hand if pc.cards[c].name == step[1])
        return "alice", step[0], card

    def fighter(self, run, decision):
        return decision.actions[1]  # the first candidate (None, no creature, comes first)


def fights(result) -> list[dict]:
    return [e for e in result.events if e["event"] == "fight"]


TWO_BEARS = '''creature bear1 "First Bear" from card "Grizzly Bears"
creature bear2 "Second Bear" from card "Grizzly Bears"
start scene den "The Den":
    fight bear1
    fight bear2
    end victory "{alice.life}"
'''


def test_T_2_6_T_3_2_fight_damage_stays_until_a_rest_a_2_3_does_not_survive_two_2_2s(tmp_path):
    """T-2.6, T-3.2: the 2/3 blocks the first bear (summoning sick: it may block, T-2.10) and
    keeps its 2 damage; concentrating (no rest) readies it to attack the second bear, whose 2
    more damage kill it."""
    agent = Plan(fight=[CAST_WARRIOR + [("rest",)], [("concentrate",)]])
    result = deckquest.run(script(tmp_path, TWO_BEARS), agent=agent, seed=3)
    first, second = fights(result)
    assert (first["creature"], first["blocked"], first["taken"], first["npc_defeated"]) == \
        ("Elvish Warrior", True, 2, True)
    assert (second["creature"], second["blocked"], second["taken"]) == ("Elvish Warrior", False, 2)
    assert second["npc_defeated"] and second["creature_died"]
    assert result.text == "20"  # no bear reached Alice


def test_T_2_6_a_rest_between_fights_removes_the_damage(tmp_path):
    """T-2.6: with a rest between the fights, the 2/3 survives both 2/2s."""
    agent = Plan(fight=[CAST_WARRIOR + [("rest",)], [("rest",), ("concentrate",)]])
    result = deckquest.run(script(tmp_path, TWO_BEARS), agent=agent, seed=3)
    first, second = fights(result)
    assert first["blocked"] and not second["blocked"]
    assert second["npc_defeated"] and not second["creature_died"]


ONE_BEAR = '''creature bear "Bear" from card "Grizzly Bears"
start scene den "The Den":
    fight bear
    end victory "{alice.life}"
'''


def test_T_3_1_attacking_needs_a_concentration_counter_and_taps(tmp_path):
    """T-3.1: with the counter, the ready 2/3 attacks and taps (no vigilance)."""
    agent = Plan(fight=[CAST_WARRIOR + [("rest",), ("concentrate",)]])
    result = deckquest.run(script(tmp_path, ONE_BEAR), agent=agent, seed=3)
    fight, = fights(result)
    assert (fight["creature"], fight["blocked"], fight["npc_defeated"]) == ("Elvish Warrior", False, True)


def test_T_3_1_T_3_2_without_a_counter_the_creature_only_blocks_and_does_not_tap(tmp_path):
    """T-3.1: no attack without a concentration counter, even with a ready creature; the bear
    attacks instead and the creature blocks it (T-3.2: no counter needed, no tap)."""
    agent = Plan(fight=[CAST_WARRIOR + [("rest",), ("concentrate",), ("rest",)]])
    result = deckquest.run(script(tmp_path, ONE_BEAR), agent=agent, seed=3)
    fight, = fights(result)
    assert (fight["creature"], fight["blocked"], fight["npc_defeated"]) == ("Elvish Warrior", True, True)
    assert result.text == "20"


def test_T_2_10_a_summoning_sick_creature_may_block_but_not_attack(tmp_path):
    """T-2.10: cast after the concentration, the 2/3 cannot attack, though its PC has a
    counter; it blocks the bear instead."""
    agent = Plan(fight=[CAST_WARRIOR])
    result = deckquest.run(script(tmp_path, ONE_BEAR), agent=agent, seed=3)
    fight, = fights(result)
    assert (fight["creature"], fight["blocked"]) == ("Elvish Warrior", True)


# --- T-4.12: the very same check, across scenes --------------------------------------------

GREEN = "24 Forest\n4 Llanowar Elves\n4 Elvish Mystic\n4 Grizzly Bears\n4 Centaur Courser\n" \
        "4 Giant Spider\n4 Giant Growth\n4 Craw Wurm\n4 Runeclaw Bear\n4 Kalonian Tusker\n"


def checks(result) -> list[dict]:
    return [e for e in result.events if e["event"] == "check"]


def test_T_4_12_re_entering_a_scene_does_not_make_the_check_new(tmp_path):
    """T-4.12: `-> door` from inside `door` changes nothing: the difficulty-14 check is
    revealed once, then refused (no card revealed) every time round, until the step limit."""
    path = script(tmp_path, '''start scene door "The Door":
    check red difficulty 14 as "Force the door":
        success:
            end victory "Open."
        failure:
            -> door
''', GREEN)
    result = deckquest.run(path, seed=1, max_steps=200)
    made = checks(result)
    assert result.outcome == "stuck" and len(made) > 10
    assert made[0]["cards"] and not made[0]["success"]
    # `by party`: Alice may not make it again, so no PC can (the note says so)
    assert all(c["cards"] == [] and not c["success"] and c["pc"] is None for c in made[1:])


def test_T_4_12_nor_does_a_way_round_other_scenes_that_changes_nothing(tmp_path):
    """T-4.12: door -> hall -> door, with narration and a wait on the way: the same check."""
    path = script(tmp_path, '''start scene door "The Door":
    check red difficulty 14 as "Force the door":
        success:
            end victory "Open."
        failure:
            -> hall
scene hall "The Hall":
    "You pace the hall."
    wait 10 minutes
    -> door
''', GREEN)
    made = checks(deckquest.run(path, seed=1, max_steps=200))
    assert made[0]["cards"] and all(c["cards"] == [] for c in made[1:])


def test_T_4_12_a_changed_situation_allows_a_new_attempt(tmp_path):
    """T-4.12: a counter moved on the way round makes a new situation: every attempt reveals
    its cards (and the loop ends when the counter says so)."""
    path = script(tmp_path, '''counter attempts = 0
start scene door "The Door":
    if attempts >= 5:
        end defeat "You give up."
    check red difficulty 14 as "Force the door":
        success:
            end victory "Open."
        failure:
            attempts += 1
            -> door
''', GREEN)
    result = deckquest.run(path, seed=1)
    made = checks(result)
    assert result.outcome == "defeat" and len(made) == 5
    assert all(c["cards"] for c in made)


def test_T_4_12_check_warns_about_a_loop_that_can_only_repeat_the_check(tmp_path):
    """DQ5001: `deckquest check` warns at the check of a loop that changes nothing, and not
    when the loop counts its attempts."""
    from click.testing import CliRunner

    from deckquest.cli import main

    looping = script(tmp_path, '''start scene door "The Door":
    check red difficulty 14 as "Force the door":
        success:
            end victory "Open."
        failure:
            -> hall
scene hall "The Hall":
    -> door
''', GREEN)
    result = CliRunner().invoke(main, ["check", str(looping)])
    assert result.exit_code == 0
    assert "warning[DQ5001]: the loop `door` -> `hall` -> `door` changes no flag" in result.output
    counting = script(tmp_path, '''counter attempts = 0
start scene door "The Door":
    if attempts >= 3:
        end defeat "You give up."
    check red difficulty 14 as "Force the door":
        success:
            end victory "Open."
        failure:
            attempts += 1
            -> door
''', GREEN)
    result = CliRunner().invoke(main, ["check", str(counting)])
    assert result.exit_code == 0 and "DQ5001" not in result.output


# --- T-8.2, T-8.4: recruiting changes things ------------------------------------------------

BEAR_STATES = '''creature bear "Bear" from card "Grizzly Bears"
start scene den "The Den":
    if bear is absent and not bear is present:
        "absent"
    encounter bear
    take control of bear:
        failure:
            "not before it cooperates"
    recruit bear difficulty 0 by alice:
        success:
            "recruited"
        failure:
            "refused"
    if bear is cooperating and bear is not controlled:
        "cooperating"
    take control of bear by alice
    if bear is controlled:
        "controlled"
    if bear is not defeated:
        end victory "{alice.life}"
    end defeat ""
'''


def narrations(result) -> list[str]:
    return [e["text"] for e in result.events if e["event"] == "narration"]


def test_T_8_4_conditions_test_an_npcs_state_and_taking_control_pays_the_exact_cost(tmp_path):
    """T-8.4: `take control` fails before the bear cooperates; after a successful recruit,
    Alice pays {1}{G} with two untapped Forests (tapping them) and controls it; conditions
    `bear is absent / present / cooperating / controlled / defeated` follow."""
    lands = [("concentrate",), ("play_land", "Forest"), ("rest",), ("concentrate",), ("play_land", "Forest"),
             ("rest",)]
    result = deckquest.run(script(tmp_path, BEAR_STATES), agent=Plan(**{"take control": [lands]}), seed=3)
    controls = [e for e in result.events if e["event"] == "take_control"]
    assert [c["success"] for c in controls] == [False, True]
    assert "does not cooperate" in controls[0]["note"]
    assert (controls[1]["pc"], controls[1]["cost"]) == ("alice", "{1}{G}")
    assert narrations(result) == ["absent", "not before it cooperates", "recruited", "cooperating", "controlled"]
    assert result.outcome == "victory"


def test_T_8_4_taking_control_needs_the_mana(tmp_path):
    """T-8.4: with no untapped mana source nobody can pay: the NPC only cooperates."""
    result = deckquest.run(script(tmp_path, BEAR_STATES), seed=3)
    controls = [e for e in result.events if e["event"] == "take_control"]
    assert [c["success"] for c in controls] == [False, False]
    assert "no PC can pay {1}{G}" in controls[1]["note"]
    assert "controlled" not in narrations(result)


def test_npc_is_dead_after_a_fight_and_unconscious_when_held_back(tmp_path):
    """`bear is dead` / `is unconscious` / `is defeated` read what a fight left (T-3.4)."""
    body = '''creature bear "Bear" from card "Grizzly Bears"
creature cub "Cub" from card "Grizzly Bears"
start scene den "The Den":
    fight bear
    fight cub holding back
    if bear is dead and cub is unconscious and cub is defeated and not cub is dead:
        end victory ""
    end defeat ""
'''
    agent = Plan(fight=[CAST_WARRIOR + [("rest",), ("concentrate",)], [("rest",), ("concentrate",)]])
    result = deckquest.run(script(tmp_path, body), agent=agent, seed=3)
    assert [f["npc_defeated"] for f in fights(result)] == [True, True]
    assert result.outcome == "victory"


def test_T_7_4_loses_0_life_is_an_action_that_reduces_life_and_kills_a_dying_pc(tmp_path):
    """T-7.4 (corrected digest): a dying PC targeted by an action that reduces life dies,
    even when it takes 0."""
    result = deckquest.run(script(tmp_path, '''start scene pit "The Pit":
    alice loses 20 life
    alice loses 0 life
    end victory ""
'''), seed=1)
    statuses = [e["status"] for e in result.events if e["event"] == "status"]
    assert statuses == ["dying", "dead"]
    assert result.outcome == "defeat"


# --- T-2.4, T-2.6: concentrate and rest as the beginning and ending phases ----------------

def phase_script(folder: Path, deck: str, land: str, body: str) -> Path:
    (folder / "deck.txt").write_text(deck, encoding="utf-8")
    path = folder / "phases.quest"
    path.write_text(f'''scenario "Phases":
    rules 2019
pc alice "Alice":
    deck "deck.txt"
    critical "{land}" x3
''' + body, encoding="utf-8")
    return path


def three_lands_then(land: str, card: str) -> list:
    """Three lands over three concentrations, then cast ``card`` (T-2.5: one land each)."""
    return [("concentrate",), ("play_land", land), ("rest",), ("concentrate",), ("play_land", land), ("rest",),
            ("concentrate",), ("play_land", land), ("cast", card)]


def test_T_2_4_concentrating_fires_upkeep_triggers(tmp_path):
    """T-2.4: with Phyrexian Arena out, Alice's next concentration draws a card and costs her
    1 life (its upkeep trigger), before the concentration's own draw."""
    body = '''start scene study "The Study":
    choice:
        "Read on":
            end victory "{alice.life}"
'''
    plan = three_lands_then("Swamp", "Phyrexian Arena") + [("rest",), ("concentrate",)]
    result = deckquest.run(phase_script(tmp_path, "30 Swamp\n30 Phyrexian Arena\n", "Swamp", body),
                           agent=Plan(choice=[plan]), seed=3)
    assert [e["card"] for e in result.events if e["event"] == "battle_trigger"] == ["Phyrexian Arena"]
    assert result.text == "19"


def test_T_2_6_resting_fires_end_step_triggers(tmp_path):
    """T-2.6: the GM's Healing Shrine gains Alice 2 life at her end step: when she rests."""
    body = '''card shrine "Healing Shrine":
    cost "{W}"
    type "Enchantment"
    text "At the beginning of your end step, you gain 2 life."
start scene chapel "The Chapel":
    choice:
        "Go on":
            end victory "{alice.life}"
'''
    plan = [("concentrate",), ("play_land", "Plains"), ("cast", "Healing Shrine"), ("rest",)]
    result = deckquest.run(phase_script(tmp_path, "30 Plains\n30 Healing Shrine\n", "Plains", body),
                           agent=Plan(choice=[plan]), seed=3)
    assert [e["card"] for e in result.events if e["event"] == "battle_trigger"] == ["Healing Shrine"]
    assert result.text == "22"


ALLIES = '''creature bear "Old Bear" from card "Grizzly Bears"
planeswalker sage "The Hermit Sage":
    cost "{2}{G}{G}"
    loyalty 3
    text "+1: You gain 2 life."
creature wolf "Grey Wolf" from card "Runeclaw Bear"
start scene glade "The Glade":
    encounter bear
    encounter sage
    recruit bear difficulty 0 by alice:
        failure:
            end defeat "The bear will not come."
    recruit sage difficulty 0 by alice:
        failure:
            end defeat "The sage will not come."
    battle against bear, wolf:
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
'''


def test_T_8_2_T_8_4_cooperating_npcs_fight_on_the_partys_side(tmp_path):
    """T-8.4, T-8.2: the recruited bear, named among the enemies, fights for the party, and
    so does the recruited planeswalker sage: both stand on Alice's battlefield from turn 1;
    only the wolf is an enemy."""
    result = deckquest.run(script(tmp_path, ALLIES, GREEN), seed=3)
    assert [e["success"] for e in result.events if e["event"] == "recruit"] == [True, True]
    combat, = [e for e in result.events if e["event"] == "combat"]
    assert combat["enemies"] == ["wolf"]
    assert combat["allies"] == ["bear", "sage"]
    joined = [e for e in result.events if e["event"] == "battle_npc"]
    assert [e["card"] for e in joined] == ["Grey Wolf"]  # only the wolf joins the enemies
    battle, = [e for e in result.events if e["event"] == "battle"]
    assert battle["enemies"] == ["wolf"]


def test_T_4_12_a_saved_run_remembers_the_checks_made_and_reads_old_saves(tmp_path):
    """T-4.12 across a save: the check made before saving is still the very same after
    loading (refused); a save from before issue 17 (`[pc, [file, line, col]]`, the checks of
    its scene) reads each as made in the situation of the save."""
    import json
    import random

    from deckquest.runtime.agents import FirstAgent as First
    from deckquest.runtime.interpreter import Program, Run
    from deckquest.runtime.saves import load_run, save_run

    path = script(tmp_path, '''start scene door "The Door":
    check red difficulty 14 as "Force the door":
        success:
            end victory "Open."
        failure:
            -> door
''', GREEN)
    program = Program(deckquest.compile(path))
    run = Run(program, First(), random.Random(1), seed=1)
    while not any(e["event"] == "check" for e in run.events):
        run.step()
    saved = tmp_path / "door.save"
    save_run(run, saved, seed=1, agent="first")
    data = json.loads(saved.read_text())
    (entry,) = data["state"]["checks_made"]
    assert entry[0] == "alice" and entry[3:] == ["red", 14] and len(entry[2]) == 16
    for text in (saved.read_text(), json.dumps({**data, "state": {**data["state"], "checks_made": [entry[:2]]}})):
        saved.write_text(text)
        resumed = load_run(program, saved, First(), max_steps=60)
        resumed.run()
        later = [e for e in resumed.events if e["event"] == "check"]
        assert later and all(c["cards"] == [] for c in later)
