"""Casting spells and activating abilities in a battle, with the stack (CR 601-608).

Shared by the survivors (through agents' actions) and bosses (through their
greedy policy, `boss.py`): what a side can cast or activate now, paying the
costs (mana, {T}, sacrifices, life, loyalty), putting the spell or ability on
the stack and resolving the stack top first. A spell goes on the stack with its
targets; the other side may respond (an instant, a counterspell) before it
resolves. Effects come from the card's text (`resolve.py`); a card registered
in `effects.REGISTRY` resolves its registered effect instead.
"""

from __future__ import annotations

import random

from deckquest.cards.model import Card, ManaCost
from deckquest.cards.oracle import Ability
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.effects import effect_of
from deckquest.engine.combat.mana import Source, max_x, pay, requirement
from deckquest.engine.combat.profile import profile
from deckquest.engine.combat.resolve import (
    STACK, ability_value, activated_abilities, choose_picks, enters_triggers, modes_of, permanent_value,
    recognition, resolve, slots, spell_ability, target_options,
)
from deckquest.engine.combat.state import HORDE, Battle, StackItem, enter_battlefield, find_permanent
from deckquest.engine.combat.statics import refresh_statics
from deckquest.engine.pc import lose_life

NO_TARGET = ("", -1)
#: The `mode` of a permanent spell's cast action that pays its kicker (CR 702.33).
KICKED = 1
#: An ability may be activated this many times a turn (a guard against endless loops of
#: abilities that untap each other; no built-in card comes near it).
MAX_ACTIVATIONS = 10


def mana_sources(side, exclude: int = -1) -> list[Source]:
    """The side's untapped mana sources; a creature's tap ability needs it free of
    summoning sickness (CR 302.6). `exclude` is a permanent being tapped for its own ability."""
    sources = []
    for index, permanent in enumerate(side.battlefield):
        if permanent.tapped or permanent.card == exclude:
            continue
        facts = profile(side.cards[permanent.card])
        if facts.mana and not (facts.is_creature and permanent.summoning_sick):
            sources.append((index, facts.mana))
    return sources


def is_instant_speed(card: Card) -> bool:
    """An instant, or a card with flash (CR 702.8)."""
    return card.is_type("Instant") or profile(card).flash


def kicked_cost(card: Card) -> ManaCost | None:
    """The mana cost plus the kicker (CR 702.33), or None when the card has no kicker."""
    kicker = recognition(card).kicker
    if not kicker or card.mana_cost is None:
        return None
    return ManaCost(card.mana_cost.symbols + ManaCost.parse(kicker).symbols)


def _spell_targets(battle: Battle | None, side, ability: Ability | None, card: int) -> list[tuple[int, tuple]]:
    """(mode, first target) pairs a spell can be cast with; [(0, NO_TARGET)] when it needs none."""
    if ability is None:
        return [(0, NO_TARGET)]
    found = []
    for mode, effects in enumerate(modes_of(ability)):
        wanted = slots(effects)
        if not wanted:
            found.append((mode, NO_TARGET))
            continue
        if battle is None:
            continue
        kind = next(e.kind for e in effects if wanted[0] in (e.target, e.other))
        refs = target_options(battle, side.id, wanted[0], (side.id, card), kind)
        found += [(mode, ref) for ref in _completable(battle, side, ability, mode, card, refs)]
    return found


def _completable(battle: Battle, side, ability: Ability, mode: int, card: int, refs: list) -> list:
    """The first targets with which every further target can be chosen too (CR 601.2c: a
    spell needs all its targets; "fights target creature you don't control" needs one)."""
    if len(slots(modes_of(ability)[mode])) < 2:
        return refs
    return [ref for ref in refs if choose_picks(battle, side.id, ability, mode, 0, (side.id, card),
                                                None, first=ref) is not None]  # greedy: no draw


def _sacrificeable(side, what: str, source: int) -> list:
    """The permanents the side could sacrifice for a cost: itself, or those of a type or subtype."""
    if what == "self":
        permanent = find_permanent(side, source)
        return [permanent] if permanent is not None else []
    word = what.capitalize()
    return [p for p in side.battlefield if word in side.cards[p.card].subtypes or side.cards[p.card].is_type(word)]


def _sacrifice_choice(side, what: str, source: int) -> int | None:
    """The card id the side sacrifices for a cost: its least valuable permanent that will do."""
    matching = _sacrificeable(side, what, source)
    if not matching:
        return None
    return min(matching, key=lambda p: (permanent_value(side, p), p.card)).card


