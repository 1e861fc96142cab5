"""An Isekai TCG duel in the one engine shape (``deckquest.engine.game``).

Players alternate action rights (I-5): the holder plays a card (it waits, answerable, until a
right is passed), or passes with one of I-6's options: a mana charge, taking mana cards to
hand, returning an exiled skill card, or an attack declaration. A declaration opens answering
rights (I-13, I-14): Defend, a block (I-11), a card at least as fast as the attack, or a pass,
which lands the hit (I-17, reading I-R1). Damage to a player exiles main-deck cards face down
and gives a reversal chance (I-18); an empty main deck after damage loses (I-4). A duel with no
damage for ``rules.stall`` rights is a draw (I-R6).

Decisions (``Decision.kind``): "deal" (chance: who goes first, the shuffles), "right",
"answer" (during a declaration), "extra" (I-15's further attack), "reveal" and "reversal"
(I-18). Actions are tuples of plain data (see ``DuelState.decision``). Units are referred to by
a number unique in the duel; cards by their script id.
"""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any, Hashable, Sequence

from deckquest.engine.game import CHANCE, OVER, Decision
from deckquest.systems.isekai.cards import (
    ANY_UNIT, BOOST, BOUNCE, DAMAGE, ENEMY_UNIT, EQUIPMENT, HEAL, MOVE, OPPONENT, PREVENT, PROTECT,
    RECOVERY, UNIT, YOU, YOUR_UNIT, CardDef, CardSet, Condition, Duelist,
)
from deckquest.systems.isekai.rules import Rules

MANA_START = 5  # I-3
HAND_START = (5, 6)  # I-3: the second player draws 6
WATCH = 3  # I-12: the fight's own right, then one untouched right of each player
REACH = {"near": ("near",), "middle": ("near", "middle"), "far": ("near", "middle", "far")}  # I-10
EVENTS = list[dict[str, Any]] | None

PASS, CHARGE, DEFEND, DECLINE, END = ("pass",), ("charge",), ("defend",), ("decline",), ("end",)
NO_TARGET: list[tuple[str, Any] | None] = [None]  # a card that asks for no target (never changed)
PILES = ("main", "skill", "hand", "mana", "exile_main", "exile_skill", "exile_up")  # a player's card lists


class Unit:
    """A unit on a field: its card, owner and current stats (I-10), damage, prevention
    shield, the I-16 lock (the seat and speed of the last action aimed at it), and the I-12
    watch (rights left until it recovers unless something targets it)."""

    __slots__ = ("uid", "card", "owner", "attack", "hp", "speed", "range", "damage", "shield",
                 "lock_seat", "lock_speed", "watch", "partner", "gear")

    def __init__(self, uid: int, card: CardDef, index: int, owner: int):
        self.uid = uid
        self.card = index
        self.owner = owner
        self.attack, self.hp, self.speed, self.range = card.attack, card.hp, card.speed, card.range
        self.damage = self.shield = 0
        self.lock_seat = -1
        self.lock_speed = 0
        self.watch = 0
        self.partner = -1
        self.gear: list[tuple[int, bool]] = []  # (card, came from the skill deck)

    def to_data(self, cards: Sequence[CardDef]) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in Unit.__slots__ if name not in ("card", "gear")}
        return {**data, "card": cards[self.card].id, "gear": [[cards[c].id, skill] for c, skill in self.gear]}

    @classmethod
    def from_data(cls, data: dict[str, Any], ids: dict[str, int]) -> "Unit":
        unit = cls.__new__(cls)
        for name in Unit.__slots__:
            setattr(unit, name, data[name])
        unit.card = ids[data["card"]]
        unit.gear = [(ids[card], skill) for card, skill in data["gear"]]
        return unit

    def copy(self) -> "Unit":
        other = Unit.__new__(Unit)
        for name in Unit.__slots__:
            setattr(other, name, getattr(self, name))
        other.gear = list(self.gear)
        return other


class Player:
    """One duelist's zones (tops of piles at the list's end) and status (I-R3)."""

    __slots__ = ("main", "skill", "hand", "mana", "exile_main", "exile_skill", "exile_up", "field",
                 "streak", "spent", "skip", "shield", "attack", "speed", "range", "reversals")

    def __init__(self, main: list[int], skill: list[int], status: tuple[int, int, str], reversals: bool):
        self.main, self.skill = main, skill
        self.hand: list[int] = []
        self.mana: list[int] = []
        self.exile_main: list[int] = []  # face down (I-17), main-deck cards
        self.exile_skill: list[int] = []  # face down, skill cards (I-7)
        self.exile_up: list[int] = []  # face up: out of the game (I-18)
        self.field: list[Unit] = []
        self.streak = 0  # consecutive mana charges (I-6, I-R8)
        self.spent = -1  # the Reversal activated last, which cannot activate on the next hit (I-4)
        self.skip = False  # the next action right goes to the Reversal (I-18)
        self.shield = 0
        self.attack, self.speed, self.range = status  # I-R3
        self.reversals = reversals  # whether any of its cards has [Reversal]

    def to_data(self, cards: Sequence[CardDef]) -> dict[str, Any]:
        data: dict[str, Any] = {zone: [cards[c].id for c in getattr(self, zone)] for zone in PILES}
        data.update({name: getattr(self, name) for name in ("streak", "skip", "shield", "attack", "speed", "range",
                                                            "reversals")})
        data["spent"] = cards[self.spent].id if self.spent >= 0 else None
        data["field"] = [unit.to_data(cards) for unit in self.field]
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any], ids: dict[str, int]) -> "Player":
        player = cls([ids[c] for c in data["main"]], [ids[c] for c in data["skill"]],
                     (data["attack"], data["speed"], data["range"]), data["reversals"])
        for zone in PILES[2:]:
            setattr(player, zone, [ids[c] for c in data[zone]])
        player.streak, player.skip, player.shield = data["streak"], data["skip"], data["shield"]
        player.spent = ids[data["spent"]] if data["spent"] is not None else -1
        player.field = [Unit.from_data(unit, ids) for unit in data["field"]]
        return player

    def copy(self) -> "Player":
        other = Player.__new__(Player)
        for name in Player.__slots__:
            setattr(other, name, getattr(self, name))
        for name in PILES:
            setattr(other, name, list(getattr(self, name)))
        other.field = [unit.copy() for unit in self.field]
        return other


