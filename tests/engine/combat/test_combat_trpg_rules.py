"""The TRPG rules around a battle: T-6.2 preparation, T-6.3 permanents already out,
T-6.6 escape (T-4.12 once per turn, T-6.7 one non-combat action), T-4.6 boost once
per turn, T-7 dying and unconscious PCs, and run_battle's write-back."""

from __future__ import annotations

import random

from combat_helpers import (
    BEAR, CORPSE, FOREST, MOUNTAIN, PLAINS, WURM, ZOMBIE, creature, make_battle, make_horde, make_pc,
)

from deckquest.engine.combat import actions as act
from deckquest.engine.combat import run_battle
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.turns import apply, legal_actions, start_battle
from deckquest.engine.pc import DYING, OK, UNCONSCIOUS
from deckquest.runtime.battle_agents import GreedyBattleAgent, RandomBattleAgent

HORDE_DECK = [ZOMBIE] * 40 + [CORPSE] * 20


def turn_order(events) -> list[str]:
    return [e["active"] for e in events if e["event"] == "battle_turn"]


class EndTurns:
    """An agent that only ends turns and confirms (never escapes)."""

    def choose(self, battle, actions, rng):
        for kind in (act.NO_BOOST, act.END_TURN, act.CONFIRM_ATTACKERS, act.CONFIRM_BLOCKERS):
            for action in actions:
                if action.kind == kind:
                    return action
        return actions[-1]


# --- T-6.2 preparation turns -----------------------------------------------------------


def test_t_6_2_preparation_turns_are_the_degree_of_a_red_check_on_the_party_permanents():
    """Difficulty 0 (no permanents): target Bear 2 + 0, result Mountain 0 + 5 (red) → degree 3."""
    pc = make_pc(library=[BEAR, MOUNTAIN, FOREST, FOREST])
    events = []
    battle = start_battle([pc], HORDE_DECK, random.Random(1), prepare=True, events=events)
    check = next(e for e in events if e["event"] == "battle_check")
    assert (check["purpose"], check["kind"], check["difficulty"]) == ("preparation", "red", 0)
    assert (check["target"], check["result"], check["degree"]) == (2, 5, 3)
    assert battle.preparation_given == 3
    assert turn_order(events) == ["survivors"]
    while battle.active == "survivors":
        apply(battle, Action(act.END_TURN), random.Random(1), events)
    assert turn_order(events)[:4] == ["survivors", "survivors", "survivors", "horde"]


def test_t_6_2_the_difficulty_counts_every_permanent_of_the_party():
    ann = make_pc("ann", battlefield=[FOREST, FOREST, BEAR], library=[FOREST, MOUNTAIN, FOREST])
    bob = make_pc("bob", battlefield=[FOREST], library=[FOREST] * 3)
    events = []
    start_battle([ann, bob], HORDE_DECK, random.Random(1), events=events)
    check = next(e for e in events if e["event"] == "battle_check")
    assert (check["player"], check["difficulty"], check["target"], check["result"]) == ("ann", 4, 4, 5)


def test_t_6_2_at_most_five_preparation_turns():
    pc = make_pc(library=[FOREST, WURM, FOREST])  # target 0, result 6 + 3 (green is allied to red)
    battle = start_battle([pc], HORDE_DECK, random.Random(1))
    assert battle.preparation_given == 5


def test_t_6_2_a_failed_preparation_check_lets_the_horde_move_first():
    pc = make_pc(library=[WURM, PLAINS, FOREST])
    events = []
    battle = start_battle([pc], HORDE_DECK, random.Random(1), events=events)
    assert battle.preparation_given == 0
    assert turn_order(events)[0] == "horde"


def test_t_6_2_the_2014_check_is_reflex_and_gives_value_minus_target_turns():
    """2014: value = Mountain 0 + 5 (reflex), target = 2 permanents → 3 turns."""
    pc = make_pc(battlefield=[FOREST, FOREST], library=[MOUNTAIN, FOREST, FOREST])
    events = []
    battle = start_battle([pc], HORDE_DECK, random.Random(1), rules="2014", events=events)
    check = next(e for e in events if e["event"] == "battle_check")
    assert check["kind"] == "reflex"
    assert battle.preparation_given == 3


def test_prepare_false_and_a_gm_given_number_of_turns():
    events = []
    start_battle([make_pc()], HORDE_DECK, random.Random(1), prepare=False, events=events)
    assert turn_order(events)[0] == "horde"
    battle = start_battle([make_pc()], HORDE_DECK, random.Random(1), prepare=2)
    assert battle.preparation_given == 2 and battle.active == "survivors"