def castable(side, battle: Battle | None = None, instant_speed: bool = False) -> list[Action]:
    """Lands the side may play and spells it can pay for: one action per card name (copies
    are interchangeable), value of X, mode and first target. Spells whose text is not
    understood are not offered (they would do nothing). Without `battle`, spells that
    need targets are left out. `instant_speed`: instants only, no land."""
    actions = []
    seen = set()
    sources = None
    for card_id in side.hand:
        card = side.cards[card_id]
        if card.name in seen:
            continue
        seen.add(card.name)
        facts = profile(card)
        if facts.is_land:
            if not side.land_played and not instant_speed:
                actions.append(Action(act.PLAY_LAND, side.id, card_id))
            continue
        if instant_speed and not is_instant_speed(card):
            continue
        ability = None if facts.is_permanent or effect_of(card) else spell_ability(card)
        if card.mana_cost is None or not (facts.is_permanent or effect_of(card) or ability):
            continue
        if ability is not None and ability.cost is not None and ability.cost.sacrifice and \
                not _sacrificeable(side, ability.cost.sacrifice, -1):
            continue
        if sources is None:
            sources = mana_sources(side)
        cost = facts.cost
        if pay(sources, cost) is None:
            continue
        for mode, target in _spell_targets(battle, side, ability, card_id):
            for x in range(max_x(sources, cost) + 1):
                actions.append(Action(act.CAST, side.id, card_id, x, target, mode))
        kicked = kicked_cost(card) if facts.is_permanent else None
        if kicked is not None and pay(sources, requirement(kicked)) is not None:
            actions.append(Action(act.CAST, side.id, card_id, 0, NO_TARGET, KICKED))
    return actions


def activations(side, battle: Battle, sorcery_speed: bool = True) -> list[Action]:
    """Activated abilities the side can pay for now, one action per ability and first target;
    loyalty abilities once per planeswalker per turn, at sorcery speed (CR 606.3)."""
    actions = []
    for permanent in side.battlefield:
        card = side.cards[permanent.card]
        for index, ability in enumerate(activated_abilities(card)):
            if not _can_pay(battle, side, permanent, ability, sorcery_speed) or \
                    battle.activated.count((side.id, permanent.card, index)) >= MAX_ACTIVATIONS:
                continue
            wanted = slots(ability.effects)
            if not wanted:
                actions.append(Action(act.ACTIVATE, side.id, permanent.card, 0, NO_TARGET, index))
                continue
            kind = next(e.kind for e in ability.effects if wanted[0] in (e.target, e.other))
            refs = target_options(battle, side.id, wanted[0], (side.id, permanent.card), kind)
            for ref in _completable(battle, side, ability, 0, permanent.card, refs):
                actions.append(Action(act.ACTIVATE, side.id, permanent.card, 0, ref, index))
    return actions


def _can_pay(battle: Battle, side, permanent, ability: Ability, sorcery_speed: bool) -> bool:
    cost = ability.cost
    if cost.loyalty is not None:
        used = any(entry[:2] == (side.id, permanent.card) for entry in battle.activated)
        return sorcery_speed and not used and permanent.loyalty + cost.loyalty >= 0
    if cost.tap and (permanent.tapped or (profile(side.cards[permanent.card]).is_creature and permanent.summoning_sick)):
        return False
    if cost.life and side.life <= cost.life:
        return False
    if cost.sacrifice and not _sacrificeable(side, cost.sacrifice, permanent.card):
        return False
    if cost.mana:
        sources = mana_sources(side, exclude=permanent.card if cost.tap else -1)
        if pay(sources, requirement(ManaCost.parse(cost.mana))) is None:
            return False
    return True


def _pay_mana(side, mana_cost, x: int = 0, exclude: int = -1) -> list[str]:
    sources = mana_sources(side, exclude)
    tapped = pay(sources, requirement(mana_cost), x) or []
    for index in tapped:
        side.battlefield[index].tapped = True
    return [side.cards[side.battlefield[i].card].name for i in tapped]


def _sacrifice(battle: Battle, side, what: str, source: int, rng: random.Random, events) -> None:
    from deckquest.engine.combat.resolve import leave_battlefield

    chosen = _sacrifice_choice(side, what, source)
    if chosen is not None:
        _sacrifice_event(side, chosen, events)
        leave_battlefield(battle, side, find_permanent(side, chosen), "graveyard", rng, events)


