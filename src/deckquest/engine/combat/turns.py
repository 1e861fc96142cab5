"""The turn structure of a battle and its one interface to agents.

`start_battle` sets a battle up, `legal_actions` lists what the survivors may do
now, `apply` does one of them and plays on (the horde's turns included) until
the survivors must decide again or the battle is over. Turns follow MTG
(untap, upkeep, draw, main, combat, main, end, cleanup); the survivors share
their turns as one team (T-6.11), each PC with its own deck, hand and life.
"""

from __future__ import annotations

import random

from deckquest.cards.model import Card
from deckquest.engine.checks import begin_check, boost, can_boost, finish_check
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.combat import (
    blockers_are_legal, can_attack, can_block, check_outcome, combat_damage, declare_attacker,
)
from deckquest.engine.combat.effects import effect_of
from deckquest.engine.combat.horde import horde_attacks, horde_blocks, horde_main_phase, make_horde
from deckquest.engine.combat.mana import Source, max_x, pay, requirement
from deckquest.engine.combat.profile import profile
from deckquest.engine.combat.state import HORDE, Battle, Check, Tally, enter_battlefield, find_permanent
from deckquest.engine.pc import MAX_HAND_SIZE, PC, RuleError, boost_cleanup, draw

SURVIVORS = "survivors"
MAX_PREPARATION_TURNS = 5  # T-6.2
#: T-6.2, T-6.6: the kind of the preparation and escape checks by rules edition.
REFLEX_KIND = {"2019": "red", "2014": "reflex"}


def start_battle(
    pcs: list[PC],
    horde_cards: list[Card] | tuple[Card, ...],
    rng: random.Random,
    rules: str = "2019",
    prepare: bool | int = True,
    events: list | None = None,
    cut: bool = True,
) -> Battle:
    """A battle of the PCs (taken as they are: T-6.3 their permanents are out from
    turn 1) against a horde deck, played up to the survivors' first decision.

    `prepare`: True makes the preparation check (T-6.2), False gives no
    preparation turns (the horde moves first), a number gives that many (the GM's
    ruling). `cut` cuts the horde deck by the number of PCs (T-6.4).
    """
    if rules not in REFLEX_KIND:
        raise ValueError(f"unknown rules {rules!r}; expected 2019 or 2014")
    for pc in pcs:
        pc.concentration_counter = False  # combat turns are MTG turns, not concentration
        pc.land_played = False
    battle = Battle(
        survivors=list(pcs), horde=make_horde(horde_cards, len(pcs), rng, cut), rules=rules,
        tallies={pc.id: Tally() for pc in pcs},
    )
    if events is not None:
        events.append({"event": "battle_start", "survivors": [pc.id for pc in pcs],
                       "horde_library": len(battle.horde.library), "horde_cut": battle.horde.cut})
    check_outcome(battle)
    if battle.outcome:
        battle.step = "over"
    elif prepare is True:
        _begin_preparation_check(battle, rng, events)
    else:
        battle.preparation_turns = battle.preparation_given = int(prepare)
        _first_turn(battle, rng, events)
    return battle


def _begin_preparation_check(battle: Battle, rng, events) -> None:
    """T-6.2: the party's representative (the first PC in the party order) makes a
    reflex (2014) or red (2019) check; the difficulty is the number of permanents
    the party controls."""
    representative = battle.fighting()[0]
    permanents = sum(len(pc.battlefield) for pc in battle.survivors)
    _begin_check(battle, "preparation", representative, permanents, "", rng, events)


def _begin_check(battle: Battle, purpose: str, pc: PC, difficulty: int, return_step: str, rng, events) -> None:
    pending = begin_check(pc, REFLEX_KIND[battle.rules], difficulty, rng, rules=battle.rules)
    battle.check = Check(purpose, pending, return_step)
    battle.step = "check"
    if not can_boost(pc, pending):
        _finish_check(battle, rng, events)


def _finish_check(battle: Battle, rng, events) -> None:
    check = battle.check
    pc = battle.side(check.pending.pc)
    record = finish_check(pc, check.pending, rng)
    battle.check = None
    if events is not None:
        events.append({"event": "battle_check", "purpose": check.purpose, "player": pc.id, "kind": record.kind,
                       "difficulty": record.difficulty, "revealed": list(record.revealed),
                       "target": record.target, "result": record.result, "degree": record.degree,
                       "success": record.success, "boost_bonus": record.boost_bonus})
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


def _first_turn(battle: Battle, rng, events) -> None:
    """T-6.11: the survivors take the first turns (the preparation turns); without
    any, the horde moves first."""
    if battle.preparation_turns > 0:
        _survivor_turn(battle, rng, events)
    else:
        _horde_turn(battle, rng, events)


# --- the survivors' turn ---------------------------------------------------------------


def _survivor_turn(battle: Battle, rng, events) -> None:
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
    if battle.turn > 1:
        for pc in battle.fighting():
            drawn = draw(pc, 1)
            if events is not None:
                events.append({"event": "battle_draw", "player": pc.id, "cards": len(drawn), "status": pc.status})
    check_outcome(battle)
    battle.step = "over" if battle.outcome else "main1"


