"""Static abilities (lords, anthems, CR 611.3 / 613), upkeep and end-step triggers (CR 503.1,
513.1), kicker (CR 702.33), flash (CR 702.8), landwalk (CR 702.14), "can't block", the
unconscious PC as a 0/1 defender creature (T-7.2, T-7.4), the survivors' combat tricks
after blockers (CR 509) and the greedy agent's blocks against menace (CR 702.110b) and
flying (CR 702.9b)."""

from __future__ import annotations

import random

from combat_helpers import (
    BEAR, FOREST, MOUNTAIN, PLAINS, ZOMBIE, alive, attack, creature, make_battle, make_horde, make_pc,
)

from deckquest.cards.database import builtin_index
from deckquest.cards.model import Card
from deckquest.engine.combat import actions as act
from deckquest.engine.combat import run_battle
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.boss import PlayerNpc
from deckquest.engine.combat.casting import KICKED
from deckquest.engine.combat.combat import can_attack, can_block, state_based_actions
from deckquest.engine.combat.horde import horde_cast
from deckquest.engine.combat.resolve import deal_damage
from deckquest.engine.combat.state import HORDE, find_permanent, keywords_of, power, toughness
from deckquest.engine.combat.statics import refresh_statics
from deckquest.engine.combat.profile import HASTE, MOUNTAINWALK
from deckquest.engine.combat.turns import apply, legal_actions
from deckquest.engine.pc import DEAD, OK, UNCONSCIOUS
from deckquest.runtime.battle_agents import GreedyBattleAgent, RandomBattleAgent


def builtin(name: str) -> Card:
    card = builtin_index().get(name)
    assert card is not None, name
    return card


GOBLIN = builtin("Goblin") if builtin_index().get("Goblin") else Card.build(
    "Goblin", None, "Token Creature — Goblin", power="1", toughness="1", colors="R", is_token=True)
KING = builtin("Goblin King")
CHIEFTAIN = builtin("Goblin Chieftain")
ANTHEM = builtin("Glorious Anthem")
GIANT_GROWTH = builtin("Giant Growth")


def stats(side, card: int) -> tuple[int, int]:
    permanent = find_permanent(side, card)
    return power(side, permanent), toughness(side, permanent)


# --- static abilities -----------------------------------------------------------------------


def test_goblin_king_gives_other_goblins_on_both_sides_plus_one_cr_613():
    """"Other Goblin creatures get +1/+1 and have mountainwalk.": every Goblin but the King,
    whoever controls it; not other creatures."""
    horde = make_horde(battlefield=[KING, GOBLIN, ZOMBIE])
    pc = make_pc(battlefield=[GOBLIN, BEAR])
    battle = make_battle([pc], horde)
    refresh_statics(battle)
    assert stats(horde, 0) == (2, 2)  # the King itself is not "other"
    assert stats(horde, 1) == (2, 2) and keywords_of(horde, find_permanent(horde, 1)) & MOUNTAINWALK
    assert stats(horde, 2) == (2, 2)  # the Zombie token is no Goblin: printed 2/2
    assert stats(pc, 0) == (2, 2)  # the PC's Goblin too (no "you control")
    assert stats(pc, 1) == (2, 2)


def test_goblin_chieftain_only_for_its_controller_and_gives_haste():
    """"Other Goblin creatures you control get +1/+1 and have haste." (CR 702.10: haste
    lets a summoning-sick creature attack)."""
    boss = make_pc("boss", battlefield=[CHIEFTAIN, GOBLIN], sick=True)
    pc = make_pc(battlefield=[GOBLIN])
    battle = make_battle([pc], make_horde())
    battle.bosses.append(boss)
    refresh_statics(battle)
    assert stats(boss, 1) == (2, 2) and can_attack(boss, find_permanent(boss, 1))
    assert stats(pc, 0) == (1, 1) and not keywords_of(pc, find_permanent(pc, 0)) & HASTE


def test_a_lord_leaving_takes_its_bonus_and_damage_can_then_kill_cr_704_3():
    """A 2/2 Goblin (1/1 + the King) with 1 damage dies once the King is gone (state-based
    actions are checked again after the bonus ends)."""
    horde = make_horde(battlefield=[KING, GOBLIN])
    battle = make_battle([make_pc()], horde)
    refresh_statics(battle)
    find_permanent(horde, 1).damage = 1
    state_based_actions(battle, None)
    assert alive(horde, 1)
    find_permanent(horde, 0).damage = 2  # the King dies
    state_based_actions(battle, None)
    assert not alive(horde, 0) and not alive(horde, 1)


