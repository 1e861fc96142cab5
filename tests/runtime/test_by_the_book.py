"""MTG-TRPG by the book (issue 17): rules the engine played differently, checked through the
path a script takes (a .quest script run by the interpreter)."""

from __future__ import annotations

import shutil

from deckquest.engine.combat import battle as engine_battle
from deckquest.runtime.agents import FirstAgent
from deckquest.runtime.interpreter import run_scenario
from deckquest.runtime.transcript import render_text
from runtime_helpers import DECKS, SCENARIOS, of_kind, play
from test_battles import STALEMATE, EndTurn

# `lands`: a horde of two Mountains. It plays one on each of its turns (T-6.9) and is beaten
# when it has played both (T-6.12): the battle lasts more than one turn, so a turn ends in it.
HORDES = '''horde lands "Two Lands":
    deck "decks/two_lands.txt"
'''


def decks(folder):
    """The test decks, and the two-land horde."""
    shutil.copytree(DECKS, folder / "decks")
    (folder / "decks" / "two_lands.txt").write_text("2 Mountain\n", encoding="utf-8")
    return folder


class Booster(FirstAgent):
    """Boosts every check it may (T-4.6), else plays like `first`."""

    def boost(self, run, decision) -> bool:
        return True


BOOST_AROUND_A_BATTLE = HORDES + '''start scene hall "Hall":
    check green difficulty 30 by alice as "Lift the gate":
        success:
            "up"
    battle against lands:
        victory:
            "won"
        defeat:
            "lost"
    check green difficulty 30 by alice as "Lift the gate again":
        success:
            "up"
    end "done"
'''


def test_t_4_6_a_battle_does_not_give_back_the_scenes_boost(tmp_path):
    """T-4.6: a boost is once per scene in the adventure part; the battle's boosts are once
    per turn and go back at the battle's turn ends, but the scene's boost stays used, and its
    six cards stay exiled until the scene ends."""
    _, events = play(decks(tmp_path), BOOST_AROUND_A_BATTLE, agent=Booster())
    first, second = of_kind(events, "check")
    assert first["boost"] is True and len(first["boost_cards"]) == 6
    assert of_kind(events, "battle")[0]["turns"] >= 2  # at least one turn ended
    assert second["boost"] is False


SAINT = '''planeswalker saint "The Ashen Saint":
    cost "{3}{B}{B}"
    types Spirit
    loyalty 4
    text "+1: Target player loses 2 life."
    text "-2: Create a 2/2 black Zombie creature token."
start scene chapel "Chapel":
    battle against saint:
        victory:
            end victory "won"
        defeat:
            end defeat "lost"
'''


def test_t_8_2_a_planeswalker_npc_does_not_kill_itself_with_its_minus_ability(tmp_path):
    """T-8.2 (issue 17, item 11; ../shared/repro/ashen_abbey): a loyalty-4 planeswalker NPC
    with a -2 does not use it twice (loyalty 0: it would die, CR 704.5i) unless that wins."""
    suicides = 0
    for seed in range(1, 31):
        _, events = play(tmp_path, SAINT, seed=seed)
        outcome = of_kind(events, "battle")[0]["outcome"]
        uses = [e for e in of_kind(events, "battle_activate") if e["card"] == "The Ashen Saint"]
        assert uses, seed
        suicides += sum(1 for e in uses if e["loyalty"] <= 0 and outcome != "defeat")
    assert suicides == 0


def test_t_8_2_the_text_transcript_names_the_loyalty_ability_and_the_loyalty_left(tmp_path):
    _, events = play(tmp_path, SAINT, seed=1)
    use = next(e for e in of_kind(events, "battle_activate") if e["card"] == "The Ashen Saint")
    ability = use["ability"]
    assert f'activates The Ashen Saint: "{ability}", loyalty {use["loyalty"]}' in render_text(events)


def test_mtg_legend_rule_the_goblin_caves_three_krenkos_no_longer_flood_the_battle():
    """CR 704.5j (T-6.1: combat is an MTG game): the boss keeps one Krenko, Mob Boss. Before
    the legend rule, three Krenkos doubled the goblins three times a turn, and this README run
    (`deckquest sim scenarios/goblin_cave/goblin_cave.quest -n 1000`, its stuck seed) stopped
    at 500 permanents as stuck; now the battle ends by the game."""
    result = run_scenario(SCENARIOS / "goblin_cave" / "goblin_cave.quest", "best", seed=2850331773150946327)
    assert result.outcome != "stuck", result.text
    battle = [e for e in result.events if e["event"] == "battle"][-1]
    assert battle["outcome"] in ("victory", "defeat", "escape")


def test_a_stalemate_says_which_limit_stopped_the_battle(tmp_path, monkeypatch):
    """A battle that still hits a limit (here 5 permanents: the 30 Plant tokens) is stopped, and
    the battle summary and the transcript say why, and whose permanents they were."""
    monkeypatch.setattr(engine_battle, "MAX_PERMANENTS", 5)
    _, events = play(tmp_path, STALEMATE, EndTurn())
    summary = of_kind(events, "battle")[0]
    assert summary["outcome"] == "stalemate"
    assert "more than 5" in summary["stopped"] and summary["stopped"].endswith("of them the enemies')")
    assert f"  (stopped: {summary['stopped']})" in render_text(events)
