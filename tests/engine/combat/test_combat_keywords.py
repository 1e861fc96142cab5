"""Combat damage and its keywords (T-6.1: a battle is an MTG game; CR 506-511, 702)."""

from __future__ import annotations

import random

import pytest
from combat_helpers import alive, attack, creature, make_battle, make_horde, make_pc

from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.combat import combat_damage
from deckquest.engine.combat.state import HORDE
from deckquest.engine.combat.turns import apply, legal_actions


def fight(our, their, our_attacks: bool = True, horde_library: int = 20, life: int = 20):
    """One combat between PC creatures `our` and horde creatures `their`: the first
    of the attackers' side attacks, the other side's creatures all block it."""
    pc = make_pc(battlefield=our, life=life)
    horde = make_horde(battlefield=their, library=[creature("Zombie", 2, 2, token=True)] * horde_library)
    battle = make_battle([pc], horde)
    if our_attacks:
        blockers = [(HORDE, i) for i in range(len(their))]
        battle.attacks = [attack("ann", 0, HORDE, *blockers)]
    else:
        blockers = [("ann", i) for i in range(len(our))]
        battle.attacks = [attack(HORDE, 0, "ann", *blockers)]
    combat_damage(battle, random.Random(1), None)
    return battle, pc, horde


def test_first_strike_kills_a_deathtouch_blocker_before_it_deals_damage():
    """CR 702.7 first strike against CR 702.2 deathtouch: the deathtoucher dies first."""
    battle, pc, horde = fight([creature("Striker", 2, 2, "First strike")], [creature("Asp", 1, 1, "Deathtouch")])
    assert alive(pc, 0)
    assert not alive(horde, 0)


def test_deathtouch_without_first_strike_trades_with_a_bigger_creature():
    battle, pc, horde = fight([creature("Giant", 5, 5)], [creature("Asp", 1, 1, "Deathtouch")])
    assert not alive(pc, 0)
    assert not alive(horde, 0)


def test_trample_over_a_chump_blocker_mills_the_rest_of_the_horde():
    """CR 702.19 trample; T-6.10 damage to the horde mills that many cards."""
    battle, pc, horde = fight([creature("Trampler", 5, 5, "Trample")], [creature("Chump", 1, 1)])
    assert not alive(horde, 0)
    assert horde.milled == 4
    assert len(horde.library) == 16
    assert battle.tallies["ann"].cards_milled == 4


def test_trample_with_deathtouch_needs_only_one_damage_per_blocker():
    battle, pc, horde = fight([creature("Wurm", 4, 4, "Trample", "Deathtouch")], [creature("Wall", 0, 5)])
    assert not alive(horde, 0)
    assert horde.milled == 3


def test_trample_horde_attacker_hits_the_pc_past_a_chump_blocker():
    battle, pc, horde = fight([creature("Chump", 1, 1)], [creature("Trampler", 6, 6, "Trample")], our_attacks=False)
    assert pc.life == 15
    assert battle.tallies["ann"].damage_taken == 5


def test_without_trample_a_chump_blocker_absorbs_everything():
    battle, pc, horde = fight([creature("Chump", 1, 1)], [creature("Giant", 6, 6)], our_attacks=False)
    assert pc.life == 20
    assert not alive(pc, 0)


def test_double_strike_with_lifelink_deals_damage_twice_and_gains_life_twice():
    """CR 702.4 double strike, CR 702.15 lifelink: unblocked 2/2 deals 4, gains 4."""
    battle, pc, horde = fight([creature("Knight", 2, 2, "Double strike", "Lifelink")], [], life=10)
    assert horde.milled == 4
    assert pc.life == 14
    assert battle.tallies["ann"].life_gained == 4


def test_double_strike_kills_a_blocker_then_tramples_over():
    battle, pc, horde = fight([creature("Knight", 3, 3, "Double strike", "Trample")], [creature("Bear", 2, 3)])
    assert not alive(horde, 0)
    assert horde.milled == 3  # first strike: 3 to the bear; regular: the bear is gone, all 3 trample over
    assert alive(pc, 0)


def test_indestructible_survives_deathtouch_and_lethal_damage():
    """CR 702.12: indestructible is not destroyed by lethal or deathtouch damage."""
    battle, pc, horde = fight([creature("Golem", 1, 1, "Indestructible")],
                              [creature("Asp", 1, 1, "Deathtouch"), creature("Giant", 5, 5)])
    assert alive(pc, 0)


def test_several_blockers_share_the_attackers_damage_lethal_first():
    """CR 509.1: several creatures can block one attacker; the survivors' attacker
    assigns lethal damage to the blockers that need least first."""
    battle, pc, horde = fight([creature("Wurm", 3, 5)], [creature("Big", 2, 4), creature("Small", 1, 1), creature("Mid", 1, 2)])
    assert alive(horde, 0)
    assert not alive(horde, 1) and not alive(horde, 2)
    assert alive(pc, 0)  # 4 damage on a 5 toughness