def test_glorious_anthem_cast_in_battle_pumps_the_casters_creatures_only():
    pc = make_pc(battlefield=[PLAINS, PLAINS, PLAINS, BEAR], hand=[ANTHEM])
    other = make_pc("bob", battlefield=[BEAR])
    battle = make_battle([pc, other], make_horde(library=[ZOMBIE] * 5))
    apply(battle, Action(act.CAST, "ann", 4), random.Random(1))  # {2}{W}
    assert stats(pc, 3) == (3, 3)
    assert stats(other, 0) == (2, 2)


def test_mountainwalk_goblins_cannot_be_blocked_by_a_pc_with_a_mountain_cr_702_14():
    horde = make_horde(battlefield=[KING, GOBLIN])
    with_mountain = make_pc(battlefield=[MOUNTAIN, BEAR])
    without = make_pc("bob", battlefield=[FOREST, BEAR])
    battle = make_battle([with_mountain, without], horde)
    refresh_statics(battle)
    goblin = find_permanent(horde, 1)
    assert not can_block(with_mountain, find_permanent(with_mountain, 1), horde, goblin)
    assert can_block(without, find_permanent(without, 1), horde, goblin)


def test_a_creature_that_cant_block_is_never_offered_as_a_blocker():
    raider = builtin("Goblin Raider")
    pc = make_pc(battlefield=[raider, BEAR])
    battle = make_battle([pc], make_horde(battlefield=[ZOMBIE]), step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    blockers = {a.card for a in legal_actions(battle) if a.kind == act.BLOCK}
    assert blockers == {1}


def test_the_krenko_boss_deck_is_simulated_better():
    """The bundled boss deck's lords are now understood (docs/effects.md, coverage)."""
    from deckquest.cards.oracle import recognise

    for name in ("Goblin King", "Goblin Chieftain", "Glorious Anthem", "Goblin Bushwhacker", "Goblin Raider"):
        assert recognise(builtin(name)).level == "full", name


# --- triggers -------------------------------------------------------------------------------


def test_upkeep_and_end_step_triggers_cr_503_1_cr_513_1():
    pinger = Card.build("Pinger", "{1}{R}", "Creature — Imp", power="1", toughness="1",
                        oracle_text="At the beginning of your upkeep, Pinger deals 1 damage to you.")
    healer = Card.build("Healer", "{1}{W}", "Enchantment",
                        oracle_text="At the beginning of your end step, you gain 2 life.")
    pc = make_pc(battlefield=[pinger, healer], life=10)
    battle = make_battle([pc], make_horde(library=[MOUNTAIN] * 10), turn=2)
    events = []
    apply(battle, Action(act.END_TURN), random.Random(1), events)  # end step: +2; the horde's turn; ours
    triggers = [e["ability"] for e in events if e["event"] == "battle_trigger"]
    assert triggers == ["end_step", "upkeep"]
    assert battle.step == "main1" and pc.life == 10 + 2 - 1


def test_goblin_arsonist_may_deal_1_damage_when_it_dies():
    arsonist = builtin("Goblin Arsonist")
    horde = make_horde(battlefield=[arsonist], library=[MOUNTAIN] * 3)
    pc = make_pc(battlefield=[creature("Elf", 1, 1)])
    battle = make_battle([pc], horde)
    deal_damage(battle, "ann", 0, (HORDE, 0), 1, None)
    state_based_actions(battle, None, random.Random(3))
    assert not alive(horde, 0)
    # the horde's random target (T-6.8): the Elf, Ann, or the horde itself (a mill)
    assert not alive(pc, 0) or pc.life == 19 or len(horde.library) == 2


# --- kicker and flash -----------------------------------------------------------------------


def test_kicker_is_a_separate_cast_and_only_then_the_kicked_trigger_cr_702_33():
    bushwhacker = builtin("Goblin Bushwhacker")
    pc = make_pc(battlefield=[MOUNTAIN, MOUNTAIN, BEAR], hand=[bushwhacker])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    casts = [a for a in legal_actions(battle) if a.kind == act.CAST]
    assert {a.mode for a in casts} == {0, KICKED}
    apply(battle, Action(act.CAST, "ann", 3, mode=KICKED), random.Random(1))
    assert stats(pc, 2) == (3, 2) and keywords_of(pc, find_permanent(pc, 2)) & HASTE
    assert keywords_of(pc, find_permanent(pc, 3)) & HASTE  # the Bushwhacker itself


def test_unkicked_bushwhacker_does_nothing_more():
    bushwhacker = builtin("Goblin Bushwhacker")
    pc = make_pc(battlefield=[MOUNTAIN, BEAR], hand=[bushwhacker])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    assert {a.mode for a in legal_actions(battle) if a.kind == act.CAST} == {0}
    apply(battle, Action(act.CAST, "ann", 2), random.Random(1))
    assert stats(pc, 1) == (2, 2)


def test_the_horde_always_kicks_infinite_mana_t_6_8():
    bushwhacker = builtin("Goblin Bushwhacker")
    horde = make_horde(battlefield=[GOBLIN], hand=[bushwhacker])
    battle = make_battle([make_pc()], horde, active=HORDE)
    horde_cast(battle, 1, random.Random(1), None)
    assert stats(horde, 0) == (2, 1)


def test_a_flash_creature_can_be_cast_after_blockers_cr_702_8():
    flash_bear = Card.build("Ambush Bear", "{1}{G}", "Creature — Bear", power="2", toughness="2",
                            keywords=("Flash",), oracle_text="Flash")
    pc = make_pc(battlefield=[FOREST, FOREST, BEAR], hand=[flash_bear])
    battle = make_battle([pc], make_horde(battlefield=[ZOMBIE]), step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    apply(battle, Action(act.CONFIRM_BLOCKERS), random.Random(1))
    assert battle.step == "after_blockers"
    assert Action(act.CAST, "ann", 3) in legal_actions(battle)


# --- combat tricks after blockers ---------------------------------------------------------


def test_after_blockers_the_greedy_pc_saves_its_blocker_with_giant_growth():
    """The horde's 3/3 attacks, the Bear blocks; the window after blockers (CR 509) lets the PC
    cast Giant Growth: the Bear (5/5) kills the 3/3 and lives."""
    pc = make_pc(battlefield=[FOREST, BEAR], hand=[GIANT_GROWTH], life=3)
    horde = make_horde(battlefield=[creature("Brute", 3, 3)], library=[ZOMBIE] * 5)
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    agent = GreedyBattleAgent()
    rng = random.Random(1)
    assert agent.choose(battle, legal_actions(battle), rng) == Action(act.BLOCK, "ann", 1, target=(HORDE, 0))
    apply(battle, Action(act.BLOCK, "ann", 1, target=(HORDE, 0)), rng)
    apply(battle, Action(act.CONFIRM_BLOCKERS), rng)
    assert battle.step == "after_blockers"
    choice = agent.choose(battle, legal_actions(battle), rng)
    assert choice == Action(act.CAST, "ann", 2, target=("ann", 1))
    apply(battle, choice, rng)
    assert agent.choose(battle, legal_actions(battle), rng) == Action(act.PASS)
    apply(battle, Action(act.PASS), rng)
    assert alive(pc, 1) and not alive(horde, 0)


def test_the_greedy_pc_keeps_a_pump_instant_for_after_blockers():
    pc = make_pc(battlefield=[FOREST, BEAR], hand=[GIANT_GROWTH])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    choice = GreedyBattleAgent().choose(battle, legal_actions(battle), random.Random(1))
    assert choice.kind != act.CAST


def test_no_window_without_anything_to_cast():
    pc = make_pc(battlefield=[BEAR])
    battle = make_battle([pc], make_horde(battlefield=[ZOMBIE]), step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    apply(battle, Action(act.CONFIRM_BLOCKERS), random.Random(1))
    assert battle.step != "after_blockers"


# --- the greedy agent's blocks ------------------------------------------------------------


def test_greedy_double_blocks_a_menace_attacker_it_can_kill_cr_702_110b():
    """A 3/3 menace attacker: two 2/2s kill it, and it kills only one of them (worth less)."""
    pc = make_pc(battlefield=[BEAR, BEAR])
    horde = make_horde(battlefield=[creature("Brute", 3, 3, "Menace")])
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    agent, rng = GreedyBattleAgent(), random.Random(1)
    blocks = []
    while battle.step == "declare_blockers":
        action = agent.choose(battle, legal_actions(battle), rng)
        blocks.append(action)
        apply(battle, action, rng)
    assert [a.kind for a in blocks] == [act.BLOCK, act.BLOCK, act.CONFIRM_BLOCKERS]
    assert not alive(horde, 0)


def test_greedy_chumps_a_lethal_menace_attacker_with_two():
    pc = make_pc(battlefield=[creature("Wall", 0, 1), creature("Wall", 0, 1)], life=4)
    horde = make_horde(battlefield=[creature("Giant", 6, 6, "Menace")])
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    agent, rng = GreedyBattleAgent(), random.Random(1)
    while battle.step == "declare_blockers":
        apply(battle, agent.choose(battle, legal_actions(battle), rng), rng)
    assert pc.life == 4


def test_greedy_does_not_count_ground_blockers_against_flyers_cr_702_9b():
    from deckquest.runtime.battle_agents import _blockers, _expected_damage, _horde_threat

    horde = make_horde(battlefield=[creature("Bat", 3, 1, "Flying")], tapped=True)
    battle = make_battle([make_pc(battlefield=[BEAR])], horde)
    threat = [t for t in _horde_threat(battle) if t[0] == 3.0]
    assert _expected_damage(battle, _blockers(battle), threat) == 3.0
    spider = make_pc("bob", battlefield=[creature("Spider", 1, 4, "Reach")])
    battle = make_battle([spider], horde)
    assert _expected_damage(battle, _blockers(battle), threat) == 0.0


# --- T-7.2 / T-7.4 in battle ----------------------------------------------------------------


def test_a_pc_decked_in_battle_becomes_a_0_1_defender_and_dies_when_bolted_t_7_2_t_7_4():
    bolt = builtin("Lightning Bolt")
    decked = make_pc("ann", battlefield=[BEAR], library=())
    friend = make_pc("bob", battlefield=[BEAR])
    boss = make_pc("boss", battlefield=[MOUNTAIN], hand=[bolt], library=(MOUNTAIN,) * 10)
    battle = make_battle([decked, friend], make_horde(), turn=2)
    battle.bosses.append(boss)
    from deckquest.engine.combat.state import Tally
    battle.tallies["boss"] = Tally()
    battle.horde_deck = False
    events = []
    rng = random.Random(1)
    from deckquest.engine.combat.turns import _survivor_turn
    battle.turn = 2
    _survivor_turn(battle, rng, events)
    assert decked.status == UNCONSCIOUS
    card = battle.pc_creatures["ann"]
    me = find_permanent(decked, card)
    assert (power(decked, me), toughness(decked, me)) == (0, 1)
    assert decked not in battle.fighting()
    # it never blocks (no actions, T-7.2)
    assert not can_block(decked, me, friend, find_permanent(friend, 0))
    # an enemy's damage to it: the PC dies (T-7.4)
    deal_damage(battle, "boss", 1, ("ann", card), 3, events)
    state_based_actions(battle, events, rng)
    assert decked.status == DEAD and friend.status == OK
    assert {"event": "battle_life", "player": "ann", "change": 0, "life": decked.life, "status": DEAD} in events


def test_the_unconscious_pcs_creature_leaves_with_the_battle():
    """run_battle writes the PC back unconscious, without the 0/1 creature (it is no card)."""
    decked = make_pc("ann", battlefield=[FOREST], library=(FOREST,))
    friend = make_pc("bob", battlefield=[FOREST], library=(FOREST,) * 30)
    horde = [ZOMBIE] * 3
    pcs = [decked, friend]
    result = run_battle(pcs, horde, RandomBattleAgent(), random.Random(5), prepare=2)
    assert decked.status in (UNCONSCIOUS, DEAD, "dying")
    assert all(not decked.cards[p.card].name.endswith("(unconscious)") for p in decked.battlefield)
    assert result.outcome in ("victory", "defeat", "escape")


def test_boss_battles_with_lords_stay_sound():
    """Random play against the Krenko deck (lords, kicker, anthems) ends every time."""
    from deckquest.cards.decklist import load_deck
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "scenarios" / "goblin_cave" / "decks"
    krenko = load_deck(root / "krenko.txt").main_cards()
    green = load_deck(root / "mono_green.txt").main_cards()
    from deckquest.engine.pc import create_pc, designate_critical

    for seed in range(15):
        rng = random.Random(seed)
        pc = create_pc("ann", "Ann", green, designate_critical(green, "Forest", 3), rng)
        agent = GreedyBattleAgent() if seed % 2 else RandomBattleAgent()
        result = run_battle([pc], [PlayerNpc("krenko", "Krenko", tuple(krenko))], agent, rng)
        assert result.outcome in ("victory", "defeat", "escape")


def test_echo_is_paid_or_the_permanent_sacrificed_at_the_next_upkeep_cr_702_30():
    """Mogg War Marshal: a PC with the mana pays only for what is worth it (a 1/1 is not:
    it is sacrificed, and its dies trigger makes a Goblin token)."""
    marshal = builtin("Mogg War Marshal")
    pc = make_pc(battlefield=[MOUNTAIN, MOUNTAIN, MOUNTAIN], hand=[marshal])
    battle = make_battle([pc], make_horde(library=[MOUNTAIN] * 10), turn=2)
    rng = random.Random(1)
    apply(battle, Action(act.CAST, "ann", 3), rng)
    assert battle.echo_due == [("ann", 3)]
    events = []
    apply(battle, Action(act.END_TURN), rng, events)  # the horde's turn, then our upkeep
    assert battle.echo_due == [] and not alive(pc, 3)
    assert [e["card"] for e in events if e["event"] == "battle_sacrifice"] == ["Mogg War Marshal"]
    goblins = [p for p in pc.battlefield if pc.cards[p.card].name == "Goblin"]
    assert len(goblins) == 2  # one when it entered, one when it died


def test_goblin_guide_gives_the_defender_a_land_and_specter_makes_it_discard():
    guide, specter = builtin("Goblin Guide"), builtin("Hypnotic Specter")
    boss = make_pc("boss", battlefield=[guide, specter], library=(MOUNTAIN,) * 5)
    pc = make_pc(hand=[BEAR], library=(FOREST,) * 5)
    battle = make_battle([pc], make_horde(), active=HORDE, step="enemy_main")
    battle.bosses.append(boss)
    from deckquest.engine.combat.state import Tally
    battle.tallies["boss"] = Tally()
    battle.horde_deck = False
    from deckquest.engine.combat.turns import _enemy_attacks
    for permanent in boss.battlefield:
        permanent.summoning_sick = False
    events = []
    _enemy_attacks(battle, random.Random(1), events)
    kinds = [(e["event"], e.get("ability")) for e in events]
    guide_at = kinds.index(("battle_trigger", "attacks"))
    assert kinds[guide_at + 1] == ("battle_draw", None)  # the top card, a Forest, to Ann's hand
    assert ("battle_trigger", "hits") in kinds  # Hypnotic Specter hit her
    assert len([e for e in events if e["event"] == "battle_discard" and e["player"] == "ann"]) == 1
    assert pc.life == 20 - 2 - 2


# --- regeneration (CR 701.19) ----------------------------------------------------------------


def test_a_regeneration_shield_saves_a_blocker_and_the_greedy_pc_raises_it_after_blocks():
    """River Boa ({G}: Regenerate) blocks a 4/4: after blockers the greedy PC regenerates it;
    it survives tapped, removed from combat (CR 701.19c)."""
    boa = builtin("River Boa")
    pc = make_pc(battlefield=[FOREST, boa], life=3)
    horde = make_horde(battlefield=[creature("Brute", 4, 4)], library=[ZOMBIE] * 5)
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    agent, rng = GreedyBattleAgent(), random.Random(1)
    apply(battle, Action(act.BLOCK, "ann", 1, target=(HORDE, 0)), rng)
    apply(battle, Action(act.CONFIRM_BLOCKERS), rng)
    assert battle.step == "after_blockers"
    choice = agent.choose(battle, legal_actions(battle), rng)
    assert choice.kind == act.ACTIVATE and choice.card == 1
    apply(battle, choice, rng)
    assert agent.choose(battle, legal_actions(battle), rng) == Action(act.PASS)
    events = []
    apply(battle, Action(act.PASS), rng, events)
    assert alive(pc, 1)
    assert "battle_regenerate" in [e["event"] for e in events]


def test_cant_be_regenerated_destroys_through_the_shield():
    boa = builtin("River Boa")
    pc = make_pc(battlefield=[boa])
    boss = make_pc("boss", battlefield=[MOUNTAIN])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 3))
    battle.bosses.append(boss)
    battle.shields[("ann", 0)] = 1
    from deckquest.engine.combat.resolve import resolve, spell_ability
    wrath = builtin("Wrath of God")
    boss.cards = boss.cards + (wrath,)
    resolve(battle, "boss", len(boss.cards) - 1, spell_ability(wrath), (), 0, random.Random(1), None)
    assert not alive(pc, 0)


# --- protection from a colour (CR 702.16) ---------------------------------------------------


def test_protection_from_black_blocks_targets_and_damage_cr_702_16():
    knight = builtin("White Knight")  # first strike, protection from black
    murder = Card.build("Murder", "{1}{B}{B}", "Instant", colors="B", oracle_text="Destroy target creature.")
    black_bear = Card.build("Black Bear", "{1}{B}", "Creature — Bear", colors="B", power="2", toughness="2")
    pc = make_pc(battlefield=[knight, BEAR])
    boss = make_pc("boss", battlefield=[black_bear], hand=[murder])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 3))
    battle.bosses.append(boss)
    from deckquest.engine.combat.resolve import target_options, spell_ability
    (slot,) = [e.target for e in spell_ability(murder).effects]
    options = target_options(battle, "boss", slot, ("boss", 1), "destroy")
    assert ("ann", 0) not in options and ("ann", 1) in options  # 702.16b
    knight_permanent = find_permanent(pc, 0)
    assert not can_block(boss, find_permanent(boss, 0), pc, knight_permanent)  # 702.16e: no black blocker
    deal_damage(battle, "boss", 0, ("ann", 0), 2, None)
    assert knight_permanent.damage == 0  # 702.16e: damage from a black source is prevented


