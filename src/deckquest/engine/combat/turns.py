"""The turn structure of a battle and its one interface to agents.

`start_battle` sets a battle up, `legal_actions` lists what the survivors may do
now, `apply` does one of them and plays on (the enemies' turns included) until
the survivors must decide again or the battle is over. Turns follow MTG
(untap, upkeep, draw, main, combat, main, end, cleanup); the survivors share
their turns as one team (T-6.11), each PC with its own deck, hand and life.
The enemies (the horde, bosses, creature and planeswalker NPCs) share theirs:
the horde's T-6.9 turn, each boss's main phase (the survivors may respond to
its spells, the `respond` step), the planeswalker NPCs' loyalty abilities, then
one combat in which every enemy attacker attacks.
"""

from __future__ import annotations

import random
from typing import Final, Iterator, Sequence

from deckquest.cards.model import Card
from deckquest.engine.checks import begin_check, boost, can_boost, finish_check
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.boss import (
    PlayerNpc, boss_attacks, boss_blocks, boss_play, boss_response, make_boss, place_npcs, planeswalker_npcs,
)
from deckquest.engine.combat.casting import (
    activate, activations, cast, castable, mana_sources, playable_lands, resolve_stack,
)
from deckquest.engine.combat.combat import (
    blockers_are_legal, can_attack, can_block, check_outcome, combat_damage, declare_attacker, drop_lone,
    state_based_actions,
)
from deckquest.engine.combat.horde import horde_attacks, horde_blocks, horde_main_phase, make_horde
from deckquest.engine.combat.profile import profile
from deckquest.engine.combat.resolve import attack_triggers, beginning_triggers, echo_upkeep, end_of_turn
from deckquest.engine.combat.state import (
    HORDE, Attack, Battle, Check, Horde, Tally, enter_battlefield, facts_of, find_permanent, permanent_of,
)
from deckquest.engine.combat.statics import fall_unconscious, refresh_statics
from deckquest.engine.game import Events
from deckquest.engine.pc import MAX_HAND_SIZE, OK, OPENING_HAND, PC, RuleError, boost_cleanup, draw, shuffle
from deckquest.engine.permanents import Permanent

__all__ = ["apply", "apply_legal", "castable", "land_actions", "legal_actions", "mana_sources", "start_battle"]

SURVIVORS: Final = "survivors"
#: The step after blockers are declared in which the survivors may cast instants and
#: activate abilities (combat tricks) before combat damage.
AFTER_BLOCKERS: Final = "after_blockers"
MAX_PREPARATION_TURNS: Final = 5  # T-6.2
#: T-6.2, T-6.6: the kind of the preparation and escape checks by rules edition.
REFLEX_KIND: Final = {"2019": "red", "2014": "reflex"}


