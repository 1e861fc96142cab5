"""Bosses (player-type NPCs, T-8.3), creature-type (T-8.1) and planeswalker-type (T-8.2) NPCs,
several enemies at once, the stack with counterspells, and the boss options of T-6.1 and T-6.5."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from combat_helpers import BEAR, FOREST, MOUNTAIN, ZOMBIE, alive, make_battle, make_horde, make_pc
from test_combat_card_effects import BOLT, ISLAND, boss_pc, spell, with_boss

from deckquest.cards.decklist import load_deck
from deckquest.cards.model import Card
from deckquest.engine.combat import actions as act
from deckquest.engine.combat import run_battle
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.boss import CreatureNpc, HordeNpc, PlaneswalkerNpc, PlayerNpc, make_boss
from deckquest.engine.combat.resolve import STACK
from deckquest.engine.combat.turns import apply, legal_actions, start_battle
from deckquest.engine.pc import DYING, create_pc, designate_critical
from deckquest.runtime.battle_agents import GreedyBattleAgent, RandomBattleAgent

DECKS = Path(__file__).resolve().parents[3] / "scenarios" / "goblin_cave" / "decks"
COUNTERSPELL = spell("Counterspell", "{U}{U}", "Counter target spell.")
GARRUK = Card.build("Garruk Wildspeaker", "{2}{G}{G}", "Legendary Planeswalker — Garruk", loyalty="3",
                    oracle_text="+1: Untap two target lands.\n−1: Create a 3/3 green Beast creature token.")
WURM = Card.build("Craw Wurm", "{4}{G}{G}", "Creature — Wurm", power="6", toughness="4")
GOBLIN = Card.build("Goblin Guide", "{R}", "Creature — Goblin Scout", power="2", toughness="2",
                    keywords=("Haste",), oracle_text="Haste")


def deck(name: str) -> list[Card]:
    return load_deck(DECKS / name).main_cards()


def party(rng: random.Random):
    green, red = deck("mono_green.txt"), deck("mono_red.txt")
    return [create_pc("alice", "Alice", green, designate_critical(green, "Forest", 3), rng),
            create_pc("bram", "Bram", red, designate_critical(red, "Mountain", 3), rng)]


class Scripted:
    """Plays the given actions in order when legal, else passes (ends turns, confirms)."""

    def __init__(self, *wanted: Action):
        self.wanted = list(wanted)

    def choose(self, battle, actions, rng):
        for action in self.wanted:
            if action in actions:
                self.wanted.remove(action)
                return action
        for kind in (act.NO_BOOST, act.PASS, act.CONFIRM_BLOCKERS, act.CONFIRM_ATTACKERS, act.END_TURN):
            for action in actions:
                if action.kind == kind:
                    return action
        return actions[-1]


# --- the stack -------------------------------------------------------------------------------


def test_a_boss_counters_a_big_spell_on_the_stack():
    """A boss holding Counterspell and two untapped Islands counters a PC's 6-drop."""
    pc = make_pc(battlefield=[FOREST] * 6, hand=[WURM])
    boss = boss_pc(battlefield=[ISLAND, ISLAND], hand=[COUNTERSPELL])
    battle = with_boss(make_battle([pc], make_horde()), boss)
    battle.horde_deck = False
    events = []
    apply(battle, Action(act.CAST, "ann", 6), random.Random(1), events)
    assert [e["card"] for e in events if e["event"] == "battle_counter"] == ["Craw Wurm"]
    assert pc.graveyard == [6] and len(pc.battlefield) == 6
    assert boss.graveyard == [2] and boss.battlefield[0].tapped and not battle.stack


def test_a_boss_lets_a_cheap_spell_resolve():
    pc = make_pc(battlefield=[FOREST, FOREST], hand=[BEAR])
    boss = boss_pc(battlefield=[ISLAND, ISLAND], hand=[COUNTERSPELL])
    battle = with_boss(make_battle([pc], make_horde()), boss)
    apply(battle, Action(act.CAST, "ann", 2), random.Random(1))
    assert alive(pc, 2) and boss.hand == [2]


