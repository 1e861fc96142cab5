"""Combat with a flipped creature (G-9 to G-15).

The active player's bears, a co-op partner's bears and their creatures cast from hand are
**one creature** (G-15, reading: powers and toughnesses add up, damage is shared, keywords are
pooled), fighting the flipped creature; every creature in the fight is attacking and
blocking (G-9), so first strike and double strike order the damage both ways, deathtouch
and protection from green (the bears' colour) matter, and evasion does not.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal, Sequence

from deckquest.systems.grizzly import effects

if TYPE_CHECKING:
    from deckquest.systems.grizzly.state import Events, GrizzlyState, Step, Task

#: A creature of the bears' side in a fight: a bear, or an ally of one (G-15).
Fighter = tuple[Literal["bear"], int] | tuple[Literal["ally"], int, int]

FIRST = frozenset({"first strike", "double strike"})
GREEN = frozenset({"G"})  # the bears' colour (G-1)
PROTECTIONS = tuple((color, f"protection from {word}")
                    for color, word in (("W", "white"), ("U", "blue"), ("B", "black"), ("R", "red"), ("G", "green")))


def fighters(state: "GrizzlyState") -> list[Fighter]:
    """The refs making up the one combined creature: bears first, then their allies."""
    seats = [state.active] + ([state.partner] if state.partner >= 0 else [])
    seats = [s for s in seats if state.square_of(s) == state.fight_square]  # a bear sent home is out
    return [("bear", s) for s in seats] + [("ally", s, c) for s in seats for c in state.allies[s]]


def combined(state: "GrizzlyState",
             refs: Sequence[effects.Creature]) -> tuple[int, int, frozenset[str], frozenset[str]]:
    """Power, toughness, keywords and colours of the one combined creature (G-15)."""
    power = toughness = 0
    keywords: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    for ref in refs:
        p, t, k = effects.stats(state, ref)
        power, toughness, keywords = power + p, toughness + t, keywords | k
        colors |= state.facts[ref[2]].colors if ref[0] == "ally" else GREEN
    return power, toughness, keywords, colors


def _dealt(amount: int, source_colors: frozenset[str], victim_keywords: frozenset[str]) -> int:
    """Damage after protection from a colour of the source."""
    for color, protection in PROTECTIONS:
        if color in source_colors and protection in victim_keywords:
            return 0
    return max(amount, 0)


def _lethal(damage: int, toughness: int, deathtouch: bool, keywords: frozenset[str]) -> bool:
    if "indestructible" in keywords:
        return False
    return damage > 0 and (damage >= toughness or deathtouch)


def exchange(ours: tuple[int, int, frozenset[str], frozenset[str]],
             theirs: tuple[int, int, frozenset[str], frozenset[str]]) -> tuple[bool, bool]:
    """Combat damage between two creatures, first strike first: (ours die, theirs die)."""
    our_power, our_toughness, our_keywords, our_colors = ours
    their_power, their_toughness, their_keywords, their_colors = theirs
    to_us = to_them = 0
    we_die = they_die = False
    steps = ("first", "regular") if (our_keywords | their_keywords) & FIRST else ("regular",)
    for step in steps:
        we_strike = not we_die and _strikes(our_keywords, step)
        they_strike = not they_die and _strikes(their_keywords, step)
        if we_strike:
            to_them += _dealt(our_power, our_colors, their_keywords)
        if they_strike:
            to_us += _dealt(their_power, their_colors, our_keywords)
        they_die = they_die or _lethal(to_them, their_toughness, "deathtouch" in our_keywords, their_keywords)
        we_die = we_die or _lethal(to_us, our_toughness, "deathtouch" in their_keywords, our_keywords)
    return we_die, they_die


def _strikes(keywords: frozenset[str], step: str) -> bool:
    if step == "first":
        return bool(keywords & FIRST)
    return "first strike" not in keywords or "double strike" in keywords


def fight(state: "GrizzlyState", square: int, card_id: int, rng: random.Random, events: "Events") -> None:
    """G-10 win, G-11 lose, G-12 trade (the loss, then the win); a creature that survives
    stays face up (G-R2 stays) or goes to the graveyard (G-R2 leaves)."""
    refs = fighters(state)
    theirs = state.square_stats(square)
    their_colors = state.facts[card_id].colors
    if refs:
        ours = combined(state, refs)
        we_die, they_die = exchange(ours, (*theirs, their_colors))
    else:
        ours, we_die, they_die = (0, 0, frozenset(), frozenset()), False, False
    seats = [ref[1] for ref in refs if ref[0] == "bear"]
    result = {(False, True): "win", (True, False): "lose", (True, True): "trade"}.get((we_die, they_die), "stand-off")
    if events is not None:  # a batch records no events: skip working out their fields
        state.emit(events, "bears_fight", seat=state.seat_ids[state.active], card=state.name(card_id), square=square,
                   partner=state.seat_ids[state.partner] if state.partner >= 0 and state.partner in seats else None,
                   power=theirs[0], toughness=theirs[1], bears_power=ours[0], bears_toughness=ours[1], result=result)
    if we_die:  # G-11 (first, in a trade: G-12)
        for ref in refs:
            if ref[0] == "bear":
                state.bear_dies(ref[1], "combat", card_id, events)
            else:
                state.allies[ref[1]].remove(ref[2])
                state.to_graveyard(ref[2])
    if not they_die:
        _survivor(state, square, card_id, rng, events)
        return
    state.push(*[("win bonus", seat, square) for seat in reversed(seats)])  # the partner's first
    effects.creature_dies(state, square, state.active, "combat", rng, events, in_combat=True)


def _survivor(state: "GrizzlyState", square: int, card_id: int, rng: random.Random, events: "Events") -> None:
    """G-R2: stays face up with its damage removed, or leaves for the graveyard (G-14 refill)."""
    state.sq_damage[square] = 0
    if state.rules.survivor_leaves:
        state.clear_square(square)
        state.to_graveyard(card_id)
        state.refill(square, rng, events)


def _win_bonus(state: "GrizzlyState", task: "Task", rng: random.Random, events: "Events") -> None:
    """G-10: draw 1 (not the active player on a dash turn, G-7), a +1/+1 counter (G-R7), and
    the active player places a card from hand on the square (the partner places none, G-15)."""
    seat, square = task[1], task[2]
    if not (seat == state.active and state.dashed):
        state.draw(seat, 1, rng, events, "win")
    state.gain_counters(seat, 1, "win", events)
    if seat == state.active:
        state.push(("place", seat, square))
    return None


STEPS: dict[str, "Step"] = {"win bonus": _win_bonus}