def start_battle(
    pcs: list[PC],
    horde_cards: list[Card] | tuple[Card, ...],
    rng: random.Random,
    rules: str = "2019",
    prepare: bool | int = True,
    events: Events = None,
    cut: bool = True,
    bosses: tuple[PlayerNpc, ...] = (),
    npcs: tuple[Card, ...] = (),
    horde_deck: bool = True,
    reset_libraries: bool = False,
    allies: tuple[Card, ...] = (),
) -> Battle:
    """A battle of the PCs (taken as they are: T-6.3 their permanents are out from
    turn 1) against a horde deck, bosses (T-8.3) and creature or planeswalker NPCs
    (`npcs`, their cards; T-8.1, T-8.2), played up to the survivors' first decision.

    `prepare`: True makes the preparation check (T-6.2), False gives no
    preparation turns (the enemies move first), a number gives that many (the GM's
    ruling). `cut` cuts the horde deck by the number of PCs (T-6.4); `horde_deck`
    False: there is no horde deck (`horde_cards` empty). `reset_libraries`: T-6.5,
    each PC shuffles hand, graveyard and exile into its library and draws 7. `allies`:
    cards of creature or planeswalker NPCs fighting with the party (T-8.2, T-8.4), on the
    first PC's battlefield from turn 1 and played by the survivors' agent. Each PC's boost of
    the scene (T-4.6) is set aside in `battle.scene_boosts`: in the battle a PC may boost
    once per turn, and the scene's boost cards stay exiled.
    """
    if rules not in REFLEX_KIND:
        raise ValueError(f"unknown rules {rules!r}; expected 2019 or 2014")
    scene_boosts = {}
    for pc in pcs:
        pc.concentration_counter = False  # combat turns are MTG turns, not concentration
        pc.land_played = False
        scene_boosts[pc.id] = (pc.boost_used, pc.boost_exile)  # T-4.6: the scene's boost waits
        pc.boost_used, pc.boost_exile = False, []
        if reset_libraries:
            _reset_library(pc, rng)
    battle = Battle(
        survivors=list(pcs), horde=make_horde(horde_cards, len(pcs), rng, cut), rules=rules,
        tallies={pc.id: Tally() for pc in pcs}, horde_deck=horde_deck, scene_boosts=scene_boosts,
    )
    for spec in bosses:
        battle.bosses.append(make_boss(spec, rng))
        battle.boss_turns[spec.id] = spec.turns
        battle.tallies[spec.id] = Tally()
    place_npcs(battle, npcs)
    _place_allies(battle, allies)
    refresh_statics(battle)
    if events is not None:
        events.append({"event": "battle_start", "survivors": [pc.id for pc in pcs],
                       "horde_library": len(battle.horde.library), "horde_cut": battle.horde.cut})
        for boss in battle.bosses:
            events.append({"event": "battle_boss", "player": boss.id, "name": boss.name, "life": boss.life,
                           "library": len(boss.library),
                           "permanents": [boss.cards[p.card].name for p in boss.battlefield]})
        for card in npcs:
            events.append({"event": "battle_npc", "card": card.name, "loyalty": profile(card).loyalty})
    state_based_actions(battle, events, rng)  # the legend rule (CR 704.5j) for what came from outside
    if battle.outcome:
        battle.step = "over"
    elif prepare is True:
        _begin_preparation_check(battle, rng, events)
    else:
        battle.preparation_turns = battle.preparation_given = int(prepare)
        _first_turn(battle, rng, events)
    return battle


def _place_allies(battle: Battle, allies: tuple[Card, ...]) -> None:
    """Allied NPCs join the first PC's battlefield (there from turn 1, T-6.3); the party's
    agent decides for them (a simplification of cooperation, T-8.4)."""
    if not allies or not battle.survivors:
        return
    host = battle.survivors[0]
    for card in allies:
        host.cards = host.cards + (card,)
        enter_battlefield(host, len(host.cards) - 1).summoning_sick = False
        battle.allies.append((host.id, len(host.cards) - 1))


def _reset_library(pc: PC, rng: random.Random) -> None:
    """T-6.5: a reset library: hand, graveyard and exile are shuffled into the library and
    the PC draws an opening hand (T-1.2)."""
    pc.library += pc.hand + pc.graveyard + pc.exile
    pc.hand, pc.graveyard, pc.exile = [], [], []
    shuffle(pc.library, rng)
    draw(pc, OPENING_HAND)


def _begin_preparation_check(battle: Battle, rng: random.Random, events: Events) -> None:
    """T-6.2: the party's representative (the first PC in the party order) makes a
    reflex (2014) or red (2019) check; the difficulty is the number of permanents
    the PCs who fight control: not those of a PC out of the fight (dying or unconscious,
    T-7.1, T-7.2), nor the allied NPCs the party hosts (cooperation is not control, T-8.4)."""
    fighters = battle.fighting()
    allies = set(battle.allies)
    permanents = sum(1 for pc in fighters for p in pc.battlefield if (pc.id, p.card) not in allies)
    _begin_check(battle, "preparation", fighters[0], permanents, "", rng, events)