def test_pcs_counter_the_boss_spell_in_the_respond_step():
    """The boss casts a creature; the PC holding Counterspell answers it on the stack."""
    pc = make_pc(battlefield=[ISLAND, ISLAND], hand=[COUNTERSPELL])
    boss = boss_pc(battlefield=[FOREST] * 6, hand=[WURM])
    battle = with_boss(make_battle([pc], make_horde()), boss)
    battle.horde_deck = False
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert battle.step == "respond"
    assert len(battle.stack) == 1 and battle.stack[0].controller == "boss"
    response = Action(act.CAST, "ann", 2, 0, (STACK, 0))
    assert set(legal_actions(battle)) == {response, Action(act.PASS)}
    events = []
    apply(battle, response, random.Random(1), events)
    assert [e["card"] for e in events if e["event"] == "battle_counter"] == ["Craw Wurm"]
    assert not any(boss.cards[p.card].name == "Craw Wurm" for p in boss.battlefield)
    assert boss.graveyard == [6] and not battle.stack


def test_passing_lets_the_boss_spell_resolve():
    pc = make_pc(battlefield=[ISLAND, ISLAND], hand=[COUNTERSPELL])
    boss = boss_pc(battlefield=[FOREST] * 6, hand=[WURM])
    battle = with_boss(make_battle([pc], make_horde()), boss)
    battle.horde_deck = False
    apply(battle, Action(act.END_TURN), random.Random(1))
    apply(battle, Action(act.PASS), random.Random(1))
    assert any(boss.cards[p.card].name == "Craw Wurm" for p in boss.battlefield)


def test_an_ability_in_response_to_the_boss_spell():
    """Instants and abilities in response: Prodigal Sorcerer pings the boss's 1/1 while the
    boss's spell waits on the stack."""
    sorcerer = Card.build("Prodigal Sorcerer", "{2}{U}", "Creature — Human Wizard", power="1", toughness="1",
                          oracle_text="{T}: Prodigal Sorcerer deals 1 damage to any target.")
    elf = Card.build("Llanowar Elves", "{G}", "Creature — Elf", power="1", toughness="1", oracle_text="{T}: Add {G}.")
    pc = make_pc(battlefield=[sorcerer])
    boss = boss_pc(battlefield=[FOREST] * 6 + [elf], hand=[WURM])
    battle = with_boss(make_battle([pc], make_horde()), boss)
    battle.horde_deck = False
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert battle.step == "respond"
    ping = Action(act.ACTIVATE, "ann", 0, 0, ("boss", 6), 0)
    assert ping in legal_actions(battle)
    assert GreedyBattleAgent().choose(battle, legal_actions(battle), random.Random(1)) == ping
    apply(battle, ping, random.Random(1))
    assert not alive(boss, 6) and any(boss.cards[p.card].name == "Craw Wurm" for p in boss.battlefield)


def test_greedy_agent_counters_what_is_worth_it():
    pc = make_pc(battlefield=[ISLAND, ISLAND], hand=[COUNTERSPELL])
    boss = boss_pc(battlefield=[FOREST] * 6, hand=[WURM])
    battle = with_boss(make_battle([pc], make_horde()), boss)
    apply(battle, Action(act.END_TURN), random.Random(1))
    choice = GreedyBattleAgent().choose(battle, legal_actions(battle), random.Random(1))
    assert choice == Action(act.CAST, "ann", 2, 0, (STACK, 0))


# --- planeswalkers (T-8.2) -------------------------------------------------------------------


