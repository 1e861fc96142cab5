"""Battles in scenarios (rules section 6): `battle against …` with preparation (T-6.2),
victory, defeat and escape blocks (T-6.6, T-6.12), battle-turn triggers, T-7 statuses and
`NPC is defeated` afterwards, the scenario agents' battle agents, transcripts and determinism."""

from __future__ import annotations

import random
from pathlib import Path

from deckquest.dsl.resolver import compile_file
from deckquest.engine.combat.actions import END_TURN, ESCAPE
from deckquest.runtime.agents import BestAgent, FirstAgent, HumanAgent, RandomAgent, make_agent
from deckquest.runtime.battle_agents import GreedyBattleAgent, HumanBattleAgent, RandomBattleAgent
from deckquest.runtime.interpreter import Program, Run
from deckquest.systems.trpg.battles import BATTLE_TURN_MINUTES
from deckquest.runtime.transcript import render_jsonl, render_text
from runtime_helpers import narration, of_kind, play, start

# `land`: a horde of one Mountain, beaten once it has played it (T-6.12, no creatures left).
# `flood`: sixty hasty Goblin tokens, revealed all at once on the horde's first turn (T-6.9).
# `plants`: thirty 0/1 Plant tokens: they attack for nothing and are tapped on the party's
# turn, so an escape check (difficulty: untapped enemy creatures, T-6.6) is easy.
HORDES = '''horde land "Lone Land":
    deck "decks/lone_land.txt"
horde flood "Goblin Flood":
    deck "decks/goblin_flood.txt"
horde plants "Plant Wall":
    deck "decks/plants.txt"
'''

VICTORY = HORDES + '''when land is defeated:
    "The land lies still."
start scene hall "Hall":
    battle against land:
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
'''

# At 1 life, with no preparation turn, the whole flood attacks first (T-6.11, T-6.9).
DEFEAT = HORDES + '''when a pc is dying:
    "{pc} is down."
start scene hall "Hall":
    each pc loses 19 life
    battle against flood:
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
'''


class Escaper(FirstAgent):
    """Plays battles by escaping whenever it may, else ending the turn (a test policy)."""

    def battle_agent(self):
        return RunAway()


class RunAway:
    def choose(self, battle, actions, rng):
        for kind in (ESCAPE, END_TURN):
            for action in actions:
                if action.kind == kind:
                    return action
        return GreedyBattleAgent().choose(battle, actions, rng)


ESCAPE_SCRIPT = HORDES + '''start scene hall "Hall":
    battle against plants:
        prepare by alice
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
        escape:
            end "escaped" "ran"
'''


def test_a_beaten_horde_takes_the_victory_block_and_fires_npc_defeated(tmp_path):
    """T-6.12: no library, hand or creatures left is a victory; the horde is defeated."""
    result, events = play(tmp_path, VICTORY)
    assert (result.outcome, result.text) == ("victory", "won")
    battle = of_kind(events, "battle")[0]
    assert battle["outcome"] == "victory" and battle["defeated"] == ["land"]
    assert of_kind(events, "npc_defeated")[0]["npc"] == "land"
    assert narration(events) == ["The land lies still."]


def test_a_lost_battle_takes_the_defeat_block_after_the_dying_triggers(tmp_path):
    """T-6.12 defeat when every PC is out; T-7.1 dying PCs fire `a pc is dying` in party order,
    before the outcome's block."""
    result, events = play(tmp_path, DEFEAT)
    assert (result.outcome, result.text) == ("defeat", "lost")
    assert [(e["pc"], e["status"]) for e in of_kind(events, "status")] == [("alice", "dying"), ("bram", "dying")]
    assert narration(events) == ["Alice is down.", "Bram is down."]
    kinds = [e["event"] for e in events]
    assert kinds.index("battle") < kinds.index("status") < kinds.index("narration") < kinds.index("end")
    assert all(pc["status"] == "dying" for pc in of_kind(events, "battle")[0]["pcs"])


def test_an_escape_takes_the_escape_block(tmp_path):
    """T-6.6: a successful escape check ends the battle; the script's `escape:` block runs."""
    result, events = play(tmp_path, ESCAPE_SCRIPT, Escaper())
    assert (result.outcome, result.text) == ("escaped", "ran")
    checks = of_kind(events, "battle_check")
    assert checks[-1]["purpose"] == "escape" and checks[-1]["success"]
    assert of_kind(events, "npc_defeated") == []