def _begin_check(battle: Battle, purpose: str, pc: PC, difficulty: int, return_step: str, rng: random.Random, events: Events) -> None:
    pending = begin_check(pc, REFLEX_KIND[battle.rules], difficulty, rng, rules=battle.rules)
    battle.check = Check(purpose, pending, return_step)
    battle.step = "check"
    if not can_boost(pc, pending):
        _finish_check(battle, rng, events)


def _finish_check(battle: Battle, rng: random.Random, events: Events) -> None:
    check = battle.check
    assert check is not None  # the check step waits on it
    pc = battle.player(check.pending.pc)
    record = finish_check(pc, check.pending, rng)
    battle.check = None
    if events is not None:
        events.append({"event": "battle_check", "purpose": check.purpose, "player": pc.id, "kind": record.kind,
                       "difficulty": record.difficulty, "revealed": list(record.revealed),
                       "target": record.target, "result": record.result, "degree": record.degree,
                       "success": record.success, "critical": record.critical,
                       "boost_bonus": record.boost_bonus})
    if check.purpose == "preparation":
        turns = min(MAX_PREPARATION_TURNS, max(0, record.degree)) if record.success else 0
        battle.preparation_turns = battle.preparation_given = turns
        if events is not None:
            events.append({"event": "battle_preparation", "turns": turns})
        _first_turn(battle, rng, events)
    elif record.success:  # T-6.6: the party escapes
        battle.outcome = "escape"
        battle.step = "over"
    else:
        battle.step = check.return_step


def _first_turn(battle: Battle, rng: random.Random, events: Events) -> None:
    """T-6.11: the survivors take the first turns (the preparation turns); without
    any, the enemies move first."""
    if battle.preparation_turns > 0:
        _survivor_turn(battle, rng, events)
    else:
        _enemy_turn(battle, rng, events)


# --- the survivors' turn ---------------------------------------------------------------


def _survivor_turn(battle: Battle, rng: random.Random, events: Events) -> None:
    """Untap (summoning sickness ends), upkeep, draw, then wait in the first main phase.

    The team that takes the battle's first turn skips that turn's draw (CR 103.8).
    A PC that must draw from an empty library falls unconscious (T-7.2).
    """
    battle.turn += 1
    battle.survivor_turns += 1
    battle.active = SURVIVORS
    battle.non_combat_action_used = False
    if battle.preparation_turns > 0:
        battle.preparation_turns -= 1
    if events is not None:
        events.append({"event": "battle_turn", "turn": battle.turn, "active": SURVIVORS})
    for pc in battle.fighting():
        pc.land_played = False
        for permanent in pc.battlefield:
            permanent.tapped = False
            permanent.summoning_sick = False
    if battle.echo_due:
        echo_upkeep(battle, battle.fighting(), rng, events)  # CR 702.30
    beginning_triggers(battle, battle.fighting(), "upkeep", rng, events)  # CR 503.1
    if battle.outcome:
        battle.step = "over"
        return
    if battle.turn > 1:
        for pc in battle.fighting():
            drawn = draw(pc, 1)
            if events is not None:
                events.append({"event": "battle_draw", "player": pc.id, "cards": len(drawn), "status": pc.status})
            fall_unconscious(battle, pc, events)  # T-7.2
    check_outcome(battle)
    battle.step = "over" if battle.outcome else "main1"