def test_planeswalker_npc_loses_loyalty_to_damage_and_goes_at_zero_t_8_2():
    pc = make_pc(battlefield=[MOUNTAIN], hand=[BOLT])
    battle = start_battle([pc], [], random.Random(1), prepare=1, npcs=(GARRUK,), horde_deck=False)
    walker = battle.horde.battlefield[0]
    assert walker.loyalty == 3
    apply(battle, Action(act.CAST, "ann", 1, 0, ("horde", walker.card)), random.Random(1))
    assert not battle.horde.battlefield and battle.outcome == "victory"


def test_planeswalker_npc_is_attacked_and_uses_loyalty_abilities_t_8_2():
    """The PCs attack the planeswalker: combat damage removes loyalty; on the enemy turn it
    would use a loyalty ability, but at loyalty 1 its −1 (a 3/3 Beast) would kill it and win
    nothing, and its +1 has no lands to untap: it uses none (issue 17, item 11)."""
    pc = make_pc(battlefield=[BEAR, BEAR])
    battle = start_battle([pc], [], random.Random(1), prepare=1, npcs=(GARRUK,), horde_deck=False)
    card = battle.horde.battlefield[0].card
    agent = Scripted(Action(act.GO_TO_COMBAT), Action(act.ATTACK, "ann", 0, target=("horde", card)))
    for _ in range(3):
        apply(battle, agent.choose(battle, legal_actions(battle), random.Random(1)), random.Random(1))
    walker = battle.horde.battlefield[0]
    assert walker.loyalty == 1
    events = []
    apply(battle, Action(act.END_TURN), random.Random(1), events)
    assert not any(e["event"] == "battle_activate" and e["player"] == "horde" for e in events)
    assert battle.horde.battlefield[0].loyalty == 1


def test_planeswalker_loyalty_to_zero_in_a_whole_battle_t_8_2():
    rng = random.Random(3)
    pcs = party(rng)
    result = run_battle(pcs, [PlaneswalkerNpc("sage", "The Hermit Sage", GARRUK)], GreedyBattleAgent(), rng,
                        prepare=False)
    assert result.outcome == "victory"
    (sage,) = result.enemies
    assert (sage.id, sage.kind, sage.defeated) == ("sage", "planeswalker", True)


# --- bosses (T-8.3) --------------------------------------------------------------------------


def test_boss_setup_permanents_out_and_reset_library_t_6_5():
    spec = PlayerNpc("warlord", "Krenko", tuple(deck("krenko.txt")), life=30,
                     permanents=("Krenko, Mob Boss", "Mountain", "Mountain"))
    boss = make_boss(spec, random.Random(1))
    assert [boss.cards[p.card].name for p in boss.battlefield] == ["Krenko, Mob Boss", "Mountain", "Mountain"]
    assert not any(p.summoning_sick for p in boss.battlefield)
    assert len(boss.hand) == 7 and len(boss.library) == 50 and boss.life == 30
    with pytest.raises(ValueError, match="no \\(more\\) 'Shivan Dragon'"):
        make_boss(PlayerNpc("w", "W", spec.cards, permanents=("Shivan Dragon",)), random.Random(1))


def test_reset_libraries_t_6_5():
    pc = make_pc(hand=[BEAR, BEAR], library=[FOREST] * 10)
    pc.graveyard = [pc.hand.pop()]
    start_battle([pc], [ZOMBIE] * 3, random.Random(1), prepare=1, reset_libraries=True)
    assert len(pc.hand) == 7 and not pc.graveyard and len(pc.library) == 5


def test_the_boss_wins():
    """A boss with a goblin army beats a PC with no creatures."""
    rng = random.Random(5)
    lonely = make_pc(library=[MOUNTAIN] * 30, life=6)
    boss = PlayerNpc("warlord", "Krenko", tuple([MOUNTAIN] * 10 + [GOBLIN] * 20), permanents=("Goblin Guide",) * 3)
    result = run_battle([lonely], [boss], GreedyBattleAgent(), rng, prepare=False)
    assert result.outcome == "defeat"
    assert result.pcs[0].status == DYING and result.enemies[0].defeated is False


