"""Card effects in battles (T-6.1: a battle is an MTG game): each effect of the vocabulary
(docs/effects.md), executed from the cards' own text, with targets chosen by the agent."""

from __future__ import annotations

import random

import pytest
from combat_helpers import BEAR, FOREST, MOUNTAIN, PLAINS, ZOMBIE, alive, creature, make_battle, make_horde, make_pc

from deckquest.cards.model import Card
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.resolve import PLAYER, resolve, spell_ability
from deckquest.engine.combat.state import HORDE, Tally, find_permanent
from deckquest.engine.combat.turns import apply, legal_actions
from deckquest.engine.pc import PC
from deckquest.engine.permanents import Permanent

ISLAND = Card.build("Island", None, "Basic Land — Island", oracle_text="({T}: Add {U}.)")
SWAMP = Card.build("Swamp", None, "Basic Land — Swamp", oracle_text="({T}: Add {B}.)")


def spell(name: str, cost: str, text: str, type_line: str = "Instant") -> Card:
    return Card.build(name, cost, type_line, oracle_text=text)


BOLT = spell("Lightning Bolt", "{R}", "Lightning Bolt deals 3 damage to any target.")
MURDER = spell("Murder", "{B}", "Destroy target creature.")


def boss_pc(battlefield=(), hand=(), library=(MOUNTAIN,) * 10, life: int = 20) -> PC:
    return make_pc("boss", battlefield=battlefield, hand=hand, library=library, life=life)


def with_boss(battle, boss: PC):
    battle.bosses.append(boss)
    battle.tallies[boss.id] = Tally()
    return battle


def cast(battle, player: str, card: int, target=("", -1), x: int = 0, mode: int = 0, seed: int = 1):
    action = Action(act.CAST, player, card, x, target, mode)
    assert action in legal_actions(battle), [a for a in legal_actions(battle) if a.kind == act.CAST]
    events = []
    apply(battle, action, random.Random(seed), events)
    return events


def test_damage_kills_a_creature():
    pc = make_pc(battlefield=[MOUNTAIN], hand=[BOLT])
    battle = make_battle([pc], make_horde(battlefield=[BEAR], library=[ZOMBIE] * 3))
    cast(battle, "ann", 1, target=(HORDE, 0))
    assert not alive(battle.horde, 0) and battle.horde.graveyard == [0]
    assert pc.graveyard == [1]


def test_damage_to_the_horde_mills_it_t_6_10():
    pc = make_pc(battlefield=[MOUNTAIN], hand=[BOLT])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    cast(battle, "ann", 1, target=(HORDE, PLAYER))
    assert len(battle.horde.library) == 2 and battle.tallies["ann"].cards_milled == 3


def test_damage_to_a_boss_is_life_loss_t_8_3():
    pc = make_pc(battlefield=[MOUNTAIN], hand=[BOLT])
    battle = with_boss(make_battle([pc], make_horde()), boss_pc(life=10))
    battle.horde_deck = False
    cast(battle, "ann", 1, target=("boss", PLAYER))
    assert battle.bosses[0].life == 7


def test_damage_x():
    blaze = spell("Blaze", "{X}{R}", "Blaze deals X damage to any target.", "Sorcery")
    pc = make_pc(battlefield=[MOUNTAIN] * 4, hand=[blaze])
    battle = make_battle([pc], make_horde(battlefield=[creature("Big", 3, 3)], library=[ZOMBIE]))
    cast(battle, "ann", 4, target=(HORDE, 0), x=3)
    assert not alive(battle.horde, 0)


def test_destroy_and_indestructible():
    pc = make_pc(battlefield=[SWAMP, SWAMP], hand=[MURDER, MURDER])
    tough = creature("Colossus", 1, 1, "Indestructible")
    battle = make_battle([pc], make_horde(battlefield=[BEAR, tough], library=[ZOMBIE]))
    cast(battle, "ann", 2, target=(HORDE, 0))
    assert not alive(battle.horde, 0)
    cast(battle, "ann", 3, target=(HORDE, 1))
    assert alive(battle.horde, 1)


def test_destroy_with_a_condition_offers_only_legal_targets():
    """Doom Blade: "nonblack" creatures only."""
    blade = spell("Doom Blade", "{1}{B}", "Destroy target nonblack creature.")
    black = creature("Shade", 2, 2, cost="{B}")
    pc = make_pc(battlefield=[SWAMP, SWAMP], hand=[blade])
    battle = make_battle([pc], make_horde(battlefield=[BEAR, black], library=[ZOMBIE]))
    targets = {a.target for a in legal_actions(battle) if a.kind == act.CAST}
    assert (HORDE, 0) in targets and (HORDE, 1) not in targets