def _end_turn(battle: Battle, rng: random.Random, events: Events) -> None:
    """End step and cleanup: damage and "until end of turn" effects wear off, the boost
    cards go back under the library (T-4.6), the active PCs (or bosses) discard down to 7;
    then the next turn: another survivor turn while preparation turns remain, a two-turn
    boss's second turn (T-6.1), else the other side's. "At the beginning of your end step"
    abilities of the active side trigger first (CR 513.1)."""
    active = battle.fighting() if battle.active == SURVIVORS else \
        [battle.horde] * (not battle.bonus_turn) + _acting_bosses(battle)
    beginning_triggers(battle, active, "end_step", rng, events)
    end_of_turn(battle)
    for pc in battle.survivors:
        if pc.boost_used or pc.boost_exile:
            boost_cleanup(pc, rng)
    for pc in battle.fighting() if battle.active == SURVIVORS else _acting_bosses(battle):
        _discard_to_hand_size(pc, events)
    check_outcome(battle)
    if battle.outcome:
        battle.step = "over"
    elif battle.active == SURVIVORS and battle.preparation_turns == 0:
        _enemy_turn(battle, rng, events)
    elif battle.active == HORDE and not battle.bonus_turn and any(
            battle.boss_turns.get(b.id, 1) > 1 for b in battle.fighting_bosses()):
        battle.bonus_turn = True
        _enemy_turn(battle, rng, events)
    else:
        battle.bonus_turn = False
        _survivor_turn(battle, rng, events)


def _discard_to_hand_size(pc: PC, events: Events) -> None:
    """Cleanup (CR 514.1): discard down to the maximum hand size; the engine discards
    the costliest cards first (the ones least likely to be cast soon)."""
    while len(pc.hand) > MAX_HAND_SIZE:
        card = max(pc.hand, key=lambda c: pc.cards[c].mana_value)
        pc.hand.remove(card)
        pc.graveyard.append(card)
        if events is not None:
            events.append({"event": "battle_discard", "player": pc.id, "card": pc.cards[card].name})


# --- the enemies' turn -----------------------------------------------------------------


def _acting_bosses(battle: Battle) -> list[PC]:
    """The bosses that take this enemy turn: all in the fight, or in a second turn in a row
    only those with two turns (T-6.1)."""
    return [b for b in battle.fighting_bosses() if not battle.bonus_turn or battle.boss_turns.get(b.id, 1) > 1]


def _enemy_turn(battle: Battle, rng: random.Random, events: Events) -> None:
    """The enemies' turn: untap; the horde reveals and casts (T-6.9); each boss draws
    (not on the battle's first turn, CR 103.8); the planeswalker NPCs use a loyalty
    ability (T-8.2); then the bosses' main phases and one combat."""
    battle.turn += 1
    battle.horde_turns += 1
    battle.active = HORDE
    if events is not None:
        events.append({"event": "battle_turn", "turn": battle.turn, "active": HORDE,
                       **({"second": True} if battle.bonus_turn else {})})
    active = [battle.horde] * (not battle.bonus_turn) + _acting_bosses(battle)
    for side in active:
        for permanent in side.battlefield:
            permanent.tapped = False
            permanent.summoning_sick = False
    if battle.echo_due:
        echo_upkeep(battle, [s for s in active if s is not battle.horde], rng, events)  # CR 702.30
    beginning_triggers(battle, active, "upkeep", rng, events)  # CR 503.1
    for boss in _acting_bosses(battle):
        boss.land_played = False
        if battle.turn > 1:
            drawn = draw(boss, 1)
            if events is not None:
                events.append({"event": "battle_draw", "player": boss.id, "cards": len(drawn), "status": boss.status})
    if not battle.bonus_turn:
        horde_main_phase(battle, rng, events)
        planeswalker_npcs(battle, rng, events)
    check_outcome(battle)
    _on_to_enemy_main(battle, rng, events)


def _on_to_enemy_main(battle: Battle, rng: random.Random, events: Events) -> None:
    """Unless the battle is over, the bosses' main phases go on."""
    if battle.outcome:
        battle.step = "over"
        return
    battle.step = "enemy_main"
    _enemy_main(battle, rng, events)


