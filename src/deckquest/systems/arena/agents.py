"""Agents for Arena seats: ``random``, ``greedy`` and ``human`` (docs/arena.md).

- ``RandomAgent``: a uniformly random legal action.
- ``GreedyAgent``: a fair stand-in for a player. Places its planeswalker nearest the enemy;
  activates the card whose figures can deal the most expected damage this turn (the
  planeswalker while it has figures to summon and nothing better); summons the strongest
  figures nearest the enemy; casts a spell when it does good (damage to enemies, healing
  friends, bonuses before attacking); leaves a figure where it is when it can attack from
  there, else moves it where it can attack for the most expected damage (or, failing that,
  nearest an enemy), counting swipes and falls as expected damage taken and a glyph as a gain;
  attacks for the best expected damage (a planeswalker's wounds count double: it wins the game).
- ``HumanAgent``: draws the map, marks reachable hexes or targets, lists the legal actions
  numbered and reads a number through injected ``input``/``output`` callables (the run's
  terminal, ``GameSystem.seat_agent``); ``save`` or ``quit`` typed ends the run (``StopRun``).
"""

from __future__ import annotations

import random
from typing import Callable, Hashable

from deckquest.engine.game import Decision, StopRun
from deckquest.systems.arena.cards import Bonus, Damage, Draw, Heal, Strike
from deckquest.systems.arena.combat import expected_wounds
from deckquest.systems.arena.hexes import distance
from deckquest.systems.arena.movement import Place
from deckquest.systems.arena.render import describe, draw_map
from deckquest.systems.arena.state import DONE, ArenaState, Figure


class RandomAgent:
    name = "random"

    def choose(self, state: ArenaState, decision: Decision, rng: random.Random) -> Hashable:
        return decision.actions[rng.randrange(len(decision.actions))]


class GreedyAgent:
    """Moves to engage and attacks for the best expected damage (see the module docstring)."""

    name = "greedy"

    def choose(self, state: ArenaState, decision: Decision, rng: random.Random) -> Hashable:
        actions = decision.actions
        if len(actions) == 1:
            return actions[0]
        return getattr(self, "_" + decision.kind)(state, actions)

    def _place(self, state: ArenaState, actions: tuple) -> Hashable:
        enemy = [p for seat, zone in state.game.battlefield.starts.items() if seat != state.seat for p in zone]
        return min(actions, key=lambda a: sum(distance(a[1][0], p) for p in enemy))

    def _activate(self, state: ArenaState, actions: tuple) -> Hashable:
        return max(actions, key=lambda a: _card_value(state, a[1]))

    def _summon(self, state: ArenaState, actions: tuple) -> Hashable:
        enemies = _enemies(state)

        def value(action: tuple) -> float:
            if action == DONE:
                return -1e9
            card = state.game.army[state.seat].card(action[1])
            near = min((distance(action[2][0], h) for g in enemies for h in g.hexes), default=0)
            return card.attack + card.defence + card.life + card.cost / 100 - near / 10
        return max(actions, key=value)

    def _cast(self, state: ArenaState, actions: tuple) -> Hashable:
        best = max(actions, key=lambda a: _spell_value(state, a))
        return best if _spell_value(state, best) > 0 else DONE

    def _move(self, state: ArenaState, actions: tuple) -> Hashable:
        for action in actions:
            if action != DONE and not state.attack_targets(state.figures[action[1]]):
                return action
        return DONE

    def _destination(self, state: ArenaState, actions: tuple) -> Hashable:
        f = state.figures[state.choosing or ""]
        found = state.routes(f)
        sword = float(state.game.rules.dice.sword)
        enemies = _enemies(state)

        def value(action: tuple) -> float:
            place: Place = action[1]
            route = found[place]
            gain = _damage_from(state, f, place)
            glyph = 0.5 if any(h in state.game.glyph_hexes for h in place) else 0.0
            near = min((distance(h, e) for h in place for g in enemies for e in g.hexes), default=0)
            return gain + glyph - (route.swipes + route.falls) * sword - near / 100 - route.cost / 1000
        return max(actions, key=value)

    def _attack(self, state: ArenaState, actions: tuple) -> Hashable:
        def value(action: tuple) -> float:
            if action[0] == "attack":
                return _attack_value(state, state.figures[action[1]], state.figures[action[2]])
            if action[0] in ("cast", "ability"):
                return _spell_value(state, action)
            return 0.0
        best = max(actions, key=value)
        return best if value(best) > 0 else DONE

    def _discard(self, state: ArenaState, actions: tuple) -> Hashable:
        return actions[0]


def _enemies(state: ArenaState) -> list[Figure]:
    return [g for g in state.on_map() if g.seat != state.seat]