class Declaration:
    """An open attack (I-13): who attacks with what (``unit`` -1: the duelist), its target
    (``target`` -1: the defending duelist), its speed, Defend's reduction, the blocker."""

    __slots__ = ("seat", "unit", "target", "speed", "reduce", "defended", "blocked", "extra")

    def __init__(self, seat: int, unit: int, target: int, speed: int, extra: bool):
        self.seat, self.unit, self.target, self.speed, self.extra = seat, unit, target, speed, extra
        self.reduce = 0
        self.defended = self.blocked = False

    def to_data(self) -> list[Any]:
        return [self.seat, self.unit, self.target, self.speed, self.extra, self.reduce, self.defended, self.blocked]

    @classmethod
    def from_data(cls, data: list[Any]) -> "Declaration":
        seat, unit, target, speed, extra, reduce, defended, blocked = data
        declaration = cls(seat, unit, target, speed, extra)
        declaration.reduce, declaration.defended, declaration.blocked = reduce, defended, blocked
        return declaration

    def copy(self) -> "Declaration":
        other = Declaration(self.seat, self.unit, self.target, self.speed, self.extra)
        other.reduce, other.defended, other.blocked = self.reduce, self.defended, self.blocked
        return other


class DuelState:
    """A duel between two duelists; see the module docstring for the flow."""

    def __init__(self, cards: Sequence[CardDef], seats: tuple[str, str], decks: Sequence[tuple[list[int], list[int]]],
                 status: Sequence[tuple[int, int, str]], rules: Rules, names: tuple[str, str] | None = None,
                 deck_ids: tuple[str, str] = ("", "")):
        self.cards = tuple(cards)
        self.ids = {card.id: index for index, card in enumerate(self.cards)}
        self.aims = tuple(card.target for card in self.cards)  # each card's target kind, worked out once
        # what listing a card's plays reads, worked out once: (id, speed, cost, target kind)
        self.plays = tuple((card.id, card.speed, card.cost, card.target) for card in self.cards)
        # each card's damage in all, which the greedy agent weighs
        self.damages = tuple(sum(e.amount for e in card.effects if e.verb == DAMAGE) for card in self.cards)
        self.seats = seats
        self.names = names or seats  # the duelists' display names
        self.decks = deck_ids  # the decks' ids, for reports
        self.rules = rules
        self.players: list[Player] = []
        for (main, skill), stats in zip(decks, status):
            reversals = any(self.cards[c].reversal is not None for c in main + skill)
            self.players.append(Player(list(main), list(skill), stats, reversals))
        self.phase = "deal"
        self.right = 0  # the seat holding the action right
        self.after = 0  # who gets the right once reveals and extra attacks are done
        self.chain: list[tuple[int, int, tuple[str, int] | None, int, bool]] = []
        self.declaration: Declaration | None = None
        self.extra: tuple[int, int, int] | None = None  # (seat, unit, speed) for I-15
        self.reveals: list[list[Any]] = []  # [seat, damage cards, stage, eligible]
        self.units: dict[int, Unit] = {}  # the units of both fields, by number
        self.next_uid = 1
        self.rights = 0
        self.quiet = 0
        self.result: tuple[int, str] | None = None
        self.first = -1
        # what happened, for batch reports: interrupts (I-9), Reversals (I-18), attacks the
        # target was too slow to answer (I-15), further attacks (I-15)
        self.tally = {"interrupts": 0, "reversals": 0, "speed_locked": 0, "extra_attacks": 0}
        self._legal: Decision | None = None  # the decision of this state, listed once

    # ------------------------------------------------------------------ the step API

    def decision(self) -> Decision:
        """Whose decision it is and its legal actions, in a stable order.

        deal: ("deal", seat) - chance: the seat going first (I-3).
        right: ("play", "hand"|"skill", card, target, mana paid), ("pass",), ("charge",),
          ("take", card, count), ("restore", card), ("attack", attacker, target);
          a target is ("unit", number) or ("player", seat); an attacker a unit number or a seat.
        answer: ("defend",), ("block", unit), ("summon", card, mana paid), ("play", ...), ("pass",).
        extra: ("attack", unit, target), ("end",).
        reveal: ("reveal", k): turn the first k damage cards face up (I-R2 "damage").
        reversal: ("reversal", card, target), ("decline",).
        """
        if self.result is not None:
            return Decision(OVER, "over")
        if self.phase == "deal":
            return self._deal_decision()
        if self._legal is None:
            self._legal = self._listed()
        return self._legal

    def apply(self, action: Hashable, rng: random.Random, events: EVENTS = None) -> None:
        self._legal = None
        if self.phase == "deal":
            self._deal(action, rng, events)
        elif self.reveals:
            self._apply_reveal(action, events)
        elif self.extra is not None:
            self._apply_extra(action, events)
        elif self.declaration is not None:
            self._apply_answer(action, events)
        else:
            self._apply_right(action, events)

    def clone(self) -> "DuelState":
        other = DuelState.__new__(DuelState)
        other.__dict__.update(self.__dict__)
        other.players = [player.copy() for player in self.players]
        other.units = {unit.uid: unit for player in other.players for unit in player.field}
        other.chain = list(self.chain)
        other.declaration = self.declaration.copy() if self.declaration else None
        other.reveals = [list(item) for item in self.reveals]
        other.tally = dict(self.tally)
        return other

    def outcome(self) -> dict[str, Any] | None:
        if self.result is None:
            return None
        winner, reason = self.result
        return {"winner": self.seats[winner] if winner >= 0 else None, "reason": reason, "rights": self.rights}

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data: what a saved session stores (cards by id, so a save reads the
        same whatever the card table's order)."""
        cards = self.cards

        def card_ids(items: list[int]) -> list[str]:
            return [cards[c].id for c in items]

        return {
            "seats": list(self.seats), "names": list(self.names), "decks": list(self.decks),
            "rules": asdict(self.rules), "players": [player.to_data(cards) for player in self.players],
            "phase": self.phase, "right": self.right, "after": self.after,
            "chain": [[seat, cards[card].id, list(target) if target else None, speed, from_skill]
                      for seat, card, target, speed, from_skill in self.chain],
            "declaration": self.declaration.to_data() if self.declaration else None,
            "extra": list(self.extra) if self.extra else None,
            "reveals": [[seat, card_ids(damage), stage, card_ids(eligible)] for seat, damage, stage, eligible in self.reveals],
            "next_uid": self.next_uid, "rights": self.rights, "quiet": self.quiet,
            "result": list(self.result) if self.result else None, "first": self.first, "tally": dict(self.tally),
        }

    @classmethod
    def from_data(cls, cards: CardSet, data: dict[str, Any]) -> "DuelState":
        """The duel ``to_data`` wrote, over the card set of the same script."""
        table = [cards.cards[card_id] for card_id in sorted(cards.cards)]
        state = cls(table, (data["seats"][0], data["seats"][1]), [([], []), ([], [])], [(0, 0, "near")] * 2,
                    Rules(**data["rules"]), (data["names"][0], data["names"][1]), (data["decks"][0], data["decks"][1]))
        ids = state.ids
        state.players = [Player.from_data(player, ids) for player in data["players"]]
        state.units = {unit.uid: unit for player in state.players for unit in player.field}
        state.phase, state.right, state.after = data["phase"], data["right"], data["after"]
        state.chain = [(seat, ids[card], (target[0], target[1]) if target else None, speed, from_skill)
                       for seat, card, target, speed, from_skill in data["chain"]]
        state.declaration = Declaration.from_data(data["declaration"]) if data["declaration"] else None
        extra = data["extra"]
        state.extra = (extra[0], extra[1], extra[2]) if extra else None
        state.reveals = [[seat, [ids[c] for c in damage], stage, [ids[c] for c in eligible]]
                         for seat, damage, stage, eligible in data["reveals"]]
        state.next_uid, state.rights, state.quiet = data["next_uid"], data["rights"], data["quiet"]
        state.result = (data["result"][0], data["result"][1]) if data["result"] else None
        state.first, state.tally = data["first"], dict(data["tally"])
        return state

    # ------------------------------------------------------------------ reading the state

    def seat_index(self, seat: str) -> int:
        return self.seats.index(seat)

    def unit(self, uid: int) -> Unit | None:
        return self.units.get(uid)

    def card(self, card_id: str) -> CardDef:
        return self.cards[self.ids[card_id]]

    # ------------------------------------------------------------------ setup (I-3)

    def _deal_decision(self) -> Decision:
        """I-3: the higher status speed goes first; equal speeds are rock-paper-scissors."""
        first, second = self.players[0].speed, self.players[1].speed
        if first != second:
            return Decision(CHANCE, "deal", (("deal", self.seats[0 if first > second else 1]),), (1.0,))
        return Decision(CHANCE, "deal", (("deal", self.seats[0]), ("deal", self.seats[1])), (0.5, 0.5))

    def _deal(self, action: Hashable, rng: random.Random, events: EVENTS) -> None:
        first = self.seat_index(action[1])  # type: ignore[index]
        self.first = first
        for order, seat in enumerate((first, 1 - first)):
            player = self.players[seat]
            rng.shuffle(player.main)
            rng.shuffle(player.skill)
            for _ in range(MANA_START):
                player.mana.append(player.main.pop())
            for _ in range(HAND_START[order]):
                player.hand.append(player.main.pop())
        self.phase = "play"
        if events is not None:
            events.append({"event": "deal", "first": self.seats[first],
                           "hands": {self.seats[s]: len(self.players[s].hand) for s in (0, 1)},
                           "names": dict(zip(self.seats, self.names))})
        self._give_right(first, events)

    # ------------------------------------------------------------------ legal actions

    def _listed(self) -> Decision:
        """The decision now: whose it is (a reveal's or an I-15 further attack's seat before
        the right's holder), its kind and its legal actions."""
        if self.reveals:
            item = self.reveals[0]
            return Decision(self.seats[item[0]], str(item[2]), tuple(self._reveal_actions()))
        if self.extra is not None:
            seat, uid, speed = self.extra
            unit = self.unit(uid)
            assert unit is not None
            attacks = [("attack", uid, target) for target in self._attack_targets(seat, unit.range, speed)]
            return Decision(self.seats[seat], "extra", (*attacks, END))
        if self.declaration is not None:
            return Decision(self.seats[self.right], "answer", tuple(self._answer_actions()))
        return Decision(self.seats[self.right], "right", tuple(self._right_actions()))

    def _right_actions(self) -> list[Hashable]:
        seat = self.right
        me = self.players[seat]
        actions: list[Hashable] = self._plays(seat, 0)
        actions.append(PASS)
        if me.main:
            actions.append(CHARGE)
        plays = self.plays
        for card, count in _counts(me.mana):
            card_id = plays[card][0]
            actions.extend([("take", card_id, k) for k in range(1, count + 1)])
        if me.exile_skill:
            actions.extend([("restore", plays[card][0]) for card in sorted(set(me.exile_skill))])
        actions.extend(self._attacks(seat))
        return actions

    def _answer_actions(self) -> list[Hashable]:
        declaration = self.declaration
        assert declaration is not None
        seat = self.right
        actions: list[Hashable] = []
        if seat != declaration.seat:
            me = self.players[seat]
            if not declaration.defended:
                actions.append(DEFEND)
            if declaration.target < 0 and not declaration.blocked:
                # I-11: a blocker at least as fast as the attack; summoned at once: 1 more mana
                speed = declaration.speed
                actions.extend([("block", unit.uid) for unit in me.field if unit.speed >= speed])
                for card in _distinct(me.hand):
                    definition = self.cards[card]
                    if definition.kind == UNIT and definition.speed >= speed:
                        actions.extend([("summon", definition.id, mana)
                                        for mana in self._splits(me, definition.cost + 1, False) if mana >= 1])
            actions.extend(self._plays(seat, declaration.speed))  # I-14
        else:
            actions.extend(self._plays(seat, 0))
        actions.append(PASS)
        return actions

    def _splits(self, me: Player, cost: int, from_skill: bool) -> range:
        """I-7: the mana cards a cost may take; the skill deck pays the rest."""
        skill = len(me.skill) - (1 if from_skill else 0)
        return range(max(0, cost - skill), min(cost, len(me.mana)) + 1)

    def _plays(self, seat: int, least_speed: int) -> list[Hashable]:
        """Cards ``seat`` may play now from hand or skill deck (I-5, I-7, I-R4), at least
        ``least_speed`` fast (I-14), aimed only where I-16's locks allow. Cards of one target
        kind and speed share their targets, worked out once per listing."""
        me = self.players[seat]
        found: list[Hashable] = []
        skill = me.skill
        sources: list[tuple[str, list[int], int]] = [("hand", sorted(set(me.hand)), len(skill))]
        if skill:
            sources.append(("skill", sorted(set(skill)) if self.rules.skill_chosen else [skill[-1]], len(skill) - 1))
        mana_cards = len(me.mana)
        plays = self.plays
        shared: dict[tuple[str, int], list[tuple[str, Any] | None]] = {}
        for source, cards, skill_cards in sources:
            for card in cards:
                card_id, speed, cost, aim = plays[card]
                if speed < least_speed:
                    continue
                least = cost - skill_cards if cost > skill_cards else 0  # I-7: the mana cards it may take
                most = cost if cost < mana_cards else mana_cards
                if least > most:
                    continue
                if not aim:
                    targets: list[tuple[str, Any] | None] = NO_TARGET
                else:
                    targets = shared.get((aim, speed))  # type: ignore[assignment]
                    if targets is None:
                        targets = shared[aim, speed] = self._targets(seat, card, speed)
                if least == most:
                    found.extend([("play", source, card_id, target, least) for target in targets])
                else:
                    found.extend([("play", source, card_id, target, mana)
                                  for target in targets for mana in range(least, most + 1)])
        return found

    def _targets(self, seat: int, card: int, speed: int) -> list[tuple[str, Any] | None]:
        """What ``card`` may aim at: a player, or a unit I-16's lock allows (after the
        opponent's action aimed at a unit, only as fast an action may follow)."""
        kind = self.aims[card]
        if not kind:
            return NO_TARGET
        if kind == OPPONENT:
            return [("player", self.seats[1 - seat])]
        if kind == YOU:
            return [("player", self.seats[seat])]
        players = self.players
        fields = (players[1 - seat].field if kind == ENEMY_UNIT else players[seat].field if kind == YOUR_UNIT
                  else players[seat].field + players[1 - seat].field)  # ANY_UNIT: one's own first
        return [("unit", unit.uid) for unit in fields
                if unit.lock_seat < 0 or unit.lock_seat == seat or speed >= unit.lock_speed]

    def _attacks(self, seat: int) -> list[Hashable]:
        """I-6 option 4: each unit (and the duelist, I-R3) against each target in reach."""
        found: list[Hashable] = []
        reachable: dict[tuple[str, int], list[tuple[str, Any]]] = {}  # units of one range and speed share targets
        for unit in self.players[seat].field:
            key = (unit.range, unit.speed)
            targets = reachable.get(key)
            if targets is None:
                targets = reachable[key] = self._attack_targets(seat, unit.range, unit.speed)
            uid = unit.uid
            found.extend([("attack", uid, target) for target in targets])
        me = self.players[seat]
        if me.attack > 0 and self.rules.player_attacks:
            name = self.seats[seat]
            found.extend([("attack", name, target) for target in self._attack_targets(seat, me.range, me.speed)])
        return found

    def _attack_targets(self, seat: int, reach: str, speed: int) -> list[tuple[str, Any]]:
        """I-10: near reaches near, middle reaches near and middle, far reaches all; the duelist
        can always be attacked. I-16's locks as in ``_targets``."""
        ranges = REACH[reach]
        return [("player", self.seats[1 - seat])] + [
            ("unit", unit.uid) for unit in self.players[1 - seat].field
            if unit.range in ranges and (unit.lock_seat < 0 or unit.lock_seat == seat or speed >= unit.lock_speed)]

    def _reveal_actions(self) -> list[Hashable]:
        seat, damage, stage, eligible = self.reveals[0]
        if stage == "reveal":
            return [("reveal", k) for k in range(len(damage) + 1)]
        actions: list[Hashable] = []
        zone = self.players[seat].exile_up if self.rules.reversal_from_damage else self.players[seat].hand
        for card in eligible:
            if card not in zone:  # activated meanwhile, on an earlier hit offered the same card
                continue
            definition = self.cards[card]
            actions.extend(("reversal", definition.id, target) for target in self._targets(seat, card, definition.speed))
        actions.append(DECLINE)
        return actions

    # ------------------------------------------------------------------ rights (I-5, I-6)

    def _give_right(self, seat: int, events: EVENTS, answering: bool = False) -> None:
        """Hand the action right to ``seat``: count it, tick I-12's watches, check I-R6."""
        self.right = seat
        self.rights += 1
        self.quiet += 1
        for player in self.players:
            for unit in player.field:
                if unit.watch:
                    unit.watch -= 1
                    if not unit.watch:
                        self._recover(unit, events)
        if self.quiet > self.rules.stall or self.rights > 10 * self.rules.stall:
            self._finish(-1, "stall", events)
            return
        if events is not None:
            events.append({"event": "right", "seat": self.seats[seat], "number": self.rights, "answering": answering})
        me = self.players[seat]
        if me.skip and not answering:
            # I-18: the reversal used this right
            me.skip = False
            if events is not None:
                events.append({"event": "pass", "seat": self.seats[seat], "why": "reversal"})
            self._give_right(1 - seat, events)

    def _apply_right(self, action: Hashable, events: EVENTS) -> None:
        seat = self.right
        me = self.players[seat]
        kind = action[0]  # type: ignore[index]
        if kind == "play":
            me.streak = 0
            self._play(seat, action, events)  # type: ignore[arg-type]
            self._give_right(1 - seat, events)
            return
        self._close_chain(events)  # a pass lets the waiting cards resolve
        if self.result is not None:
            return
        if kind == "charge":
            me.streak += 1
            self._charge(seat, events)
        else:
            me.streak = 0
            # the waiting cards resolved first, and may have moved the named card (a `move`)
            if kind == "take" and self.ids[action[1]] in me.mana:  # type: ignore[index]
                self._take(seat, action[1], action[2], events)  # type: ignore[index]
            elif kind == "restore" and self.ids[action[1]] in me.exile_skill:  # type: ignore[index]
                self._restore(seat, action[1], events)  # type: ignore[index]
            elif kind == "attack" and self._present(action[1], action[2]):  # type: ignore[index]
                self._declare(seat, action[1], action[2], events, extra=False)  # type: ignore[index]
                return
            elif events is not None:
                events.append({"event": "pass", "seat": self.seats[seat]})
        self._continue(1 - seat, events)

    def _present(self, attacker: int | str, target: tuple[str, Any]) -> bool:
        """Whether an attack's units are still on the field once the waiting cards resolved
        (an attack without them is a plain pass)."""
        return ((isinstance(attacker, str) or self.unit(attacker) is not None)
                and (target[0] == "player" or self.unit(target[1]) is not None))

    def _continue(self, seat: int, events: EVENTS) -> None:
        """The right goes to ``seat`` (an answering right while a declaration is open) once
        pending reveals and an I-15 further attack are answered."""
        if self.result is not None:
            return
        self.after = seat
        if self.reveals or self.extra is not None:
            return
        self._give_right(seat, events, answering=self.declaration is not None)

    def _charge(self, seat: int, events: EVENTS) -> None:
        """I-6 option 1, I-R8: the n-th consecutive charge moves n cards (or 1)."""
        me = self.players[seat]
        count = min(me.streak if self.rules.triangular_charge else 1, len(me.main))
        for _ in range(count):
            me.mana.append(me.main.pop())
        if events is not None:
            events.append({"event": "charge", "seat": self.seats[seat], "cards": count, "streak": me.streak,
                           "mana": len(me.mana), "main": len(me.main)})

    def _take(self, seat: int, card_id: str, count: int, events: EVENTS) -> None:
        """I-6 option 2: mana cards to hand (the oldest copies of the named card)."""
        me = self.players[seat]
        card = self.ids[card_id]
        count = min(count, me.mana.count(card))  # the copies still there once the waiting cards resolved
        for _ in range(count):
            me.mana.remove(card)
            me.hand.append(card)
        if events is not None:
            events.append({"event": "take", "seat": self.seats[seat], "card": card_id, "count": count})

    def _restore(self, seat: int, card_id: str, events: EVENTS) -> None:
        """I-6 option 3: one face-down exiled skill card to the skill deck's bottom."""
        me = self.players[seat]
        card = self.ids[card_id]
        me.exile_skill.remove(card)
        me.skill.insert(0, card)
        if events is not None:
            events.append({"event": "restore", "seat": self.seats[seat], "card": card_id})

    # ------------------------------------------------------------------ playing cards (I-7, I-9)

    def _play(self, seat: int, action: tuple[str, str, str, Any, int], events: EVENTS) -> None:
        _, source, card_id, target, mana = action
        me = self.players[seat]
        card = self.ids[card_id]
        definition = self.cards[card]
        from_skill = source == "skill"
        if from_skill:
            me.skill.remove(card)
        else:
            me.hand.remove(card)
        skill_paid = self._pay(me, definition.cost, mana)
        if target is not None and target[0] == "unit":
            unit = self.unit(target[1])
            assert unit is not None
            self._aim(unit, seat, definition.speed)
        interrupt = bool(self.chain) and definition.speed >= self.chain[-1][3] + 2
        self.tally["interrupts"] += interrupt
        self.chain.append((seat, card, target, definition.speed, from_skill))
        if events is not None:
            events.append({"event": "cast", "seat": self.seats[seat], "card": card_id, "from": source,
                           "speed": definition.speed, "target": self._name(target), "mana": mana,
                           "skill": skill_paid})
            if interrupt:
                events.append({"event": "interrupt", "seat": self.seats[seat], "card": card_id,
                               "over": self.cards[self.chain[-2][1]].id})

    def _pay(self, me: Player, cost: int, mana: int) -> int:
        """I-7: mana cards (oldest first) to the main deck's bottom; the rest from the skill
        deck, exiled face down (the most plentiful names: the rare ones are kept)."""
        for _ in range(mana):
            me.main.insert(0, me.mana.pop(0))
        rest = cost - mana
        skill = me.skill
        for _ in range(rest):
            names = sorted(set(skill))
            copies = [skill.count(card) for card in names]
            card = names[copies.index(max(copies))]  # the most copies; of equals, the first name
            skill.remove(card)
            me.exile_skill.append(card)
        return rest

    def _close_chain(self, events: EVENTS) -> None:
        """Resolve the waiting cards (I-9, I-R5): in answer order (last in first out, or first
        in first out), except that one 2 or more faster than that goes first."""
        while self.chain and self.result is None:
            chain = self.chain
            pick = len(chain) - 1 if self.rules.answers_lifo else 0
            if len(chain) > 1:  # one waiting card is the one to resolve
                fastest = max(range(len(chain)), key=lambda j: (chain[j][3], j))
                if chain[fastest][3] >= chain[pick][3] + 2:
                    pick = fastest
            seat, card, target, _speed, from_skill = chain.pop(pick)
            self._resolve(seat, card, target, from_skill, events)

    def _resolve(self, seat: int, card: int, target: tuple[str, Any] | None, from_skill: bool, events: EVENTS) -> None:
        definition = self.cards[card]
        me = self.players[seat]
        if events is not None:
            events.append({"event": "resolve", "seat": self.seats[seat], "card": definition.id})
        if definition.kind == UNIT:
            self._summon(seat, card, events)
            return
        unit = self.unit(target[1]) if target is not None and target[0] == "unit" else None
        if definition.kind == EQUIPMENT and unit is not None:
            unit.gear.append((card, from_skill))
        else:
            (me.exile_skill if from_skill else me.exile_main).append(card)
        self._effects(seat, definition, target, unit, events)

    def _summon(self, seat: int, card: int, events: EVENTS) -> Unit:
        unit = Unit(self.next_uid, self.cards[card], card, seat)
        self.next_uid += 1
        self.players[seat].field.append(unit)
        self.units[unit.uid] = unit
        if events is not None:
            events.append({"event": "summon", "seat": self.seats[seat], "card": self.cards[card].id, "unit": unit.uid})
        return unit

    def _effects(self, seat: int, card: CardDef, target: tuple[str, Any] | None, unit: Unit | None, events: EVENTS) -> None:
        """Apply a card's text in order; effects on a unit that has left the field do nothing."""
        for effect in card.effects:
            if effect.target in (ANY_UNIT, YOUR_UNIT, ENEMY_UNIT) and unit is None:
                continue
            if events is not None and effect.verb not in (DAMAGE, RECOVERY):  # those have their own events
                events.append({"event": "effect", "seat": self.seats[seat], "card": card.id, "text": effect.text(),
                               "target": self._name(target)})
            if effect.verb == DAMAGE:
                if unit is not None:
                    self._hurt(unit, effect.amount, events)
                else:
                    victim = seat if effect.target == YOU else 1 - seat
                    self._damage_player(victim, effect.amount, events)
            elif effect.verb == PREVENT:
                if unit is not None:
                    unit.shield += effect.amount
                else:
                    self.players[seat if effect.target == YOU else 1 - seat].shield += effect.amount
            elif effect.verb == HEAL and unit is not None:
                unit.damage = max(0, unit.damage - effect.amount)
            elif effect.verb == RECOVERY:
                self._recovery(seat, effect.amount, events)
            elif effect.verb == BOOST and unit is not None:
                setattr(unit, effect.stat, max(0, getattr(unit, effect.stat) + effect.amount))
                if unit.damage >= unit.hp:
                    self._destroy(unit, events)
            elif effect.verb == PROTECT and unit is not None:
                self._aim(unit, seat, card.speed)
            elif effect.verb == BOUNCE and unit is not None:
                self._leave(unit)
                self.players[unit.owner].hand.append(unit.card)
            elif effect.verb == MOVE:
                self._move(seat, effect.amount, effect.source, effect.destination)

    def _move(self, seat: int, amount: int, source: str, destination: str) -> None:
        """Move up to ``amount`` cards between the caster's zones: from a pile's top, the
        mana zone's oldest, the hand's latest; exile gives main-deck cards except to the
        skill deck."""
        me = self.players[seat]
        zones = {"main deck": me.main, "skill deck": me.skill, "hand": me.hand, "mana zone": me.mana,
                 "exile": me.exile_skill if destination == "skill deck" else me.exile_main}
        take, put = zones[source], zones[destination]
        for _ in range(min(amount, len(take))):
            card = take.pop(0) if source in ("mana zone", "exile") else take.pop()
            if destination in ("main deck", "skill deck") and source != "main deck":
                put.insert(0, card)
            else:
                put.append(card)

    def _recovery(self, seat: int, amount: int, events: EVENTS) -> None:
        """I-19: N face-down exiled main-deck cards back, face down, to the deck's bottom."""
        me = self.players[seat]
        count = min(amount, len(me.exile_main))
        for _ in range(count):
            me.main.insert(0, me.exile_main.pop(0))
        if events is not None:
            events.append({"event": "recovery", "seat": self.seats[seat], "cards": count, "main": len(me.main)})

    # ------------------------------------------------------------------ units (I-11, I-12, I-16)

    def _aim(self, unit: Unit, seat: int, speed: int) -> None:
        """An action aimed at a unit: I-16's lock follows it, I-12's watch starts again (for
        the unit and its last fight's opponent)."""
        unit.lock_seat, unit.lock_speed = seat, speed
        unit.watch = WATCH
        partner = self.unit(unit.partner) if unit.partner >= 0 else None
        if partner is not None:
            partner.watch = WATCH

    def _recover(self, unit: Unit, events: EVENTS) -> None:
        """I-12: untouched since its fight, a unit heals fully; I-16's lock ends with it."""
        if unit.damage and events is not None:
            events.append({"event": "heal", "unit": unit.uid, "card": self.cards[unit.card].id})
        unit.damage = unit.shield = 0
        unit.lock_seat, unit.lock_speed = -1, 0
        unit.partner = -1

    def _hurt(self, unit: Unit, amount: int, events: EVENTS) -> int:
        """Damage to a unit after its prevention shield; it is destroyed at its HP."""
        prevented = min(unit.shield, amount)
        unit.shield -= prevented
        dealt = amount - prevented
        unit.damage += dealt
        unit.watch = WATCH
        if events is not None:
            events.append({"event": "unit damage", "unit": unit.uid, "card": self.cards[unit.card].id,
                           "amount": dealt, "prevented": prevented})
        if unit.damage >= unit.hp:
            self._destroy(unit, events)
        return dealt

    def _leave(self, unit: Unit) -> None:
        owner = self.players[unit.owner]
        owner.field.remove(unit)
        del self.units[unit.uid]
        for card, from_skill in unit.gear:
            (owner.exile_skill if from_skill else owner.exile_main).append(card)

    def _destroy(self, unit: Unit, events: EVENTS) -> None:
        """A destroyed unit and its equipment go face down to exile (Recovery may return them)."""
        if unit not in self.players[unit.owner].field:
            return
        self._leave(unit)
        self.players[unit.owner].exile_main.append(unit.card)
        if events is not None:
            events.append({"event": "destroy", "unit": unit.uid, "card": self.cards[unit.card].id,
                           "seat": self.seats[unit.owner]})

    # ------------------------------------------------------------------ attacks (I-13 to I-17)

    def _declare(self, seat: int, attacker: int | str, target: tuple[str, Any], events: EVENTS, extra: bool) -> None:
        """Open a declaration; the right passes to the defender to answer (I-8, I-13)."""
        if isinstance(attacker, str):
            unit_id, speed = -1, self.players[seat].speed
        else:
            unit = self.unit(attacker)
            assert unit is not None
            unit_id, speed = attacker, (self.extra[2] if extra and self.extra else unit.speed)
        target_id = target[1] if target[0] == "unit" else -1
        if target_id >= 0:
            aimed = self.unit(target_id)
            assert aimed is not None
            self._aim(aimed, seat, speed)
        self.declaration = Declaration(seat, unit_id, target_id, speed, extra)
        self.extra = None
        if events is not None:
            events.append({"event": "attack", "seat": self.seats[seat], "attacker": self._attacker_name(seat, unit_id),
                           "target": self._name(target), "speed": speed, "extra": extra})
        self._continue(1 - seat, events)

    def _apply_answer(self, action: Hashable, events: EVENTS) -> None:
        declaration = self.declaration
        assert declaration is not None
        seat = self.right
        kind = action[0]  # type: ignore[index]
        self.players[seat].streak = 0
        if kind == "pass":
            if self.rules.hit_by_holder or seat == declaration.seat:
                self._land(seat, events)  # I-17, I-R1
                return
            if events is not None:
                events.append({"event": "pass", "seat": self.seats[seat]})
        elif kind == "defend":
            declaration.defended = True
            declaration.reduce += 1
            if events is not None:
                events.append({"event": "defend", "seat": self.seats[seat]})
        elif kind == "block":
            self._block(seat, action[1], events)  # type: ignore[index]
        elif kind == "summon":
            me = self.players[seat]
            card = self.ids[action[1]]  # type: ignore[index]
            me.hand.remove(card)
            self._pay(me, self.cards[card].cost + 1, action[2])  # type: ignore[index]
            self._block(seat, self._summon(seat, card, events).uid, events)
        else:
            self._play(seat, action, events)  # type: ignore[arg-type]
        self._give_right(1 - seat, events, answering=True)

    def _block(self, seat: int, uid: int, events: EVENTS) -> None:
        declaration = self.declaration
        assert declaration is not None
        declaration.blocked = True
        declaration.target = uid
        if events is not None:
            events.append({"event": "block", "seat": self.seats[seat], "unit": uid, "card": self._unit_card(uid)})

    def _land(self, passer: int, events: EVENTS) -> None:
        """The hit (I-17): the waiting cards resolve first, then the attack strikes if its
        attacker and target are still there; the right goes to the passer's opponent."""
        declaration = self.declaration
        assert declaration is not None
        self.declaration = None
        self._close_chain(events)
        if self.result is not None:
            return
        seat = declaration.seat
        attacker = self.unit(declaration.unit) if declaration.unit >= 0 else None
        if declaration.unit >= 0 and attacker is None:
            self._continue(1 - passer, events)
            return
        amount = max(0, (attacker.attack if attacker else self.players[seat].attack) - declaration.reduce)
        if declaration.target < 0:
            self._hit_player(declaration, attacker, amount, events)
        else:
            target = self.unit(declaration.target)
            if target is not None:
                self._fight(declaration, attacker, target, amount, events)
        self._continue(1 - passer, events)

    def _hit_player(self, declaration: Declaration, attacker: Unit | None, amount: int, events: EVENTS) -> None:
        """A hit on the duelist: main-deck cards exiled face down (I-17); a duelist with attack
        power strikes back if speed and range allow (I-R3, I-15)."""
        seat = declaration.seat
        defender = self.players[1 - seat]
        if events is not None:
            events.append({"event": "hit", "seat": self.seats[seat], "target": self.seats[1 - seat], "damage": amount})
        back = (self.rules.player_attacks and defender.attack > 0 and declaration.speed - defender.speed < 2
                and (attacker is None or attacker.range in REACH[defender.range]))
        self._damage_player(1 - seat, amount, events)
        if back:
            self._strike_back(1 - seat, defender.attack, attacker, seat, events)

    def _fight(self, declaration: Declaration, attacker: Unit | None, target: Unit, amount: int, events: EVENTS) -> None:
        """Combatants exchange blows (I-15): a target 2 or more slower cannot strike back; a
        lead of ``extra_attack_gap`` lets the attacker attack again at its speed minus the
        target's (I-R7). Strike-backs need range (I-10)."""
        seat = declaration.seat
        attack_range = attacker.range if attacker else self.players[seat].range
        locked = declaration.speed - target.speed >= 2
        self.tally["speed_locked"] += locked
        back = not locked and target.attack > 0 and attack_range in REACH[target.range]
        if events is not None:
            events.append({"event": "hit", "seat": self.seats[seat], "target": self._name(("unit", target.uid)),
                           "damage": amount, "struck_back": back, "speed_locked": locked})
        if attacker is not None:
            attacker.partner, target.partner = target.uid, attacker.uid
        self._hurt(target, amount, events)
        if back:
            self._strike_back(target.owner, target.attack, attacker, seat, events)
        lead = declaration.speed - target.speed
        if attacker is not None and lead >= self.rules.extra_attack_gap and self.unit(attacker.uid) is not None:
            self.extra = (seat, attacker.uid, lead)
            self.tally["extra_attacks"] += 1
            if events is not None:
                events.append({"event": "extra attack", "seat": self.seats[seat], "unit": attacker.uid, "speed": lead})

    def _strike_back(self, seat: int, amount: int, attacker: Unit | None, attacker_seat: int, events: EVENTS) -> None:
        if attacker is not None:
            self._hurt(attacker, amount, events)
        else:
            self._damage_player(attacker_seat, amount, events)

    def _apply_extra(self, action: Hashable, events: EVENTS) -> None:
        """I-15: the faster unit attacks again without passing the right, or ends."""
        assert self.extra is not None
        seat = self.extra[0]
        if action == END:
            self.extra = None
            if events is not None:
                events.append({"event": "pass", "seat": self.seats[seat]})
            self._continue(self.after, events)
            return
        self._declare(seat, action[1], action[2], events, extra=True)  # type: ignore[index]

    # ------------------------------------------------------------------ damage and reversal (I-4, I-18)

    def _damage_player(self, seat: int, amount: int, events: EVENTS) -> None:
        """Damage to a duelist: the top cards of the main deck exiled face down (I-17)."""
        me = self.players[seat]
        prevented = min(me.shield, amount)
        me.shield -= prevented
        amount -= prevented
        if amount <= 0:
            return
        damage = [me.main.pop() for _ in range(min(amount, len(me.main)))]
        me.exile_main.extend(damage)
        self.quiet = 0
        if events is not None:
            events.append({"event": "damage", "seat": self.seats[seat], "amount": amount, "cards": len(damage),
                           "main": len(me.main), "prevented": prevented})
        if not me.reversals or (self.rules.reversal_from_damage and not damage):
            self._after_damage(seat, events)
            return
        if self.rules.reversal_from_damage:
            self.reveals.append([seat, damage, "reveal", []])
        else:
            self._offer_reversal([seat, damage, "reversal", []], list(me.hand), events, front=False)

    def _apply_reveal(self, action: Hashable, events: EVENTS) -> None:
        item = self.reveals[0]
        seat, damage = item[0], item[1]
        me = self.players[seat]
        if item[2] == "reveal":
            shown = []
            for card in damage[:action[1]]:  # type: ignore[index]
                if card in me.exile_main:  # not returned meanwhile by a Recovery
                    me.exile_main.remove(card)
                    me.exile_up.append(card)
                    shown.append(card)
            if events is not None and shown:
                events.append({"event": "reveal", "seat": self.seats[seat], "cards": [self.cards[c].id for c in shown]})
            self.reveals.pop(0)
            self._offer_reversal(item, shown, events, front=True)
        else:
            self.reveals.pop(0)
            if action == DECLINE:
                self._after_damage(seat, events)
            else:
                self._reversal(seat, action[1], action[2], events)  # type: ignore[index]
        if not self.reveals:
            self._continue(self.after, events)

    def _offer_reversal(self, item: list[Any], shown: list[int], events: EVENTS, front: bool) -> None:
        """I-18: among the cards turned face up, a [Reversal] whose condition holds may be
        activated; the one activated last time cannot on this hit (I-4)."""
        seat = item[0]
        me = self.players[seat]
        spent = me.spent
        eligible: list[int] = []
        for card in shown:
            definition = self.cards[card]
            if definition.reversal is None or card in eligible:
                continue
            if self.rules.reversal_from_damage and card == spent and shown.count(card) == 1:
                continue
            if self._holds(seat, definition.reversal):
                eligible.append(card)
        me.spent = -1
        if eligible:
            self.reveals.insert(0 if front else len(self.reveals), [seat, item[1], "reversal", eligible])
        else:
            self._after_damage(seat, events)

    def _holds(self, seat: int, condition: Condition) -> bool:
        me, them = self.players[seat], self.players[1 - seat]
        count = {"your main deck": len(me.main), "their main deck": len(them.main),
                 "your mana zone": len(me.mana), "your hand": len(me.hand),
                 "your field": len(me.field), "their field": len(them.field)}[condition.subject]
        return count <= condition.amount if condition.at_most else count >= condition.amount

    def _reversal(self, seat: int, card_id: str, target: tuple[str, Any] | None, events: EVENTS) -> None:
        """Activate a [Reversal]: its text resolves, it lies face up on the main deck (I-4) and
        takes the duelist's next action right (I-18)."""
        me = self.players[seat]
        card = self.ids[card_id]
        (me.exile_up if self.rules.reversal_from_damage else me.hand).remove(card)
        me.main.append(card)
        me.spent = card
        me.skip = True
        self.tally["reversals"] += 1
        if events is not None:
            events.append({"event": "reversal", "seat": self.seats[seat], "card": card_id, "main": len(me.main)})
        unit = self.unit(target[1]) if target is not None and target[0] == "unit" else None
        self._effects(seat, self.cards[card], target, unit, events)

    def _after_damage(self, seat: int, events: EVENTS) -> None:
        """I-4: an empty main deck after damage (and no Reversal, which leaves a card) loses."""
        if not self.players[seat].main and self.result is None:
            self._finish(1 - seat, "damage", events)

    def _finish(self, winner: int, reason: str, events: EVENTS) -> None:
        self.result = (winner, reason)
        self.reveals.clear()
        if events is not None:
            events.append({"event": "duel end", "winner": self.seats[winner] if winner >= 0 else None,
                           "reason": reason, "rights": self.rights, "names": dict(zip(self.seats, self.names))})

    # ------------------------------------------------------------------ names for events

    def _name(self, target: tuple[str, Any] | None) -> str | None:
        if target is None:
            return None
        if target[0] == "player":
            return str(target[1])
        return f"{self._unit_card(target[1])}#{target[1]}"

    def _unit_card(self, uid: int) -> str:
        unit = self.unit(uid)
        return self.cards[unit.card].id if unit is not None else "?"

    def _attacker_name(self, seat: int, uid: int) -> str:
        return self.seats[seat] if uid < 0 else f"{self._unit_card(uid)}#{uid}"


def _distinct(cards: list[int]) -> list[int]:
    """Each card once, in order of index: one action per name, not per copy."""
    return sorted(set(cards))


def _counts(cards: list[int]) -> list[tuple[int, int]]:
    """(card, copies) in order of the card's index: one action per name, not per copy."""
    return [(card, cards.count(card)) for card in sorted(set(cards))]


def new_duel(duelists: Sequence[Duelist], cards: CardSet, rules: Rules | None = None) -> DuelState:
    """A duel ready to deal: the card table, both decks as card indices, status (I-R3)."""
    table = [cards.cards[card_id] for card_id in sorted(cards.cards)]
    index = {card.id: i for i, card in enumerate(table)}
    decks = []
    status = []
    for duelist in duelists:
        deck = duelist.deck
        decks.append(([index[c] for c in deck.cards(deck.main)], [index[c] for c in deck.cards(deck.skills)]))
        statuses = [cards[c] for c in deck.cards(deck.status)]
        reach = max((s.range for s in statuses if s.range), key=("near", "middle", "far").index, default="near")
        status.append((sum(s.attack for s in statuses), sum(s.speed for s in statuses), reach))
    return DuelState(table, (duelists[0].id, duelists[1].id), decks, status, rules or Rules(),
                     (duelists[0].name, duelists[1].name), (duelists[0].deck.id, duelists[1].deck.id))