def _enemy_main(battle: Battle, rng: random.Random, events: Events) -> None:
    """The bosses play until none has anything worth playing. A boss's spell waits on the
    stack while the survivors can respond (the `respond` step), else it resolves."""
    for boss in _acting_bosses(battle):
        while not battle.outcome and boss.status == OK and boss_play(battle, boss, rng, events):
            top = battle.stack[-1]
            if top is not None and top.ability is None and _window_opens(battle):
                battle.step = "respond"
                return
            resolve_stack(battle, rng, events)
    if battle.outcome:
        battle.step = "over"
        return
    _enemy_attacks(battle, rng, events)


def _enemy_attacks(battle: Battle, rng: random.Random, events: Events) -> None:
    """The horde's creatures attack (T-6.9), then the bosses' chosen ones; the survivors block."""
    if not battle.bonus_turn:
        horde_attacks(battle, rng, events)
    for boss in _acting_bosses(battle):
        boss_attacks(battle, boss, events)
    drop_lone(battle, blocks=False)
    attack_triggers(battle, rng, events)
    if battle.outcome:
        battle.step = "over"
    elif battle.attacks and _any_block(battle):
        battle.listed = None  # the step's blocks are listed when asked (`legal_actions`)
        battle.step = "declare_blockers"
    else:
        _enemy_blocks_done(battle, rng, events)


def _enemy_blocks_done(battle: Battle, rng: random.Random, events: Events) -> None:
    """Blockers are declared (CR 509): the survivors get their window for instants and
    abilities (combat tricks, CR 509.4 / 510 priority) if they have any, then damage."""
    if battle.attacks and _window_opens(battle):
        battle.step = AFTER_BLOCKERS
        return
    _horde_combat_damage(battle, rng, events)


def _horde_combat_damage(battle: Battle, rng: random.Random, events: Events) -> None:
    if battle.attacks:
        combat_damage(battle, rng, events)
        battle.attacks.clear()
    if battle.outcome:
        battle.step = "over"
    else:
        _end_turn(battle, rng, events)


# --- legal actions ---------------------------------------------------------------------


def legal_actions(battle: Battle) -> list[Action]:
    """Every action the survivors may take now (empty when the battle is over)."""
    step = battle.step
    if step == "check":
        assert battle.check is not None  # the check step waits on it
        return [act.interned(act.BOOST, battle.check.pending.pc), act.interned(act.NO_BOOST, battle.check.pending.pc)]
    if step in ("main1", "main2"):
        return _main_actions(battle)
    if step == "declare_attackers":
        return _attack_actions(battle) + [act.interned(act.CONFIRM_ATTACKERS)]
    if step == "declare_blockers":
        return _blocks(battle)
    if step in ("respond", AFTER_BLOCKERS):
        listed, battle.listed = battle.listed, None
        return (_responses(battle) if listed is None else listed) + [act.interned(act.PASS)]
    return []


def land_actions(battle: Battle) -> list[Action]:
    """The land plays among `legal_actions` now, in their order (empty outside a main phase):
    for an agent that plays a land whenever it can (`battle.decide`), listed without the
    casts, activations and targets it would not look at."""
    if battle.step not in ("main1", "main2"):
        return []
    return [action for pc in battle.fighting() for action in playable_lands(pc)]


def _window_opens(battle: Battle) -> bool:
    """Whether a PC in the fight could cast an instant (or a flash card) or activate an
    ability now: only then is a respond or after-blockers window offered. The list is kept
    on the battle for the window's `legal_actions`, which would list exactly the same (the
    caller opens the window and returns: nothing changes in between)."""
    return _opens(battle, _responses(battle))


def _opens(battle: Battle, listed: list[Action]) -> bool:
    """Whether a step in which the survivors choose among `listed` opens (any to choose
    from); its `legal_actions` then take the list as it is."""
    battle.listed = listed if listed else None
    return bool(listed)


def _responses(battle: Battle) -> list[Action]:
    """Instants the survivors can cast, and abilities they can activate (not loyalty
    abilities, CR 606.3), in response to the enemy's spell on the stack."""
    return [a for pc in battle.fighting()
            for a in castable(pc, battle, instant_speed=True) + activations(pc, battle, sorcery_speed=False)]


