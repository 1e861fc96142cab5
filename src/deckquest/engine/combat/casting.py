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
from typing import Final

from deckquest.cards.model import Card
from deckquest.cards.oracle import Ability, Effect
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.effects import REGISTRY, effect_of
from deckquest.engine.combat.mana import Made, Requirement, Source, max_x_of, paid, pay
from deckquest.engine.combat.profile import profile, profile_in, profiles_of
from deckquest.engine.combat.program import (
    Activated, CardProgram, program_at, program_in, programs_of,
)
from deckquest.engine.combat.combat import check_outcome, state_based_actions
from deckquest.engine.combat.resolve import (
    STACK, Ref, WorthMemo, ability_value, choose_picks, enters_triggers, leave_battlefield, modes_of,
    one_target_value, opposing, permanent_value,
    recognition, resolve, slots, spell_ability, target_options,
)
from deckquest.engine.combat.state import HORDE, Battle, Side, StackItem, enter_battlefield, find_permanent, permanent_of
from deckquest.engine.combat.statics import refresh_statics
from deckquest.engine.game import Events
from deckquest.engine.pc import PC, lose_life
from deckquest.engine.permanents import Permanent

NO_TARGET: Final = ("", -1)
#: The `mode` of a permanent spell's cast action that pays its kicker (CR 702.33).
KICKED: Final = 1
#: An ability may be activated this many times a turn (a guard against endless loops of
#: abilities that untap each other; no built-in card comes near it).
MAX_ACTIVATIONS: Final = 10


def mana_sources(side: Side, exclude: int = -1) -> list[Source]:
    """The side's untapped mana sources; a creature's tap ability needs it free of
    summoning sickness (CR 302.6). `exclude` is a permanent being tapped for its own ability."""
    sources = []
    cards = side.cards
    known = profiles_of(cards)
    for index, permanent in enumerate(side.battlefield):
        if permanent.tapped or permanent.card == exclude:
            continue
        facts = known[permanent.card] or profile_in(cards, known, permanent.card)
        if facts.mana and not (facts.is_creature and permanent.summoning_sick):
            sources.append((index, facts.mana))
    return sources


def _spell_targets(battle: Battle | None, side: Side, code: CardProgram, card: int) -> list[tuple[int, Ref]]:
    """(mode, first target) pairs a spell can be cast with; [(0, NO_TARGET)] when it needs none."""
    ability = code.spell
    if ability is None:
        return [(0, NO_TARGET)]
    found: list[tuple[int, Ref]] = []
    for mode, wanted, kind, _one in code.modes:
        if not wanted:
            found.append((mode, NO_TARGET))
            continue
        if battle is None:
            continue
        refs = target_options(battle, side.id, wanted[0], (side.id, card), kind)
        found += [(mode, ref) for ref in _completable(battle, side, ability, mode, card, refs, len(wanted))]
    return found


def _completable(battle: Battle, side: Side, ability: Ability, mode: int, card: int, refs: list[Ref], wanted: int) -> list[Ref]:
    """The first targets with which every further target can be chosen too (CR 601.2c: a
    spell needs all its targets; "fights target creature you don't control" needs one).
    `wanted`: how many targets the mode chooses."""
    if wanted < 2:
        return refs
    return [ref for ref in refs if choose_picks(battle, side.id, ability, mode, 0, (side.id, card),
                                                None, first=ref) is not None]  # greedy: no draw


def _sacrificeable(side: Side, what: str, source: int) -> list[Permanent]:
    """The permanents the side could sacrifice for a cost: itself, or those of a type or subtype."""
    if what == "self":
        permanent = find_permanent(side, source)
        return [permanent] if permanent is not None else []
    word = what.capitalize()
    return [p for p in side.battlefield if word in side.cards[p.card].subtypes or side.cards[p.card].is_type(word)]


def _sacrifice_choice(side: Side, what: str, source: int) -> int | None:
    """The card id the side sacrifices for a cost: its least valuable permanent that will do."""
    matching = _sacrificeable(side, what, source)
    if not matching:
        return None
    return min(matching, key=lambda p: (permanent_value(side, p), p.card)).card


