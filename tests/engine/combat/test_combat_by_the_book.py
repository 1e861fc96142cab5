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
from deckquest.engine.combat.turns import apply, legal_actions, start_battle

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


# --- MTG's legend rule (CR 704.5j) in battles (T-6.1: combat is an MTG game) -----------------

ISAMARU = Card.build("Isamaru, Hound of Konda", "{W}", "Legendary Creature — Dog", power="2", toughness="2")
PLAINS = Card.build("Plains", None, "Basic Land — Plains", oracle_text="({T}: Add {W}.)")
JACE = builtin_index().get("Jace Beleren")


def test_t_6_1_the_legend_rule_keeps_one_of_two_legends_a_pc_brings_to_a_battle():
    """Two Isamaru on a PC's battlefield from the adventure part (T-6.3): when the battle
    starts, the legend rule puts one into the graveyard (CR 704.5j)."""
    pc = make_pc(battlefield=[ISAMARU, ISAMARU])
    events = []
    battle = start_battle([pc], [ZOMBIE] * 10, random.Random(1), prepare=False, events=events)
    isamarus = [p for p in battle.survivors[0].battlefield if p.card in (0, 1)]
    assert len(isamarus) == 1 and battle.survivors[0].graveyard == [1 - isamarus[0].card]


def test_t_6_1_casting_a_second_legend_puts_one_into_the_graveyard():
    """A PC casts a second Isamaru in a battle (step API): one of them goes (CR 704.5j)."""
    pc = make_pc(battlefield=[PLAINS, ISAMARU], hand=[ISAMARU])
    battle = start_battle([pc], [ZOMBIE] * 10, random.Random(1), prepare=1)
    cast = next(a for a in legal_actions(battle) if a.kind == act.CAST and a.card == 2)
    apply(battle, cast, random.Random(1))
    names = [pc.cards[p.card].name for p in battle.survivors[0].battlefield]
    assert names.count("Isamaru, Hound of Konda") == 1 and len(battle.survivors[0].graveyard) == 1


def test_t_8_2_two_jace_beleren_planeswalker_npcs_are_one_after_the_legend_rule():
    battle = start_battle([make_pc()], [], random.Random(1), prepare=False, npcs=(JACE, JACE), horde_deck=False)
    jaces = [p for p in battle.horde.battlefield if battle.horde.cards[p.card].name == "Jace Beleren"]
    assert len(jaces) == 1


# --- T-8.2: a planeswalker NPC does not kill itself --------------------------------------------

LICH = Card.build("The Pale Lich", "{3}{B}{B}", "Planeswalker — Lich", loyalty="2",
                  oracle_text="+1: Target player loses 1 life.\n−2: Target player loses 2 life.")


def test_t_8_2_a_minus_ability_that_leaves_no_loyalty_is_used_when_it_wins():
    """Loyalty 2, the PC at 2 life: the −2 wins the battle (T-6.12), so it is used though it
    leaves the planeswalker at 0 loyalty."""
    pc = make_pc(life=2)
    events = []
    battle = start_battle([pc], [], random.Random(1), prepare=False, npcs=(LICH,), horde_deck=False, events=events)
    uses = [e for e in events if e["event"] == "battle_activate"]
    assert [e["ability"] for e in uses] == ["-2: Target player loses 2 life."] and uses[0]["loyalty"] == 0
    assert battle.outcome == "defeat"


SAINT = Card.build("The Ashen Saint", "{3}{B}{B}", "Planeswalker — Spirit", loyalty="2",
                   oracle_text="+1: Target player loses 2 life.\n-2: Create a 2/2 black Zombie creature token.")


def test_t_8_2_a_minus_ability_is_not_used_when_it_leaves_no_loyalty_and_does_not_win():
    """The Ashen Saint (../shared/repro/ashen_abbey) at loyalty 2 liked its token more than its
    +1, and died of its own −2; now it uses the +1."""
    events = []
    battle = start_battle([make_pc()], [], random.Random(1), prepare=False, npcs=(SAINT,), horde_deck=False,
                          events=events)
    uses = [e for e in events if e["event"] == "battle_activate"]
    assert [e["ability"] for e in uses] == ["+1: Target player loses 2 life."] and uses[0]["loyalty"] == 3
    assert battle.horde.battlefield[0].loyalty == 3


# --- T-6.2 ------------------------------------------------------------------------------------


def test_t_6_2_the_preparation_difficulty_counts_the_permanents_of_the_pcs_who_fight():
    """A dying PC is out of the fight (T-7.1): its five permanents do not make the
    preparation check harder; the fighting PC's two do (step API, `prepare=True`)."""
    out = make_pc("out", battlefield=[FOREST] * 5, life=0)
    out.status = pcs.DYING
    ann = make_pc(battlefield=[FOREST, BEAR])
    events = []
    battle = start_battle([out, ann], [ZOMBIE] * 10, random.Random(1), prepare=True, events=events)
    assert battle.check.pending.difficulty == 2