def _main_actions(battle: Battle) -> list[Action]:
    actions = []
    fighting = battle.fighting()
    for pc in fighting:
        actions.extend(castable(pc, battle))
        actions.extend(activations(pc, battle))
    if not battle.non_combat_action_used:
        actions.extend(act.interned(act.ESCAPE, pc.id) for pc in fighting)  # T-6.6, T-6.7
    if battle.step == "main1" and any(can_attack(pc, p) for pc in fighting for p in pc.battlefield):
        actions.append(act.interned(act.GO_TO_COMBAT))
    actions.append(act.interned(act.END_TURN))
    return actions


def defenders(battle: Battle) -> list[tuple[str, int]]:
    """Whom the survivors' creatures can attack: the horde (`("", -1)`) when there is a
    horde deck, each boss in the fight, each enemy planeswalker (T-8.2)."""
    found = [("", -1)] if battle.horde_deck else []
    found += [(boss.id, -1) for boss in battle.fighting_bosses()]
    enemies: list[PC | Horde] = [battle.horde, *battle.fighting_bosses()]
    for side in enemies:
        found += [(side.id, p.card) for p in side.battlefield if side.cards[p.card].is_type("Planeswalker")]
    return found


def _attack_actions(battle: Battle) -> list[Action]:
    attacking = {(a.owner, a.card) for a in battle.attacks}
    targets = defenders(battle)
    return [
        act.interned(act.ATTACK, pc.id, permanent.card, target=target)
        for pc in battle.fighting()
        for permanent in pc.battlefield
        if _may_attack(pc, permanent, attacking)
        for target in targets
    ]


def _may_attack(pc: PC, permanent: Permanent, attacking: set[tuple[str, int]]) -> bool:
    """A creature not yet attacking that can attack (`_attack_actions`, `next_attack`)."""
    return (pc.id, permanent.card) not in attacking and can_attack(pc, permanent)


def _may_block(pc: PC, permanent: Permanent) -> bool:
    """An untapped creature, which can block some attacker (`can_block` says which): not
    each land against each attacker (`_blocks`, `next_block`)."""
    return not permanent.tapped and facts_of(pc, permanent.card).is_creature


def next_attack(battle: Battle, plan: Sequence[Action]) -> Action:
    """The first attack of `plan` still among the legal actions of declare attackers (a
    creature not yet attacking that can attack, against a defender it may attack), else
    confirm attackers: what an agent that follows its plan picks from `legal_actions`,
    worked out for the planned attacks only, without listing every creature against every
    defender (`battle.decide`)."""
    attacking = {(a.owner, a.card) for a in battle.attacks}
    fighting = {pc.id: pc for pc in battle.fighting()}
    targets: list[tuple[str, int]] | None = None
    for action in plan:
        pc = fighting.get(action.player)
        if action.kind != act.ATTACK or action.x or action.mode or pc is None:
            continue
        permanent = find_permanent(pc, action.card)
        if permanent is None or not _may_attack(pc, permanent, attacking):
            continue
        if targets is None:
            targets = defenders(battle)
        if action.target in targets:
            return action
    return act.interned(act.CONFIRM_ATTACKERS)


def next_block(battle: Battle, plan: Sequence[Action]) -> Action | None:
    """What an agent that follows its block plan picks from `legal_actions` in declare
    blockers, worked out for the planned blocks only (`battle.decide`): the first planned
    block still legal (an untapped creature not yet blocking that can block that attacker,
    T-6.11), else confirm blockers when some block is declared and the blocks are legal
    (CR 702.110b); None when neither (the decision is then made from the whole list)."""
    blocking = {blocker for a in battle.attacks for blocker in a.blockers}
    attacks = {(a.owner, a.card): a for a in battle.attacks}
    fighting = {pc.id: pc for pc in battle.fighting()}
    for action in plan:
        pc = fighting.get(action.player)
        attack = attacks.get(action.target)
        if action.kind != act.BLOCK or action.x or action.mode or pc is None or attack is None or \
                (action.player, action.card) in blocking:
            continue
        permanent = find_permanent(pc, action.card)
        if permanent is None or not _may_block(pc, permanent):
            continue
        side = battle.side(attack.owner)
        if can_block(pc, permanent, side, permanent_of(side, attack.card)):
            return action
    if blocking and blockers_are_legal(battle):
        return act.interned(act.CONFIRM_BLOCKERS)
    return None