def _sacrifice_event(side, card: int, events) -> None:
    if events is not None:
        events.append({"event": "battle_sacrifice", "player": side.id, "card": side.cards[card].name})


def _picks(battle: Battle, side, ability: Ability | None, action: Action, mode: int, rng) -> tuple:
    """All targets of a cast or activation: the action's first one, the rest chosen greedily
    (the horde's at random: from ``rng``, or when only weighing a play, ``rng`` None, from a
    generator of its own seeded 0, so weighing draws nothing from the battle's)."""
    if ability is None or action.target == NO_TARGET:
        return ()
    at_random = side.id == HORDE
    if at_random and rng is None:
        rng = random.Random(0)
    picks = choose_picks(battle, side.id, ability, mode, action.x, (side.id, action.card), rng,
                         first=action.target, at_random=at_random)
    return picks or ()


def cast(battle: Battle, action: Action, rng: random.Random, events) -> None:
    """Pay the spell's cost (mana, an additional sacrifice) and put it on the stack with its
    targets (CR 601.2)."""
    side = battle.side(action.player)
    card = side.cards[action.card]
    ability = None if profile(card).is_permanent or effect_of(card) else spell_ability(card)
    picks = _picks(battle, side, ability, action, action.mode, rng)
    kicked = action.mode == KICKED and ability is None and kicked_cost(card) is not None
    mana_from = _pay_mana(side, kicked_cost(card) if kicked else card.mana_cost, action.x)
    side.hand.remove(action.card)
    if ability is not None and ability.cost is not None and ability.cost.sacrifice:
        _sacrifice(battle, side, ability.cost.sacrifice, -1, rng, events)
    if side.id in battle.tallies:
        battle.tallies[side.id].spells_cast += 1
    battle.stack.append(StackItem(side.id, action.card, None, picks, action.x, action.mode))
    if events is not None:
        event = {"event": "battle_cast", "player": side.id, "card": card.name, "id": action.card, "x": action.x,
                 "mana_from": mana_from}
        if picks:
            event["targets"] = [_name(battle, ref) for ref in picks]
        if kicked:
            event["kicked"] = True
        events.append(event)


def activate(battle: Battle, action: Action, rng: random.Random, events) -> None:
    """Pay an activated or loyalty ability's cost and put it on the stack (CR 602)."""
    side = battle.side(action.player)
    permanent = find_permanent(side, action.card)
    ability = activated_abilities(side.cards[action.card])[action.mode]
    cost = ability.cost
    picks = _picks(battle, side, ability, action, 0, rng)
    battle.activated.append((side.id, action.card, action.mode))
    loyalty_left = None
    if cost.loyalty is not None and permanent is not None:
        permanent.loyalty += cost.loyalty
        loyalty_left = permanent.loyalty
    if cost.mana:
        _pay_mana(side, ManaCost.parse(cost.mana), 0, exclude=action.card if cost.tap else -1)
    if cost.tap:
        permanent.tapped = True
    if cost.life:
        lose_life(side, cost.life)
    if events is not None:
        event = {"event": "battle_activate", "player": side.id, "card": side.cards[action.card].name,
                 "id": action.card, "ability": ability.text}
        if picks:
            event["targets"] = [_name(battle, ref) for ref in picks]
        if loyalty_left is not None:
            event["loyalty"] = loyalty_left
        events.append(event)
    if cost.sacrifice:
        _sacrifice(battle, side, cost.sacrifice, action.card, rng, events)
    battle.stack.append(StackItem(side.id, action.card, ability, picks, 0, 0))


def _name(battle: Battle, ref: tuple[str, int]) -> str:
    owner, card = ref
    if owner == STACK:
        item = battle.stack[card]
        return battle.side(item.controller).cards[item.card].name
    side = battle.side(owner)
    return side.cards[card].name if card >= 0 else owner