def test_mogg_flunkies_cannot_attack_alone_cr_506_5():
    """The horde's lone Mogg Flunkies stays home; with another attacker it attacks."""
    from deckquest.engine.combat.turns import _enemy_attacks

    flunkies = builtin("Mogg Flunkies")
    alone = make_battle([make_pc()], make_horde(battlefield=[flunkies], library=[ZOMBIE] * 5),
                        active=HORDE, step="enemy_main")
    _enemy_attacks(alone, random.Random(1), None)
    assert alone.horde.battlefield[0].tapped is False and all(p.tapped is False for p in alone.horde.battlefield)
    together = make_battle([make_pc(life=20)], make_horde(battlefield=[flunkies, ZOMBIE], library=[ZOMBIE] * 5),
                           active=HORDE, step="enemy_main")
    _enemy_attacks(together, random.Random(1), None)
    assert together.survivors[0].life == 20 - 3 - 2


def test_the_horde_attacks_pcs_planeswalkers_too_cr_508_1b():
    """Each horde attacker picks at random among the PCs in the fight and their planeswalkers
    (T-6.8)."""
    from deckquest.engine.combat.horde import horde_attacks

    walker = Card.build("Chandra", "{2}{R}{R}", "Legendary Planeswalker — Chandra", loyalty="4",
                        oracle_text="+1: Chandra deals 1 damage to any target.")
    pc = make_pc(battlefield=[walker])
    defenders = set()
    for seed in range(20):
        battle = make_battle([pc.copy()], make_horde(battlefield=[ZOMBIE] * 3), active=HORDE)
        horde_attacks(battle, random.Random(seed), None)
        defenders |= {a.defender_card for a in battle.attacks}
    assert defenders == {-1, 0}


