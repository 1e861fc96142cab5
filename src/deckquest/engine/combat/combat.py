"""Combat: attacking, blocking, combat damage with its keywords, state-based actions.

MTG rules (CR 506-511) as a battle of MTG-TRPG uses them (T-6.1): attackers tap
unless they have vigilance; a flying attacker can be blocked only by flying or
reach; a menace attacker needs two or more blockers; first strike and double
strike add a first combat damage step; deathtouch makes any damage lethal;
trample assigns lethal damage to the blockers and the rest to the player;
lifelink gains its controller that much life; indestructible creatures are not
destroyed by damage. Damage to the horde mills its library (T-6.10); damage to
a PC is life loss with the T-7 consequences, to a boss (T-8.3) life loss, to a
planeswalker (T-8.2) loss of loyalty; a planeswalker at 0 loyalty is put into
its owner's graveyard.
"""

from __future__ import annotations

import random

from deckquest.engine.combat.profile import (
    ANY_PROTECTION, CANT_BLOCK, NOT_ALONE, DEATHTOUCH, DEFENDER, DOUBLE_STRIKE, FIRST_STRIKE, FLYING, HASTE,
    INDESTRUCTIBLE, LANDWALK, LANDWALK_TYPES, LIFELINK, MENACE, REACH, TRAMPLE, UNBLOCKABLE, VIGILANCE,
    protected_from,
)
from deckquest.engine.combat.statics import is_pc_creature, pc_creature_leaves, refresh_statics
from deckquest.engine.combat.state import (
    HORDE, Attack, Battle, Side, facts_of, find_permanent, keywords_of, permanent_of, power, toughness,
)
from deckquest.engine.combat.profile import PROFILE_TABLES, profile_in, profiles_of
from deckquest.engine.combat.resolve import dies_triggers, hits_triggers, permanent_value, regenerate
from deckquest.engine.game import Events
from deckquest.engine.pc import OK, PC, gain_life, lose_life, shuffle
from deckquest.engine.permanents import Permanent


def can_attack(side: Side, permanent: Permanent, haste_for_all: bool = False) -> bool:
    """An untapped creature without defender whose controller has controlled it
    since the turn began (summoning sickness), unless it has haste."""
    cards = side.cards  # facts_of, written out (a call saved at every permanent, pure)
    known = PROFILE_TABLES.last_known if PROFILE_TABLES.last is cards else profiles_of(cards)
    card = known[permanent.card] or profile_in(cards, known, permanent.card)
    if not card.is_creature or permanent.tapped:
        return False
    flags = card.keywords | permanent.granted | permanent.static_keywords
    if flags & DEFENDER:
        return False
    return not permanent.summoning_sick or haste_for_all or bool(flags & HASTE)


def can_block(blocker_side: Side, blocker: Permanent, attacker_side: Side, attacker: Permanent) -> bool:
    """An untapped creature can block, unless it "can't block"; a flying attacker only by
    flying or reach (CR 702.9b); an attacker that "can't be blocked" by none; one with
    landwalk by none while the blocker's controller controls a land of that type (CR 702.14c).
    An unconscious PC takes no actions, so it never blocks (T-7.2)."""
    cards = blocker_side.cards  # facts_of, written out (a call saved at every permanent, pure)
    known = PROFILE_TABLES.last_known if PROFILE_TABLES.last is cards else profiles_of(cards)
    facts = known[blocker.card] or profile_in(cards, known, blocker.card)
    if not facts.is_creature or blocker.tapped:
        return False
    card = cards[blocker.card]
    mine = facts.keywords | blocker.granted | blocker.static_keywords
    theirs = keywords_of(attacker_side, attacker)
    if mine & CANT_BLOCK or theirs & UNBLOCKABLE or is_pc_creature(card):
        return False
    if theirs & LANDWALK:
        for flag, land_type in LANDWALK_TYPES:
            if theirs & flag and any(land_type in blocker_side.cards[p.card].subtypes
                                     for p in blocker_side.battlefield):
                return False
    if theirs & ANY_PROTECTION and protected_from(theirs, card):
        return False  # CR 702.16e
    if theirs & FLYING:
        return bool(mine & (FLYING | REACH))
    return True


