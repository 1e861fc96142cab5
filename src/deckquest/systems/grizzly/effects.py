"""Cards' effects on the loop: the battles' effect vocabulary read through G-19 to G-26.

Objects an effect can reach are named by plain tuples ("refs"): ``("bear", seat)``, a face-up
creature ``("square", square)``, a creature cast from hand ``("ally", seat, card)``, an
artifact or enchantment ``("perm", seat, card)`` (auras and equipment on a bear included), a
Treasure ``("treasure", seat)`` (G-24), a face-down square card ``("land", square)`` (G-4) and
a player ``("player", seat)``.

Who controls what (G-19, G-22): "creatures you control" are your bears, your creatures and
the face-up creature on your bears' square; creatures "an opponent controls" are the other
bears and creatures and every face-up creature on a square.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

from deckquest.cards.oracle import Ability, Amount, Condition, Effect, Target
from deckquest.systems.grizzly.cards import IGNORED_KINDS
from deckquest.systems.grizzly.config import X_VALUE
from deckquest.systems.grizzly.dungeon import Room

if TYPE_CHECKING:
    from deckquest.systems.grizzly.state import Answer, Events, GrizzlyState, Pending, Step, Task

#: A creature on the loop: a seat's bears, a face-up creature on a square, an ally (its seat
#: and card).
Creature = tuple[Literal["bear", "square"], int] | tuple[Literal["ally"], int, int]
#: An object an effect can reach (the module's docstring): its kind, then its seat or square,
#: and for a permanent its card.
Ref = Creature | tuple[Literal["treasure", "land", "player"], int] | tuple[Literal["perm"], int, int]
#: What an ability comes from: an object, a spell being cast or a creature gone (its card),
#: or a dungeon room.
Source = Ref | tuple[Literal["spell", "gone"], int] | tuple[Literal["room"]]

HARMFUL = frozenset({"damage", "destroy", "exile", "bounce", "discard", "tap", "mill"})
FLIP_LIMIT = 60  # G-R3 reflip: a library of lands stops flipping after this many in a turn


# --- casting (G-6, G-8) -----------------------------------------------------------------------


def cast_tasks(state: "GrizzlyState", seat: int, card_id: int, source: str) -> list["Task"]:
    return [("spell", seat, card_id, source)]


def _spell(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    seat, card_id, source = task[1], task[2], task[3]
    facts = state.facts[card_id]
    state.emit(events, "cast", seat=state.seat_ids[seat], card=facts.name, source=source)
    state.push(*ability_tasks(state, seat, facts.spell, ("spell", card_id), card_id), ("settle", seat, card_id))
    return None


def _settle(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    """Where a resolved spell goes: the graveyard, or the caster's side as a permanent."""
    seat, card_id = task[1], task[2]
    facts = state.facts[card_id]
    if not facts.is_permanent_spell:
        state.to_graveyard(card_id)
        return None
    if facts.is_aura:
        bears = tuple(("attach", s) for s in range(len(state.pos)))
        return seat, "attach", bears
    if facts.is_equipment:
        state.equipped[seat].append(card_id)  # equip costs only mana (G-26)
    elif facts.is_creature:
        state.allies[seat].append(card_id)  # G-R4 all: it fights beside the bears
        state.push(*ability_tasks(state, seat, facts.enters, ("ally", seat, card_id), card_id))
    else:
        state.perms[seat].append(card_id)
        state.push(*ability_tasks(state, seat, facts.enters, ("perm", seat, card_id), card_id))
    return None


def _answer_attach(state: "GrizzlyState", task: "Task", action: Any, rng: random.Random, events: "Events") -> None:
    card_id, bear = task[2], action[1]
    state.auras[bear].append(card_id)
    state.emit(events, "attach", seat=state.seat_ids[task[1]], card=state.name(card_id), bear=state.seat_ids[bear])
    state.push(("check_deaths", task[1], task[2]))


def castable_targets(state: "GrizzlyState", seat: int, card_id: int) -> bool:
    """A spell needs a legal target for each of its targeted effects (modal spells: one mode)."""
    facts = state.facts[card_id]
    if not facts.targeted:
        return True
    for ability in facts.spell:
        if ability.modes:
            if not any(all(_has_target(state, seat, e) for e in mode) for mode in ability.modes):
                return False
        elif not all(_has_target(state, seat, e) for e in ability.effects):
            return False
    return True


