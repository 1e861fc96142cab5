"""Duelists' agents: random, greedy and a human at the terminal. Agents only answer decisions.

The greedy agent's policy, in order (docs/isekai.md "Agents"):
- reveal (I-18): turn every damage card face up only when the hit emptied the main deck;
  reversal: activate it; further attack (I-15): the best attack below, else end;
- answering an attack on the duelist: block with a unit that survives it, else one that
  destroys the attacker; a card that destroys the attacker or shields the attacked unit;
  Defend; pass;
- with the right: an attack that empties the opponent's main deck even after a Defend; the
  strongest affordable unit; a card that destroys an enemy unit no card of its own waiting to
  resolve is aimed at; a card that damages the opponent; an attack on the duelist that
  a Defend does not bring to 0 and that every enemy unit fast enough to block it (I-11) would
  lose to (destroyed, the attacker standing), or any such attack once half the I-R6 stall
  limit has passed without damage; an attack that destroys a unit without losing the
  attacker; a mana charge while the mana zone holds fewer than 6 and the main deck more than
  15 cards; taking the strongest unit (attack + HP + speed) from the mana zone when the hand holds
  none; else pass.
Costs are paid with as many mana cards as possible (they return to the main deck, I-7).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Hashable, cast

from deckquest.engine.game import Decision, StopRun
from deckquest.systems.isekai.cards import DAMAGE, PREVENT, UNIT, CardDef
from deckquest.systems.isekai.duel import DuelState, Unit


Actions = tuple[tuple[Any, ...], ...]  # a duel's actions are tuples (DuelState.decision)


def _tuples(actions: tuple[Hashable, ...]) -> Actions:
    return cast(Actions, actions)


class RandomAgent:
    """Any legal action, uniformly (one ``randrange`` call)."""

    name = "random"

    def choose(self, state: DuelState, decision: Decision, rng: random.Random) -> Hashable:
        return decision.actions[rng.randrange(len(decision.actions))]


class GreedyAgent:
    """The documented one-step policy of the module docstring; deterministic."""

    name = "greedy"

    def choose(self, state: DuelState, decision: Decision, rng: random.Random) -> Hashable:
        actions = decision.actions
        seat = state.seat_index(decision.actor)
        if decision.kind == "reveal":
            lethal = not state.players[seat].main
            return actions[-1] if lethal else actions[0]
        if decision.kind == "reversal":
            return actions[0]
        if decision.kind == "answer":
            declaration = state.declaration
            if declaration is not None and declaration.seat != seat:
                return self._defend(state, seat, actions)
            return ("pass",)
        best, lethal = self._attack(state, seat, actions)
        if decision.kind == "extra":
            return best or ("end",)
        if lethal:
            return best
        return self._develop(state, seat, actions, best)

    def _attack(self, state: DuelState, seat: int, actions: tuple[Hashable, ...]) -> tuple[Hashable | None, bool]:
        """The best attack, and whether it empties the opponent's main deck."""
        them = state.players[1 - seat]
        scored: list[tuple[int, int, Hashable]] = []
        powers: dict[Any, tuple[int, int]] = {}
        stalling = 2 * state.quiet > state.rules.stall  # half the I-R6 limit gone without damage
        moves = _tuples(actions)
        units = state.units
        end = len(moves) - (moves[-1][0] != "attack")  # the attacks close the list, before an extra's ("end",)
        start = end
        while start and moves[start - 1][0] == "attack":
            start -= 1
        for index in range(start, end):
            action = moves[index]
            _, attacker, target = action
            if attacker not in powers:
                powers[attacker] = _power(state, seat, attacker)
            power, speed = powers[attacker]
            if power <= 0:
                continue
            if target[0] == "player":
                landing = power - 1  # the defender will Defend (I-13)
                if landing >= len(them.main):
                    scored.append((100, -index, action))
                elif landing > 0 and (stalling or all(_beats(state, attacker, power, unit) for unit in them.field
                                                      if unit.speed >= speed)):
                    scored.append((10 + landing, -index, action))
            else:
                unit = units[target[1]]
                kills = power >= unit.hp - unit.damage + unit.shield
                if kills and (speed - unit.speed >= 2 or isinstance(attacker, str)
                              or unit.attack < _hp_left(state, attacker)):  # safe: the attacker survives
                    scored.append((5 + unit.attack, -index, action))
        if not scored:
            return None, False
        best = max(scored)
        return best[2], best[0] == 100

    def _develop(self, state: DuelState, seat: int, actions: tuple[Hashable, ...], attack: Hashable | None) -> Hashable:
        me = state.players[seat]
        aimed = {entry[2] for entry in state.chain if entry[0] == seat}  # already on its way
        units: list[tuple[int, int, Hashable]] = []
        removal: list[tuple[int, int, Hashable]] = []
        burn: list[tuple[int, int, Hashable]] = []
        most_mana: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # per card and target
        for action in _tuples(actions):
            if action[0] != "play":
                break  # a right lists its plays first (DuelState._right_actions)
            most_mana[action[1:4]] = action
        cards, ids, damages, units_by_id = state.cards, state.ids, state.damages, state.units
        for action in most_mana.values():
            _, _source, card_id, target, mana = action
            index = ids[card_id]
            card = cards[index]
            if card.kind == UNIT:
                units.append((_value(card), mana, action))
            elif units or target is None:
                continue  # a unit to play comes before removal and damage
            elif target[0] == "unit":
                if target in aimed:
                    continue
                unit = units_by_id.get(target[1])
                damage = damages[index]
                if unit is not None and unit.owner != seat and 0 < damage >= unit.hp - unit.damage + unit.shield:
                    removal.append((unit.attack + unit.hp, mana, action))  # it kills (as _kills)
            elif target[1] != state.seats[seat] and damages[index]:
                burn.append((damages[index], mana, action))
        if units:
            return max(units)[2]
        if removal:
            return max(removal)[2]
        if burn:
            return max(burn)[2]
        if attack is not None:
            return attack
        if ("charge",) in actions and len(me.mana) < 6 and len(me.main) > 15:
            return ("charge",)
        if not any(state.cards[c].kind == UNIT for c in me.hand):
            takes = [a for a in _tuples(actions) if a[0] == "take" and a[2] == 1 and state.card(a[1]).kind == UNIT]
            if takes:
                return max(takes, key=lambda a: (_value(state.card(a[1])), a))
        return ("pass",)

    def _defend(self, state: DuelState, seat: int, actions: tuple[Hashable, ...]) -> Hashable:
        declaration = state.declaration
        assert declaration is not None
        attacker = state.unit(declaration.unit) if declaration.unit >= 0 else None
        power = max(0, (attacker.attack if attacker else state.players[1 - seat].attack) - declaration.reduce)
        survive: list[Hashable] = []
        trade: list[Hashable] = []
        cards: list[Hashable] = []
        for action in _tuples(actions):
            kind = action[0]
            if kind == "block":
                blocker = state.unit(action[1])
                assert blocker is not None
                if blocker.hp - blocker.damage + blocker.shield > power:
                    survive.append(action)
                elif attacker is not None and blocker.attack >= attacker.hp - attacker.damage + attacker.shield:
                    trade.append(action)
            elif kind == "play":
                card = state.card(action[2])
                target = action[3]
                if target is None or target[0] != "unit":
                    continue
                if attacker is not None and target[1] == attacker.uid and _kills(state, card, attacker.uid, seat):
                    cards.append(action)
                elif target[1] == declaration.target and any(e.verb == PREVENT for e in card.effects):
                    cards.append(action)
        for group in (survive, trade, cards):
            if group:
                return group[0]
        if ("defend",) in actions:
            return ("defend",)
        return ("pass",)