def declare_attacker(battle: Battle, owner: str, card: int, defender: str, events: Events,
                     defender_card: int = -1) -> None:
    """The creature attacks `defender` (or that player's planeswalker `defender_card`,
    T-8.2); it taps unless it has vigilance."""
    side = battle.side(owner)
    permanent = permanent_of(side, card)
    if not keywords_of(side, permanent) & VIGILANCE:
        permanent.tapped = True
    battle.attacks.append(Attack(owner, card, defender, defender_card=defender_card))
    if events is not None:
        event = {"event": "battle_attack", "player": owner, "card": side.cards[card].name,
                 "id": card, "defender": defender}
        if defender_card >= 0:
            event["planeswalker"] = battle.side(defender).cards[defender_card].name
        events.append(event)


def drop_lone(battle: Battle, blocks: bool) -> None:
    """CR 506.5: a creature that "can't attack or block alone" is taken out of combat when it
    would be the only attacker (`blocks` False; it untaps) or the only blocker (`blocks` True)."""
    if blocks:
        blockers = [(a, b) for a in battle.attacks for b in a.blockers]
        if len(blockers) == 1 and _keywords(battle, *blockers[0][1]) & NOT_ALONE:
            blockers[0][0].blockers.clear()
    elif len(battle.attacks) == 1 and _keywords(battle, battle.attacks[0].owner, battle.attacks[0].card) & NOT_ALONE:
        attack = battle.attacks.pop()
        permanent = find_permanent(battle.side(attack.owner), attack.card)
        if permanent is not None and not keywords_of(battle.side(attack.owner), permanent) & VIGILANCE:
            permanent.tapped = False


def blockers_are_legal(battle: Battle) -> bool:
    """CR 702.110b: a menace attacker is unblocked or blocked by two or more creatures."""
    for attack in battle.attacks:
        if len(attack.blockers) == 1 and _keywords(battle, attack.owner, attack.card) & MENACE:
            return False
    return True


def _keywords(battle: Battle, owner: str, card: int) -> int:
    side = battle.side(owner)
    permanent = find_permanent(side, card)
    return keywords_of(side, permanent) if permanent is not None else facts_of(side, card).keywords


def _lethal(side: Side, permanent: Permanent, deathtouch: bool) -> int:
    """Damage that is lethal to the creature now (CR 702.2c: 1 with deathtouch)."""
    left = max(0, toughness(side, permanent) - permanent.damage)
    return min(left, 1) if deathtouch else left


def combat_damage(battle: Battle, rng: random.Random, events: Events) -> None:
    """The combat damage step(s), each followed by state-based actions (CR 510).

    With any first or double striker in combat, there is a first-strike step in
    which only they deal damage; in the regular step the others and the double
    strikers deal damage (CR 702.7, 702.4).
    """
    for attack in battle.attacks:
        attack.blocked = bool(attack.blockers)
    flags = [_keywords(battle, a.owner, a.card) for a in battle.attacks]
    flags += [_keywords(battle, o, c) for a in battle.attacks for o, c in a.blockers]
    if any(f & (FIRST_STRIKE | DOUBLE_STRIKE) for f in flags):
        _damage_step(battle, rng, events, first_strike=True)
        state_based_actions(battle, events, rng)
        if battle.outcome:
            return
        _damage_step(battle, rng, events, first_strike=False)
    else:
        _damage_step(battle, rng, events, first_strike=None)
    state_based_actions(battle, events, rng)


def _strikes(keywords: int, first_strike: bool | None) -> bool:
    """Whether a creature deals damage in this step (None: the only step)."""
    if first_strike is None:
        return True
    if first_strike:
        return bool(keywords & (FIRST_STRIKE | DOUBLE_STRIKE))
    return not keywords & FIRST_STRIKE or bool(keywords & DOUBLE_STRIKE)


