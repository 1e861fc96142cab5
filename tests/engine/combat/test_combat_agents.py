"""The battle agents of deckquest.runtime.battle_agents (docs/agents.md)."""

from __future__ import annotations

import random

from combat_helpers import (
    BEAR, CORPSE, FOREST, MOUNTAIN, PLAINS, WURM, ZOMBIE, attack, creature, make_battle, make_horde, make_pc,
)

from deckquest.engine.combat import actions as act
from deckquest.engine.combat import run_battle
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.state import HORDE
from deckquest.engine.combat.turns import apply, legal_actions, start_battle
from deckquest.runtime.battle_agents import GreedyBattleAgent, HumanBattleAgent, RandomBattleAgent

HORDE_DECK = [ZOMBIE] * 40 + [CORPSE] * 20


class Script:
    """Input that answers from a list, then reaches end of input."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


# --- human -----------------------------------------------------------------------------


def test_human_sees_numbered_legal_actions_and_nothing_illegal_is_accepted():
    pc = make_pc(battlefield=[FOREST, FOREST], hand=[BEAR, MOUNTAIN])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    actions = legal_actions(battle)
    shown: list[str] = []
    answers = Script("0", "abc", str(len(actions) + 1), "-1", "²", "9" * 5000, "2")  # ²: no int() (issue 28)
    choice = HumanBattleAgent(input=answers, output=shown.append).choose(battle, actions, random.Random(1))
    assert choice == actions[1]
    listing = [line for line in shown if line.startswith("  ") and ". " in line]
    assert listing[0] == "  1. Ann: cast Grizzly Bears"
    assert "  2. Ann: play Mountain" in listing
    assert len(answers.prompts) == 7
    assert sum("please answer with a number" in line for line in shown) == 6


def test_human_at_end_of_input_passes_and_the_battle_still_ends():
    pc = make_pc(battlefield=[FOREST, BEAR], hand=[BEAR], library=[FOREST] * 30)
    shown: list[str] = []
    agent = HumanBattleAgent(input=Script("1"), output=shown.append)
    result = run_battle([pc], HORDE_DECK, agent, random.Random(4), prepare=False)
    assert result.outcome in ("victory", "defeat", "escape")
    assert shown.count("(end of input: passing from now on)") == 1


def test_human_board_shows_life_hand_and_the_horde():
    pc = make_pc(battlefield=[BEAR], hand=[WURM])
    battle = make_battle([pc], make_horde(battlefield=[ZOMBIE], library=[ZOMBIE] * 4))
    shown: list[str] = []
    HumanBattleAgent(input=Script("1"), output=shown.append).choose(battle, legal_actions(battle), random.Random(1))
    board = shown[0]
    assert "Ann: life 20, ok, library 10" in board
    assert "hand: Craw Wurm" in board
    assert "horde: library 4, hand 0" in board
    assert "Zombie (#0) 2/2" in board


# --- random ----------------------------------------------------------------------------


def test_random_agent_only_picks_legal_actions():
    battle = start_battle([make_pc(hand=[FOREST, BEAR], library=[FOREST, BEAR] * 10)], HORDE_DECK,
                          random.Random(2), prepare=3)
    agent, rng = RandomBattleAgent(), random.Random(2)
    while battle.step != "over":
        actions = legal_actions(battle)
        action = agent.choose(battle, actions, rng)
        assert action in actions
        apply(battle, action, rng)


# --- greedy ----------------------------------------------------------------------------


def greedy(battle):
    return GreedyBattleAgent().choose(battle, legal_actions(battle), random.Random(1))


def test_greedy_plays_a_land_of_the_colour_its_hand_needs_first():
    pc = make_pc(battlefield=[FOREST], hand=[PLAINS, MOUNTAIN, creature("Ogre", 3, 3, cost="{1}{R}")])
    assert greedy(make_battle([pc], make_horde(library=[ZOMBIE] * 5))) == Action(act.PLAY_LAND, "ann", 2)


def test_greedy_casts_the_best_spell_it_can_pay_for():
    pc = make_pc(battlefield=[FOREST] * 6, hand=[BEAR, WURM])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    assert greedy(battle) == Action(act.CAST, "ann", 7)
    apply(battle, Action(act.CAST, "ann", 7), random.Random(1))
    assert greedy(battle).kind == act.END_TURN  # nothing left to pay with, nothing to attack with


def test_greedy_attacks_when_no_blocker_can_punish_it():
    horde = make_horde(battlefield=[creature("Ogre", 3, 3, "Vigilance")], library=[CORPSE] * 20)
    battle = make_battle([make_pc(battlefield=[creature("Giant", 4, 4), BEAR])], horde)
    assert greedy(battle) == Action(act.GO_TO_COMBAT)
    apply(battle, Action(act.GO_TO_COMBAT), random.Random(1))
    assert greedy(battle) == Action(act.ATTACK, "ann", 0)  # the Bear would die to the Ogre for nothing
    apply(battle, Action(act.ATTACK, "ann", 0), random.Random(1))
    assert greedy(battle) == Action(act.CONFIRM_ATTACKERS)


def test_greedy_keeps_blockers_home_when_the_horde_would_overrun_it():
    horde = make_horde(battlefield=[ZOMBIE] * 5, library=[CORPSE] * 20, tapped=True)
    pc = make_pc(battlefield=[BEAR, BEAR, BEAR], life=12)
    battle = make_battle([pc], horde)
    apply(battle, Action(act.GO_TO_COMBAT), random.Random(1))
    plan = []
    while battle.step == "declare_attackers":
        action = greedy(battle)
        plan.append(action)
        if action.kind == act.CONFIRM_ATTACKERS:
            break
        apply(battle, action, random.Random(1))
    assert plan == [Action(act.CONFIRM_ATTACKERS)]


def test_greedy_blocks_to_kill_and_chumps_to_survive():
    """The 3/3 blocks the 2/2 (kills it and lives); then 6 damage would still take
    life 6 to 0, so the 0/1 chump-blocks a 3/3."""
    pc = make_pc(battlefield=[creature("Ogre", 3, 3), creature("Wall", 0, 1)], life=6)
    horde = make_horde(battlefield=[ZOMBIE, creature("Brute", 3, 3), creature("Brute", 3, 3)])
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann"), attack(HORDE, 1, "ann"), attack(HORDE, 2, "ann")]
    blocks = []
    while True:
        action = greedy(battle)
        if action.kind == act.CONFIRM_BLOCKERS:
            break
        blocks.append(action)
        apply(battle, action, random.Random(1))
    assert blocks == [Action(act.BLOCK, "ann", 0, target=(HORDE, 0)), Action(act.BLOCK, "ann", 1, target=(HORDE, 1))]
    apply(battle, Action(act.CONFIRM_BLOCKERS), random.Random(1))
    assert pc.life == 3


def test_greedy_trades_when_the_attacker_is_worth_at_least_the_blocker():
    pc = make_pc(battlefield=[BEAR])
    horde = make_horde(battlefield=[ZOMBIE])
    battle = make_battle([pc], horde, step="declare_blockers", active=HORDE)
    battle.attacks = [attack(HORDE, 0, "ann")]
    assert greedy(battle) == Action(act.BLOCK, "ann", 0, target=(HORDE, 0))


def test_greedy_escapes_when_a_loss_is_near():
    horde = make_horde(battlefield=[ZOMBIE] * 4, library=[CORPSE] * 10, tapped=True)
    battle = make_battle([make_pc(life=5)], horde)
    assert greedy(battle) == Action(act.ESCAPE, "ann")
    safe = make_battle([make_pc(life=20)], make_horde(battlefield=[ZOMBIE], library=[CORPSE] * 10, tapped=True))
    assert greedy(safe) == Action(act.END_TURN)


def test_greedy_boosts_a_check_that_would_fail():
    pc = make_pc(library=[WURM, FOREST] + [FOREST] * 10)
    battle = start_battle([pc], HORDE_DECK, random.Random(1))
    assert greedy(battle) == Action(act.BOOST, "ann")
    pc = make_pc(library=[FOREST, MOUNTAIN] + [FOREST] * 10)
    battle = start_battle([pc], HORDE_DECK, random.Random(1))
    assert greedy(battle) == Action(act.NO_BOOST, "ann")


def test_greedy_wins_battles_that_random_play_does_not():
    deck = [FOREST] * 17 + [BEAR] * 10 + [creature("Ogre", 3, 3, cost="{2}{G}")] * 8 + [WURM] * 5

    def outcome(agent, seed):
        rng = random.Random(seed)
        cards = deck[:]
        rng.shuffle(cards)
        return run_battle([make_pc(hand=cards[:7], library=cards[7:])], HORDE_DECK, agent, rng).outcome

    greedy_wins = sum(outcome(GreedyBattleAgent(), seed) == "victory" for seed in range(40))
    random_wins = sum(outcome(RandomBattleAgent(), seed) == "victory" for seed in range(40))
    assert greedy_wins >= 8 and greedy_wins > random_wins


def test_every_action_of_a_battle_can_be_put_in_words():
    from deckquest.engine.combat.actions import describe
    from deckquest.runtime.battle_agents import render_board

    pcs = [make_pc("ann", battlefield=[FOREST, BEAR], hand=[FOREST, BEAR], library=[FOREST, BEAR] * 10),
           make_pc("bob", battlefield=[MOUNTAIN], hand=[MOUNTAIN], library=[MOUNTAIN, BEAR] * 10)]
    battle = start_battle(pcs, HORDE_DECK, random.Random(6), prepare=True)
    rng, kinds = random.Random(6), set()
    while battle.step != "over":
        actions = legal_actions(battle)
        assert render_board(battle)
        for action in actions:
            assert describe(battle, action)
            kinds.add(action.kind)
        apply(battle, GreedyBattleAgent().choose(battle, actions, rng), rng)
    assert {act.PLAY_LAND, act.CAST, act.ESCAPE, act.END_TURN, act.BLOCK, act.CONFIRM_BLOCKERS} <= kinds