def test_exile():
    swords = spell("Swords to Plowshares", "{W}", "Exile target creature.")
    pc = make_pc(battlefield=[PLAINS], hand=[swords])
    battle = make_battle([pc], make_horde(battlefield=[BEAR], library=[ZOMBIE]))
    cast(battle, "ann", 1, target=(HORDE, 0))
    assert battle.horde.exile == [0] and not battle.horde.graveyard


def test_return_to_hand():
    unsummon = spell("Unsummon", "{U}", "Return target creature to its owner's hand.")
    pc = make_pc(battlefield=[ISLAND], hand=[unsummon])
    battle = make_battle([pc], make_horde(battlefield=[BEAR], library=[ZOMBIE]))
    cast(battle, "ann", 1, target=(HORDE, 0))
    assert battle.horde.hand == [0] and not alive(battle.horde, 0)


def test_draw_and_lose_life():
    """Sign in Blood: the same target player draws and loses life."""
    sign = spell("Sign in Blood", "{B}{B}", "Target player draws two cards and loses 2 life.", "Sorcery")
    pc = make_pc(battlefield=[SWAMP, SWAMP], hand=[sign])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    cast(battle, "ann", 2, target=("ann", PLAYER))
    assert len(pc.hand) == 2 and pc.life == 18 and len(pc.library) == 8


def test_discard_at_random_by_a_boss():
    hymn = spell("Hymn to Tourach", "{B}{B}", "Target player discards two cards at random.", "Sorcery")
    pc = make_pc(battlefield=[SWAMP, SWAMP], hand=[hymn])
    boss = boss_pc(hand=[BEAR, BEAR, BEAR])
    battle = with_boss(make_battle([pc], make_horde()), boss)
    cast(battle, "ann", 2, target=("boss", PLAYER))
    assert len(boss.hand) == 1 and len(boss.graveyard) == 2


def test_gain_life():
    helix = spell("Lightning Helix", "{R}{W}", "Lightning Helix deals 3 damage to any target and you gain 3 life.")
    pc = make_pc(battlefield=[MOUNTAIN, PLAINS], hand=[helix], life=10)
    battle = make_battle([pc], make_horde(battlefield=[BEAR], library=[ZOMBIE]))
    cast(battle, "ann", 2, target=(HORDE, 0))
    assert pc.life == 13 and not alive(battle.horde, 0)
    assert battle.tallies["ann"].life_gained == 3


def test_pump_until_end_of_turn_wears_off():
    growth = spell("Giant Growth", "{G}", "Target creature gets +3/+3 until end of turn.")
    pc = make_pc(battlefield=[FOREST, BEAR], hand=[growth])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    cast(battle, "ann", 2, target=("ann", 1))
    bear = find_permanent(pc, 1)
    assert (bear.power_bonus, bear.toughness_bonus) == (3, 3)
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert (bear.power_bonus, bear.toughness_bonus) == (0, 0)


def test_keyword_granted_until_end_of_turn():
    charm = spell("Boros Charm", "{R}{W}", "Choose one —\n• Boros Charm deals 4 damage to target player or planeswalker.\n"
                  "• Target creature gains double strike until end of turn.")
    pc = make_pc(battlefield=[MOUNTAIN, PLAINS, BEAR], hand=[charm])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 5))
    cast(battle, "ann", 3, target=("ann", 2), mode=1)
    assert find_permanent(pc, 2).granted


def test_plus_one_counters():
    ajani = spell("Counters", "{W}", "Put a +1/+1 counter on each creature you control.", "Sorcery")
    pc = make_pc(battlefield=[PLAINS, BEAR, BEAR], hand=[ajani])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    cast(battle, "ann", 3)
    assert [p.plus_counters for p in pc.battlefield] == [0, 1, 1]


def test_create_tokens_each_with_its_own_card_id():
    alarm = spell("Raise the Alarm", "{1}{W}", "Create two 1/1 white Soldier creature tokens.")
    pc = make_pc(battlefield=[PLAINS, PLAINS], hand=[alarm])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    cast(battle, "ann", 2)
    tokens = pc.battlefield[2:]
    assert [pc.cards[p.card].name for p in tokens] == ["Soldier", "Soldier"]
    assert len({p.card for p in tokens}) == 2 and all(pc.cards[p.card].is_token for p in tokens)