def test_damage_wears_off_at_end_of_turn():
    """CR 514.2: damage is removed in the cleanup step."""
    pc = make_pc(battlefield=[creature("Wurm", 3, 5)])
    horde = make_horde(battlefield=[creature("Big", 2, 4)], library=[creature("Z", 2, 2, token=True)] * 5)
    battle = make_battle([pc], horde)
    battle.attacks = [attack("ann", 0, HORDE, (HORDE, 0))]
    combat_damage(battle, random.Random(1), None)
    battle.attacks.clear()
    battle.step = "main2"
    assert pc.battlefield[0].damage == 2 and horde.battlefield[0].damage == 3
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert horde.battlefield[0].damage == 0
    assert all(p.damage == 0 or p.card != 0 for p in pc.battlefield)


# --- declaring attackers and blockers through the action interface ---------------------


def test_menace_attacker_cannot_be_blocked_by_one_creature():
    """CR 702.110b: confirming a lone block of a menace attacker is not legal."""
    pc = make_pc(battlefield=[creature("Bear", 2, 2), creature("Elk", 2, 2)])
    horde = make_horde(battlefield=[creature("Brute", 3, 3, "Menace")])
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    apply(battle, Action(act.BLOCK, "ann", 0, target=(HORDE, 0)), random.Random(1))
    kinds = {a.kind for a in legal_actions(battle)}
    assert act.CONFIRM_BLOCKERS not in kinds
    assert act.UNBLOCK in kinds
    apply(battle, Action(act.BLOCK, "ann", 1, target=(HORDE, 0)), random.Random(1))
    assert act.CONFIRM_BLOCKERS in {a.kind for a in legal_actions(battle)}


def test_horde_never_blocks_a_menace_attacker_with_one_creature():
    """T-6.8 the horde blocks at random, but only legally (CR 702.110b)."""
    for seed in range(30):
        pc = make_pc(battlefield=[creature("Brute", 3, 3, "Menace")])
        horde = make_horde(battlefield=[creature("Wall", 0, 4, "Defender")], library=[creature("Z", 2, 2, token=True)] * 10)
        battle = make_battle([pc], horde)
        for action in (Action(act.GO_TO_COMBAT), Action(act.ATTACK, "ann", 0), Action(act.CONFIRM_ATTACKERS)):
            apply(battle, action, random.Random(seed))
        assert horde.milled == 3


def test_flying_attacker_can_be_blocked_only_by_flying_or_reach():
    """CR 702.9b flying, CR 702.17 reach."""
    pc = make_pc(battlefield=[creature("Bear", 2, 2), creature("Spider", 1, 3, "Reach"), creature("Bird", 1, 1, "Flying")])
    horde = make_horde(battlefield=[creature("Drake", 2, 2, "Flying")])
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    blockers = {a.card for a in legal_actions(battle) if a.kind == act.BLOCK}
    assert blockers == {1, 2}


def test_a_flyer_blocks_a_ground_creature():
    pc = make_pc(battlefield=[creature("Bird", 1, 1, "Flying")])
    horde = make_horde(battlefield=[creature("Bear", 2, 2)])
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    assert any(a.kind == act.BLOCK for a in legal_actions(battle))


def test_summoning_sick_creatures_cannot_attack_but_haste_can():
    """CR 302.6 summoning sickness, CR 702.10 haste."""
    pc = make_pc(battlefield=[creature("Bear", 2, 2), creature("Raider", 2, 1, "Haste")], sick=True)
    battle = make_battle([pc], make_horde(library=[creature("Z", 2, 2, token=True)] * 5))
    apply(battle, Action(act.GO_TO_COMBAT), random.Random(1))
    assert {a.card for a in legal_actions(battle) if a.kind == act.ATTACK} == {1}


def test_defender_cannot_attack_and_vigilance_does_not_tap():
    """CR 702.3 defender, CR 702.20 vigilance."""
    pc = make_pc(battlefield=[creature("Wall", 0, 4, "Defender"), creature("Guard", 2, 2, "Vigilance"), creature("Bear", 2, 2)])
    battle = make_battle([pc], make_horde(library=[creature("Z", 2, 2, token=True)] * 5))
    apply(battle, Action(act.GO_TO_COMBAT), random.Random(1))
    assert {a.card for a in legal_actions(battle) if a.kind == act.ATTACK} == {1, 2}
    apply(battle, Action(act.ATTACK, "ann", 1), random.Random(1))
    apply(battle, Action(act.ATTACK, "ann", 2), random.Random(1))
    assert not pc.battlefield[1].tapped
    assert pc.battlefield[2].tapped


@pytest.mark.parametrize("toughness", [0, -1])
def test_a_creature_with_toughness_zero_dies_even_if_indestructible(toughness):
    """CR 704.5f: toughness 0 or less puts a creature into the graveyard."""
    pc = make_pc(battlefield=[creature("Golem", 1, 1, "Indestructible")])
    pc.battlefield[0].plus_counters = toughness - 1
    horde = make_horde(battlefield=[creature("Z", 2, 2, token=True)])
    battle = make_battle([pc], horde)
    from deckquest.engine.combat.combat import state_based_actions

    state_based_actions(battle, None)
    assert not alive(pc, 0)
