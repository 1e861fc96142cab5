"""The horde: T-6.4 cut, T-6.8 random choices, T-6.9 turn, T-6.10 mill, T-6.12 end."""

from __future__ import annotations

import random

import pytest
from combat_helpers import BEAR, CORPSE, GRAVE_RITE, ZOMBIE, attack, creature, make_battle, make_horde, make_pc

from deckquest.engine.combat import actions as act
from deckquest.engine.combat import horde as horde_rules
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.combat import combat_damage
from deckquest.engine.combat.state import HORDE
from deckquest.engine.combat.turns import apply, legal_actions, start_battle
from deckquest.engine.pc import DYING, OK


@pytest.mark.parametrize("players, size", [(1, 27), (2, 36), (3, 45), (4, 60), (5, 60)])
def test_t_6_4_a_60_card_horde_is_cut_by_the_number_of_players(players, size):
    horde = horde_rules.make_horde([ZOMBIE] * 40 + [CORPSE] * 20, players, random.Random(1))
    assert len(horde.library) == size
    assert horde.cut == 60 - size
    assert sorted(horde.library + horde.graveyard) == list(range(60))


def test_t_6_4_a_small_horde_deck_is_not_cut():
    horde = horde_rules.make_horde([ZOMBIE] * 20, 1, random.Random(1))
    assert len(horde.library) == 20


def end_survivor_turn(battle, seed: int = 1, events=None):
    apply(battle, Action(act.END_TURN), random.Random(seed), events)


def test_t_6_9_horde_turn_reveals_until_a_non_token_casts_tokens_then_it_then_its_hand():
    """T-6.9: reveal Zombie, Zombie, Walking Corpse; cast them in that order, then
    the card waiting in hand; every horde creature has haste and attacks."""
    pc = make_pc()
    horde = make_horde(library=[ZOMBIE, ZOMBIE, CORPSE, ZOMBIE, CORPSE], hand=[BEAR])
    battle = make_battle([pc], horde)
    events = []
    end_survivor_turn(battle, events=events)
    kinds = [e for e in events if e["event"] in ("battle_reveal", "battle_cast", "battle_attack")]
    assert kinds[0] == {"event": "battle_reveal", "player": HORDE, "cards": ["Zombie", "Zombie", "Walking Corpse"]}
    assert [e["card"] for e in kinds if e["event"] == "battle_cast"] == ["Zombie", "Zombie", "Walking Corpse", "Grizzly Bears"]
    assert [e["card"] for e in kinds if e["event"] == "battle_attack"] == ["Zombie", "Zombie", "Walking Corpse", "Grizzly Bears"]
    assert pc.life == 12
    assert horde.library == [3, 4]
    assert battle.active == "survivors" and battle.step == "main1"


def test_t_6_9_tokens_revealed_after_the_non_token_card_stay_in_the_library():
    horde = make_horde(library=[CORPSE, ZOMBIE])
    battle = make_battle([make_pc()], horde)
    end_survivor_turn(battle)
    assert horde.library == [1]
    assert [p.card for p in horde.battlefield] == [0]


def test_t_6_9_non_permanent_horde_spells_go_to_the_graveyard():
    horde = make_horde(library=[GRAVE_RITE, ZOMBIE])
    battle = make_battle([make_pc()], horde)
    end_survivor_turn(battle)
    assert horde.graveyard == [0]
    assert horde.battlefield == []


def test_t_6_9_horde_attackers_wait_for_the_survivors_blocks():
    pc = make_pc(battlefield=[BEAR])
    horde = make_horde(library=[ZOMBIE, CORPSE, ZOMBIE])
    battle = make_battle([pc], horde)
    end_survivor_turn(battle)
    assert battle.step == "declare_blockers"
    blocks = [a for a in legal_actions(battle) if a.kind == act.BLOCK]
    assert {a.target for a in blocks} == {(HORDE, 0), (HORDE, 1)}
    apply(battle, blocks[0], random.Random(1))
    apply(battle, Action(act.CONFIRM_BLOCKERS), random.Random(1))
    assert pc.life == 18
    assert battle.step == "main1"