def test_tap_and_untap():
    tap = spell("Frost Breath", "{W}", "Tap target creature.")
    untap = spell("Vigor", "{G}", "Untap target creature.")
    pc = make_pc(battlefield=[PLAINS, FOREST, BEAR], hand=[tap, untap])
    battle = make_battle([pc], make_horde(battlefield=[BEAR], library=[ZOMBIE]))
    cast(battle, "ann", 3, target=(HORDE, 0))
    assert battle.horde.battlefield[0].tapped
    pc.battlefield[2].tapped = True
    cast(battle, "ann", 4, target=("ann", 2))
    assert not pc.battlefield[2].tapped


def test_mill():
    mill = spell("Mill", "{U}", "Target player mills two cards.", "Sorcery")
    pc = make_pc(battlefield=[ISLAND], hand=[mill])
    boss = boss_pc()
    battle = with_boss(make_battle([pc], make_horde()), boss)
    cast(battle, "ann", 1, target=("boss", PLAYER))
    assert len(boss.library) == 8 and len(boss.graveyard) == 2


def test_search_for_a_basic_land():
    growth = spell("Rampant Growth", "{1}{G}", "Search your library for a basic land card, put that card onto "
                   "the battlefield tapped, then shuffle.", "Sorcery")
    pc = make_pc(battlefield=[FOREST, FOREST], hand=[growth], library=[BEAR, BEAR, MOUNTAIN, BEAR])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    cast(battle, "ann", 2)
    fetched = pc.battlefield[-1]
    assert pc.cards[fetched.card].name == "Mountain" and fetched.tapped and len(pc.library) == 3


def test_fight():
    prey = spell("Prey Upon", "{G}", "Target creature you control fights target creature you don't control.", "Sorcery")
    wurm = creature("Wurm", 5, 5)
    pc = make_pc(battlefield=[FOREST, wurm], hand=[prey])
    battle = make_battle([pc], make_horde(battlefield=[BEAR], library=[ZOMBIE]))
    cast(battle, "ann", 2, target=("ann", 1))
    assert not alive(battle.horde, 0) and find_permanent(pc, 1).damage == 2


def test_counted_amount_krenko():
    """Krenko, Mob Boss: X is the number of Goblins you control."""
    krenko = Card.build("Krenko, Mob Boss", "{2}{R}{R}", "Legendary Creature — Goblin Warrior", power="3",
                        toughness="3", oracle_text="{T}: Create X 1/1 red Goblin creature tokens, where X is the "
                        "number of Goblins you control.")
    goblin = Card.build("Goblin", None, "Token Creature — Goblin", power="1", toughness="1", is_token=True)
    pc = make_pc(battlefield=[krenko, goblin])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    action = Action(act.ACTIVATE, "ann", 0, 0, ("", -1), 0)
    assert action in legal_actions(battle)
    apply(battle, action, random.Random(1))
    assert len(pc.battlefield) == 4 and pc.battlefield[0].tapped


def test_enters_trigger_targets_greedily():
    """Man-o'-War: its enters ability returns the enemy's best creature."""
    man = Card.build("Man-o'-War", "{2}{U}", "Creature — Jellyfish", power="2", toughness="2",
                     oracle_text="When Man-o'-War enters, return target creature to its owner's hand.")
    pc = make_pc(battlefield=[ISLAND] * 3, hand=[man])
    battle = make_battle([pc], make_horde(battlefield=[BEAR, creature("Wurm", 6, 6)], library=[ZOMBIE]))
    cast(battle, "ann", 3)
    assert battle.horde.hand == [1]


def test_dies_trigger():
    marshal = Card.build("Mogg War Marshal", "{1}{R}", "Creature — Goblin Warrior", power="1", toughness="1",
                         oracle_text="When Mogg War Marshal enters or dies, create a 1/1 red Goblin creature token.")
    pc = make_pc(battlefield=[SWAMP, marshal], hand=[MURDER])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    cast(battle, "ann", 2, target=("ann", 1))
    assert [pc.cards[p.card].name for p in pc.battlefield] == ["Swamp", "Goblin"]