def test_the_boss_loses():
    """Two PCs with burn and creatures beat a boss whose traps left it at 5 life (T-6.1)."""
    rng = random.Random(2)
    result = run_battle(party(rng), [PlayerNpc("warlord", "Krenko", tuple(deck("krenko.txt")), life=5)],
                        GreedyBattleAgent(), rng, prepare=False)
    assert result.outcome == "victory"
    assert result.enemies[0].defeated and result.enemies[0].life <= 0


def test_a_decked_boss_is_beaten_t_8_3():
    """T-8.3: the boss is a player under the rules: drawing from an empty library loses."""
    pc = make_pc(battlefield=[FOREST], library=[FOREST] * 5)
    boss = PlayerNpc("boss", "Boss", (MOUNTAIN,) * 7)
    battle = start_battle([pc], [], random.Random(1), prepare=1, bosses=(boss,), horde_deck=False)
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert battle.outcome == "victory" and battle.bosses[0].status != "ok"


def test_two_turns_in_a_row_t_6_1():
    boss = PlayerNpc("boss", "Boss", (MOUNTAIN,) * 30, turns=2)
    pc = make_pc(battlefield=[FOREST], library=[FOREST] * 20)
    events = []
    battle = start_battle([pc], [], random.Random(1), prepare=1, bosses=(boss,), horde_deck=False, events=events)
    apply(battle, Action(act.END_TURN), random.Random(1), events)
    turns = [(e["active"], e.get("second", False)) for e in events if e["event"] == "battle_turn"]
    assert turns == [("survivors", False), ("horde", False), ("horde", True), ("survivors", False)]


def test_several_enemies_at_once_all_must_be_beaten():
    """`battle against warlord, guard`: a boss and a creature NPC (T-8.1) fight together."""
    rng = random.Random(4)
    enemies = [PlayerNpc("warlord", "Krenko", tuple(deck("krenko.txt")), life=10),
               CreatureNpc("guard", "Goblin Guard", GOBLIN)]
    result = run_battle(party(rng), enemies, GreedyBattleAgent(), rng, prepare=False)
    kinds = {(e.id, e.kind) for e in result.enemies}
    assert kinds == {("warlord", "player"), ("guard", "creature")}
    if result.outcome == "victory":
        assert all(e.defeated for e in result.enemies)


def test_creature_npc_fights_as_a_creature_t_8_1():
    """The creature NPC attacks on the enemies' turn like a horde creature."""
    pc = make_pc(library=[FOREST] * 10)
    events = []
    battle = start_battle([pc], [], random.Random(1), prepare=False, npcs=(GOBLIN,), horde_deck=False, events=events)
    assert any(e["event"] == "battle_attack" and e["card"] == "Goblin Guide" for e in events)
    assert pc.life == 18 and battle.step == "main1"


def test_horde_and_boss_together():
    rng = random.Random(6)
    enemies = [HordeNpc("goblins", "Goblin Horde", tuple(deck("goblin_horde.txt"))),
               PlayerNpc("warlord", "Krenko", tuple(deck("krenko.txt")), life=10)]
    result = run_battle(party(rng), enemies, GreedyBattleAgent(), rng, prepare=False)
    assert {e.kind for e in result.enemies} == {"horde", "player"}
    assert result.outcome in ("victory", "defeat", "escape")


def test_low_coverage_warns_in_the_report():
    walk = spell("Time Walk", "{1}{U}", "Take an extra turn after this one.", "Sorcery")
    rng = random.Random(1)
    pc = create_pc("ann", "Ann", [ISLAND] * 20 + [walk] * 40, frozenset(), rng)
    result = run_battle([pc], [ZOMBIE] * 5, RandomBattleAgent(), rng, prepare=False)
    assert result.warnings == ("Ann's deck is only 33% simulated (40 cards not at all, 0 partly): "
                               "see `deckquest cards coverage`",)