def _has_target(state: "GrizzlyState", seat: int, effect: Effect) -> bool:
    return all(has_candidate(state, seat, phrase) for phrase in target_phrases(effect))


def has_candidate(state: "GrizzlyState", controller: int, target: Target) -> bool:
    """Whether a target phrase can name anything. A bear never leaves the game (G-11), so a
    phrase naming a creature or a player with no condition always can: every main phase
    lists spells (G-6) without listing their targets."""
    if not target.conditions and (target.allows("creature") or target.allows("player")):
        if target.controller != "opponent" or len(state.pos) > 1:
            return True
    return bool(candidates(state, controller, target, None))


# --- abilities and effects -------------------------------------------------------------------


def ability_tasks(state: "GrizzlyState", controller: int, abilities: tuple[Ability, ...],
                  source: Source, card_id: int) -> list["Task"]:
    return [("ability", controller, ability, source, card_id) for ability in abilities]


def _ability(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    controller, ability, source, card_id = task[1:5]
    if ability.modes:
        modes = tuple(("mode", i) for i, mode in enumerate(ability.modes)
                      if all(_has_target(state, controller, e) for e in mode))
        if not modes:
            return None
        if len(modes) > 1:
            return controller, "mode", modes
        _push_effects(state, controller, ability.modes[modes[0][1]], source, card_id)
        return None
    _push_effects(state, controller, ability.effects, source, card_id)
    return None


def _answer_mode(state: "GrizzlyState", task: "Task", action: Any, rng: random.Random, events: "Events") -> None:
    controller, ability, source, card_id = task[1:5]
    _push_effects(state, controller, ability.modes[action[1]], source, card_id)


def _push_effects(state: "GrizzlyState", controller: int, effects: tuple[Effect, ...],
                  source: Source, card_id: int) -> None:
    state.push(*[("effect", controller, effect, source, card_id, ()) for effect in effects])


def _effect(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    """Choose the effect's targets one by one (the controller's decisions), then resolve it."""
    controller, effect, source, card_id, chosen = task[1:6]
    phrases = target_phrases(effect)
    if phrases:
        if len(chosen) < len(phrases):
            options = [ref for ref in candidates(state, controller, phrases[len(chosen)], source) if ref not in chosen]
            if len(options) > 1:
                return controller, "target", tuple(options)
            if options:
                state.push(("effect", controller, effect, source, card_id, chosen + (options[0],)))
                return None
            if not chosen:
                return None  # no legal target: the effect does nothing
        refs = list(chosen)
    else:
        refs = _scoped(state, controller, effect.target, source)
    if effect.kind == "fight":
        pair = [source] + refs if effect.target.scope == "self" else refs
        if len(pair) == 2 and _present(state, pair[0]):
            _fight(state, pair[0], pair[1])
    else:
        for ref in refs:
            resolve(state, controller, effect, ref, card_id, rng, events)
    state.push(("check_deaths", controller, card_id))
    return None


def target_phrases(effect: Effect) -> list[Target]:
    """The target phrases an effect's controller chooses for, in order."""
    if effect.kind == "fight":
        return [t for t in (effect.target, effect.other) if t is not None and t.scope == "target"]
    return [effect.target] * effect.target.count if effect.target.scope == "target" else []


def _answer_target(state: "GrizzlyState", task: "Task", action: Any, rng: random.Random, events: "Events") -> None:
    state.push(task[:5] + (task[5] + (action,),))


def _scoped(state: "GrizzlyState", controller: int, target: Target, source: Source) -> list[Ref]:
    if target.scope == "each":
        return candidates(state, controller, target, source)
    if target.scope == "self":
        return [source] if source[0] in ("square", "ally", "perm") and _present(state, source) else []
    if target.scope == "you":
        return [("player", controller)]
    if target.scope == "its_controller" and state.last_player >= 0:
        return [("player", state.last_player)]
    return []  # "defending": no player is attacked here


def _present(state: "GrizzlyState", ref: Source) -> bool:
    if ref[0] == "square":
        return state.sq_up[ref[1]] and state.sq_card[ref[1]] >= 0
    if ref[0] == "ally":
        return ref[2] in state.allies[ref[1]]
    if ref[0] == "perm":
        return ref[2] in state.perms[ref[1]] + state.equipped[ref[1]] + state.auras[ref[1]]
    return True


def candidates(state: "GrizzlyState", controller: int, target: Target,
               source: Source | None) -> list[Ref]:
    """Every object a target phrase can name, in a stable order (bears by seat, squares by
    index, then permanents, Treasures, lands, players)."""
    seats = range(len(state.pos))

    def owned(seat: int) -> bool:
        return target.controller == "any" or (seat == controller) == (target.controller == "you")

    found: list[Ref] = []
    if target.allows("creature"):
        found += [("bear", s) for s in seats if owned(s)]
        mine = state.square_of(controller)
        found += [("square", q) for q in range(state.loop_length) if state.sq_up[q] and state.sq_card[q] >= 0
                  and (target.controller != "you" or q == mine)]
        found += [("ally", s, c) for s in seats if owned(s) for c in dict.fromkeys(state.allies[s])]
    for kind in ("artifact", "enchantment", "planeswalker"):
        if target.allows(kind):
            for s in seats:
                if owned(s):
                    for c in dict.fromkeys(state.perms[s] + state.equipped[s] + state.auras[s]):
                        ref: Ref = ("perm", s, c)
                        if kind in state.facts[c].types and ref not in found:
                            found.append(ref)
    if target.allows("artifact"):
        found += [("treasure", s) for s in seats if owned(s) and state.treasures[s] > 0]  # G-24
    if target.allows("land"):  # G-4: face-down square cards are lands you control
        found += [("land", q) for q in range(state.loop_length) if state.sq_card[q] >= 0 and not state.sq_up[q]]
    if target.allows("player"):
        found += [("player", s) for s in seats if owned(s)]
    if target.conditions:
        found = [ref for ref in found if all(_passes(state, ref, c, source) for c in target.conditions)]
    return found


def _card_of(state: "GrizzlyState", ref: Ref) -> int:
    if ref[0] == "square":
        return state.sq_card[ref[1]]
    if ref[0] in ("ally", "perm"):
        return ref[2]
    return -1


def stats(state: "GrizzlyState", ref: Creature) -> tuple[int, int, frozenset[str]]:
    if ref[0] == "bear":
        return state.bear_stats(ref[1])
    if ref[0] == "square":
        return state.square_stats(ref[1])
    return state.ally_stats(ref[1], ref[2])


def _passes(state: "GrizzlyState", ref: Ref, condition: Condition, source: Source | None) -> bool:
    kind, value = condition.kind, condition.value
    if kind == "another":
        return ref != source
    if ref[0] in ("player", "treasure", "land"):
        return kind in ("not_color", "not_type") and not (kind == "not_type" and value == "artifact" and ref[0] == "treasure")
    card_id = _card_of(state, ref)
    facts = state.facts[card_id] if card_id >= 0 else None
    colors = facts.colors if facts else frozenset({"G"})
    types = facts.types if facts else frozenset({"creature"})
    if kind == "not_color":
        return value not in colors
    if kind == "color":
        return value in colors
    if kind == "colorless":
        return not colors
    if kind == "not_type":
        return value not in types
    if kind == "type":
        return value in types
    if kind == "subtype":
        subtypes = facts.subtypes if facts else frozenset({"bear"})
        return str(value).lower() in subtypes
    if kind in ("mana_value_at_most", "mana_value_at_least"):
        mana_value = facts.mana_value if facts else 2
        return mana_value <= int(value) if kind.endswith("most") else mana_value >= int(value)
    if kind in ("attacking", "blocking", "attacking_or_blocking"):
        return ref == ("square", state.fight_square) or ref == ("bear", state.active)  # G-9
    if ref[0] in ("bear", "square", "ally"):
        power, toughness, keywords = stats(state, ref)
        checks = {
            "power_at_least": lambda: power >= int(value), "power_at_most": lambda: power <= int(value),
            "toughness_at_least": lambda: toughness >= int(value), "toughness_at_most": lambda: toughness <= int(value),
            "keyword": lambda: value in keywords, "no_keyword": lambda: value not in keywords,
        }
        if kind in checks:
            return checks[kind]()
    return False  # tapped, untapped, nonbasic …: nothing on the loop is tapped or basic


def _amount(state: "GrizzlyState", amount: Amount, controller: int) -> int:
    counted = 0
    if amount.count_of is not None:
        wanted = amount.count_of.lower().rstrip("s")
        counted = int(wanted in ("bear", "creature")) + sum(
            1 for c in state.allies[controller] if wanted in state.facts[c].subtypes or wanted == "creature")
    return amount.value(X_VALUE, counted)


def resolve(state: "GrizzlyState", controller: int, effect: Effect, ref: Ref, card_id: int,
            rng: random.Random, events: "Events") -> None:
    """One effect on one object (G-19 to G-26)."""
    kind = effect.kind
    if kind in IGNORED_KINDS or kind == "anthem":
        if events is not None:  # a batch records no events: skip naming the source and target
            state.emit(events, "effect", seat=state.seat_ids[controller], card=_source_name(state, card_id),
                       effect=kind, target=describe(state, ref), ignored=True)
        return
    amount = _amount(state, effect.amount, controller)
    if events is not None:
        size = {"power": amount if effect.x_power else effect.power, "toughness": effect.toughness} \
            if kind == "pump" else {"amount": amount}
        state.emit(events, "effect", seat=state.seat_ids[controller], card=_source_name(state, card_id), effect=kind,
                   target=describe(state, ref), **size)
    if ref[0] == "player":
        state.last_player = ref[1]
        _on_player(state, controller, kind, ref[1], amount, effect, rng, events)
        return
    if ref[0] == "bear":
        state.last_player = ref[1]
    if kind == "damage" and ref[0] in ("bear", "square", "ally"):
        _mark_damage(state, ref, amount)
    elif kind in ("destroy", "exile", "bounce"):
        remove(state, controller, ref, kind, card_id, rng, events)
    elif kind == "pump" and ref[0] in ("bear", "square", "ally"):
        power = amount if effect.x_power else effect.power
        state.pumps.append((ref, power, effect.toughness, frozenset(effect.keywords), controller))  # G-18
    elif kind == "counters":
        if ref[0] == "bear":
            state.counters[ref[1]] += amount
        elif ref[0] == "square":
            state.sq_counters[ref[1]] += amount
    elif kind == "tap" and ref[0] == "bear" and state.facts[card_id].skips_turn:
        state.skips[ref[1]] += 1  # G-21: it skips its next turn
        state.emit(events, "skips_next_turn", seat=state.seat_ids[ref[1]], card=_source_name(state, card_id))


def _source_name(state: "GrizzlyState", card_id: int) -> str:
    return state.name(card_id) if card_id >= 0 else "the dungeon"


def _on_player(state: "GrizzlyState", controller: int, kind: str, seat: int, amount: int, effect: Effect,
               rng: random.Random, events: "Events") -> None:
    if kind == "draw":
        state.draw(seat, amount, rng, events, "effect")
    elif kind == "discard":
        if effect.at_random:
            for _ in range(min(amount, len(state.hands[seat]))):
                card = state.hands[seat].pop(rng.randrange(len(state.hands[seat])))
                state.to_graveyard(card)
                state.emit(events, "discard", seat=state.seat_ids[seat], card=state.name(card), why="effect")
        else:
            state.push(("discard", seat, amount, "effect"))
    elif kind == "mill":
        for _ in range(amount):
            card = state.top_of_library(rng, events)
            if card < 0:
                break
            state.to_graveyard(card)
    elif kind == "scry":
        state.push(("scry", seat, amount))


def _mark_damage(state: "GrizzlyState", ref: Creature, amount: int) -> None:
    if ref[0] == "bear":
        state.damage[ref[1]] += amount
    elif ref[0] == "square":
        state.sq_damage[ref[1]] += amount
    else:
        state.pumps.append((ref, 0, -amount, frozenset(), ref[1]))  # an ally's damage, until its turn


def _fight(state: "GrizzlyState", first: Source, second: Ref) -> None:
    """"Fights": each deals damage equal to its power to the other (both still there)."""
    if first[0] in ("bear", "square", "ally") and second[0] in ("bear", "square", "ally"):
        first_power, second_power = stats(state, first)[0], stats(state, second)[0]
        _mark_damage(state, second, max(first_power, 0))
        _mark_damage(state, first, max(second_power, 0))


def remove(state: "GrizzlyState", controller: int, ref: Ref, how: str, card_id: int,
           rng: random.Random, events: "Events") -> None:
    """Destroy, exile or return to hand: bears die (G-11; a bear never leaves the game);
    a face-up creature dies (G-13) or leaves (G-14); a Treasure is lost (G-24)."""
    if ref[0] == "bear":
        if how == "destroy" and "indestructible" in state.bear_stats(ref[1])[2]:
            return
        state.bear_dies(ref[1], how, card_id, events)
    elif ref[0] == "square":
        square = ref[1]
        if how == "destroy":
            if "indestructible" not in state.square_stats(square)[2]:
                creature_dies(state, square, controller, "destroyed", rng, events)
        else:
            creature_leaves(state, square, how, rng, events)
    elif ref[0] == "ally":
        seat, card = ref[1], ref[2]
        state.allies[seat].remove(card)
        _to_zone(state, card, how, seat)
    elif ref[0] == "perm":
        seat, card = ref[1], ref[2]
        for zone in (state.perms[seat], state.equipped[seat], state.auras[seat]):
            if card in zone:
                zone.remove(card)
                break
        _to_zone(state, card, how, seat)
    elif ref[0] == "treasure":
        state.treasures[ref[1]] -= 1
        state.note_lead()
        state.emit(events, "treasure_lost", seat=state.seat_ids[ref[1]], card=state.name(card_id),
                   treasures=state.treasures[ref[1]])
    elif ref[0] == "land":
        square = ref[1]
        _to_zone(state, state.sq_card[square], how, state.active)
        state.clear_square(square)
        state.refill(square, rng, events)


def _to_zone(state: "GrizzlyState", card: int, how: str, owner: int) -> None:
    if how == "exile":
        state.exile.append(card)  # G-20: to the graveyard at end of turn
    elif how == "bounce":
        state.hands[owner].append(card)
    else:
        state.to_graveyard(card)


def creature_dies(state: "GrizzlyState", square: int, killer: int, how: str, rng: random.Random,
                  events: "Events", in_combat: bool = False) -> None:
    """A face-up creature dies: to the graveyard, its "dies" abilities (the turn player is
    "you", G-15), the ☆ Dragon bounty (G-17, G-R6) and, outside combat, G-13's bonus."""
    card_id = state.sq_card[square]
    facts = state.facts[card_id]
    state.clear_square(square)
    state.to_graveyard(card_id)
    state.emit(events, "kill", seat=state.seat_ids[killer], card=facts.name, square=square, how=how)
    if state.rules.dragon_bounty and facts.is_dragon:
        for seat in bounty_seats(state, killer, in_combat):
            state.gain_treasure(seat, "dragon", events)
            if state.result is not None:
                return
    tasks: list["Task"] = []
    if not in_combat:  # G-13: draw 1 (not on a dash turn, G-7) and place a card; no counter
        if not (killer == state.active and state.dashed):
            state.draw(killer, 1, rng, events, "kill")
        tasks.append(("place", killer, square))
    tasks = ability_tasks(state, state.active, facts.dies, ("gone", card_id), card_id) + tasks
    state.push(*tasks)


def bounty_seats(state: "GrizzlyState", killer: int, in_combat: bool) -> list[int]:
    """G-R6 turn: the kill bonus is the turn player's (G-15); shared: a co-op partner's too."""
    seats = [killer]
    if in_combat and state.partner >= 0 and state.rules.bounty_shared:
        seats.append(state.partner)
    return seats


def creature_leaves(state: "GrizzlyState", square: int, how: str, rng: random.Random, events: "Events") -> None:
    """G-14: it leaves other than by dying; the library's top card takes the square. A card
    returned to hand goes to the turn player's (the flipped card's "owner", seed line 79)."""
    card_id = state.sq_card[square]
    state.clear_square(square)
    _to_zone(state, card_id, how, state.active)
    state.emit(events, "leaves", card=state.name(card_id), square=square, how=how)
    state.refill(square, rng, events)


def check_deaths(state: "GrizzlyState", killer: int, card_id: int, rng: random.Random, events: "Events") -> None:
    """State-based: a creature with lethal damage or toughness 0 or less dies."""
    for seat in range(len(state.pos)):
        _, toughness, keywords = state.bear_stats(seat)
        if toughness <= 0 and (state.damage[seat] == 0 or "indestructible" not in keywords):
            state.bear_dies(seat, "damage" if state.damage[seat] else "toughness", card_id, events)
    for square in range(state.loop_length):
        if state.sq_up[square] and state.sq_card[square] >= 0:
            power, toughness, keywords = state.square_stats(square)
            if toughness <= 0 and (state.sq_damage[square] == 0 or "indestructible" not in keywords):
                creature_dies(state, square, killer, "damage", rng, events)
    for seat in range(len(state.pos)):
        for card in list(state.allies[seat]):
            if state.ally_stats(seat, card)[1] <= 0:
                state.allies[seat].remove(card)
                state.to_graveyard(card)


def _check_deaths(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    check_deaths(state, task[1], task[2], rng, events)
    return None


def anthem_reaches(effect: Effect, source_seat: int, controller: int, colors: frozenset[str],
                   subtypes: frozenset[str], is_source: bool) -> bool:
    """Does a static +N/+N reach a creature controlled by ``controller`` (-1: nobody)?"""
    target = effect.target
    if target.controller == "you" and controller != source_seat:
        return False
    if target.controller == "opponent" and controller == source_seat:
        return False
    for condition in target.conditions:
        kind, value = condition.kind, condition.value
        if kind == "another" and is_source:
            return False
        if kind == "subtype" and str(value).lower() not in subtypes:
            return False
        if kind == "color" and value not in colors:
            return False
        if kind == "colorless" and colors:
            return False
    return True


# --- scry and dungeon rooms ------------------------------------------------------------------


def _scry(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    seat, count = task[1], task[2]
    if len(state.library) < count and not state.rules.expert:
        state.reshuffle(rng, events)  # G-23: smaller than a scry needs
    looked = tuple(state.library.pop() for _ in range(min(count, len(state.library))))
    state.push(("scry card", seat, looked, (), ()))
    return None


def _scry_card(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    seat, looked, kept, bottom = task[1:5]
    if not looked:
        state.library.extend(reversed(kept))
        state.library[0:0] = bottom
        state.emit(events, "scry", seat=state.seat_ids[seat], top=len(kept), bottom=len(bottom))
        return None
    return seat, "scry", (("top", looked[0]), ("bottom", looked[0]))


def _answer_scry(state: "GrizzlyState", task: "Task", action: Any, rng: random.Random, events: "Events") -> None:
    seat, looked, kept, bottom = task[1:5]
    if action[0] == "top":
        state.push(("scry card", seat, looked[1:], kept + (looked[0],), bottom))
    else:
        state.push(("scry card", seat, looked[1:], kept, bottom + (looked[0],)))


def room_tasks(state: "GrizzlyState", seat: int, room: Room) -> list["Task"]:
    if room.effect == "scry":
        return [("scry", seat, room.amount)]
    if room.effect == "draw":
        return [("room draw", seat, room.amount)]
    if room.effect == "counter":
        return [("room counter", seat, room.amount)]
    if room.effect == "weaken":
        return [("effect", seat, room_effect(room), ("room",), -1, ())]
    if room.effect == "mill":
        return [("room mill", seat, room.amount)]
    return []


def room_effect(room: Room) -> Effect:
    """A `weaken` room's effect: a creature of your choice gets -N/-0 until your next turn."""
    return Effect("pump", Target("target", ("creature",)), power=-room.amount)


def _room_draw(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    state.draw(task[1], task[2], rng, events, "dungeon")
    return None


def _room_counter(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    state.gain_counters(task[1], task[2], "dungeon", events)
    return None


def _room_mill(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> "Pending | None":
    for _ in range(task[2]):
        card = state.top_of_library(rng, events)
        if card < 0:
            break
        state.exile.append(card)
    return None


def describe(state: "GrizzlyState", ref: Ref) -> str:
    """A ref in words, for events and the human agent."""
    kind = ref[0]
    if kind in ("bear", "player", "treasure"):
        word = {"bear": "'s bears", "player": "", "treasure": "'s Treasure"}[kind]
        return state.seat_ids[ref[1]] + word
    if kind == "square":
        return f"{state.name(state.sq_card[ref[1]])} on square {ref[1]}"
    if ref[0] in ("ally", "perm"):
        return f"{state.seat_ids[ref[1]]}'s {state.name(ref[2])}"
    if kind == "land":
        return f"the face-down card on square {ref[1]}"
    return str(ref)


def is_harmful(effect: Effect) -> bool:
    return effect.kind in HARMFUL or (effect.kind == "pump" and (effect.power < 0 or effect.toughness < 0))


STEPS: dict[str, "Step"] = {
    "spell": _spell, "settle": _settle, "ability": _ability, "effect": _effect, "check_deaths": _check_deaths,
    "scry": _scry, "scry card": _scry_card, "room draw": _room_draw, "room counter": _room_counter,
    "room mill": _room_mill,
}
ANSWERS: dict[str, "Answer"] = {
    "settle": _answer_attach, "ability": _answer_mode, "effect": _answer_target, "scry card": _answer_scry,
}