def _any_block(battle: Battle) -> bool:
    """Whether `_blocks` lists anything: the declare blockers step opens. Asked without
    listing every block: an agent that follows its block plan decides without the list
    (`battle.decide`), which its first `legal_actions` makes for any other."""
    return next(_block_choices(battle), None) is not None


def _blocks(battle: Battle) -> list[Action]:
    """Blocks any PC's untapped creature can make against any enemy attacker (the team
    blocks together, T-6.11), take-backs of declared blocks, and confirm when legal
    (menace, CR 702.110b). Empty when no block is possible at all."""
    actions = list(_block_choices(battle))
    if actions and blockers_are_legal(battle):
        actions.append(act.interned(act.CONFIRM_BLOCKERS))
    return actions


def _block_choices(battle: Battle) -> Iterator[Action]:
    """The blocks and take-backs of `_blocks`, one at a time, in its order."""
    blocking = {blocker for a in battle.attacks for blocker in a.blockers}
    attackers = [((attack.owner, attack.card), side, permanent_of(side, attack.card))
                 for attack in battle.attacks for side in (battle.side(attack.owner),)]
    for pc in battle.fighting():
        for permanent in pc.battlefield:
            if (pc.id, permanent.card) in blocking:
                yield act.interned(act.UNBLOCK, pc.id, permanent.card)
                continue
            if not _may_block(pc, permanent):
                continue
            for target, side, attacker in attackers:
                if can_block(pc, permanent, side, attacker):
                    yield act.interned(act.BLOCK, pc.id, permanent.card, target=target)


# --- applying an action ----------------------------------------------------------------


def apply(battle: Battle, action: Action, rng: random.Random, events: Events = None) -> None:
    """Do the action and play on until the survivors must decide again or the battle ends.

    Raises RuleError for an action that is not legal now.
    """
    apply_legal(battle, action, legal_actions(battle), rng, events)


def apply_legal(battle: Battle, action: Action, legal: list[Action], rng: random.Random,
                events: Events = None) -> None:
    """`apply` for a caller that already holds `legal_actions(battle)` (saves listing twice)."""
    if action not in legal:
        raise RuleError(f"{action} is not a legal action now", "T-6.1")
    kind = action.kind
    if kind == act.BOOST:
        assert battle.check is not None  # boost is legal only in the check step
        boost(battle.player(action.player), battle.check.pending, rng)
        _finish_check(battle, rng, events)
    elif kind == act.NO_BOOST:
        _finish_check(battle, rng, events)
    elif kind == act.PLAY_LAND:
        _play_land(battle.player(action.player), action.card, events)
    elif kind == act.CAST:
        _cast(battle, action, rng, events)
    elif kind == act.ACTIVATE:
        responding = battle.step == "respond"  # in after_blockers the ability resolves at once
        activate(battle, action, rng, events)
        if responding:
            _after_response(battle, rng, events)
        else:
            resolve_stack(battle, rng, events)
    elif kind == act.PASS:
        if battle.step == AFTER_BLOCKERS:
            _after_tricks(battle, rng, events)
        else:
            _after_response(battle, rng, events)
    elif kind == act.ESCAPE:
        battle.non_combat_action_used = True  # T-6.7
        enemies: list[PC | Horde] = [battle.horde, *battle.fighting_bosses()]
        untapped = sum(1 for side in enemies for p in side.battlefield
                       if not p.tapped and facts_of(side, p.card).is_creature)  # T-6.6: enemy creatures
        _begin_check(battle, "escape", battle.player(action.player), untapped, battle.step, rng, events)
    elif kind == act.GO_TO_COMBAT:
        battle.step = "declare_attackers"
    elif kind == act.ATTACK:
        owner, card = action.target
        if not owner:
            declare_attacker(battle, action.player, action.card, HORDE, events)
        else:
            declare_attacker(battle, action.player, action.card, owner, events, defender_card=card)
    elif kind == act.CONFIRM_ATTACKERS:
        _survivor_combat(battle, rng, events)
    elif kind == act.END_TURN:
        _end_turn(battle, rng, events)
    elif kind == act.BLOCK:
        _attack_on(battle, action.target).blockers.append((action.player, action.card))
    elif kind == act.UNBLOCK:
        for attack in battle.attacks:
            if (action.player, action.card) in attack.blockers:
                attack.blockers.remove((action.player, action.card))
    elif kind == act.CONFIRM_BLOCKERS:
        drop_lone(battle, blocks=True)
        if events is not None:
            for attack in battle.attacks:
                for owner, card in attack.blockers:
                    name = battle.side(owner).cards[card].name
                    events.append({"event": "battle_block", "player": owner, "card": name,
                                   "id": card, "attacker": battle.side(attack.owner).cards[attack.card].name})
        _enemy_blocks_done(battle, rng, events)