def _end_turn(battle: Battle, rng, events) -> None:
    """End step and cleanup: damage wears off every permanent, the boost cards go
    back under the library (T-4.6), the active PCs discard down to 7; then the
    next turn: another survivor turn while preparation turns remain, else the other side's."""
    for side in (battle.horde, *battle.survivors):
        for permanent in side.battlefield:
            permanent.damage = 0
    for pc in battle.survivors:
        if pc.boost_used or pc.boost_exile:
            boost_cleanup(pc, rng)
    if battle.active == SURVIVORS:
        for pc in battle.fighting():
            _discard_to_hand_size(pc, events)
    check_outcome(battle)
    if battle.outcome:
        battle.step = "over"
    elif battle.active == SURVIVORS and battle.preparation_turns == 0:
        _horde_turn(battle, rng, events)
    else:
        _survivor_turn(battle, rng, events)


def _discard_to_hand_size(pc: PC, events) -> None:
    """Cleanup (CR 514.1): discard down to the maximum hand size; the engine discards
    the costliest cards first (the ones least likely to be cast soon)."""
    while len(pc.hand) > MAX_HAND_SIZE:
        card = max(pc.hand, key=lambda c: pc.cards[c].mana_value)
        pc.hand.remove(card)
        pc.graveyard.append(card)
        if events is not None:
            events.append({"event": "battle_discard", "player": pc.id, "card": pc.cards[card].name})


# --- the horde's turn ------------------------------------------------------------------


def _horde_turn(battle: Battle, rng, events) -> None:
    """T-6.9: untap, reveal and cast, attack with everything; the survivors then block."""
    battle.turn += 1
    battle.horde_turns += 1
    battle.active = HORDE
    if events is not None:
        events.append({"event": "battle_turn", "turn": battle.turn, "active": HORDE})
    for permanent in battle.horde.battlefield:
        permanent.tapped = False
        permanent.summoning_sick = False
    horde_main_phase(battle, rng, events)
    check_outcome(battle)
    if battle.outcome:
        battle.step = "over"
        return
    horde_attacks(battle, rng, events)
    if battle.attacks and _blocks(battle):
        battle.step = "declare_blockers"
    else:
        _horde_combat_damage(battle, rng, events)


def _horde_combat_damage(battle: Battle, rng, events) -> None:
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
        return [Action(act.BOOST, battle.check.pending.pc), Action(act.NO_BOOST, battle.check.pending.pc)]
    if step in ("main1", "main2"):
        return _main_actions(battle)
    if step == "declare_attackers":
        return _attack_actions(battle) + [Action(act.CONFIRM_ATTACKERS)]
    if step == "declare_blockers":
        return _blocks(battle)
    return []


def _main_actions(battle: Battle) -> list[Action]:
    actions = []
    for pc in battle.fighting():
        actions.extend(castable(pc))
    if not battle.non_combat_action_used:
        actions.extend(Action(act.ESCAPE, pc.id) for pc in battle.fighting())  # T-6.6, T-6.7
    if battle.step == "main1" and any(can_attack(pc, p) for pc in battle.fighting() for p in pc.battlefield):
        actions.append(Action(act.GO_TO_COMBAT))
    actions.append(Action(act.END_TURN))
    return actions


def mana_sources(pc: PC) -> list[Source]:
    """The PC's untapped mana sources; a creature's tap ability needs it free of
    summoning sickness (CR 302.6)."""
    sources = []
    for index, permanent in enumerate(pc.battlefield):
        if permanent.tapped:
            continue
        facts = profile(pc.cards[permanent.card])
        if facts.mana and not (facts.is_creature and permanent.summoning_sick):
            sources.append((index, facts.mana))
    return sources


def castable(pc: PC) -> list[Action]:
    """Lands the PC may play and spells it can pay for, one action per card name
    (copies are interchangeable) and per value of X."""
    actions = []
    seen = set()
    sources = None
    for card_id in pc.hand:
        card = pc.cards[card_id]
        if card.name in seen:
            continue
        seen.add(card.name)
        facts = profile(card)
        if facts.is_land:
            if not pc.land_played:
                actions.append(Action(act.PLAY_LAND, pc.id, card_id))
            continue
        if card.mana_cost is None or not (facts.is_permanent or effect_of(card)):
            continue
        if sources is None:
            sources = mana_sources(pc)
        cost = requirement(card.mana_cost)
        if pay(sources, cost) is None:
            continue
        for x in range(max_x(sources, cost) + 1):
            actions.append(Action(act.CAST, pc.id, card_id, x))
    return actions


def _attack_actions(battle: Battle) -> list[Action]:
    attacking = {(a.owner, a.card) for a in battle.attacks}
    return [
        Action(act.ATTACK, pc.id, permanent.card)
        for pc in battle.fighting()
        for permanent in pc.battlefield
        if (pc.id, permanent.card) not in attacking and can_attack(pc, permanent)
    ]