def test_without_an_escape_block_the_party_cannot_escape(tmp_path):
    """docs/language.md: no `escape:` block, no escape action offered to the battle agent.
    Against harmless plants that only end their turns, the PCs draw until their libraries
    are empty: T-7.2 unconscious, out of the fight, and the battle is lost (T-6.12); `a pc
    falls unconscious` fires after it."""
    script = ESCAPE_SCRIPT.replace('''        escape:
            end "escaped" "ran"
''', "").replace('''start scene hall''', '''when a pc falls unconscious:
    "{pc} passes out."
start scene hall''')
    result, events = play(tmp_path, script, Escaper())
    assert (result.outcome, result.text) == ("defeat", "lost")
    assert [c for c in of_kind(events, "battle_check") if c["purpose"] == "escape"] == []
    assert [(e["pc"], e["status"]) for e in of_kind(events, "status")] == [
        ("alice", "unconscious"), ("bram", "unconscious")]
    assert narration(events) == ["Alice passes out.", "Bram passes out."]


def test_prepare_by_a_pc_makes_the_preparation_check(tmp_path):
    """T-6.2: the named representative checks red (2019), difficulty = the party's permanents;
    a success gives its degree in preparation turns, at most 5."""
    _, events = play(tmp_path, ESCAPE_SCRIPT.replace("prepare by alice", "prepare by bram"), Escaper())
    check = of_kind(events, "check")[0]
    assert (check["pc"], check["kind"], check["difficulty"]) == ("bram", "red", 0)
    assert check["label"] == "Preparation turns (T-6.2)"
    turns = min(5, check["degree"]) if check["success"] else 0
    assert of_kind(events, "battle_preparation")[0]["turns"] == turns
    assert of_kind(events, "battle")[0]["preparation_turns"] == turns


def test_prepare_by_party_lets_the_agent_pick_the_representative(tmp_path):
    class PicksBram(Escaper):
        def pick_pc(self, run, decision):
            assert decision.actions == ("alice", "bram") and decision.about["kind"] == "red"
            return "bram"

    _, events = play(tmp_path, ESCAPE_SCRIPT.replace("prepare by alice", "prepare by party"), PicksBram())
    assert of_kind(events, "check")[0]["pc"] == "bram"


def test_without_prepare_there_is_no_check_and_the_enemies_move_first(tmp_path):
    """No `prepare by`: no T-6.2 check, no preparation turn; the horde takes turn 1 (T-6.11)."""
    _, events = play(tmp_path, VICTORY)
    assert of_kind(events, "check") == []
    assert of_kind(events, "battle_preparation")[0]["turns"] == 0
    assert of_kind(events, "battle_turn")[0]["active"] == "horde"


def test_battle_turn_triggers_fire_once_per_turn_played_in_turn_order(tmp_path):
    """`when battle turn N` fires for the turns the battle reached, after it, before the block."""
    result, events = play(tmp_path, HORDES + '''when battle turn 1:
    "one"
when battle turn 2:
    "two"
when battle turn 40:
    "never"
start scene hall "Hall":
    battle against plants:
        escape:
            "after the escape"
    end victory ""
''', Escaper())
    turns = of_kind(events, "battle")[0]["turns"]
    assert turns >= 2
    assert narration(events) == ["one", "two", "after the escape"]
    assert [e["event"] for e in events].index("battle") < [e["event"] for e in events].index("narration")


def test_the_battle_takes_a_minute_per_turn_and_events_carry_the_clock(tmp_path):
    _, events = play(tmp_path, ESCAPE_SCRIPT, Escaper())
    battle = of_kind(events, "battle")[0]
    start_clock = of_kind(events, "combat")[0]["clock"]
    assert battle["clock"] == start_clock + battle["turns"] * BATTLE_TURN_MINUTES
    turn_clocks = [e["clock"] for e in of_kind(events, "battle_turn")]
    assert turn_clocks == [start_clock + (n - 1) * BATTLE_TURN_MINUTES for n in range(1, len(turn_clocks) + 1)]
    assert all(list(e)[:2] == ["event", "clock"] for e in events)