def _power(state: DuelState, seat: int, attacker: int | str) -> tuple[int, int]:
    if isinstance(attacker, str):
        player = state.players[seat]
        return player.attack, player.speed
    unit = state.unit(attacker)
    assert unit is not None
    return unit.attack, unit.speed


def _value(card: CardDef) -> int:
    """A unit's worth to the greedy agent: attack, HP and speed."""
    return int(card.attack + card.hp + card.speed)


def _beats(state: DuelState, attacker: int | str, power: int, blocker: Unit) -> bool:
    """Whether a block by ``blocker`` (I-11) destroys it and leaves the attacker standing."""
    destroyed = power >= blocker.hp - blocker.damage + blocker.shield
    return destroyed and (isinstance(attacker, str) or blocker.attack < _hp_left(state, attacker))


def _hp_left(state: DuelState, uid: int) -> int:
    unit = state.unit(uid)
    return 0 if unit is None else unit.hp - unit.damage + unit.shield


def _kills(state: DuelState, card: CardDef, uid: int, seat: int) -> bool:
    unit = state.unit(uid)
    if unit is None or unit.owner == seat:
        return False
    damage = sum(e.amount for e in card.effects if e.verb == DAMAGE)
    return damage > 0 and damage >= unit.hp - unit.damage + unit.shield