def test_enemies_list_rejects_two_hordes_and_non_enemies():
    horde = HordeNpc("h", "H", (ZOMBIE,))
    with pytest.raises(ValueError):
        run_battle([make_pc()], [horde, horde], RandomBattleAgent(), random.Random(1))
    with pytest.raises(ValueError):
        run_battle([make_pc()], [horde, "goblin"], RandomBattleAgent(), random.Random(1))


# --- determinism -----------------------------------------------------------------------------


def _boss_battle_events(seed: int, agent) -> list:
    rng = random.Random(seed)
    events = []
    enemies = [PlayerNpc("warlord", "Krenko", tuple(deck("krenko.txt")), life=20),
               PlaneswalkerNpc("sage", "Sage", GARRUK)]
    run_battle(party(rng), enemies, agent, rng, events=events)
    return events


@pytest.mark.parametrize("seed", [0, 7])
def test_same_seed_same_boss_battle(seed):
    assert _boss_battle_events(seed, GreedyBattleAgent()) == _boss_battle_events(seed, GreedyBattleAgent())
    assert _boss_battle_events(seed, RandomBattleAgent()) == _boss_battle_events(seed, RandomBattleAgent())


def test_boss_battles_end_under_every_seed():
    """Random and greedy survivors against the Krenko boss: every battle ends, with the
    battle's invariants (no negative library, a definite outcome)."""
    for seed in range(12):
        rng = random.Random(seed)
        agent = GreedyBattleAgent() if seed % 2 else RandomBattleAgent()
        result = run_battle(party(rng), [PlayerNpc("warlord", "Krenko", tuple(deck("krenko.txt")))], agent, rng)
        assert result.outcome in ("victory", "defeat", "escape")
        assert result.turns >= 1


def test_boss_spell_targets_a_pc_player():
    """A boss's burn goes at a PC or a PC's creature, never at its own side."""
    pc = make_pc(battlefield=[BEAR], library=[FOREST] * 10, life=20)
    boss = boss_pc(battlefield=[MOUNTAIN], hand=[BOLT])
    battle = with_boss(make_battle([pc], make_horde(), step="main1"), boss)
    battle.horde_deck = False
    events = []
    apply(battle, Action(act.END_TURN), random.Random(1), events)
    cast = [e for e in events if e["event"] == "battle_cast" and e["player"] == "boss"]
    assert cast and cast[0]["targets"][0] in ("Grizzly Bears", "ann")


# --- every built-in card in play -------------------------------------------------------------


def _zones_are_sound(battle) -> None:
    """Every card id of a PC or boss is in at most one zone, and in its card table."""
    for side in [*battle.survivors, *battle.bosses]:
        ids = (side.library + side.hand + side.graveyard + side.exile + side.exhaustion_zone + side.boost_exile
               + [p.card for p in side.battlefield]
               + [i.card for i in battle.stack if i is not None and i.controller == side.id and i.ability is None])
        assert len(ids) == len(set(ids)), side.id
        assert all(0 <= i < len(side.cards) for i in ids), side.id