def test_pcs_out_of_the_fight_stay_out_and_a_party_all_out_loses_at_once(tmp_path):
    """T-7.1: a dying PC is removed from combat; with nobody left the battle is lost (T-6.12)."""
    result, events = play(tmp_path, HORDES + '''start scene hall "Hall":
    alice loses 20 life
    battle against land:
        defeat:
            end defeat "bram lost alone"
    bram loses 20 life
    battle against flood:
        defeat:
            end defeat "nobody could fight"
    end victory ""
''')
    assert (result.outcome, result.text) == ("defeat", "nobody could fight")
    assert [e["pcs"] for e in of_kind(events, "combat")] == [["bram"], []]
    first, second = of_kind(events, "battle")
    assert first["outcome"] == "victory" and [pc["id"] for pc in first["pcs"]] == ["bram"]
    assert second["turns"] == 0 and second["pcs"] == []
    assert len(of_kind(events, "battle_start")) == 1


def test_the_battle_writes_life_back_into_the_pcs(tmp_path):
    run = start(tmp_path, ESCAPE_SCRIPT, Escaper())
    run.run()
    for pc in of_kind(run.events, "battle")[0]["pcs"]:
        assert run.state.pcs[pc["id"]].life == pc["life_after"]


def test_a_boss_and_a_creature_npc_fight_together(tmp_path):
    """T-8.3 player-type and T-8.1 creature-type NPCs are the battle engine's enemies too."""
    result, events = play(tmp_path, '''player boss "The Boss":
    deck "decks/red.txt"
    life 1
creature guard "Guard":
    cost "{1}{R}"
    types Goblin
    stats 2/1
start scene lair "Lair":
    battle against boss, guard:
        prepare by party
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
''', BestAgent(), seed=3)
    battle = of_kind(events, "battle")[0]
    assert battle["enemies"] == ["boss", "guard"]
    assert result.outcome == battle["outcome"] == ("victory" if result.text == "won" else "defeat")
    assert {e["npc"] for e in of_kind(events, "npc_defeated")} == set(battle["defeated"])
    text = render_text(events)
    assert "  The Boss: life 1, library " in text and "  Guard joins the enemies." in text


def test_an_enemy_already_dead_does_not_fight_again(tmp_path):
    result, events = play(tmp_path, HORDES + '''creature rat "Rat":
    cost "{B}"
    types Rat
    stats 1/1
start scene lair "Lair":
    fight rat
    battle against rat:
        victory:
            end victory "nothing left to fight"
    end defeat ""
''', BestAgent())
    assert of_kind(events, "npc_defeated")[0]["npc"] == "rat"
    assert of_kind(events, "combat")[0]["enemies"] == []
    assert result.text == "nothing left to fight"
    # the text transcript still names what the party faces, not a blank
    assert "Battle against no enemy left standing [" in render_text(events)


def test_same_seed_same_jsonl_and_other_seeds_differ(tmp_path):
    """One seeded generator for the run and its battles: byte-identical transcripts."""
    def jsonl(seed):
        return render_jsonl(play(tmp_path, ESCAPE_SCRIPT.replace("prepare by alice", "prepare by party"),
                                 make_agent("best"), seed=seed)[1])

    assert jsonl(7) == jsonl(7)
    assert len({jsonl(seed) for seed in range(4)}) > 1


def test_scenario_agents_map_to_battle_agents():
    """human -> HumanBattleAgent (same input and output), random -> random, the rest greedy."""
    assert isinstance(FirstAgent().battle_agent(), GreedyBattleAgent)
    assert isinstance(make_agent("scripted", [1]).battle_agent(), GreedyBattleAgent)
    assert isinstance(BestAgent().battle_agent(), GreedyBattleAgent)
    assert isinstance(RandomAgent().battle_agent(), RandomBattleAgent)
    shown = []
    human = HumanAgent(input=lambda prompt: "1", output=shown.append).battle_agent()
    assert isinstance(human, HumanBattleAgent) and human.output == shown.append