def resolve_stack(battle: Battle, rng: random.Random, events) -> None:
    """Resolve the stack top first until it is empty (CR 608): a permanent spell enters (and
    its enters abilities trigger), an instant or sorcery does what its text says and goes to
    the graveyard; a countered spell was already moved off."""
    from deckquest.engine.combat.combat import check_outcome, state_based_actions

    while battle.stack:
        item = battle.stack.pop()
        if item is None or battle.outcome:
            continue
        side = battle.side(item.controller)
        if item.ability is not None:
            resolve(battle, item.controller, item.card, item.ability, item.picks, item.x, rng, events, item.mode)
            continue
        card = side.cards[item.card]
        facts = profile(card)
        registered = effect_of(card)
        if facts.is_permanent:
            enter_battlefield(side, item.card)
            if recognition(card).echo:
                battle.echo_due.append((side.id, item.card))
            refresh_statics(battle)
            enters_triggers(battle, item.controller, item.card, rng, events, kicked=item.mode == KICKED)
            if "Legendary" in card.supertypes:
                state_based_actions(battle, events, rng)  # the legend rule, CR 704.5j
        if registered is not None:
            registered.resolve(battle, item.controller, item.card, item.x, rng, events)
        elif not facts.is_permanent:
            ability = spell_ability(card)
            if ability is not None:
                resolve(battle, item.controller, item.card, ability, item.picks, item.x, rng, events, item.mode)
        if not facts.is_permanent:
            side.graveyard.append(item.card)
    check_outcome(battle)
    if battle.outcome:
        battle.step = "over"


# --- what a play is worth (the greedy policies) ----------------------------------------------


def play_value(battle: Battle, action: Action, rng: random.Random | None = None,
               costs: dict | None = None) -> float:
    """How much the greedy policies like a cast or an activation, in mana-value terms: a
    permanent its mana value (a creature a little more for its stats); a spell or ability
    what its effects are worth with the best remaining targets, minus what its cost gives up.
    Negative: better not. `costs` caches cost penalties while one decision weighs many
    actions (they do not depend on the target)."""
    side = battle.side(action.player)
    card = side.cards[action.card]
    if action.kind == act.CAST:
        facts = profile(card)
        if facts.is_permanent or effect_of(card):
            value = card.mana_value + action.x
            if facts.is_creature:
                value += (facts.power + facts.toughness) / 10
            if action.mode == KICKED:  # what the kicked enters abilities do, now
                value += sum(ability_value(battle, side.id, a, (), 0, 0, (side.id, -1))
                             for a in recognition(card).abilities if a.kicked and not slots(a.effects))
            elif facts.statics:  # a lord or an anthem: what it gives the creatures out now
                value += _static_value(battle, side, facts.statics)
            return value
        ability, mode, source = spell_ability(card), action.mode, -1
    else:
        ability, mode, source = activated_abilities(card)[action.mode], 0, action.card
    picks = _picks(battle, side, ability, action, mode, rng)
    value = ability_value(battle, side.id, ability, picks, action.x, mode, (side.id, action.card))
    key = (action.kind, action.player, action.card, action.mode)
    if costs is None or key not in costs:
        penalty = _cost_penalty(side, card, ability, source)
        if costs is None:
            return value - penalty
        costs[key] = penalty
    return value - costs[key]


def _static_value(battle: Battle, side, statics) -> float:
    """A lord's or an anthem's worth: its +N/+N and keywords on the creatures it would give
    them to now (ours count for it, the enemies' against it)."""
    from deckquest.engine.combat.resolve import opposing

    value = 0.0
    for effect in statics:
        gain = effect.power + effect.toughness + 0.5 * len(effect.keywords)
        for other in battle.sides():
            if effect.target.controller == "you" and other is not side:
                continue
            sign = -1.0 if opposing(battle, side.id, other.id) else 1.0
            for permanent in other.battlefield:
                other_card = other.cards[permanent.card]
                if profile(other_card).is_creature and all(
                        c.kind == "another" or (c.kind == "subtype" and c.value in other_card.subtypes)
                        or (c.kind == "color" and c.value in other_card.colors)
                        or (c.kind == "colorless" and not other_card.colors)
                        for c in effect.target.conditions):
                    value += sign * 0.5 * gain
    return value


def _cost_penalty(side, card: Card, ability: Ability, source: int) -> float:
    """What paying the cost gives up: a sacrificed permanent's worth, life, the mana (a little),
    a creature tapped (it cannot attack or block); a loyalty gain counts for it."""
    cost = ability.cost
    if cost is None:
        return 0.0
    penalty = 0.0
    if cost.sacrifice:
        chosen = _sacrifice_choice(side, cost.sacrifice, source)
        penalty += permanent_value(side, find_permanent(side, chosen)) if chosen is not None else 0
    if source < 0:
        return penalty  # a spell's additional cost; its mana is its card's
    if cost.loyalty is not None:
        penalty -= 0.5 * cost.loyalty
    penalty += 0.3 * cost.life + 0.05 * len(cost.mana)
    if cost.tap and profile(card).is_creature:
        penalty += 0.3
    return penalty