def _blocks(battle: Battle) -> list[Action]:
    """Blocks any PC's untapped creature can make against any horde attacker (the team
    blocks together, T-6.11), take-backs of declared blocks, and confirm when legal
    (menace, CR 702.110b). Empty when no block is possible at all."""
    blocking = {blocker for a in battle.attacks for blocker in a.blockers}
    horde = battle.horde
    actions = []
    for pc in battle.fighting():
        for permanent in pc.battlefield:
            if (pc.id, permanent.card) in blocking:
                actions.append(Action(act.UNBLOCK, pc.id, permanent.card))
                continue
            for attack in battle.attacks:
                if can_block(pc, permanent, horde, find_permanent(horde, attack.card)):
                    actions.append(Action(act.BLOCK, pc.id, permanent.card, target=(HORDE, attack.card)))
    if actions and blockers_are_legal(battle):
        actions.append(Action(act.CONFIRM_BLOCKERS))
    return actions


# --- applying an action ----------------------------------------------------------------


def apply(battle: Battle, action: Action, rng: random.Random, events: list | None = None) -> None:
    """Do the action and play on until the survivors must decide again or the battle ends.

    Raises RuleError for an action that is not legal now.
    """
    apply_legal(battle, action, legal_actions(battle), rng, events)


def apply_legal(battle: Battle, action: Action, legal: list[Action], rng: random.Random,
                events: list | None = None) -> None:
    """`apply` for a caller that already holds `legal_actions(battle)` (saves listing twice)."""
    if action not in legal:
        raise RuleError(f"{action} is not a legal action now", "T-6.1")
    kind = action.kind
    if kind == act.BOOST:
        boost(battle.side(action.player), battle.check.pending, rng)
        _finish_check(battle, rng, events)
    elif kind == act.NO_BOOST:
        _finish_check(battle, rng, events)
    elif kind == act.PLAY_LAND:
        _play_land(battle.side(action.player), action.card, events)
    elif kind == act.CAST:
        _cast(battle, battle.side(action.player), action.card, action.x, rng, events)
    elif kind == act.ESCAPE:
        battle.non_combat_action_used = True  # T-6.7
        untapped = sum(1 for p in battle.horde.battlefield
                       if not p.tapped and profile(battle.horde.cards[p.card]).is_creature)
        _begin_check(battle, "escape", battle.side(action.player), untapped, battle.step, rng, events)
    elif kind == act.GO_TO_COMBAT:
        battle.step = "declare_attackers"
    elif kind == act.ATTACK:
        declare_attacker(battle, action.player, action.card, HORDE, events)
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
        if events is not None:
            for attack in battle.attacks:
                for owner, card in attack.blockers:
                    name = battle.side(owner).cards[card].name
                    events.append({"event": "battle_block", "player": owner, "card": name,
                                   "id": card, "attacker": battle.horde.cards[attack.card].name})
        _horde_combat_damage(battle, rng, events)


def _attack_on(battle: Battle, target: tuple[str, int]):
    for attack in battle.attacks:
        if (attack.owner, attack.card) == target:
            return attack
    raise RuleError(f"no attacker {target}", "T-6.1")


def _play_land(pc: PC, card: int, events) -> None:
    """One land per turn (CR 305.2)."""
    pc.hand.remove(card)
    enter_battlefield(pc, card)
    pc.land_played = True
    if events is not None:
        events.append({"event": "battle_play_land", "player": pc.id, "card": pc.cards[card].name})


def _cast(battle: Battle, pc: PC, card: int, x: int, rng, events) -> None:
    """Pay the cost by tapping mana sources, then the permanent enters (summoning
    sick) or the spell resolves; a registered effect resolves either way."""
    physical = pc.cards[card]
    sources = mana_sources(pc)
    tapped = pay(sources, requirement(physical.mana_cost), x)
    for index in tapped:
        pc.battlefield[index].tapped = True
    pc.hand.remove(card)
    facts = profile(physical)
    battle.tallies[pc.id].spells_cast += 1
    if events is not None:
        events.append({"event": "battle_cast", "player": pc.id, "card": physical.name, "id": card, "x": x,
                       "mana_from": [pc.cards[pc.battlefield[i].card].name for i in tapped]})
    if facts.is_permanent:
        enter_battlefield(pc, card)
    effect = effect_of(physical)
    if effect is not None:
        effect.resolve(battle, pc.id, card, x, rng, events)
    if not facts.is_permanent:
        pc.graveyard.append(card)
    check_outcome(battle)
    if battle.outcome:
        battle.step = "over"


def _survivor_combat(battle: Battle, rng, events) -> None:
    """The horde blocks at random (T-6.8), combat damage, then the second main phase."""
    if battle.attacks:
        horde_blocks(battle, rng, events)
        combat_damage(battle, rng, events)
        battle.attacks.clear()
    battle.step = "over" if battle.outcome else "main2"
