"""Agents for Grizzly Bears' Adventure: they answer decisions and never change the game.

- ``first``: always the first legal action (roll, end the phase, go alone, accept, cast).
- ``random``: a uniformly random legal action.
- ``greedy``: weighs a dash against the die, co-op against going alone, and which spell to
  cast on what (documented in docs/grizzly.md).
- ``PolicyAgent``: a seat's ordered policy rules from the script, tried first; a decision no
  rule answers goes to the seat's agent.
- ``HumanAgent``: the terminal: the loop as text, each bear's square and counters, the hand,
  numbered choices; input and output through callables so it is testable.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Hashable, Sequence

from deckquest.cards.oracle import Effect
from deckquest.engine.game import Agent, Decision, StopRun
from deckquest.systems.grizzly import combat, effects
from deckquest.systems.grizzly.config import PolicyRule
from deckquest.systems.grizzly.state import Action, GrizzlyState, next_rooms

ROOM_VALUE = {"draw": 1.0, "counter": 1.0, "scry": 0.3, "weaken": 0.2, "mill": 0.0, "none": 0.0}


class FirstAgent:
    name = "first"

    def choose(self, state: GrizzlyState, decision: Decision, rng: random.Random) -> Hashable:
        return decision.actions[0]


class RandomAgent:
    name = "random"

    def choose(self, state: GrizzlyState, decision: Decision, rng: random.Random) -> Hashable:
        return decision.actions[rng.randrange(len(decision.actions))]


# --- greedy -----------------------------------------------------------------------------------


def keep_value(state: GrizzlyState, seat: int, card_id: int) -> float:
    """How much a card in hand is worth keeping: a spell worth casting, else its dash."""
    facts = state.facts[card_id]
    if facts.is_land:
        return 0.0
    value = 0.3 * min(facts.mana_value, 6)
    if facts.castable_from_hand(state.rules.spells_all):
        value += spell_value(state, seat, card_id)
    return value


def spell_value(state: GrizzlyState, seat: int, card_id: int) -> float:
    facts = state.facts[card_id]
    value = float(facts.attach_power + facts.attach_toughness)
    for effect in facts.statics:
        if effect.target.scope == "each" and effect.target.controller == "you":
            value += effect.power + effect.toughness
    if facts.is_creature:
        value += (facts.power + facts.toughness) / 2
    for ability in facts.spell:
        for effect in ability.effects or (ability.modes[0] if ability.modes else ()):
            if effect.kind == "draw":
                value += effect.amount.fixed
            elif effects.is_harmful(effect) and effect.target.scope == "target":
                value += 1.5
            elif effects.is_harmful(effect) and effect.target.scope == "each":
                value -= 1.0 if effect.target.controller != "opponent" else -1.5
    return value


def target_score(state: GrizzlyState, seat: int, effect: Effect, ref: effects.Ref) -> float:
    """Harmful effects go to the creature being fought when they remove it (G-13, G-14), else
    to what a kill costs its owner most (counters, gear, the way round the loop, a Treasure),
    weighted by how close the owner is to winning; helpful ones to the seat's own bears."""
    harmful = effects.is_harmful(effect)
    kind = ref[0]
    mine = kind in ("bear", "ally", "perm", "treasure", "player") and ref[1] == seat
    if not harmful:
        return {"bear": 10.0, "player": 9.0, "ally": 5.0}.get(kind, 0.0) if mine else -1.0
    if mine:
        return 0.5 if kind == "player" and effect.kind not in ("discard", "mill") else -10.0
    if kind == "square":
        kills = effect.kind in ("destroy", "exile", "bounce") or (
            effect.kind == "damage" and effect.amount.value(5) >= state.square_stats(ref[1])[1])
        return (10.0 if ref[1] == state.fight_square else 3.0) if kills else 0.2
    if kind == "land":
        return 0.2
    threat = 1 + state.treasures[ref[1]] / 2
    if kind == "bear":
        owner = ref[1]
        lost = state.counters[owner] + 1.5 * len(state.auras[owner]) + state.pos[owner] / 3
        if effect.kind == "damage" and effect.amount.value(5) < state.bear_stats(owner)[1]:
            lost = 0.0
        return lost * threat
    if kind == "treasure":
        return 6.0 * threat
    if kind == "player":
        return threat if effect.kind == "discard" else 0.1
    return 1.0 * threat


def best_target(state: GrizzlyState, seat: int, card_id: int) -> float:
    """The best target score of a spell's first targeted effect (0 when it names none)."""
    for ability in state.facts[card_id].spell:
        for effect in ability.effects or (ability.modes[0] if ability.modes else ()):
            if effect.target.scope == "target":
                found = effects.candidates(state, seat, effect.target, None)
                return max((target_score(state, seat, effect, ref) for ref in found), default=0.0)
    return 0.0