def _damage_step(battle: Battle, rng: random.Random, events: Events, first_strike: bool | None) -> None:
    """Assign all combat damage of the step, then deal it simultaneously."""
    dealt: list[tuple[str, int, str, int, int]] = []  # source owner, card, target owner, card (-1: player), amount
    for attack in battle.attacks:
        side = battle.side(attack.owner)
        attacker = find_permanent(side, attack.card)
        if attacker is None:
            continue
        keywords = keywords_of(side, attacker)
        if _strikes(keywords, first_strike):
            dealt.extend(_attacker_damage(battle, attack, side, attacker, keywords, rng))
        for owner, card in attack.blockers:
            blocker_side = battle.side(owner)
            blocker = find_permanent(blocker_side, card)
            if blocker is None:
                continue
            amount = power(blocker_side, blocker)
            if amount > 0 and _strikes(keywords_of(blocker_side, blocker), first_strike):
                dealt.append((owner, card, attack.owner, attack.card, amount))
    life_loss: dict[str, int] = {}
    hits: list[tuple[str, int, str]] = []
    for source_owner, source, target_owner, target, amount in dealt:
        if target < 0 and target_owner != HORDE and battle.player(target_owner).status == OK \
                and (source_owner, source, target_owner) not in hits:
            hits.append((source_owner, source, target_owner))
        _deal(battle, source_owner, source, target_owner, target, amount, life_loss, events)
    for pc_id, amount in life_loss.items():
        pc = battle.player(pc_id)
        lose_life(pc, amount)
        if events is not None:
            events.append({"event": "battle_life", "player": pc_id, "change": -amount, "life": pc.life,
                           "status": pc.status})
    if hits:
        check_outcome(battle)
        if not battle.outcome:
            hits_triggers(battle, hits, rng, events)


def _attacker_damage(battle: Battle, attack: Attack, side: Side, attacker: Permanent, keywords: int,
                    rng: random.Random) -> list[tuple[str, int, str, int, int]]:
    """CR 510.1: an unblocked attacker hits the player; a blocked one divides its
    damage among its blockers in order, lethal damage to each before the next,
    with trample the rest to the player. The survivors order blockers to destroy
    as many as they can (least damage needed first); the horde orders at random (T-6.8)."""
    amount = power(side, attacker)
    if amount <= 0:
        return []
    if not attack.blocked:
        return [(attack.owner, attack.card, attack.defender, attack.defender_card, amount)]
    blockers = []
    for owner, card in attack.blockers:
        permanent = find_permanent(battle.side(owner), card)
        if permanent is not None:
            blockers.append((owner, card, _lethal(battle.side(owner), permanent, bool(keywords & DEATHTOUCH))))
    if not blockers:
        return [(attack.owner, attack.card, attack.defender, attack.defender_card, amount)] if keywords & TRAMPLE else []
    if attack.owner == HORDE:
        shuffle(blockers, rng)
    else:
        blockers.sort(key=lambda blocker: blocker[2])
    assigned: list[tuple[str, int, int]] = []  # (owner, card or -1 the player, damage)
    for owner, card, lethal in blockers:
        share = min(lethal, amount)
        assigned.append((owner, card, share))
        amount -= share
    if amount > 0:
        if keywords & TRAMPLE:
            assigned.append((attack.defender, attack.defender_card, amount))
        else:
            owner, card, share = assigned[0]
            assigned[0] = (owner, card, share + amount)
    return [(attack.owner, attack.card, owner, card, share) for owner, card, share in assigned if share > 0]