def test_sacrifice_as_an_additional_cost():
    grenade = spell("Goblin Grenade", "{R}", "As an additional cost to cast this spell, sacrifice a Goblin.\n"
                    "Goblin Grenade deals 5 damage to any target.", "Sorcery")
    goblin = Card.build("Goblin", None, "Token Creature — Goblin", power="1", toughness="1", is_token=True)
    pc = make_pc(battlefield=[MOUNTAIN], hand=[grenade])
    battle = make_battle([pc], make_horde(battlefield=[creature("Wurm", 5, 5)], library=[ZOMBIE]))
    assert not [a for a in legal_actions(battle) if a.kind == act.CAST]
    pc.cards = pc.cards + (goblin,)
    pc.battlefield.append(Permanent(card=len(pc.cards) - 1, owner="ann", summoning_sick=False))
    cast(battle, "ann", 1, target=(HORDE, 0))
    assert not alive(battle.horde, 0) and len(pc.battlefield) == 1


def test_modal_spell_mode_choice():
    charm = spell("Izzet Charm", "{U}{R}", "Choose one —\n• Counter target noncreature spell unless its controller "
                  "pays {2}.\n• Izzet Charm deals 2 damage to target creature.\n• Draw two cards, then discard two cards.")
    pc = make_pc(battlefield=[ISLAND, MOUNTAIN], hand=[charm])
    battle = make_battle([pc], make_horde(battlefield=[BEAR], library=[ZOMBIE]))
    modes = {a.mode for a in legal_actions(battle) if a.kind == act.CAST}
    assert modes == {1, 2}  # nothing on the stack to counter
    cast(battle, "ann", 2, target=(HORDE, 0), mode=1)
    assert not alive(battle.horde, 0)


def test_loyalty_ability_once_per_turn_t_8_2():
    garruk = Card.build("Garruk Wildspeaker", "{2}{G}{G}", "Legendary Planeswalker — Garruk", loyalty="3",
                        oracle_text="+1: Untap two target lands.\n−1: Create a 3/3 green Beast creature token.")
    pc = make_pc(battlefield=[garruk])
    pc.battlefield[0].loyalty = 3
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    beast = Action(act.ACTIVATE, "ann", 0, 0, ("", -1), 1)
    assert beast in legal_actions(battle)
    apply(battle, beast, random.Random(1))
    assert pc.battlefield[0].loyalty == 2 and pc.cards[pc.battlefield[1].card].name == "Beast"
    assert not [a for a in legal_actions(battle) if a.kind == act.ACTIVATE]


def test_unknown_text_plays_as_its_type_and_stats():
    """A creature whose text is not understood still enters and fights as its stats."""
    odd = Card.build("Odd Beast", "{G}", "Creature — Beast", power="2", toughness="2",
                     oracle_text="At the beginning of your upkeep, flip a coin.")
    pc = make_pc(battlefield=[FOREST], hand=[odd])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    cast(battle, "ann", 1)
    assert pc.cards[pc.battlefield[-1].card].name == "Odd Beast"


def test_the_horde_casts_its_spells_at_random_targets_t_6_8():
    """T-6.8: a horde spell's target is chosen at random among the legal ones."""
    pc = make_pc(battlefield=[BEAR])
    targets = set()
    for seed in range(30):
        battle = make_battle([make_pc(battlefield=[BEAR])], make_horde(library=[BOLT, ZOMBIE]), step="main1")
        apply(battle, Action(act.END_TURN), random.Random(seed))
        ann = battle.side("ann")
        targets.add("bear dead" if not alive(ann, 0) else "face" if ann.life < 20 else "other")
    assert {"bear dead", "face"} <= targets
    assert pc.life == 20


@pytest.mark.parametrize("seed", range(3))
def test_resolve_skips_a_target_that_is_gone(seed):
    """CR 608.2b: a target that left the battlefield is not acted on."""
    pc = make_pc()
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    ability = spell_ability(BOLT)
    resolve(battle, "ann", -1, ability, ((HORDE, 7),), 0, random.Random(seed), None)
    assert battle.horde.library == [0]


def test_a_spell_needs_all_its_targets():
    """CR 601.2c: Prey Upon is not offered without a creature to fight."""
    prey = spell("Prey Upon", "{G}", "Target creature you control fights target creature you don't control.", "Sorcery")
    pc = make_pc(battlefield=[FOREST, BEAR], hand=[prey])
    battle = make_battle([pc], make_horde(library=[ZOMBIE]))
    assert not [a for a in legal_actions(battle) if a.kind == act.CAST]