class GreedyAgent:
    """One step of look-ahead with simple weights (docs/grizzly.md, "Agents")."""

    name = "greedy"

    def choose(self, state: GrizzlyState, decision: Decision, rng: random.Random) -> Hashable:
        handler = GREEDY_ANSWERS.get(decision.kind)
        if handler is None:
            return decision.actions[0]
        actions: tuple[Any, ...] = decision.actions  # a seat's decision's actions are Actions
        return handler(self, state, state.seat_index(decision.actor), actions)

    def _main(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        for action in actions:
            if action[0] == "equip":
                return action
        casts = [a for a in actions if a[0] == "cast" and self._worth_casting(state, seat, a[1])]
        if casts:
            return max(casts, key=lambda a: spell_value(state, seat, a[1]))
        dashes = [a for a in actions if a[0] == "dash" and self._worth_dashing(state, seat, a[1])]
        if dashes:
            return max(dashes, key=lambda a: state.facts[a[1]].mana_value)
        return actions[0]

    def _worth_casting(self, state: GrizzlyState, seat: int, card_id: int) -> bool:
        """Worth it: a positive value and, for a removal, a target worth hitting now."""
        if spell_value(state, seat, card_id) <= 0:
            return False
        return not state.facts[card_id].targeted or best_target(state, seat, card_id) >= 1.5

    def _worth_dashing(self, state: GrizzlyState, seat: int, card_id: int) -> bool:
        """A dash of 5 or more that does not cost a lap bonus (G-7) and is not a spell worth
        keeping."""
        steps = state.facts[card_id].mana_value
        if steps < 5:
            return False
        length = state.loop_length
        passes_home = state.pos[seat] + steps > length if state.rules.corner \
            else state.pos[seat] + steps >= length
        castable = state.facts[card_id].castable_from_hand(state.rules.spells_all)
        return not passes_home and (not castable or spell_value(state, seat, card_id) <= 1)

    def _co_op(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        offers = [a for a in actions if a[0] == "offer"]
        square = state.fight_square
        if state.sq_up[square]:
            alone = self._beats(state, [("bear", seat)], square)
            for offer in offers:
                partner = state.seat_index(offer[1])
                if not alone and self._beats(state, [("bear", seat), ("bear", partner)], square):
                    return offer
            return actions[0]
        threat = state.config.treasures_to_win - 1
        safe = [a for a in offers if state.treasures[state.seat_index(a[1])] < threat]
        return min(safe, key=lambda a: state.treasures[state.seat_index(a[1])]) if safe else actions[0]

    def _beats(self, state: GrizzlyState, refs: list[effects.Creature], square: int) -> bool:
        theirs = (*state.square_stats(square), state.facts[state.sq_card[square]].colors)
        we_die, they_die = combat.exchange(combat.combined(state, refs), theirs)
        return they_die and not we_die

    def _co_op_answer(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        """Accept when little progress is at stake (the bears go home on a loss), or a face-up
        creature the two beat; else pay the cheapest card."""
        square = state.fight_square
        if state.sq_up[square]:
            accept = self._beats(state, [("bear", state.active), ("bear", seat)], square)
        else:
            accept = state.pos[seat] * 3 <= state.loop_length
        refusals = [a for a in actions if a[0] == "refuse"]
        if accept or not refusals:
            return actions[0]
        return min(refusals, key=lambda a: keep_value(state, seat, a[1]))

    def _flipped_spell(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        card_id = state.sq_card[state.fight_square]
        return actions[0] if spell_value(state, seat, card_id) >= 0 else actions[1]

    def _target(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        task = state.waiting
        if task is None:
            return actions[0]
        effect = task[2]
        if effect.kind == "fight" and not task[5]:
            mine = [a for a in actions if a[0] in ("bear", "ally") and a[1] == seat]
            return mine[0] if mine else actions[0]
        if effect.kind == "fight":
            return max(actions, key=lambda a: 10 - effects.stats(state, a)[1] if a[0] != "player" else -99)
        return max(actions, key=lambda a: target_score(state, seat, effect, a))

    def _attach(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        task = state.waiting
        facts = state.facts[task[2]] if task is not None else None
        if facts is not None and facts.attach_power + facts.attach_toughness < 0:
            others = [a for a in actions if a[1] != seat]
            return max(others, key=lambda a: state.treasures[a[1]]) if others else actions[0]
        return ("attach", seat)

    def _place(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        return min(actions, key=lambda a: keep_value(state, seat, a[1]))

    def _discard(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        return min(actions, key=lambda a: keep_value(state, seat, a[1]))

    def _lap(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        best = max(ROOM_VALUE[state.rooms[i].effect] for i in next_rooms(state, seat))
        return ("venture",) if best >= 1 else ("counter",)

    def _room(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        return max(actions, key=lambda a: ROOM_VALUE[state.rooms[a[1]].effect])

    def _scry(self, state: GrizzlyState, seat: int, actions: Sequence[Action]) -> Action:
        return actions[0] if keep_value(state, seat, actions[0][1]) >= 1.5 else actions[1]


# The decisions the greedy agent weighs, by kind; it answers any other with the first action.
GREEDY_ANSWERS: dict[str, Callable[[GreedyAgent, GrizzlyState, int, Sequence[Action]], Action]] = {
    "main": GreedyAgent._main, "co-op": GreedyAgent._co_op, "co-op answer": GreedyAgent._co_op_answer,
    "flipped spell": GreedyAgent._flipped_spell, "target": GreedyAgent._target, "attach": GreedyAgent._attach,
    "place": GreedyAgent._place, "discard": GreedyAgent._discard, "lap": GreedyAgent._lap,
    "room": GreedyAgent._room, "scry": GreedyAgent._scry,
}


# --- seat policies ------------------------------------------------------------------------------


class PolicyAgent:
    """A seat's ordered rules first, then ``fallback``. ``rules`` None: the rules the game's
    config gives the deciding seat (a script's ``seat`` block), so one agent serves any seat."""

    def __init__(self, rules: Sequence[PolicyRule] | None, fallback: Agent):
        self.rules = None if rules is None else tuple(rules)
        self.fallback = fallback
        self.name = fallback.name

    def choose(self, state: GrizzlyState, decision: Decision, rng: random.Random) -> Hashable:
        seat = state.seat_index(decision.actor)
        rules = self.rules if self.rules is not None else state.config.seats[seat].policy
        for rule in rules:
            action = rule_answer(rule, state, seat, decision)
            if action is not None:
                return action
        return self.fallback.choose(state, decision, rng)


def rule_answer(rule: PolicyRule, state: GrizzlyState, seat: int, decision: Decision) -> Hashable | None:
    """The action a rule picks for this decision, or None when it does not apply."""
    actions: tuple[Any, ...] = decision.actions  # a seat's decision's actions are Actions
    kind, verb = decision.kind, rule.action
    if kind == "main" and ("roll",) in actions:
        if verb == "dash":
            dashes: list[Action] = [a for a in actions
                                    if a[0] == "dash" and state.facts[a[1]].mana_value >= rule.threshold]
            return max(dashes, key=lambda a: state.facts[a[1]].mana_value) if dashes else None
        return ("roll",) if verb == "roll" else None
    if kind == "co-op":
        if verb == "no co-op":
            return ("alone",)
        if verb == "offer co-op":
            square = state.fight_square
            known = state.sq_up[square] and state.facts[state.sq_card[square]].is_creature
            if rule.threshold and not (known and state.square_stats(square)[0] >= rule.threshold):
                return None
            offers: list[Action] = [a for a in actions if a[0] == "offer"]
            return min(offers, key=lambda a: state.treasures[state.seat_index(a[1])])
        return None
    if kind == "co-op answer":
        if verb == "accept co-op":
            return ("accept",)
        if verb == "refuse co-op":
            refusals: list[Action] = [a for a in actions if a[0] == "refuse"]
            return min(refusals, key=lambda a: keep_value(state, seat, a[1])) if refusals else None
        return None
    answers = {("lap", "venture"): ("venture",), ("lap", "take counter"): ("counter",),
               ("flipped spell", "cast flipped"): ("cast",), ("flipped spell", "discard flipped"): ("graveyard",)}
    return answers.get((kind, verb))


# --- the terminal ------------------------------------------------------------------------------


class HumanAgent:
    """A person at the terminal: ``say`` prints, ``ask`` reads a line (both injectable)."""

    name = "human"

    def __init__(self, ask: Callable[[str], str] = input, say: Callable[[str], None] = print):
        self.ask = ask
        self.say = say

    def choose(self, state: GrizzlyState, decision: Decision, rng: random.Random) -> Hashable:
        seat = state.seat_index(decision.actor)
        self.say(render_board(state, seat))
        labels = [describe_action(state, decision, action) for action in decision.actions]
        self.say(f"{state.config.seats[seat].name}: {QUESTIONS.get(decision.kind, decision.kind)}")
        for number, label in enumerate(labels, 1):
            self.say(f"  {number}. {label}")
        while True:
            try:
                answer = self.ask(f"choose 1-{len(labels)} (or save, quit): ").strip()
            except EOFError:
                raise StopRun("end of input: the game stops here") from None
            if answer.lower() in STOP_WORDS:
                # The person leaves the table: the run ends cleanly ("abandoned") and
                # `run --save` saves the game at this decision.
                raise StopRun(f"`{answer.lower()}`: the game stops here")
            if answer.isascii() and answer.isdigit() and len(answer) < 7 and 1 <= int(answer) <= len(labels):
                return decision.actions[int(answer) - 1]
            self.say(f"Please type a number from 1 to {len(labels)}.")


STOP_WORDS = ("save", "quit")  # typed at a prompt, or the end of input: the person leaves

QUESTIONS = {
    "main": "what now?", "co-op": "offer co-op before the flip (G-8)?",
    "co-op answer": "you are offered co-op: accept, or refuse by giving a card (G-8)?",
    "flipped spell": "cast the flipped card for free, or put it into the graveyard (G-8)?",
    "target": "choose a target", "mode": "choose a mode", "attach": "enchant whose bears?",
    "place": "place a card from your hand face down on the square (G-10)",
    "discard": "discard a card", "lap": "lap bonus (G-16): a +1/+1 counter or venture into the dungeon?",
    "room": "venture into which room?", "scry": "scry: keep it on top or put it at the bottom?",
}


def render_board(state: GrizzlyState, seat: int) -> str:
    """The loop as text (a square per cell: ``?`` face down, a face-up creature by name and
    stats, ``-`` empty; ``|ana|`` marks a home), each bear, and the hand of ``seat``."""
    homes = {state.home_square(s): state.seat_ids[s] for s in range(len(state.seat_ids))}
    cells = []
    for square in range(state.loop_length):
        if square in homes:
            cells.append(f"|{homes[square]}|")
        card = state.sq_card[square]
        if card < 0:
            text = "-"
        elif state.sq_up[square]:
            power, toughness, _ = state.square_stats(square)
            text = f"{state.name(card)} {power}/{toughness}"
        else:
            text = "?"
        here = "".join(f"*{state.seat_ids[s]}" for s in state.bears_on(square))
        cells.append(f"{square}[{text}]{here}")
    lines = [f"Round {state.round}, {state.config.seats[state.active].name}'s turn",
             "Loop: " + " ".join(cells)]
    for other in range(len(state.seat_ids)):
        power, toughness, keywords = state.bear_stats(other)
        square = state.square_of(other)
        where = "home" if square < 0 or (state.pos[other] == 0) else f"square {square}"
        room = f", dungeon: {state.rooms[state.room[other]].name}" if state.room[other] >= 0 else ""
        gear = ", ".join(state.name(c) for c in state.auras[other] + state.equipped[other] + state.perms[other])
        lines.append(f"  {state.seat_ids[other]:<8} {where:<10} bears {power}/{toughness}"
                     f"{' ' + ', '.join(sorted(keywords)) if keywords else ''}  counters {state.counters[other]}"
                     f"  Treasures {state.treasures[other]}  hand {len(state.hands[other])}"
                     f"{'  (' + gear + ')' if gear else ''}{room}")
    hand = ", ".join(f"{state.name(c)} (mana value {state.facts[c].mana_value})" for c in state.hands[seat])
    lines.append(f"Your hand: {hand or 'empty'}")
    return "\n".join(lines)


def describe_action(state: GrizzlyState, decision: Decision, action: Any) -> str:
    verb = action[0] if isinstance(action, tuple) else action
    if decision.kind == "roll":
        return str(action)
    if decision.kind == "target":
        return effects.describe(state, action)
    if isinstance(action, tuple) and len(action) > 1 and isinstance(action[1], int) and verb in (
            "dash", "cast", "equip", "refuse", "place", "discard", "top", "bottom"):
        name = state.name(action[1])
        return {"dash": f"dash: discard {name} and move {state.facts[action[1]].mana_value}",
                "cast": f"cast {name}", "equip": f"equip {name}", "refuse": f"refuse, giving {name}",
                "place": f"place {name}", "discard": f"discard {name}", "top": f"keep {name} on top",
                "bottom": f"put {name} at the bottom"}[verb]
    return {"roll": "roll the die", "end": "end the turn", "alone": "go alone", "accept": "accept",
            "cast": "cast it", "graveyard": "put it into the graveyard", "counter": "a +1/+1 counter",
            "venture": "venture into the dungeon"}.get(verb, _other(state, action))


def _other(state: GrizzlyState, action: Any) -> str:
    if action[0] == "offer":
        return f"offer co-op to {action[1]}"
    if action[0] == "room":
        room = state.rooms[action[1]]
        return f"{room.name} ({room.effect}{' ' + str(room.amount) if room.amount else ''})"
    if action[0] == "attach":
        return f"{state.seat_ids[action[1]]}'s bears"
    if action[0] == "mode":
        return f"mode {action[1] + 1}"
    return str(action)


# greedy first: a seat without `plays` under an agent Grizzly has not (sim's default `best`)
# plays the system's first agent, and the fair stand-in for a player is greedy
AGENTS: dict[str, Callable[..., Agent]] = {"greedy": GreedyAgent, "first": FirstAgent, "random": RandomAgent,
                                           "human": HumanAgent}