def castable(side: PC, battle: Battle | None = None, instant_speed: bool = False) -> list[Action]:
    """Lands the side may play and spells it can pay for: one action per card name (copies
    are interchangeable), value of X, mode and first target. Spells whose text is not
    understood are not offered (they would do nothing). Without `battle`, spells that
    need targets are left out. `instant_speed`: instants only, no land.

    What can be cast depends on the hand, whether a land was played and what the untapped
    sources make; only targets and sacrifices depend on the rest of the battle. So the
    battle remembers, for each such state of a side, the actions that need nothing else and
    the cards whose targets (or sacrifices) must still be looked at (`Battle.castable_plans`):
    a state seen before (the other PC acted, the same hand in the next respond window, a
    boss weighing its next play) is not worked out again."""
    if instant_speed and not _holds_instant(side):
        return []  # (most respond windows: known without the sources and the plan's key)
    made = tuple([units for _, units in mana_sources(side)])
    key = (side.id, instant_speed, side.land_played, made, tuple(side.hand))
    plans = battle.castable_plans if battle is not None and not REGISTRY else None
    plan = plans.get(key) if plans is not None else None
    if plan is None:
        plan = _castable_plan(side, made, instant_speed)
        if plans is not None:
            plans[key] = plan
    actions: list[Action] = []
    for entry in plan:
        if isinstance(entry, Action):
            actions.append(entry)
            continue
        card_id, code, xs = entry
        if code.sacrifice and not _sacrificeable(side, code.sacrifice, -1):
            continue
        for mode, target in _spell_targets(battle, side, code, card_id):
            for x in xs:
                actions.append(act.interned(act.CAST, side.id, card_id, x, target, mode))
    return actions


def _holds_instant(side: PC) -> bool:
    """Whether the side's hand holds an instant or a flash card: nothing else is castable
    at instant speed."""
    cards = side.cards
    known = programs_of(cards)
    for card_id in side.hand:
        code = known[card_id]
        if code is None or code.registered is not None or REGISTRY:  # else program_in's answer
            code = program_in(cards, known, card_id)
        if code.instant:
            return True
    return False


def playable_lands(side: PC) -> list[Action]:
    """The land plays `castable` lists for the side, in its order (one per card name, none
    once a land was played this turn, CR 305.2), without working out its spells."""
    if side.land_played:
        return []
    lands = []
    seen = set()
    cards = side.cards
    known = profiles_of(cards)
    for card_id in side.hand:
        if (known[card_id] or profile_in(cards, known, card_id)).is_land:
            name = cards[card_id].name
            if name not in seen:
                seen.add(name)
                lands.append(act.interned(act.PLAY_LAND, side.id, card_id))
    return lands


Planned = Action | tuple[int, CardProgram, range]  # an action, or a card whose targets are still to list


def _castable_plan(side: PC, made: Made, instant_speed: bool) -> tuple[Planned, ...]:
    """`castable` for a side's hand, lands played and mana (see there): the actions that
    depend on nothing else, in order, and (card, program, values of X) for the cards whose
    targets or additional sacrifice must be looked at on the battlefield each time."""
    plan: list[Planned] = []
    seen = set()
    cards = side.cards
    known = programs_of(cards)
    units = 0  # a cost of more mana cannot be paid (a loop: `sum` is looked up and called by name, compiled)
    for units_made in made:
        units += len(units_made)
    for card_id in side.hand:
        code = known[card_id]
        if code is None or code.registered is not None or REGISTRY:  # else program_in's answer
            code = program_in(cards, known, card_id)
        if code.name in seen:
            continue
        seen.add(code.name)
        if code.facts.is_land:
            if not side.land_played and not instant_speed:
                plan.append(act.interned(act.PLAY_LAND, side.id, card_id))
            continue
        if (instant_speed and not code.instant) or not code.offered:
            continue
        cost = code.cost
        if cost.total() > units or paid(made, cost) is None:
            continue
        xs = range(max_x_of(made, cost) + 1)
        if code.sacrifice or any(mode.slots for mode in code.modes):
            plan.append((card_id, code, xs))
        else:
            modes = [mode.number for mode in code.modes] or [0]
            plan.extend(act.interned(act.CAST, side.id, card_id, x, NO_TARGET, mode) for mode in modes for x in xs)
        if code.kicked is not None and paid(made, code.kicked) is not None:
            plan.append(act.interned(act.CAST, side.id, card_id, 0, NO_TARGET, KICKED))
    return tuple(plan)


