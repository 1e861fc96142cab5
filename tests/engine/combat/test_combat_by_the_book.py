"""MTG-TRPG by the book (issue 17): where the battle engine played differently from the rules,
checked through the engine's public API (`run_battle`, the step API `start_battle` /
`legal_actions` / `apply`, and `engine.combat.phases` for concentrate and rest)."""

from __future__ import annotations

import random

from combat_helpers import BEAR, FOREST, ZOMBIE, make_pc

from deckquest.cards.database import builtin_index
from deckquest.cards.model import Card
from deckquest.engine import pc as pcs
from deckquest.engine.combat import actions as act
from deckquest.engine.combat import phases, run_battle
from deckquest.engine.combat.turns import start_battle

GIANT_GROWTH = builtin_index().get("Giant Growth")
PHYREXIAN_ARENA = builtin_index().get("Phyrexian Arena")
HEALER = Card.build("Healer", "{1}{W}", "Enchantment", oracle_text="At the beginning of your end step, you gain 2 life.")


class PumpAndAttack:
    """A battle agent: casts what it can (Giant Growth on its Bear), attacks the horde with
    everything, and ends its turns."""

    ORDER = (act.NO_BOOST, act.CAST, act.GO_TO_COMBAT, act.ATTACK, act.CONFIRM_ATTACKERS, act.END_TURN)

    def choose(self, battle, actions, rng):
        for kind in self.ORDER:
            for action in actions:
                if action.kind == kind:
                    return action
        return actions[0]


# --- T-6.4 --------------------------------------------------------------------------------


def test_t_6_4_only_a_60_card_horde_deck_is_cut():
    """T-6.4 (seed 000 line 210: 「敵が60枚大群デッキの時は」): a 100-card horde fights whole."""
    battle = start_battle([make_pc()], [ZOMBIE] * 100, random.Random(1), prepare=False)
    assert battle.horde.cut == 0
    assert len(battle.horde.library) + len(battle.horde.battlefield) + len(battle.horde.graveyard) == 100


def test_t_6_4_a_60_card_horde_deck_is_still_cut_for_one_pc():
    battle = start_battle([make_pc()], [ZOMBIE] * 60, random.Random(1), prepare=False)
    assert battle.horde.cut == 60 - 27


# --- T-2.7 --------------------------------------------------------------------------------


def won_with_a_pumped_bear():
    """A battle the Bear wins in its first attack, pumped by Giant Growth (5 damage mills the
    horde's last 5 cards, T-6.10, T-6.12): the battle ends in the middle of the party's turn."""
    pc = make_pc(battlefield=[FOREST, BEAR], hand=[GIANT_GROWTH])
    result = run_battle([pc], [ZOMBIE] * 5, PumpAndAttack(), random.Random(2), prepare=1)
    assert result.outcome == "victory" and result.survivor_turns == 1
    bear = pc.battlefield[1]
    return pc, bear


def test_t_2_7_until_end_of_turn_effects_of_a_battle_end_when_the_pc_rests():
    pc, bear = won_with_a_pumped_bear()
    assert bear.power_bonus == 3  # the battle's turn never reached its cleanup
    pcs.rest(pc)
    assert (bear.power_bonus, bear.toughness_bonus) == (0, 0)


def test_t_2_7_until_end_of_turn_effects_of_a_battle_end_when_the_pc_concentrates():
    pc, bear = won_with_a_pumped_bear()
    pcs.concentrate(pc)
    assert (bear.power_bonus, bear.toughness_bonus, bear.granted) == (0, 0, 0)


# --- T-2.4, T-2.6 -------------------------------------------------------------------------


def test_t_2_4_upkeep_triggers_fire_when_the_pc_concentrates_before_its_draw():
    """T-2.4: untap, upkeep triggers, then draw if the hand is below 7. Phyrexian Arena's
    upkeep draw fills a hand of 6 to 7, so concentrating draws nothing more."""
    pc = make_pc(battlefield=[PHYREXIAN_ARENA], hand=[FOREST] * 6)
    events = []
    drawn = phases.concentrate(pc, random.Random(1), events)
    assert pc.life == 19 and len(pc.hand) == 7 and drawn == []
    assert pc.concentration_counter
    assert [e["ability"] for e in events if e["event"] == "battle_trigger"] == ["upkeep"]


def test_t_2_6_end_step_triggers_fire_when_the_pc_rests_then_damage_goes():
    pc = make_pc(battlefield=[HEALER, BEAR], life=10)
    pc.battlefield[1].damage = 1
    pc.concentration_counter = True
    phases.rest(pc, random.Random(1))
    assert pc.life == 12 and pc.battlefield[1].damage == 0 and not pc.concentration_counter


def test_t_2_4_concentrating_without_upkeep_triggers_draws_nothing_else():
    pc = make_pc(battlefield=[BEAR], hand=[FOREST] * 3)
    before = random.Random(1).getstate()
    rng = random.Random(1)
    phases.concentrate(pc, rng)
    assert len(pc.hand) == 4 and rng.getstate() == before  # no trigger, no random number