def test_the_random_agent_plays_battles_from_the_run_generator(tmp_path):
    outcomes = [play(tmp_path, VICTORY, RandomAgent(), seed=seed)[0].outcome for seed in (1, 1)]
    assert outcomes[0] == outcomes[1] == "victory"


class Terminal:
    """Scripted input lines (EOF after the last) and a record of the output; a boost
    question (y/n) is always answered no."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.shown: list[str] = []

    def input(self, prompt: str) -> str:
        self.shown.append(prompt)
        if prompt.endswith("[y/n] "):
            return "n"
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def test_a_human_fights_through_the_terminal_with_bad_input_and_end_of_input(tmp_path):
    """The human battle agent refuses bad answers; at end of input the run stops in the
    battle (abandoned), before the battle: it no longer passes every turn to a likely defeat
    (issue 18 item 2)."""
    terminal = Terminal("", "x", "99", "1")  # act: nothing; battle: two bad answers, then 1
    result, events = play(tmp_path, HORDES + '''start scene hall "Hall":
    battle against plants:
        prepare by alice
        escape:
            "fled"
    choice:
        "On":
            end victory ""
''', HumanAgent(terminal.input, terminal.shown.append))
    shown = "\n".join(terminal.shown)
    assert "horde: library" in shown  # the board
    assert shown.count("please answer with a number from 1 to") == 2
    assert "(end of input: passing from now on)" not in shown
    assert of_kind(events, "battle") == []  # the battle never ended: no summary, no outcome block
    assert result.outcome == "abandoned" and events[-1]["event"] == "end"
    assert events[-1]["text"] == "end of input in a battle: the run stops before the battle"


def test_the_text_transcript_shows_each_turn_in_one_or_two_lines(tmp_path):
    _, events = play(tmp_path, DEFEAT)
    text = render_text(events)
    assert "Battle against Goblin Flood [0:00]: Alice, Bram in the fight." in text
    assert "  No preparation turns: the enemies move first." in text
    assert "  turn 1 (enemies) [0:00]: the horde reveals Goblin x36." in text
    turn_lines = [line for line in text.splitlines() if line.startswith("  turn ")]
    details = [line for line in text.splitlines() if line.startswith("    ")]
    assert len(turn_lines) == of_kind(events, "battle")[0]["turns"] and len(details) <= len(turn_lines)
    assert "Defeat after 1 turn [0:01]: Alice life" in text


def test_battle_events_can_be_left_out_for_batch_runs(tmp_path):
    """`Run(..., battle_events=False)`: the `battle` summary without the engine's turn events."""
    run = start(tmp_path, VICTORY, battle_events=False)
    run.run()
    kinds = {e["event"] for e in run.events}
    assert "battle" in kinds and not any(k.startswith("battle_") for k in kinds)


def test_several_hordes_fight_as_one_horde_deck_cut_as_one(tmp_path):
    """The engine fights one horde: two horde NPCs' decks (1 + 60 cards) are shuffled into one.
    T-6.4 cuts a 60-card horde deck only: the 61-card deck is fought whole."""
    result, events = play(tmp_path, DEFEAT.replace("battle against flood:", "battle against land, flood:"))
    start = of_kind(events, "battle_start")[0]
    assert (start["horde_library"], start["horde_cut"]) == (61, 0)
    battle = of_kind(events, "battle")[0]
    assert battle["enemies"] == ["land", "flood"] and battle["defeated"] == []
    assert "Battle against Lone Land, Goblin Flood [0:00]" in render_text(events)


class EndTurn(FirstAgent):
    """Never attacks, never escapes: a battle against a wall of plants cannot end (a test policy)."""

    def battle_agent(self):
        return Passive()


class Passive:
    def choose(self, battle, actions, rng):
        return next(action for action in actions if action.kind == END_TURN)


STALEMATE = HORDES + '''start scene hall "Hall":
    battle against plants:
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
'''


def test_a_battle_that_cannot_end_stops_the_run_as_stuck(tmp_path, monkeypatch):
    """Untrusted scripts: a battle past MAX_TURNS ends as a stalemate and the run as stuck."""
    from deckquest.engine.combat import battle

    monkeypatch.setattr(battle, "MAX_TURNS", 6)
    result, events = play(tmp_path, STALEMATE, EndTurn())
    assert result.outcome == "stuck" and "did not end" in result.text
    assert result.text.endswith("did not end: no side won in 6 turns")  # BattleResult.stopped
    assert of_kind(events, "battle")[0]["outcome"] == "stalemate"
    assert of_kind(events, "battle_stalemate")[0]["turn"] > 6