def test_random_decks_of_builtin_cards_keep_the_battle_sound():
    """Random decks drawn from the whole built-in database, against a boss, a planeswalker
    NPC, a creature NPC and a horde, played out by random and greedy survivors (no escape):
    no card is ever in two zones, and both sides win some."""
    from deckquest.cards.database import builtin_index

    cards = list(builtin_index())
    lands = [c for c in cards if c.is_land and "Basic" in c.supertypes and c.basic_land_types]
    spells = [c for c in cards if not c.is_land and not c.is_token]
    walkers = [c for c in cards if c.is_type("Planeswalker")]
    tokens = [c for c in cards if c.is_token and c.is_creature]
    creatures = [c for c in cards if c.is_creature and not c.is_token]
    outcomes = set()
    for seed in range(60):
        rng = random.Random(seed)

        def deck():
            return [rng.choice(lands) for _ in range(24)] + [rng.choice(spells) for _ in range(36)]

        pcs = [create_pc(f"p{i}", f"P{i}", deck(), frozenset(), rng) for i in range(1 + seed % 3)]
        horde = [rng.choice(tokens) for _ in range(4)] + [rng.choice(creatures) for _ in range(4)]
        battle = start_battle(pcs, horde, rng, prepare=seed % 3,
                              bosses=(PlayerNpc("boss", "Boss", tuple(deck()), life=8, turns=1 + seed % 2),),
                              npcs=(rng.choice(walkers), rng.choice(creatures)))
        agent = GreedyBattleAgent() if seed % 2 else RandomBattleAgent()
        for _ in range(600):  # a Krenko that doubles its goblins for 30 turns is not ended by then
            if battle.step == "over":
                break
            fighting = [a for a in legal_actions(battle) if a.kind != act.ESCAPE]  # play battles out
            apply(battle, agent.choose(battle, fighting, rng), rng)
            _zones_are_sound(battle)
        outcomes.add(battle.outcome)
    assert "defeat" in outcomes and "victory" in outcomes


# --- allies (T-8.2, T-8.4) -------------------------------------------------------------------


def test_an_allied_planeswalker_fights_with_the_party_and_leaves_with_the_battle_t_8_2():
    """A cooperating planeswalker NPC joins the first PC's battlefield: the party's agent
    uses its loyalty abilities; after the battle it is not the PC's permanent."""
    rng = random.Random(2)
    pcs = party(rng)
    before = len(pcs[0].cards)
    agent = Scripted(Action(act.ACTIVATE, "alice", before, 0, ("", -1), 1))
    events = []
    result = run_battle(pcs, [CreatureNpc("guard", "Goblin Guard", GOBLIN)], agent, rng, prepare=1,
                        allies=[PlaneswalkerNpc("sage", "The Hermit Sage", GARRUK)], events=events)
    assert any(e["event"] == "battle_activate" and e["card"] == "Garruk Wildspeaker" for e in events)
    (sage,) = result.allies
    assert (sage.id, sage.kind) == ("sage", "planeswalker")
    alice = pcs[0]
    ally_ids = {before}
    zones = alice.library + alice.hand + alice.graveyard + alice.exile + [p.card for p in alice.battlefield]
    assert not ally_ids & set(zones)


def test_an_allied_creature_blocks_for_the_party_t_8_4():
    pc = make_pc(library=[FOREST] * 10)
    battle = start_battle([pc], [], random.Random(1), prepare=False, npcs=(GOBLIN,), horde_deck=False,
                          allies=(WURM,))
    assert battle.step == "declare_blockers"
    block = Action(act.BLOCK, "ann", 10, target=("horde", 0))
    assert block in legal_actions(battle)
    apply(battle, block, random.Random(1))
    apply(battle, Action(act.CONFIRM_BLOCKERS), random.Random(1))
    assert battle.outcome == "victory"


def test_ignored_creature_drawbacks_do_not_warn_t_6_1():
    """Issue 18 item 11: a normal deck whose only unread text is two creatures' drawbacks and a
    shock land's life payment plays their bodies and mana (T-6.1): no low-coverage warning."""
    from deckquest.cards.database import default_database

    db = default_database()
    cards = ([db.get("Swamp")] * 10 + [db.get("Mountain")] * 10 + [db.get("Blood Crypt")] * 4
             + [db.get("Vampire Lacerator")] * 4 + [db.get("Jackal Pup")] * 4 + [db.get("Sengir Vampire")] * 4
             + [db.get("Hill Giant")] * 24)
    rng = random.Random(1)
    pc = create_pc("rook", "Rook", cards, frozenset(), rng)
    events: list = []
    result = run_battle([pc], [ZOMBIE] * 5, RandomBattleAgent(), rng, prepare=False, events=events)
    assert result.warnings == ()
    assert not any(e["event"] == "battle_warning" for e in events)