# --- T-6.3 permanents already out ------------------------------------------------------


def test_t_6_3_creatures_already_out_can_attack_on_the_first_turn():
    pc = make_pc(battlefield=[FOREST, BEAR], sick=True)
    battle = start_battle([pc], HORDE_DECK, random.Random(1), prepare=1)
    apply(battle, Action(act.GO_TO_COMBAT), random.Random(1))
    assert Action(act.ATTACK, "ann", 1) in legal_actions(battle)


def test_the_team_that_moves_first_skips_its_first_draw():
    """CR 103.8: no draw in the battle's first turn; a draw in each later survivor turn."""
    pc = make_pc()
    battle = start_battle([pc], HORDE_DECK, random.Random(1), prepare=2)
    assert pc.hand == []
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert len(pc.hand) == 1


# --- T-6.6 escape ----------------------------------------------------------------------


def escape_battle(library, untapped: int, rules: str = "2019"):
    """A survivor turn against `untapped` untapped horde creatures."""
    pc = make_pc(library=library)
    horde = make_horde(battlefield=[creature("Wall", 0, 4, "Defender")] * untapped, library=[CORPSE] * 10)
    battle = make_battle([pc], horde)
    battle.rules = rules
    return battle, pc


def test_t_6_6_escape_succeeds_when_the_red_check_beats_the_untapped_enemy_creatures():
    """Difficulty 2 (two untapped creatures): target Forest 0 + 2, result Mountain 0 + 5."""
    battle, pc = escape_battle([FOREST, MOUNTAIN, FOREST], untapped=2)
    events = []
    apply(battle, Action(act.ESCAPE, "ann"), random.Random(1), events)
    check = next(e for e in events if e["event"] == "battle_check")
    assert (check["purpose"], check["difficulty"], check["success"]) == ("escape", 2, True)
    assert battle.outcome == "escape" and battle.step == "over"


def test_t_6_6_t_4_12_a_failed_escape_cannot_be_retried_in_the_same_turn():
    """T-4.12: the escape check may be repeated, but once per turn; T-6.7 it is the
    turn's one non-combat action."""
    battle, pc = escape_battle([WURM, PLAINS] + [FOREST] * 4, untapped=1)
    apply(battle, Action(act.ESCAPE, "ann"), random.Random(1))
    assert battle.outcome is None and battle.step == "main1"
    assert not [a for a in legal_actions(battle) if a.kind == act.ESCAPE]
    apply(battle, Action(act.END_TURN), random.Random(1))
    while battle.active != "survivors" or battle.step != "main1":
        apply(battle, EndTurns().choose(battle, legal_actions(battle), None), random.Random(1))
    assert [a for a in legal_actions(battle) if a.kind == act.ESCAPE] == [Action(act.ESCAPE, "ann")]


def test_t_6_6_2014_escape_needs_a_value_above_the_number_of_untapped_creatures():
    """2014: a tie fails. Mountain in a reflex check: 0 + 5."""
    battle, pc = escape_battle([MOUNTAIN, FOREST], untapped=5, rules="2014")
    apply(battle, Action(act.ESCAPE, "ann"), random.Random(1))
    assert battle.outcome is None
    battle, pc = escape_battle([MOUNTAIN, FOREST], untapped=4, rules="2014")
    apply(battle, Action(act.ESCAPE, "ann"), random.Random(1))
    assert battle.outcome == "escape"


def test_t_6_6_any_pc_in_the_fight_may_be_the_representative():
    ann, bob = make_pc("ann"), make_pc("bob")
    bob.status = DYING
    battle = make_battle([ann, bob], make_horde(library=[ZOMBIE] * 10))
    assert [a.player for a in legal_actions(battle) if a.kind == act.ESCAPE] == ["ann"]


def test_escape_is_only_on_the_survivors_own_turn():
    pc = make_pc(battlefield=[BEAR])
    battle = make_battle([pc], make_horde(library=[ZOMBIE, CORPSE]))
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert battle.step == "declare_blockers"
    assert not [a for a in legal_actions(battle) if a.kind == act.ESCAPE]


# --- T-4.6 boost once per turn ---------------------------------------------------------