def activations(side: PC, battle: Battle, sorcery_speed: bool = True) -> list[Action]:
    """Activated abilities the side can pay for now, one action per ability and first target;
    loyalty abilities once per planeswalker per turn, at sorcery speed (CR 606.3)."""
    actions = []
    cards = side.cards
    known = programs_of(cards)
    for permanent in side.battlefield:
        code = known[permanent.card]
        if code is None or code.registered is not None or REGISTRY:  # else program_in's answer
            code = program_in(cards, known, permanent.card)
        for activated in code.activated:  # most permanents (lands, vanilla creatures) have none
            index = activated.number
            if not _can_pay(battle, side, permanent, activated, code.facts.is_creature, sorcery_speed) or \
                    battle.activated.count((side.id, permanent.card, index)) >= MAX_ACTIVATIONS:
                continue
            wanted = activated.slots
            if not wanted:
                actions.append(act.interned(act.ACTIVATE, side.id, permanent.card, 0, NO_TARGET, index))
                continue
            refs = target_options(battle, side.id, wanted[0], (side.id, permanent.card), activated.first_kind)
            for ref in _completable(battle, side, activated.ability, 0, permanent.card, refs, len(wanted)):
                actions.append(act.interned(act.ACTIVATE, side.id, permanent.card, 0, ref, index))
    return actions


def _can_pay(battle: Battle, side: PC, permanent: Permanent, activated: Activated, is_creature: bool, sorcery_speed: bool) -> bool:
    cost = activated.cost
    if cost.loyalty is not None:
        used = any(entry[:2] == (side.id, permanent.card) for entry in battle.activated)
        return sorcery_speed and not used and permanent.loyalty + cost.loyalty >= 0
    if cost.tap and (permanent.tapped or (is_creature and permanent.summoning_sick)):
        return False
    if cost.life and side.life <= cost.life:
        return False
    if cost.sacrifice and not _sacrificeable(side, cost.sacrifice, permanent.card):
        return False
    if activated.mana is not None:
        sources = mana_sources(side, exclude=permanent.card if cost.tap else -1)
        if pay(sources, activated.mana) is None:
            return False
    return True


def _pay_mana(side: Side, cost: Requirement, x: int = 0, exclude: int = -1) -> list[str]:
    """Tap the sources that pay `cost` (read for payment once, in the card's program: reading
    a `ManaCost` again hashed it symbol by symbol, interpreted, at every cast)."""
    sources = mana_sources(side, exclude)
    tapped = pay(sources, cost, x) or []
    for index in tapped:
        side.battlefield[index].tapped = True
    return [side.cards[side.battlefield[i].card].name for i in tapped]


def _sacrifice(battle: Battle, side: Side, what: str, source: int, rng: random.Random, events: Events) -> None:
    chosen = _sacrifice_choice(side, what, source)
    if chosen is not None:
        _sacrifice_event(side, chosen, events)
        leave_battlefield(battle, side, permanent_of(side, chosen), "graveyard", rng, events)


def _sacrifice_event(side: Side, card: int, events: Events) -> None:
    if events is not None:
        events.append({"event": "battle_sacrifice", "player": side.id, "card": side.cards[card].name})


def _picks(battle: Battle, side: Side, ability: Ability | None, action: Action, mode: int,
           rng: random.Random | None) -> tuple[Ref, ...]:
    """All targets of a cast or activation: the action's first one, the rest chosen greedily
    (the horde's at random: from ``rng``, or when only weighing a play, ``rng`` None, from a
    generator of its own seeded 0, so weighing draws nothing from the battle's)."""
    if ability is None or action.target == NO_TARGET:
        return ()
    if len(slots(modes_of(ability)[mode])) == 1:
        return (action.target,)  # the one target is the action's (choose_picks would say so)
    at_random = side.id == HORDE
    if at_random and rng is None:
        rng = random.Random(0)
    picks = choose_picks(battle, side.id, ability, mode, action.x, (side.id, action.card), rng,
                         first=action.target, at_random=at_random)
    return picks or ()


def cast(battle: Battle, action: Action, rng: random.Random, events: Events) -> None:
    """Pay the spell's cost (mana, an additional sacrifice) and put it on the stack with its
    targets (CR 601.2)."""
    side = battle.side(action.player)
    card = side.cards[action.card]
    code = program_at(side.cards, action.card)
    ability = code.spell
    picks = _picks(battle, side, ability, action, action.mode, rng)
    kicked = action.mode == KICKED and ability is None and code.kicked is not None
    mana_from = _pay_mana(side, code.kicked if code.kicked is not None and kicked else code.cost, action.x)
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