def test_a_battle_that_floods_the_battlefield_ends_as_a_stalemate(tmp_path, monkeypatch):
    from deckquest.engine.combat import battle

    monkeypatch.setattr(battle, "MAX_PERMANENTS", 5)
    result, events = play(tmp_path, STALEMATE, EndTurn())
    assert result.outcome == "stuck"
    assert of_kind(events, "battle_stalemate")[0]["permanents"] > 5
    assert "permanents on the battlefields after" in result.text and "more than 5" in result.text


class _Spy:
    """The greedy battle agent, noting the steps it is asked to `choose` in and whether its
    plan of attacks was asked for (`engine.combat.battle.BattleAgent`'s shortcuts)."""

    def __init__(self, shortcuts: bool):
        self.greedy = GreedyBattleAgent()
        self.steps: set[str] = set()
        self.planned = 0
        if shortcuts:
            self.choose_land, self.planned_blocks = self.greedy.choose_land, self.greedy.planned_blocks

    def choose(self, battle, actions, rng):
        self.steps.add(battle.step)
        return self.greedy.choose(battle, actions, rng)


class _Shortcutting(_Spy):
    def planned_attacks(self, battle):
        self.planned += 1
        return self.greedy.planned_attacks(battle)


class _SpyingBest(BestAgent):
    def __init__(self, spy):
        super().__init__()
        self.spy = spy

    def battle_agent(self):
        return self.spy


def test_a_battle_with_no_escape_block_keeps_the_agents_shortcuts():
    """T-6.6, T-6.7: escaping is a main phase's non-combat action, so a battle with no
    `escape:` block (the Goblin Cave's boss fight) hides it from the agent's main-phase
    choices only: the agent's plan of attacks and blocks and its land are asked for as in
    any battle, and the runs are the same as with every decision listed for `choose`."""
    program = Program(compile_file(Path(__file__).parents[2] / "scenarios" / "goblin_cave" / "goblin_cave.quest"))
    shortcuts_used = 0
    for seed in range(6):
        streams = []
        for spy in (_Shortcutting(True), _Spy(False)):
            run = Run(program, _SpyingBest(spy), random.Random(seed), seed=seed)
            run.run()
            streams.append(run.events)
            if isinstance(spy, _Shortcutting):
                assert "declare_attackers" not in spy.steps
                shortcuts_used += spy.planned
        assert streams[0] == streams[1], seed
    assert shortcuts_used > 0


def test_run_plays_a_battle_through_as_stepping_it_does(tmp_path):
    """T-6.4 to T-6.12, T-2.1: `run()` answers all of a battle's decisions in one go (nobody
    can step in between), `step()` one decision a step, with the position between them
    there to save or clone. Both give the same battle: the same events, turn triggers
    (`battle turn N`) included, with or without battle events, and the same final PCs."""
    script = DEFEAT.replace("start scene", 'when battle turn 2:\n    "Turn two."\nstart scene').replace(
        "each pc loses 19 life", "each pc loses 5 life")
    cave = compile_file(Path(__file__).parents[2] / "scenarios" / "goblin_cave" / "goblin_cave.quest")
    mid_battle = turn_two = 0
    for program in (Program(cave), start(tmp_path, script).program):
        for seed in range(3):
            for battle_events in (True, False):
                seen: dict[str, list] = {"run": [], "step": []}
                runs = {how: Run(program, BestAgent(), random.Random(seed), seed=seed, battle_events=battle_events,
                                 listener=seen[how].append) for how in seen}
                runs["run"].run()
                stepped = runs["step"]
                while stepped.step():
                    mid_battle += stepped.state.battle is not None
                assert seen["run"] == seen["step"] and runs["run"].events == stepped.events, (seed, battle_events)
                assert runs["run"].state.pcs == stepped.state.pcs
                turn_two += "Turn two." in narration(stepped.events)
    assert mid_battle > 100  # the stepped runs stopped between the battles' decisions
    assert turn_two > 0