def _attack_on(battle: Battle, target: tuple[str, int]) -> Attack:
    for attack in battle.attacks:
        if (attack.owner, attack.card) == target:
            return attack
    raise RuleError(f"no attacker {target}", "T-6.1")


def _play_land(pc: PC, card: int, events: Events) -> None:
    """One land per turn (CR 305.2)."""
    pc.hand.remove(card)
    enter_battlefield(pc, card)
    pc.land_played = True
    if events is not None:
        events.append({"event": "battle_play_land", "player": pc.id, "card": pc.cards[card].name})


def _cast(battle: Battle, action: Action, rng: random.Random, events: Events) -> None:
    """A survivor casts: the spell goes on the stack; a boss may answer it (a counterspell);
    then the stack resolves. In the respond step, the enemy's spell resolves after the
    response and the enemies' turn goes on."""
    responding = battle.step == "respond"
    cast(battle, action, rng, events)
    boss_response(battle, rng, events)
    if responding:
        _after_response(battle, rng, events)
    else:
        resolve_stack(battle, rng, events)


def _after_response(battle: Battle, rng: random.Random, events: Events) -> None:
    """The respond step is over: the stack resolves and the bosses' main phases go on."""
    resolve_stack(battle, rng, events)
    _on_to_enemy_main(battle, rng, events)


def _survivor_combat(battle: Battle, rng: random.Random, events: Events) -> None:
    """Attack triggers; the horde blocks at random (T-6.8), the bosses greedily; combat
    damage, then the second main phase."""
    drop_lone(battle, blocks=False)
    if battle.attacks:
        attack_triggers(battle, rng, events)
        horde_blocks(battle, rng, events)
        for boss in battle.fighting_bosses():
            boss_blocks(battle, boss, events)
        drop_lone(battle, blocks=True)
        if not battle.outcome and battle.attacks and _window_opens(battle):
            battle.step = AFTER_BLOCKERS  # the survivors' combat tricks (CR 509.4)
            return
        combat_damage(battle, rng, events)
        battle.attacks.clear()
    battle.step = "over" if battle.outcome else "main2"


def _after_tricks(battle: Battle, rng: random.Random, events: Events) -> None:
    """The after-blockers window closes: combat damage, then the survivors' second main
    phase (their attack) or the end of the enemies' turn."""
    if battle.active == SURVIVORS:
        if battle.attacks:
            combat_damage(battle, rng, events)
            battle.attacks.clear()
        battle.step = "over" if battle.outcome else "main2"
    else:
        _horde_combat_damage(battle, rng, events)