def test_t_4_6_boost_once_per_turn_in_combat_and_the_cards_return_at_cleanup():
    """Preparation check: target Wurm 6 + 0, result Forest 0 + 3; the boost exiles six
    Forests (basic lands count as colourless): 9, degree 3. The escape check in the
    same turn gets no boost; at the turn's cleanup the six go under the library."""
    library = [WURM, FOREST] + [FOREST] * 6 + [WURM, PLAINS] + [FOREST] * 10
    pc = make_pc(library=library)
    battle = start_battle([pc], HORDE_DECK, random.Random(1), prepare=True)
    assert battle.step == "check"
    apply(battle, Action(act.BOOST, "ann"), random.Random(1))
    assert battle.preparation_given == 3 and pc.boost_exile == [2, 3, 4, 5, 6, 7] and pc.boost_used
    events = []
    apply(battle, Action(act.ESCAPE, "ann"), random.Random(1), events)
    assert [e["boost_bonus"] for e in events if e["event"] == "battle_check"] == [0]
    assert battle.step == "main1" and battle.outcome is None
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert pc.boost_exile == [] and not pc.boost_used
    assert sorted(pc.library[-6:]) == [2, 3, 4, 5, 6, 7]


def test_t_4_6_no_boost_decision_with_fewer_than_six_cards_in_the_library():
    battle, pc = escape_battle([WURM, PLAINS, FOREST, FOREST, FOREST], untapped=0)
    apply(battle, Action(act.ESCAPE, "ann"), random.Random(1))
    assert battle.step == "main1"


# --- T-7 and run_battle ----------------------------------------------------------------


def test_t_7_2_a_pc_drawing_from_an_empty_library_falls_unconscious():
    ann, bob = make_pc("ann", library=()), make_pc("bob")
    battle = make_battle([ann, bob], make_horde(library=[ZOMBIE] * 10))
    battle.active = "horde"
    battle.step = "declare_blockers"
    from deckquest.engine.combat.turns import _end_turn

    _end_turn(battle, random.Random(1), None)
    assert ann.status == UNCONSCIOUS and bob.status == OK
    assert all(a.player in ("", "bob") for a in legal_actions(battle))


def test_run_battle_writes_life_zones_and_status_back_into_the_pcs():
    pc = make_pc(battlefield=[FOREST], hand=[BEAR], library=[FOREST] * 30, life=6)
    pc.concentration_counter = True
    result = run_battle([pc], HORDE_DECK, EndTurns(), random.Random(2), prepare=False)
    assert result.outcome == "defeat"
    assert pc.status == DYING and pc.life <= 0
    assert result.pcs[0].life_before == 6 and result.pcs[0].life_after == pc.life
    assert result.life_lost == {"ann": 6 - pc.life}
    assert pc.concentration_counter  # battle turns are not concentration
    assert sorted(pc.library + pc.hand + pc.graveyard + [p.card for p in pc.battlefield]) == list(range(32))


def test_run_battle_with_two_pcs_keeps_their_decks_hands_and_lives_apart():
    ann = make_pc("ann", battlefield=[FOREST, FOREST], hand=[BEAR, BEAR], library=[FOREST, BEAR] * 15)
    bob = make_pc("bob", battlefield=[MOUNTAIN], hand=[FOREST], library=[MOUNTAIN] * 30)
    result = run_battle([ann, bob], HORDE_DECK, GreedyBattleAgent(), random.Random(3))
    assert result.outcome in ("victory", "defeat", "escape")
    assert [r.id for r in result.pcs] == ["ann", "bob"]
    for pc in (ann, bob):
        zones = pc.library + pc.hand + pc.graveyard + pc.boost_exile + [p.card for p in pc.battlefield]
        assert sorted(zones) == list(range(len(pc.cards)))
    assert all(p.owner == "bob" for p in bob.battlefield)
    assert result.horde_cut == 60 - 36  # T-6.4: two players


def test_run_battle_leaves_the_pcs_untouched_if_it_fails_midway():
    class Broken:
        def choose(self, battle, actions, rng):
            raise RuntimeError("agent failed")

    pc = make_pc(library=[FOREST] * 20)
    before = pc.copy()
    try:
        run_battle([pc], HORDE_DECK, Broken(), random.Random(1), prepare=2)
    except RuntimeError:
        pass
    assert pc == before


def test_random_play_finishes_battles_with_one_to_four_pcs():
    deck = [FOREST] * 20 + [BEAR] * 20
    for players in range(1, 5):
        pcs = [make_pc(f"pc{i}", hand=[FOREST, BEAR], library=deck) for i in range(players)]
        result = run_battle(pcs, HORDE_DECK, RandomBattleAgent(), random.Random(players))
        assert result.outcome in ("victory", "defeat", "escape")


def test_run_battle_reports_each_turn_once_for_battle_turn_triggers():
    turns: list[int] = []
    result = run_battle([make_pc(library=[FOREST] * 30)], HORDE_DECK, EndTurns(), random.Random(1),
                        prepare=2, on_turn=turns.append)
    assert turns == list(range(1, result.turns + 1))