class HumanAgent:
    """A person at the terminal: the board (both fields, the actor's hand, mana, decks) and
    the numbered legal actions with each one's cost and speed go out through ``output``; the
    choice comes in through ``input`` (both injected, so it is testable). At end of input it
    passes from then on, so a duel always ends; ``save`` or ``quit`` typed at a prompt ends
    the run cleanly (``StopRun``: "abandoned"), so ``run --save`` saves the duel there."""

    name = "human"

    def __init__(self, input: Callable[[str], str] = input, output: Callable[[str], None] = print):
        self.input = input
        self.output = output
        self.ended = False

    def choose(self, state: DuelState, decision: Decision, rng: random.Random) -> Hashable:
        actions = decision.actions
        if self.ended:
            return _quiet(actions)
        self.output(render_board(state, state.seat_index(decision.actor)))
        self.output(f"{decision.actor}: {decision.kind}")
        for number, action in enumerate(actions, start=1):
            self.output(f"  {number}. {describe(state, action)}")
        while True:
            try:
                answer = self.input(f"choose 1-{len(actions)}: ").strip()
            except EOFError:
                self.ended = True
                self.output("(end of input: passing from now on)")
                return _quiet(actions)
            if answer.lower() in ("save", "quit"):
                raise StopRun(f"`{answer.lower()}`: the game stops here")
            if answer.isascii() and answer.isdigit() and len(answer) < 7 and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            self.output(f"please answer with a number from 1 to {len(actions)}")


def _quiet(actions: tuple[Hashable, ...]) -> Hashable:
    """The action that lets the duel go on doing nothing."""
    for quiet in (("pass",), ("decline",), ("end",), ("reveal", 0)):
        if quiet in actions:
            return quiet
    return actions[0]


def render_board(state: DuelState, seat: int) -> str:
    """Both fields, the actor's hand, each duelist's mana, main deck, skill deck and exile."""
    lines = []
    for side in (1 - seat, seat):
        player = state.players[side]
        lines.append(f"{state.seats[side]}: main deck {len(player.main)}, mana {len(player.mana)}, "
                     f"skill deck {len(player.skill)}, hand {len(player.hand)}, "
                     f"exiled {len(player.exile_main) + len(player.exile_skill)} face down, "
                     f"{len(player.exile_up)} face up")
        field = ", ".join(_unit_text(state, unit) for unit in player.field) or "no units"
        lines.append(f"  field: {field}")
    mana = ", ".join(state.cards[c].name for c in state.players[seat].mana)
    lines.append(f"  your mana cards: {mana or 'none'}")
    hand = "; ".join(state.cards[c].summary() for c in state.players[seat].hand)
    lines.append(f"  your hand: {hand or 'empty'}")
    declaration = state.declaration
    if declaration is not None:
        lines.append(f"  attack at speed {declaration.speed} by {state.seats[declaration.seat]}"
                     f" on {state.seats[1 - declaration.seat] if declaration.target < 0 else '#' + str(declaration.target)}"
                     f" (reduced by {declaration.reduce})")
    return "\n".join(lines)


def _unit_text(state: DuelState, unit: Unit) -> str:
    card = state.cards[unit.card]
    return f"#{unit.uid} {card.name} {unit.range} {unit.attack}/{unit.hp - unit.damage} speed {unit.speed}"


def describe(state: DuelState, move: Hashable) -> str:
    """An action in words, with what it costs and how fast it is."""
    action = cast(tuple[Any, ...], move)
    kind = action[0]
    if kind == "play":
        _, source, card_id, target, mana = action
        card = state.card(card_id)
        aim = f" on {_target(state, target)}" if target is not None else ""
        return (f"play {card.name} from {'the skill deck' if source == 'skill' else 'hand'}{aim}: "
                f"cost {card.cost} ({mana} mana, {card.cost - mana} from the skill deck), speed {card.speed}")
    if kind == "attack":
        _, attacker, target = action
        _power_, speed = _power(state, state.right if state.extra is None else state.extra[0], attacker)
        who = attacker if isinstance(attacker, str) else _target(state, ("unit", attacker))
        return f"attack with {who} on {_target(state, target)} (speed {speed})"
    if kind == "summon":
        card = state.card(action[1])
        return (f"summon {card.name} to block: cost {card.cost}+1 ({action[2]} mana, "
                f"{card.cost + 1 - action[2]} from the skill deck), speed {card.speed}")
    if kind == "block":
        return f"block with {_target(state, ('unit', action[1]))}"
    if kind == "take":
        return f"pass and take {action[2]} {state.card(action[1]).name} from mana to hand"
    if kind == "restore":
        return f"pass and return an exiled {state.card(action[1]).name} to the skill deck"
    if kind == "reveal":
        return f"turn {action[1]} damage cards face up (reversal chance)"
    if kind == "reversal":
        return f"activate the [Reversal] of {state.card(action[1]).name}"
    return {"pass": "pass", "charge": "pass and charge mana", "defend": "Defend (reduce the attack by 1, speed 0)",
            "decline": "no reversal", "end": "end the attacks"}[kind]


def _target(state: DuelState, target: tuple[str, Any]) -> str:
    if target[0] == "player":
        return str(target[1])
    unit = state.unit(target[1])
    return f"#{target[1]} {state.cards[unit.card].name}" if unit is not None else f"#{target[1]}"