def _attack_value(state: ArenaState, f: Figure, g: Figure) -> float:
    attack, defence = state.attack_dice(f, g)
    worth = expected_wounds(attack, defence, state.game.rules.dice, g.card.life - g.damage)
    return worth * (2 if g.card.category == "planeswalker" else 1)


def _damage_from(state: ArenaState, f: Figure, place: Place) -> float:
    """The best expected damage ``f`` could deal standing on ``place``."""
    hexes, level = f.hexes, f.level
    f.hexes, f.level = place, max(state.game.terrain.levels[h] for h in place)
    try:
        return max((_attack_value(state, f, g) for g in state.attack_targets(f)), default=0.0)
    finally:
        f.hexes, f.level = hexes, level


def _card_value(state: ArenaState, card_name: str) -> float:
    """What activating a card is worth now: its figures' best expected damage, reaching by a
    move where they cannot attack from where they stand; summoning counts 1.5."""
    seat = state.seat
    total = 0.0
    for f in state.army_figures(seat, card_name):
        now = max((_attack_value(state, f, g) for g in state.attack_targets(f)), default=0.0)
        if now == 0.0:
            now = max((_damage_from(state, f, p) for p in state.routes(f)), default=0.0)
        total += now
    card = state.game.army[seat].card(card_name)
    if card.category == "planeswalker" and state.army_figures(seat, None, "stock"):
        total += 1.5
    return total


def _spell_value(state: ArenaState, action: tuple) -> float:
    """What a spell or ability does for the seat, in expected wounds."""
    if action == DONE:
        return 0.0
    if action[0] == "cast":
        effects = state.game.spells[action[1]].effects
        target = action[2]
    else:
        effects = next(a for a in state.figures[action[1]].card.activated() if a.name == action[2]).effects
        target = action[3]
    g = state.figures[target] if target else None
    mine = g is not None and g.seat == state.seat
    value = 0.0
    for effect in effects:
        if isinstance(effect, Damage) and g is not None and not effect.target.each:
            hit = min(effect.amount, g.card.life - g.damage) * (2 if g.card.category == "planeswalker" else 1)
            value += -hit if mine else hit
        elif isinstance(effect, Strike) and g is not None and not mine:
            value += expected_wounds(effect.dice, state.stat(g, "defence"), state.game.rules.dice, g.card.life - g.damage)
        elif isinstance(effect, Heal) and g is not None and mine:
            value += min(effect.amount, g.damage)
        elif isinstance(effect, Bonus):
            value += 0.3 * effect.amount if state.stage != "attack" or effect.stat in ("attack", "range") else 0.0
        elif isinstance(effect, Draw):
            value += 0.3 * effect.count
    return value


class HumanAgent:
    """A person at the terminal: the map (reachable hexes marked ``o``, attack targets ``x``),
    the numbered legal actions, a number read back. Anything else is asked again; at the end of
    input it answers ``done`` (or the first action) so a game always finishes; ``save`` or
    ``quit`` typed at a prompt ends the run cleanly (``StopRun``: "abandoned")."""

    name = "human"

    def __init__(self, input: Callable[[str], str] = input, output: Callable[[str], None] = print):
        self.input = input
        self.output = output
        self.ended = False

    def choose(self, state: ArenaState, decision: Decision, rng: random.Random) -> Hashable:
        actions = decision.actions
        if self.ended:
            return DONE if DONE in actions else actions[0]
        self.output(f"round {state.round}, {decision.actor}: {decision.kind}")
        self.output(draw_map(state, _marks(state, decision)))
        hand = state.hands.get(decision.actor)
        if hand:
            self.output(f"  hand: {', '.join(hand)}")
        for number, action in enumerate(actions, start=1):
            self.output(f"  {number}. {describe(state, action)}")
        while True:
            try:
                answer = self.input(f"choose 1-{len(actions)}: ").strip()
            except EOFError:
                self.ended = True
                self.output("(end of input: done from now on)")
                return DONE if DONE in actions else actions[0]
            if answer.lower() in ("save", "quit"):
                raise StopRun(f"`{answer.lower()}`: the game stops here")
            if answer.isascii() and answer.isdigit() and len(answer) < 7 and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            self.output(f"please answer with a number from 1 to {len(actions)}")


def _marks(state: ArenaState, decision: Decision) -> dict:
    marks = {}
    for action in decision.actions:
        if not isinstance(action, tuple):
            continue
        if action[0] in ("to", "place", "summon"):
            for h in action[-1]:
                if state.occupant.get(h) is None:
                    marks[h] = "o"
        elif action[0] == "attack":
            for h in state.figures[action[2]].hexes:
                marks[h] = "x"
    return marks


AGENTS: dict[str, Callable[[], object]] = {"random": RandomAgent, "greedy": GreedyAgent, "human": HumanAgent}