def test_greedy_escapes_a_stalemate_with_a_lone_mogg_flunkies():
    from deckquest.runtime.battle_agents import _stalemate

    flunkies = builtin("Mogg Flunkies")
    battle = make_battle([make_pc(battlefield=[BEAR])], make_horde(battlefield=[flunkies]), step="main2")
    assert _stalemate(battle)
    assert GreedyBattleAgent().choose(battle, legal_actions(battle), random.Random(1)).kind == act.ESCAPE


def test_a_boss_attacks_a_pcs_planeswalker_it_can_kill_cr_508_1b():
    from deckquest.engine.combat.boss import boss_attacks

    walker = Card.build("Chandra", "{2}{R}{R}", "Legendary Planeswalker — Chandra", loyalty="3",
                        oracle_text="+1: Chandra deals 1 damage to any target.")
    pc = make_pc(battlefield=[walker])
    pc.battlefield[0].loyalty = 3
    boss = make_pc("boss", battlefield=[creature("Ogre", 3, 3), creature("Elf", 1, 1)])
    battle = make_battle([pc], make_horde(), active=HORDE)
    battle.bosses.append(boss)
    boss_attacks(battle, boss, None)
    assert sorted((a.card, a.defender, a.defender_card) for a in battle.attacks) == [(0, "ann", 0), (1, "ann", -1)]