def test_t_6_8_horde_attack_targets_are_random_among_pcs_in_the_fight():
    """With two PCs each attacker picks one at random; a dying PC is never attacked (T-7.1)."""
    targets = set()
    for seed in range(20):
        ann, bob = make_pc("ann"), make_pc("bob")
        battle = make_battle([ann, bob], make_horde(library=[ZOMBIE] * 6 + [CORPSE] + [ZOMBIE] * 4))
        events = []
        end_survivor_turn(battle, seed, events)
        targets |= {e["defender"] for e in events if e["event"] == "battle_attack"}
    assert targets == {"ann", "bob"}
    ann, bob = make_pc("ann"), make_pc("bob", life=0)
    bob.status = DYING
    battle = make_battle([ann, bob], make_horde(library=[ZOMBIE] * 6 + [CORPSE] + [ZOMBIE] * 4))
    events = []
    end_survivor_turn(battle, 3, events)
    assert {e["defender"] for e in events if e["event"] == "battle_attack"} == {"ann"}
    assert bob.life == 0 and bob.status == DYING


def test_t_6_10_damage_to_the_horde_mills_that_many_cards():
    pc = make_pc(battlefield=[creature("Giant", 4, 4)])
    horde = make_horde(library=[ZOMBIE] * 10)
    battle = make_battle([pc], horde)
    battle.attacks = [attack("ann", 0, HORDE)]
    combat_damage(battle, random.Random(1), None)
    assert len(horde.library) == 6 and len(horde.graveyard) == 4 and horde.milled == 4


def test_t_6_12_the_survivors_win_when_the_horde_has_no_library_hand_or_creatures():
    pc = make_pc(battlefield=[creature("Giant", 4, 4)])
    horde = make_horde(library=[ZOMBIE] * 3)
    battle = make_battle([pc], horde)
    for action in (Action(act.GO_TO_COMBAT), Action(act.ATTACK, "ann", 0), Action(act.CONFIRM_ATTACKERS)):
        apply(battle, action, random.Random(1))
    assert battle.outcome == "victory" and battle.step == "over"
    assert legal_actions(battle) == []


def test_t_6_12_no_victory_while_the_horde_still_has_creatures():
    pc = make_pc(battlefield=[creature("Giant", 4, 4)])
    horde = make_horde(battlefield=[creature("Wall", 0, 9, "Defender")], library=[ZOMBIE] * 3)
    battle = make_battle([pc], horde)
    battle.attacks = [attack("ann", 0, HORDE)]
    combat_damage(battle, random.Random(1), None)
    assert not horde.library and battle.outcome is None


def test_t_6_12_t_7_1_the_survivors_lose_when_every_pc_is_dying():
    pc = make_pc(life=3)
    battle = make_battle([pc], make_horde(library=[ZOMBIE, CORPSE, ZOMBIE]))
    end_survivor_turn(battle)
    assert pc.life == -1 and pc.status == DYING
    assert battle.outcome == "defeat"


def test_t_7_1_one_dying_pc_leaves_the_fight_but_the_team_fights_on():
    ann, bob = make_pc("ann", life=2), make_pc("bob", battlefield=[BEAR])
    battle = make_battle([ann, bob], make_horde(battlefield=[ZOMBIE], library=[ZOMBIE] * 30, tapped=True))
    battle.attacks = [attack(HORDE, 0, "ann")]
    combat_damage(battle, random.Random(1), None)
    assert ann.status == DYING and bob.status == OK
    assert battle.outcome is None
    assert [pc.id for pc in battle.fighting()] == ["bob"]


def test_t_6_1_start_battle_shuffles_and_cuts_the_horde_with_the_seeded_generator():
    deck = [ZOMBIE] * 40 + [CORPSE] * 20
    first = start_battle([make_pc()], deck, random.Random(5), prepare=False)
    second = start_battle([make_pc()], deck, random.Random(5), prepare=False)
    assert first.horde.library == second.horde.library
    assert first.horde.battlefield == second.horde.battlefield
