"""What a battle works out once and reuses (docs/performance.md, issue 19): card programs,
remembered payments and the castable plans a battle keeps per hand and mana state. Each test
checks that what is reused is what a fresh computation says (CR 601.2: a spell is cast only
when its cost can be paid and its targets chosen; CR 601.2g-h: mana abilities are activated
and the cost paid)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from combat_helpers import BEAR, FOREST, MOUNTAIN, attack, creature, make_battle, make_horde, make_pc

from deckquest.cards.database import builtin_index
from deckquest.cards.decklist import load_deck
from deckquest.cards.model import Card, ManaCost
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.battle import run_battle
from deckquest.engine.combat.boss import PlayerNpc
from deckquest.engine.combat.mana import pay, requirement
from deckquest.engine.combat.state import HORDE
from deckquest.engine.combat.turns import (
    apply, apply_legal, castable, land_actions, legal_actions, next_attack, next_block, start_battle,
)
from deckquest.engine.pc import create_pc, designate_critical
from deckquest.runtime.battle_agents import GreedyBattleAgent, RandomBattleAgent

DECKS = Path(__file__).resolve().parents[3] / "scenarios" / "goblin_cave" / "decks"
G = frozenset("G")
FIREBREATHER = Card.build("Firebreather", "{2}{R}", "Creature — Dragon", power="2", toughness="2",
                          oracle_text="{R}: Firebreather gets +1/+0 until end of turn.")
GIANT_GROWTH = builtin_index().get("Giant Growth")
PIKER = Card.build("Goblin Piker", "{1}{R}", "Creature — Goblin Warrior", power="2", toughness="1")


def test_a_remembered_payment_taps_the_sources_it_is_given():
    """CR 601.2g: the same lands at other places on the battlefield (a remembered payment is
    kept by what the sources make) are tapped where they are."""
    cost = requirement(ManaCost.parse("{1}{G}"))
    assert pay([(0, (G,)), (2, (G,))], cost) == [0, 2]
    assert pay([(1, (G,)), (3, (G,)), (4, (G,))], cost) == [1, 3]
    assert pay([(5, (G,)), (7, (G,))], cost) == [5, 7]


def test_what_is_castable_follows_the_mana_left_with_the_same_hand():
    """CR 601.2g-h: after an ability taps a Mountain (the hand is unchanged), a two-mana
    creature can no longer be paid for with the one Mountain left."""
    pc = make_pc(battlefield=[MOUNTAIN, MOUNTAIN, FIREBREATHER], hand=[PIKER])
    pc.battlefield[2].summoning_sick = False
    battle = make_battle([pc], make_horde(library=[FOREST] * 3))
    piker = Action(act.CAST, "ann", 3)
    firebreath = Action(act.ACTIVATE, "ann", 2, target=("", -1), mode=0)
    actions = legal_actions(battle)
    assert piker in actions and firebreath in actions
    apply_legal(battle, firebreath, actions, random.Random(1))
    assert pc.hand == [3] and sum(p.tapped for p in pc.battlefield) == 1
    assert piker not in legal_actions(battle)
    assert castable(pc, battle) == castable(pc, battle.copy())


def _party(decks, rng):
    return [create_pc(f"pc{i}", f"PC {i}", cards, designate_critical(cards, critical, 3), rng)
            for i, (cards, critical) in enumerate(decks)]


def _greedy_decisions(fight: str, seeds: int):
    """Every decision of whole battles of the greedy agent, two PCs (mono-green, mono-red)
    against the Goblin Cave horde or the Krenko boss (T-8.3), seeds 0 .. seeds - 1: yields
    (agent, battle, the legal actions, the agent's choice among them), then applies it."""
    green = (load_deck(DECKS / "mono_green.txt").main_cards(), "Forest")
    red = (load_deck(DECKS / "mono_red.txt").main_cards(), "Mountain")
    horde = load_deck(DECKS / "goblin_horde.txt").main_cards()
    bosses = (PlayerNpc("warlord", "Krenko", tuple(load_deck(DECKS / "krenko.txt").main_cards())),)
    agent = GreedyBattleAgent()
    for seed in range(seeds):
        rng = random.Random(seed)
        pcs = _party([green, red], rng)
        battle = (start_battle(pcs, horde, rng) if fight == "horde"
                  else start_battle(pcs, (), rng, bosses=bosses, horde_deck=False))
        while battle.step != "over" and battle.turn < 40:
            actions = legal_actions(battle)
            choice = agent.choose(battle, actions, rng)
            yield agent, battle, actions, choice
            apply_legal(battle, choice, actions, rng)


@pytest.mark.parametrize("agent", [GreedyBattleAgent, RandomBattleAgent])
@pytest.mark.parametrize("fight", ["horde", "boss"])
def test_remembered_plans_list_what_a_fresh_battle_lists(agent, fight):
    """At every decision of whole battles (the Goblin Cave decks; the horde T-6.9, the boss
    T-8.3), the legal actions are those a copy of the battle lists from scratch (a copy starts
    without the remembered plans), and the boss's and the survivors' instants too."""
    green = (load_deck(DECKS / "mono_green.txt").main_cards(), "Forest")
    red = (load_deck(DECKS / "mono_red.txt").main_cards(), "Mountain")
    horde = load_deck(DECKS / "goblin_horde.txt").main_cards()
    bosses = (PlayerNpc("warlord", "Krenko", tuple(load_deck(DECKS / "krenko.txt").main_cards())),)
    player = agent()
    decisions = 0
    for seed in range(4):
        rng = random.Random(seed)
        pcs = _party([green, red], rng)
        if fight == "horde":
            battle = start_battle(pcs, horde, rng)
        else:
            battle = start_battle(pcs, (), rng, bosses=bosses, horde_deck=False)
        while battle.step != "over" and battle.turn < 40:
            actions = legal_actions(battle)
            fresh = battle.copy()
            assert actions == legal_actions(fresh)
            for side in [*battle.fighting(), *battle.fighting_bosses()]:
                assert castable(side, battle, instant_speed=True) == castable(fresh.side(side.id), fresh,
                                                                              instant_speed=True)
            apply_legal(battle, player.choose(battle, actions, rng), actions, rng)
            decisions += 1
    assert decisions > 15


@pytest.mark.parametrize("fight", ["horde", "boss"])
def test_the_greedy_agents_land_play_is_the_one_it_picks_from_every_legal_action(fight):
    """CR 305.2 (one land a turn), T-6.11: at every main-phase decision of whole battles in
    which a land can be played, `land_actions` are the land plays among the legal actions, in
    their order, and the greedy agent's `choose_land` among them (what `decide` asks it) is its
    `choose` among all legal actions."""
    land_decisions = 0
    for agent, battle, actions, choice in _greedy_decisions(fight, 4):
        lands = land_actions(battle)
        assert lands == [a for a in actions if a.kind == act.PLAY_LAND]
        if lands:
            land_decisions += 1
            assert agent.choose_land(battle, lands, random.Random(0)) == choice
    assert land_decisions > 10


@pytest.mark.parametrize("fight", ["horde", "boss"])
def test_the_greedy_agents_next_planned_attack_is_the_one_it_picks_from_every_legal_action(fight):
    """T-6.3 (the survivors declare attackers one creature at a time), CR 508.1: at every
    declare-attackers decision of whole battles, the first attack of the greedy agent's plan
    that `next_attack` finds still legal (what `decide` declares, listing nothing) is its
    `choose` among all legal actions, confirm included; and it is one of them."""
    attacks = confirms = 0
    for agent, battle, actions, choice in _greedy_decisions(fight, 4):
        if battle.step == "declare_attackers":
            assert next_attack(battle, agent.planned_attacks(battle)) == choice
            assert choice in actions
            attacks += choice.kind == act.ATTACK
            confirms += choice.kind == act.CONFIRM_ATTACKERS
    assert attacks > 10 and confirms > 3


class _ChooseOnly:
    """The greedy agent seen only through `choose` (no `choose_land`, `planned_attacks` or
    `planned_blocks`), counting the decisions it is asked in declare attackers and blockers."""

    def __init__(self) -> None:
        self.greedy, self.asked_to_attack, self.asked_to_block = GreedyBattleAgent(), 0, 0

    def choose(self, battle, actions, rng):
        self.asked_to_attack += battle.step == "declare_attackers"
        self.asked_to_block += battle.step == "declare_blockers"
        return self.greedy.choose(battle, actions, rng)


class _Greedy(_ChooseOnly):
    """The greedy agent with its shortcuts (`choose_land`, `planned_attacks`, `planned_blocks`),
    counting the decisions it is still asked through `choose` in declare attackers and
    blockers (a wrapper: the compiled build's classes cannot be subclassed by interpreted ones)."""

    def choose_land(self, battle, lands, rng):
        return self.greedy.choose_land(battle, lands, rng)

    def planned_attacks(self, battle):
        return self.greedy.planned_attacks(battle)

    def planned_blocks(self, battle):
        return self.greedy.planned_blocks(battle)


def test_a_battle_declares_the_planned_attacks_and_blocks_without_listing_and_plays_the_same():
    """T-6.3, T-6.11: `run_battle` with the greedy agent (its attacks and blocks declared by
    `next_attack` and `next_block` from its plans, nothing listed) plays exactly the battle of
    the same agent asked `choose` among all legal actions at every decision: the same events,
    seed for seed."""
    green = (load_deck(DECKS / "mono_green.txt").main_cards(), "Forest")
    red = (load_deck(DECKS / "mono_red.txt").main_cards(), "Mountain")
    horde = load_deck(DECKS / "goblin_horde.txt").main_cards()
    for seed in range(3):
        streams = []
        greedy, choose_only = _Greedy(), _ChooseOnly()
        for agent in (greedy, choose_only):
            rng, events = random.Random(seed), []
            run_battle(_party([green, red], rng), horde, agent, rng, events=events)
            streams.append(events)
        assert greedy.asked_to_attack == 0 and choose_only.asked_to_attack > 0
        assert greedy.asked_to_block < choose_only.asked_to_block
        assert streams[0] == streams[1]
        assert any(e["event"] == "battle_attack" for e in streams[0])


@pytest.mark.parametrize("fight", ["horde", "boss"])
def test_the_greedy_agents_next_planned_block_is_the_one_it_picks_from_every_legal_action(fight):
    """T-6.11 (the team blocks together), CR 509.1, CR 702.110b: at every declare-blockers
    decision of whole battles where `next_block` finds the greedy agent's next block or
    confirm (what `decide` declares, listing nothing), that is its `choose` among all legal
    actions, and one of them."""
    blocks = confirms = 0
    for agent, battle, actions, choice in _greedy_decisions(fight, 6):
        found = next_block(battle, agent.planned_blocks(battle)) if battle.step == "declare_blockers" else None
        if found is not None:
            assert found == choice and choice in actions
            blocks += choice.kind == act.BLOCK
            confirms += choice.kind == act.CONFIRM_BLOCKERS
    assert blocks > 1 and confirms > 1, (blocks, confirms)


def test_a_planned_block_that_is_no_longer_legal_is_passed_over():
    """T-6.11, CR 509.1a: `next_block` skips a planned block by a creature already blocking
    or tapped, or of an attacker that is not attacking; with a block declared it confirms."""
    pc = make_pc(battlefield=[BEAR, creature("Wolf", 2, 2)])
    horde = make_horde(battlefield=[creature("Brute", 3, 3), creature("Imp", 1, 1)], library=[FOREST] * 5)
    battle = make_battle([pc], horde, step="declare_blockers", active="horde")
    battle.attacks = [attack(HORDE, 0, "")]  # the Brute attacks; the Imp does not
    bear, wolf = (p.card for p in pc.battlefield)
    plan = [act.interned(act.BLOCK, pc.id, bear, target=(HORDE, 1)),  # the Imp is not attacking
            act.interned(act.BLOCK, pc.id, bear, target=(HORDE, 0)),
            act.interned(act.BLOCK, pc.id, wolf, target=(HORDE, 0))]
    assert next_block(battle, plan) == plan[1] and plan[1] in legal_actions(battle)
    apply(battle, plan[1], random.Random(0))
    pc.battlefield[1].tapped = True  # the Wolf was tapped (say, for an ability) before combat
    assert plan[2] not in legal_actions(battle)
    assert next_block(battle, plan) == act.interned(act.CONFIRM_BLOCKERS)
    assert act.interned(act.CONFIRM_BLOCKERS) in legal_actions(battle)


def test_a_planned_attack_that_is_no_longer_legal_is_passed_over():
    """T-6.3, CR 508.1a: `next_attack` skips a planned attack by a creature already attacking,
    a tapped one and one that is not on the battlefield, and confirms when none is left."""
    pc = make_pc(battlefield=[BEAR, creature("Wolf", 2, 2), creature("Ox", 3, 3)])
    battle = make_battle([pc], make_horde(library=[FOREST] * 5), step="declare_attackers")
    bear, wolf, ox = (p.card for p in pc.battlefield)
    plan = [act.interned(act.ATTACK, pc.id, card, target=("", -1)) for card in (bear, wolf, ox, 99)]
    assert next_attack(battle, plan) == plan[0] and plan[0] in legal_actions(battle)
    apply(battle, plan[0], random.Random(0))
    pc.battlefield[1].tapped = True  # the Wolf was tapped (say, for an ability) before combat
    assert next_attack(battle, plan) == plan[2] and plan[1] not in legal_actions(battle)
    apply(battle, plan[2], random.Random(0))
    assert next_attack(battle, plan) == act.interned(act.CONFIRM_ATTACKERS)
    assert [a.kind for a in legal_actions(battle)] == [act.CONFIRM_ATTACKERS]


def test_a_response_window_lists_the_instants_the_survivors_can_pay_for_now():
    """CR 509.4 / 510 (the window after blockers): the instants listed when the window opens
    serve its decision once; a later listing sees what changed (Giant Growth's Forest tapped:
    CR 601.2g, it can no longer be paid for)."""
    pc = make_pc(battlefield=[FOREST, BEAR], hand=[GIANT_GROWTH])
    battle = make_battle([pc], make_horde(battlefield=[creature("Brute", 3, 3)], library=[FOREST] * 5),
                         step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    rng = random.Random(1)
    apply(battle, Action(act.BLOCK, "ann", 1, target=(HORDE, 0)), rng)
    apply(battle, Action(act.CONFIRM_BLOCKERS), rng)
    assert battle.step == "after_blockers"
    growth = [a for a in legal_actions(battle) if a.kind == act.CAST]
    assert growth and growth == [a for a in legal_actions(battle.copy()) if a.kind == act.CAST]
    pc.battlefield[0].tapped = True
    assert legal_actions(battle) == [Action(act.PASS)]


def test_the_declare_blockers_step_lists_the_blocks_the_survivors_can_make_now():
    """CR 509.1a (an untapped creature blocks), T-6.9 (the horde attacks with its creatures):
    the blocks listed when the step opens serve its first decision once; a later listing sees
    what changed (the Bear tapped: it can no longer block)."""
    pc = make_pc(battlefield=[FOREST, BEAR])
    battle = make_battle([pc], make_horde(battlefield=[creature("Brute", 3, 3)], library=[FOREST] * 5))
    rng = random.Random(1)
    apply(battle, Action(act.END_TURN), rng)
    assert battle.step == "declare_blockers"
    block = Action(act.BLOCK, "ann", 1, target=(HORDE, 0))
    assert block in legal_actions(battle)
    pc.battlefield[1].tapped = True
    assert block not in legal_actions(battle)


_NAMES = st.sampled_from(["", "ann", "bob", HORDE, "stack", "boss"])
_KINDS = st.sampled_from([act.CAST, act.ACTIVATE, act.ATTACK, act.BLOCK, act.PLAY_LAND, act.END_TURN])
_IDS = st.one_of(st.integers(-1, 70), st.integers(65_530, 65_540), st.integers(-3, -2), st.integers(10**6, 10**12))
_SMALL = st.one_of(st.integers(0, 4), st.integers(250, 260), st.integers(-2, -1))


@given(st.lists(st.tuples(_KINDS, _NAMES, _IDS, _SMALL, st.tuples(_NAMES, _IDS), _SMALL), min_size=1, max_size=40))
def test_an_interned_action_is_the_action_of_its_fields(fields):
    """T-6.1 (the survivors' decisions are the legal actions): an action listed again is the
    same value, and actions that differ in any field stay apart, whatever key the build finds
    them by (the compiled one packs card ids, X and mode in bits: ids and values past those
    bits, and negative ones, are told apart too)."""
    actions = [act.interned(*f) for f in fields]
    assert actions == [Action(*f) for f in fields] and all(type(a) is Action for a in actions)
    assert [act.interned(*f) for f in fields] == actions


def test_no_instant_in_hand_lists_nothing_at_instant_speed():
    """CR 117.1a: without an instant or a flash card in hand nothing is cast in a respond
    window, whatever the mana; with Giant Growth in hand and a Forest untapped it is."""
    pc = make_pc(battlefield=[FOREST, MOUNTAIN, BEAR], hand=[PIKER])
    battle = make_battle([pc], make_horde(library=[FOREST] * 5))
    assert castable(pc, battle, instant_speed=True) == []
    assert [pc.cards[a.card].name for a in castable(pc, battle)] == ["Goblin Piker"]
    pc = make_pc(battlefield=[FOREST, MOUNTAIN, BEAR], hand=[PIKER, GIANT_GROWTH])
    battle = make_battle([pc], make_horde(library=[FOREST] * 5))
    assert {pc.cards[a.card].name for a in castable(pc, battle, instant_speed=True)} == {"Giant Growth"}