def activate(battle: Battle, action: Action, rng: random.Random, events: Events) -> None:
    """Pay an activated or loyalty ability's cost and put it on the stack (CR 602)."""
    side = battle.side(action.player)
    permanent = find_permanent(side, action.card)
    activated = program_at(side.cards, action.card).activated[action.mode]
    ability, cost = activated.ability, activated.cost
    picks = _picks(battle, side, ability, action, 0, rng)
    battle.activated.append((side.id, action.card, action.mode))
    loyalty_left = None
    if cost.loyalty is not None and permanent is not None:
        permanent.loyalty += cost.loyalty
        loyalty_left = permanent.loyalty
    if activated.mana is not None:  # the ability's mana cost ({2}{R}, …) as payment reads it
        _pay_mana(side, activated.mana, 0, exclude=action.card if cost.tap else -1)
    if cost.tap:
        assert permanent is not None  # {T}: only a permanent on the battlefield is offered
        permanent.tapped = True
    if cost.life:
        lose_life(battle.player(side.id), cost.life)
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
        assert item is not None  # a target on the stack is a spell still there
        return battle.side(item.controller).cards[item.card].name
    side = battle.side(owner)
    return side.cards[card].name if card >= 0 else owner


def resolve_stack(battle: Battle, rng: random.Random, events: Events) -> None:
    """Resolve the stack top first until it is empty (CR 608): a permanent spell enters (and
    its enters abilities trigger), an instant or sorcery does what its text says and goes to
    the graveyard; a countered spell was already moved off."""
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
               costs: WorthMemo | None = None) -> float:
    """How much the greedy policies like a cast or an activation, in mana-value terms: a
    permanent its mana value (a creature a little more for its stats); a spell or ability
    what its effects are worth with the best remaining targets, minus what its cost gives up.
    Negative: better not. `costs` is a dict kept while one decision weighs many actions on
    the same battle: it caches the cost penalties that choose a sacrifice (they do not depend
    on the target; the others cost less to work out than to look up) and the worth of damage
    to each object (`resolve.ability_value`'s memo)."""
    side = battle.side(action.player)
    card = side.cards[action.card]
    code = program_at(side.cards, action.card)
    ability: Ability | None
    if action.kind == act.CAST:
        facts = code.facts
        if facts.is_permanent or code.registered:
            value = float(card.mana_value + action.x)
            if facts.is_creature:
                value += (facts.power + facts.toughness) / 10
            if action.mode == KICKED:  # what the kicked enters abilities do, now
                value += sum((ability_value(battle, side.id, a, (), 0, 0, (side.id, -1))
                              for a in code.kicked_abilities), 0.0)
            elif facts.statics:  # a lord or an anthem: what it gives the creatures out now
                value += _static_value(battle, side, facts.statics)
            return value
        ability, mode, source = code.spell, action.mode, -1
        one = code.modes[mode].one
    else:
        activated = code.activated[action.mode]
        ability, mode, source, one = activated.ability, 0, action.card, activated.one
    assert ability is not None  # castable offers a spell only when its text is understood
    if action.target == NO_TARGET:
        one = None
    if one is not None:  # its one target is the action's (`_picks`): most plays weighed
        # without the memo of damage worths: one object's worth is cheap to work out, and a
        # decision weighs few plays on the same object (the memo cost more than it saved)
        value = 0.0 + one_target_value(battle, side.id, one, action.target, action.x, None)
    else:
        picks = _picks(battle, side, ability, action, mode, rng)
        value = ability_value(battle, side.id, ability, picks, action.x, mode, (side.id, action.card), costs)
    if costs is None or ability.cost is None or not ability.cost.sacrifice:
        return value - _cost_penalty(side, card, ability, source)  # (cheap but for a sacrifice)
    key = (action.kind, action.player, action.card, action.mode)
    penalty = costs.get(key)
    if penalty is None:
        penalty = costs[key] = _cost_penalty(side, card, ability, source)
    return value - penalty


def _static_value(battle: Battle, side: Side, statics: tuple[Effect, ...]) -> float:
    """A lord's or an anthem's worth: its +N/+N and keywords on the creatures it would give
    them to now (ours count for it, the enemies' against it)."""
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


def _cost_penalty(side: Side, card: Card, ability: Ability, source: int) -> float:
    """What paying the cost gives up: a sacrificed permanent's worth, life, the mana (a little),
    a creature tapped (it cannot attack or block); a loyalty gain counts for it."""
    cost = ability.cost
    if cost is None:
        return 0.0
    penalty = 0.0
    if cost.sacrifice:
        chosen = _sacrifice_choice(side, cost.sacrifice, source)
        penalty += permanent_value(side, permanent_of(side, chosen)) if chosen is not None else 0
    if source < 0:
        return penalty  # a spell's additional cost; its mana is its card's
    if cost.loyalty is not None:
        penalty -= 0.5 * cost.loyalty
    penalty += 0.3 * cost.life + 0.05 * len(cost.mana)
    if cost.tap and profile(card).is_creature:
        penalty += 0.3
    return penalty