def _deal(battle: Battle, source_owner: str, source: int, target_owner: str, target: int,
          amount: int, life_loss: dict[str, int], events: Events) -> None:
    """Deal damage from a creature: to a creature, a planeswalker (loyalty, T-8.2),
    the horde (mill, T-6.10), a PC or a boss.

    Damage to players is summed into `life_loss` and lost at once (one simultaneous
    event, T-7.1); a PC already out of the fight (T-7.1 removed from combat)
    takes no more combat damage.
    """
    source_side = battle.side(source_owner)
    source_permanent = find_permanent(source_side, source)
    keywords = (keywords_of(source_side, source_permanent) if source_permanent is not None
                else facts_of(source_side, source).keywords)
    target_side = battle.side(target_owner)
    if target < 0 and target_owner != HORDE and battle.player(target_owner).status != OK:
        return
    if target >= 0:
        permanent = find_permanent(target_side, target)
        if permanent is None:
            return
        if protected_from(keywords_of(target_side, permanent), source_side.cards[source]):
            return  # CR 702.16e: the damage is prevented
        if target_side.cards[target].is_type("Planeswalker"):
            permanent.loyalty -= amount  # CR 306.8
        else:
            permanent.damage += amount
            if keywords & DEATHTOUCH:
                battle.deathtouched.append((target_owner, target))
    elif target_owner == HORDE:
        milled = mill_horde(battle, amount, events)
        if source_owner != HORDE:
            battle.tallies[source_owner].cards_milled += milled
    else:
        life_loss[target_owner] = life_loss.get(target_owner, 0) + amount
        tally = battle.tallies[target_owner]
        tally.life_lost += amount
        tally.damage_taken += amount
    if source_owner != HORDE:
        battle.tallies[source_owner].damage_dealt += amount
        if keywords & LIFELINK:
            player = battle.player(source_owner)
            gain_life(player, amount)
            battle.tallies[source_owner].life_gained += amount
            if events is not None:
                events.append({"event": "battle_life", "player": source_owner, "change": amount,
                               "life": player.life, "status": player.status})
    if events is not None:
        target_name = target_side.cards[target].name if target >= 0 else target_owner
        events.append({"event": "battle_damage", "source": source_side.cards[source].name,
                       "source_owner": source_owner, "target": target_name,
                       "target_owner": target_owner, "amount": amount})


def mill_horde(battle: Battle, amount: int, events: Events) -> int:
    """T-6.10: damage dealt to the horde mills that many cards from its library."""
    horde = battle.horde
    milled = horde.library[:amount]
    del horde.library[:amount]
    horde.graveyard.extend(milled)
    horde.milled += len(milled)
    if events is not None and milled:
        events.append({"event": "battle_mill", "player": HORDE, "cards": [horde.cards[c].name for c in milled]})
    return len(milled)


def state_based_actions(battle: Battle, events: Events, rng: random.Random | None = None) -> None:
    """CR 704: the legend rule (CR 704.5j); creatures with lethal damage (or deathtouch damage)
    are destroyed unless indestructible; toughness 0 or less always puts them in the graveyard;
    a planeswalker with 0 loyalty goes to the graveyard (CR 704.5i, T-8.2). With
    `rng`, the "when … dies" abilities of the creatures that died then resolve.
    Then the battle's end (T-6.12) is checked."""
    died = []
    while True:  # CR 704.3: again until none applies (a lord that dies shrinks its Goblins)
        refresh_statics(battle)
        found = False
        for side in battle.sides():
            for permanent in legend_rule(side):  # CR 704.5j
                _to_graveyard(battle, side, permanent, events)
                died.append((side.id, permanent.card))
                found = True
            dead = [p for p in side.battlefield if _is_destroyed(battle, side, p)]
            if battle.shields:  # CR 701.19: lethal damage destroys, a shield prevents it
                dead = [p for p in dead if toughness(side, p) <= 0 or not regenerate(battle, side, p, events)]
            for permanent in dead:
                _to_graveyard(battle, side, permanent, events)
                died.append((side.id, permanent.card))
                found = True
        if not found:
            break
    battle.deathtouched.clear()
    check_outcome(battle)
    if died and rng is not None and not battle.outcome:
        dies_triggers(battle, died, rng, events)


def legend_rule(side: Side) -> list[Permanent]:
    """CR 704.5j, the legend rule: of two or more legendary permanents with the same name
    that one player controls, the player keeps one and puts the others into the graveyard.
    The side keeps the one worth most (`resolve.permanent_value`: a planeswalker with more
    loyalty), of equals the one that came first. Returns the permanents to put there."""
    legends: dict[str, list[Permanent]] | None = None  # made for the first legend (most sides have none)
    for permanent in side.battlefield:
        if facts_of(side, permanent.card).legendary:
            if legends is None:
                legends = {}
            legends.setdefault(side.cards[permanent.card].name, []).append(permanent)
    extra: list[Permanent] = []
    if legends is None:
        return extra
    for same in legends.values():
        if len(same) > 1:
            keep = max(same, key=lambda p: (permanent_value(side, p), -p.damage, -same.index(p)))
            extra += [p for p in same if p is not keep]
    return extra


def _is_destroyed(battle: Battle, side: Side, permanent: Permanent) -> bool:
    cards = side.cards  # facts_of, written out (a call saved at every permanent, pure)
    known = PROFILE_TABLES.last_known if PROFILE_TABLES.last is cards else profiles_of(cards)
    card = known[permanent.card] or profile_in(cards, known, permanent.card)
    if not card.is_creature:
        return card.loyalty > 0 and permanent.loyalty <= 0 and cards[permanent.card].is_type("Planeswalker")
    # toughness() and keywords_of(), written out: every state-based check asks every permanent
    left = card.toughness + permanent.plus_counters + permanent.toughness_bonus + permanent.static_toughness
    if left <= 0:
        return True
    if (card.keywords | permanent.granted | permanent.static_keywords) & INDESTRUCTIBLE:
        return False
    return permanent.damage >= left or (
        permanent.damage > 0 and (side.id, permanent.card) in battle.deathtouched
    )


def _remove(battlefield: list[Permanent], permanent: Permanent) -> None:
    """`battlefield.remove(permanent)` by identity: permanents are equal only to themselves
    (each has its own card), and comparing dataclasses field by field was most of its cost."""
    for index, other in enumerate(battlefield):
        if other is permanent:
            del battlefield[index]
            return
    raise ValueError("the permanent is not on the battlefield")


def _to_graveyard(battle: Battle, side: Side, permanent: Permanent, events: Events, zone: str = "graveyard") -> None:
    """A permanent leaves the battlefield (and combat) for its owner's graveyard, exile or
    hand (a horde token goes to the graveyard too and is simply never used again; a PC's or
    boss's token ceases to exist, CR 111.7). An unconscious PC's creature (T-7.2) is not a
    card: destroyed or exiled, the PC dies (T-7.4); returned to hand, it stays."""
    card = side.cards[permanent.card]
    pc_creature = is_pc_creature(card)
    if pc_creature and zone == "hand":
        return
    _remove(side.battlefield, permanent)
    if pc_creature:
        assert isinstance(side, PC)  # T-7.2: only a PC falls unconscious
        pc_creature_leaves(side, events)
    elif not (card.is_token and side.id != HORDE):
        getattr(side, zone).append(permanent.card)
    key = (side.id, permanent.card)
    for attack in battle.attacks:
        if key in attack.blockers:
            attack.blockers.remove(key)
    battle.attacks = [a for a in battle.attacks if (a.owner, a.card) != key]
    if events is not None:
        kind = {"graveyard": "battle_dies", "exile": "battle_exile", "hand": "battle_bounce"}[zone]
        events.append({"event": kind, "player": side.id, "card": side.cards[permanent.card].name,
                       "id": permanent.card})


def check_outcome(battle: Battle) -> None:
    """T-6.12: the survivors lose when every PC is out of the fight (T-7.1, T-7.2);
    they win when the horde has no library, no hand and no creatures (nor a
    planeswalker NPC, T-8.2) and every boss is beaten (T-8.3: life 0 or decked)."""
    if battle.outcome:
        return
    if not any(pc.status == OK for pc in battle.survivors):
        battle.outcome = "defeat"
        return
    if horde_beaten(battle) and not battle.fighting_bosses():
        battle.outcome = "victory"


def horde_beaten(battle: Battle) -> bool:
    """The horde side has nothing left to fight with: no library, no hand, no creature
    and no planeswalker (an empty horde side is beaten from the start)."""
    horde = battle.horde
    return not horde.library and not horde.hand and not any(
        facts_of(horde, p.card).is_creature or facts_of(horde, p.card).loyalty > 0
        for p in horde.battlefield
    )
