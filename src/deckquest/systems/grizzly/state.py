"""The game in progress: Grizzly Bears' Adventure as one ``deckquest.engine.game`` state.

The state is plain data (lists of ints and tuples) so ``clone`` is cheap. Play advances through
a queue of rule steps (``tasks``): steps that need nobody's answer run at once; a step that
needs an answer (a seat's choice, or the die: chance) waits as ``waiting`` with its
``Decision``; ``apply`` answers it and runs on to the next question.

Vocabulary follows the digest: a seat's **bear** walks the **loop** of **squares**; a face-down
square card is **flipped**; a flipped creature is **fought** (alone or in **co-op**); a lap past
**home** gives the **lap bonus**; five **Treasures** win (G-1).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Hashable, Sequence

from deckquest.cards.oracle import Effect
from deckquest.engine.game import CHANCE, OVER, Decision
from deckquest.systems.grizzly import combat, effects
from deckquest.systems.grizzly.cards import CardFacts, CardTable
from deckquest.systems.grizzly.config import GrizzlyConfig, Rules
from deckquest.systems.grizzly.dungeon import DUNGEONS, Room

Events = list[dict[str, Any]] | None
#: A rule step: its name (``_STEPS``), then what it works on (seats, cards, refs, an effect).
Task = tuple[Any, ...]
#: The answer to a seat's decision: a verb (``("roll",)``, ``("cast", card)``) or a ref
#: (``effects.Ref``), then the cards, seats, squares or rooms it names.
Action = tuple[Any, ...]
Pending = tuple[int, str, tuple[Hashable, ...]]  # (seat index or -1 for chance, kind, actions)
#: A rule step (``_STEPS``): it runs, and returns the decision it waits for, or None to go on.
Step = Callable[["GrizzlyState", Task, random.Random, Events], "Pending | None"]
#: A waiting step's answer (``_ANSWERS``): it applies the action its decision got (a seat's
#: ``Action``, or the die's number).
Answer = Callable[["GrizzlyState", Task, Any, random.Random, Events], None]

DIE = (1, 2, 3, 4, 5, 6)
DIE_ODDS = (1 / 6,) * 6
BEAR_POWER = BEAR_TOUGHNESS = 2  # G-1: each player is a Grizzly Bears (2/2)
BEAR_COLORS = frozenset({"G"})
BEAR_SUBTYPES = frozenset({"bear"})
NO_KEYWORDS: frozenset[str] = frozenset()


class GrizzlyState:
    """One game. Build it with ``GrizzlyState.new(config, rng)``."""

    __slots__ = (
        "config", "rules", "table", "facts", "seat_ids", "rooms",
        "library", "graveyards", "exile", "sq_card", "sq_up", "sq_damage", "sq_counters",
        "pos", "hands", "treasures", "counters", "damage", "auras", "equipped", "perms", "allies",
        "room", "skips", "pumps", "active", "round", "turns", "dashed", "cast_this_turn",
        "partner", "fight_square", "last_player", "tasks", "waiting", "pending", "result", "tally", "flips", "deaths",
        "anthems_seen",
    )

    config: GrizzlyConfig
    rules: Rules
    table: CardTable
    facts: list[CardFacts]
    seat_ids: tuple[str, ...]
    rooms: tuple[Room, ...]
    library: list[int]  # the top card is the last
    graveyards: list[list[int]]  # one shared (G-2) or one per seat (G-27)
    exile: list[int]
    sq_card: list[int]  # card id on each square, -1 for none
    sq_up: list[bool]  # face up: a flipped creature standing there (G-R2)
    sq_damage: list[int]
    sq_counters: list[int]
    pos: list[int]  # each bear's distance from its home along the loop
    hands: list[list[int]]
    treasures: list[int]
    counters: list[int]  # +1/+1 counters on each bear (G-10, G-R7)
    damage: list[int]
    auras: list[list[int]]  # auras on each bear
    equipped: list[list[int]]  # equipment attached to each bear
    perms: list[list[int]]  # other artifacts, enchantments (and unattached equipment) a seat controls
    allies: list[list[int]]  # creatures a seat cast from hand (G-R4 all)
    room: list[int]  # each seat's dungeon room, -1 outside
    skips: list[int]  # turns to skip (G-21)
    pumps: list[tuple[effects.Creature, int, int, frozenset[str], int]]  # (ref, +P, +T, keywords, until seat's turn)
    active: int
    round: int
    turns: int
    dashed: bool
    cast_this_turn: bool
    partner: int  # the co-op partner this turn, -1 for none
    fight_square: int
    last_player: int
    tasks: list[Task]
    waiting: Task | None
    pending: Pending | None
    result: dict[str, Any] | None
    # What happened, for the balance report (the game's record, like a chess game's moves):
    tally: dict[str, int]  # Treasures by source, co-op offers and acceptances, dashes, lead changes
    flips: dict[int, int]  # card id -> times bears met it face up (G-8, G-R2)
    deaths: dict[int, int]  # card id -> bears it killed
    # The anthems last read and the zones they were read from (``anthems``); never changed, only replaced:
    anthems_seen: tuple[list[list[int]], list[list[int]], list[tuple[int, str, Effect]]] | None

    # --- set-up (G-2, G-3) ---------------------------------------------------------------

    @classmethod
    def new(cls, config: GrizzlyConfig, rng: random.Random, events: Events = None,
            table: CardTable | None = None) -> "GrizzlyState":
        """Shuffle the library, deal each seat 3 cards and lay the loop (G-3). ``table`` may be
        shared between games of one config (it is read-only)."""
        config.check()
        state = cls.__new__(cls)
        state.config = config
        state.rules = config.rules
        state.table = table if table is not None else CardTable(config.library)
        state.facts = state.table.facts
        state.seat_ids = tuple(seat.id for seat in config.seats)
        state.rooms = DUNGEONS[config.reading("dungeon")][1]
        n = config.players
        state.library = list(state.table.library)
        rng.shuffle(state.library)
        state.graveyards = [[] for _ in range(n if config.expert else 1)]
        state.exile = []
        state.hands = [[] for _ in range(n)]
        for seat in range(n):
            state.hands[seat] = [state.library.pop() for _ in range(min(config.hand_size, len(state.library)))]
        length = config.loop_length
        state.sq_card = [state.library.pop() if state.library else -1 for _ in range(length)]
        state.sq_up = [False] * length
        state.sq_damage = [0] * length
        state.sq_counters = [0] * length
        state.pos = [0] * n
        state.treasures = [0] * n
        state.counters = [0] * n
        state.damage = [0] * n
        state.auras = [[] for _ in range(n)]
        state.equipped = [[] for _ in range(n)]
        state.perms = [[] for _ in range(n)]
        state.allies = [[] for _ in range(n)]
        state.room = [-1] * n
        state.skips = [0] * n
        state.pumps = []
        state.active = 0
        state.round = 1
        state.turns = 0
        state.dashed = False
        state.cast_this_turn = False
        state.partner = -1
        state.fight_square = -1
        state.last_player = -1
        state.tasks = [("turn_start",)]
        state.waiting = None
        state.pending = None
        state.result = None
        state.tally = {"lap": 0, "dragon": 0, "offers": 0, "accepted": 0, "dashes": 0, "lead_changes": 0,
                       "leader": -1}
        state.flips = {}
        state.deaths = {}
        state.anthems_seen = None
        state._advance(rng, events)
        return state

    def clone(self) -> "GrizzlyState":
        other = GrizzlyState.__new__(GrizzlyState)
        for name in ("config", "rules", "table", "facts", "seat_ids", "rooms", "active", "round", "turns", "dashed",
                     "cast_this_turn", "partner", "fight_square", "last_player", "waiting", "pending", "result",
                     "anthems_seen"):
            setattr(other, name, getattr(self, name))
        for name in ("library", "exile", "sq_card", "sq_up", "sq_damage", "sq_counters", "pos", "treasures",
                     "counters", "damage", "room", "skips", "pumps", "tasks"):
            setattr(other, name, list(getattr(self, name)))
        other.tally, other.flips, other.deaths = dict(self.tally), dict(self.flips), dict(self.deaths)
        for name in ("graveyards", "hands", "auras", "equipped", "perms", "allies"):
            setattr(other, name, [list(part) for part in getattr(self, name)])
        return other

    # --- the step API ----------------------------------------------------------------------

    def decision(self) -> Decision:
        if self.result is not None or self.pending is None:
            return Decision(OVER, "over")
        seat, kind, actions = self.pending
        if seat < 0:
            return Decision(CHANCE, kind, actions, DIE_ODDS if kind == "roll" else None)
        return Decision(self.seat_ids[seat], kind, actions)

    def apply(self, action: Hashable, rng: random.Random, events: Events = None) -> None:
        if self.pending is None or self.waiting is None:
            raise ValueError("the game is over")
        if action not in self.pending[2]:
            raise ValueError(f"{action!r} is not a legal answer to {self.pending[1]}")
        task, self.waiting, self.pending = self.waiting, None, None
        _ANSWERS[task[0]](self, task, action, rng, events)
        self._advance(rng, events)

    def outcome(self) -> dict[str, Any] | None:
        return self.result

    def asked_again(self) -> Pending | None:
        """The decision the waiting step asks, worked out again on a copy of the game: what a
        save's ``pending`` must be (saves.check_game). The lap bonus's is fixed: its step
        draws and gains a Treasure before it asks, which could end the copy's game."""
        task = self.waiting
        if task is None:
            return None
        if task[0] == "lap_bonus":
            return (task[1], "lap", (("counter",), ("venture",))) if self.rules.dungeon else None
        pending: Pending | None = _STEPS[task[0]](self.clone(), task, random.Random(0), None)
        return pending

    # --- reading the board (agents and renderers use these too) ---------------------------

    @property
    def loop_length(self) -> int:
        return len(self.sq_card)

    def seat_index(self, seat_id: str) -> int:
        return self.seat_ids.index(seat_id)

    def square_of(self, seat: int) -> int:
        """The square a bear stands on, -1 at a home corner (G-R1 corner)."""
        rules, distance = self.rules, self.pos[seat]
        if rules.corner:
            return -1 if distance == 0 else (seat * rules.squares_per_player + distance - 1) % rules.loop
        return (seat * rules.squares_per_player + distance) % rules.loop

    def home_square(self, seat: int) -> int:
        return seat * self.config.squares_per_player

    def bears_on(self, square: int) -> list[int]:
        if square < 0:
            return []  # a home corner is no square (G-R1)
        return [s for s in range(len(self.pos)) if self.square_of(s) == square]

    def card(self, card_id: int) -> CardFacts:
        return self.facts[card_id]

    def bear_stats(self, seat: int) -> tuple[int, int, frozenset[str]]:
        """Power, toughness left (damage taken off) and keywords of a seat's bears."""
        per_counter = self.rules.counter_toughness
        power = BEAR_POWER + self.counters[seat]
        toughness = BEAR_TOUGHNESS + per_counter * self.counters[seat] - self.damage[seat]
        keywords = NO_KEYWORDS
        if self.auras[seat] or self.equipped[seat]:
            for card_id in self.auras[seat] + self.equipped[seat]:
                facts = self.facts[card_id]
                power += facts.attach_power
                toughness += facts.attach_toughness
                keywords |= facts.attach_keywords
        anthems = self.anthems()
        if not anthems and not self.pumps:
            return power, toughness, keywords
        p, t, k = self._modifiers(anthems, ("bear", seat), seat, BEAR_COLORS, BEAR_SUBTYPES)
        return power + p, toughness + t, keywords | k

    def square_stats(self, square: int) -> tuple[int, int, frozenset[str]]:
        """A face-up creature's power, toughness left and keywords (G-22: it is controlled by
        the bears standing on its square, whose anthems reach it)."""
        facts = self.facts[self.sq_card[square]]
        power = facts.power + self.sq_counters[square]
        toughness = facts.toughness + self.sq_counters[square] - self.sq_damage[square]
        anthems = self.anthems()
        if not anthems and not self.pumps:
            return power, toughness, facts.keywords
        owners = self.bears_on(square)
        p, t, k = self._modifiers(anthems, ("square", square), owners[0] if owners else -1,
                                  facts.colors, facts.subtypes, facts.name)
        return power + p, toughness + t, facts.keywords | k

    def ally_stats(self, seat: int, card_id: int) -> tuple[int, int, frozenset[str]]:
        facts = self.facts[card_id]
        p, t, k = self._modifiers(self.anthems(), ("ally", seat, card_id), seat, facts.colors, facts.subtypes,
                                  facts.name)
        return facts.power + p, facts.toughness + t, facts.keywords | k

    def _modifiers(self, anthems: list[tuple[int, str, Effect]], ref: effects.Creature, controller: int,
                   colors: frozenset[str], subtypes: frozenset[str], name: str = "") -> tuple[int, int, frozenset[str]]:
        """What pumps (G-18) and the anthems in play add to one creature."""
        power = toughness = 0
        keywords: set[str] = set()
        for pumped, p, t, k, _ in self.pumps:
            if pumped == ref:
                power, toughness = power + p, toughness + t
                keywords |= k
        for seat, source, effect in anthems:
            if effects.anthem_reaches(effect, seat, controller, colors, subtypes, source == name):
                power, toughness = power + effect.power, toughness + effect.toughness
                keywords |= set(effect.keywords)
        return power, toughness, frozenset(keywords)

    def anthems(self) -> list[tuple[int, str, Effect]]:
        """Each anthem in play: (its controller, its card's name, the effect). Every creature's
        stats ask this, and the permanents change seldom: the list is kept with copies of the
        zones it was read from and read again only when they differ."""
        if not any(self.perms) and not any(self.allies):
            return []  # much of a game: every creature's stats are its own
        seen = self.anthems_seen
        if seen is not None and seen[0] == self.perms and seen[1] == self.allies:
            return seen[2]
        facts = self.facts
        found = [(seat, facts[card_id].name, effect)
                 for seat, cards in enumerate(self.perms) for card_id in cards + self.allies[seat]
                 for effect in facts[card_id].anthems]
        self.anthems_seen = ([list(cards) for cards in self.perms], [list(cards) for cards in self.allies], found)
        return found


    # --- the machinery --------------------------------------------------------------------

    def _advance(self, rng: random.Random, events: Events) -> None:
        while self.result is None and self.tasks:
            task = self.tasks.pop(0)
            pending = _STEPS[task[0]](self, task, rng, events)
            if pending is not None:
                self.waiting, self.pending = task, pending
                return
        if self.result is None and not self.tasks:
            raise RuntimeError("the turn machinery ran dry")

    def push(self, *tasks: Task) -> None:
        """Run these steps next, in this order."""
        self.tasks[0:0] = tasks

    def emit(self, events: Events, kind: str, /, **fields: Any) -> None:
        if events is not None:
            fields["event"] = kind
            fields.setdefault("round", self.round)
            events.append(fields)

    def gain_counters(self, seat: int, amount: int, why: str, events: Events) -> None:
        """A seat's bears get ``amount`` 「+1カウンター」 (G-10, G-16, a dungeon room): +1/+1
        counters, or +1/+0 under G-R7's other reading; the event says which."""
        self.counters[seat] += amount
        self.emit(events, "bear_counter", seat=self.seat_ids[seat], counters=self.counters[seat], why=why,
                  counter="+1/+1" if self.rules.counter_toughness else "+1/+0")

    def name(self, card_id: int) -> str:
        return self.facts[card_id].name

    # --- zones --------------------------------------------------------------------------

    def to_graveyard(self, card_id: int) -> None:
        """G-2 one shared graveyard; G-27 one per player: cards go to the turn player's."""
        self.graveyards[self.active if self.rules.expert else 0].append(card_id)

    def top_of_library(self, rng: random.Random, events: Events) -> int:
        """The library's top card, shuffling the graveyard in first when it is empty (G-23);
        -1 when there is none (and under G-27 the game ends)."""
        if not self.library:
            if self.rules.expert:
                self.finish(None, "library out", events)
                return -1
            self.reshuffle(rng, events)
            if not self.library:
                return -1
        return self.library.pop()

    def reshuffle(self, rng: random.Random, events: Events) -> None:
        graveyard = self.graveyards[0]
        if not graveyard:
            return
        shuffled = list(graveyard)
        graveyard.clear()
        rng.shuffle(shuffled)
        self.library[0:0] = shuffled  # under what is left of the library (G-23)
        self.emit(events, "shuffle", cards=len(self.library))

    def draw(self, seat: int, count: int, rng: random.Random, events: Events, why: str) -> None:
        drawn = 0
        for _ in range(count):
            card_id = self.top_of_library(rng, events)
            if card_id < 0:
                break
            self.hands[seat].append(card_id)
            drawn += 1
        if drawn:
            self.emit(events, "cards_drawn", seat=self.seat_ids[seat], count=drawn, why=why)

    def refill(self, square: int, rng: random.Random, events: Events) -> None:
        """Lay the library's top card face down on a square (G-8, G-14, G-25)."""
        self.clear_square(square)
        card_id = self.top_of_library(rng, events)
        self.sq_card[square] = card_id
        if card_id >= 0:
            self.emit(events, "place", seat=self.seat_ids[self.active], square=square, source="library")

    def clear_square(self, square: int) -> None:
        self.sq_card[square] = -1
        self.sq_up[square] = False
        self.sq_damage[square] = 0
        self.sq_counters[square] = 0
        if self.pumps:
            self.pumps = [p for p in self.pumps if p[0] != ("square", square)]

    def gain_treasure(self, seat: int, source: str, events: Events) -> None:
        self.treasures[seat] += 1
        self.tally[source] += 1
        self.note_lead()
        self.emit(events, "treasure_gained", seat=self.seat_ids[seat], source=source,
                  treasures=self.treasures[seat])
        if self.treasures[seat] >= self.config.treasures_to_win:  # G-1: the moment it has 5
            self.finish(seat, "treasures", events)

    def finish(self, winner: int | None, reason: str, events: Events) -> None:
        if self.result is not None:
            return
        self.result = {
            "winner": None if winner is None else self.seat_ids[winner],
            "reason": reason, "round": self.round, "turns": self.turns,
            "treasures": dict(zip(self.seat_ids, self.treasures)),
        }
        self.result["record"] = self.record()
        self.tasks.clear()
        self.waiting = self.pending = None
        self.emit(events, "game_over", **{k: v for k, v in self.result.items() if k != "record"})

    def note_lead(self) -> None:
        """A lead change: a seat alone ahead on Treasures, other than the last one alone ahead."""
        top = max(self.treasures)
        leaders = [s for s, count in enumerate(self.treasures) if count == top]
        if len(leaders) == 1 and leaders[0] != self.tally["leader"]:
            self.tally["lead_changes"] += self.tally["leader"] >= 0
            self.tally["leader"] = leaders[0]

    def record(self) -> dict[str, Any]:
        """The game's figures for the balance report (docs/grizzly.md, "Balance reports")."""
        tally = self.tally
        return {
            "sources": {"lap": tally["lap"], "dragon": tally["dragon"]},
            "flips": {self.name(c): n for c, n in sorted(self.flips.items())},
            "deaths": {self.name(c): n for c, n in sorted(self.deaths.items())},
            "offers": tally["offers"], "accepted": tally["accepted"], "dashes": tally["dashes"],
            "lead_changes": tally["lead_changes"],
        }

    # --- bears dying (G-11) ---------------------------------------------------------------

    def bear_dies(self, seat: int, cause: str, card_id: int, events: Events) -> None:
        """G-11: the bear loses its counters, auras go to the graveyard, equipment comes off,
        and the piece goes home."""
        self.counters[seat] = 0
        self.damage[seat] = 0
        for aura in self.auras[seat]:
            self.to_graveyard(aura)
        self.auras[seat] = []
        self.perms[seat].extend(self.equipped[seat])
        self.equipped[seat] = []
        if self.pumps:
            self.pumps = [p for p in self.pumps if p[0] != ("bear", seat)]
        self.pos[seat] = 0
        if card_id >= 0:
            self.deaths[card_id] = self.deaths.get(card_id, 0) + 1
        self.emit(events, "bear_dies", seat=self.seat_ids[seat], cause=cause,
                  card=self.name(card_id) if card_id >= 0 else None)


# --- the turn (G-5 to G-8) --------------------------------------------------------------------


def _turn_start(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    seat = state.active
    if state.pumps:  # G-18: "until end of turn" lasts until just before its caster's next turn
        state.pumps = [p for p in state.pumps if p[4] != seat]
    if state.skips[seat]:
        state.skips[seat] -= 1
        state.emit(events, "skip_turn", seat=state.seat_ids[seat])
        state.push(("next_seat",))
        return None
    state.turns += 1
    state.dashed = state.cast_this_turn = False
    state.partner = state.fight_square = -1
    if events is not None:  # a batch records no events: skip working out their fields
        state.emit(events, "turn", seat=state.seat_ids[seat], square=state.square_of(seat),
                   treasures=state.treasures[seat])
    if not state.hands[seat]:
        state.draw(seat, 1, rng, events, "empty hand")
    state.push(("main", 1), ("arrive",), ("flip", 0), ("main", 2), ("end_step",), ("cleanup",), ("next_seat",))
    return None


def main_actions(state: GrizzlyState, phase: int) -> tuple[Hashable, ...]:
    """G-6: one spell from hand per turn; equip is free (mana is infinite, G-26). Main 1 ends
    with the roll or a dash (G-7); main 2 with ``end``."""
    seat = state.active
    hand = _distinct(state.hands[seat])
    actions: list[Hashable] = [("roll",), *[("dash", card_id) for card_id in hand]] if phase == 1 else [("end",)]
    if not state.cast_this_turn:
        actions += [("cast", card_id) for card_id in hand if _castable(state, seat, card_id)]
    if state.perms[seat]:
        actions += [("equip", card_id) for card_id in _distinct(state.perms[seat])
                    if state.facts[card_id].is_equipment]
    return tuple(actions)


def _main(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    return state.active, "main", main_actions(state, task[1])


def _answer_main(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    seat, verb = state.active, action[0]
    if verb == "roll":
        state.push(("roll",))
    elif verb == "dash":  # G-7
        card_id = action[1]
        state.hands[seat].remove(card_id)
        state.to_graveyard(card_id)
        state.dashed = True
        state.tally["dashes"] += 1
        steps = state.facts[card_id].mana_value  # G-R3: a mana value 0 card moves 0
        state.emit(events, "dash", seat=state.seat_ids[seat], card=state.name(card_id), steps=steps)
        state.push(("move", steps))
    elif verb == "cast":
        state.hands[seat].remove(action[1])
        state.cast_this_turn = True
        state.push(*effects.cast_tasks(state, seat, action[1], "hand"), task)
    elif verb == "equip":
        state.perms[seat].remove(action[1])
        state.equipped[seat].append(action[1])
        state.emit(events, "equip", seat=state.seat_ids[seat], card=state.name(action[1]))
        state.push(task)


def _roll(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    return -1, "roll", DIE


def _answer_roll(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    state.emit(events, "roll", seat=state.seat_ids[state.active], value=action)
    state.push(("move", action))


def _move(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    """Move clockwise; each pass of home (or landing on it, G-R1 square) is a lap (G-16),
    with no bonus on a dash turn (G-7)."""
    seat, steps = state.active, task[1]
    length = state.loop_length
    start = state.pos[seat]
    total = start + steps
    if state.rules.corner:
        laps, state.pos[seat] = (total - 1) // length if total else 0, (total - 1) % length + 1 if total else 0
    else:
        laps, state.pos[seat] = divmod(total, length)
    if events is not None:
        state.emit(events, "move", seat=state.seat_ids[seat], steps=steps, square=state.square_of(seat), laps=laps)
    for _ in range(laps):
        state.emit(events, "lap_completed", seat=state.seat_ids[seat], bonus=not state.dashed)
        if not state.dashed:
            state.push(("lap_bonus", seat))
    return None


def _lap_bonus(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    """G-16: draw 1, create a Treasure, then a +1/+1 counter or (☆) venture."""
    seat = task[1]
    state.draw(seat, 1, rng, events, "lap")
    state.gain_treasure(seat, "lap", events)
    if state.result is not None:
        return None
    if state.rules.dungeon:
        return seat, "lap", (("counter",), ("venture",))
    state.gain_counters(seat, 1, "lap", events)
    return None


def _answer_lap(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    seat = task[1]
    if action == ("counter",):
        state.gain_counters(seat, 1, "lap", events)
    else:
        state.push(("venture", seat))



def next_rooms(state: GrizzlyState, seat: int) -> tuple[int, ...]:
    here = state.room[seat]
    return (0,) if here < 0 or not state.rooms[here].next else state.rooms[here].next


def _venture(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    seat = task[1]
    choices = next_rooms(state, seat)
    if len(choices) == 1:
        _enter_room(state, seat, choices[0], events)
        return None
    return seat, "room", tuple(("room", index) for index in choices)


def _answer_room(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    _enter_room(state, task[1], action[1], events)


def _enter_room(state: GrizzlyState, seat: int, index: int, events: Events) -> None:
    state.room[seat] = index
    room = state.rooms[index]
    state.emit(events, "venture", seat=state.seat_ids[seat], room=room.name, effect=room.effect, note=room.note)
    state.push(*effects.room_tasks(state, seat, room))


def _arrive(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    """G-8 (seed line 57): before the flip, the active player may offer co-op to one bear on
    the square."""
    seat = state.active
    square = state.square_of(seat)
    state.fight_square = square
    if square < 0 or state.sq_card[square] < 0:
        return None
    others = [s for s in state.bears_on(square) if s != seat]
    if not others:
        return None
    return seat, "co-op", (("alone",),) + tuple(("offer", state.seat_ids[s]) for s in others)


def _answer_coop(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    if action[0] == "offer":
        state.push(("co-op answer", state.seat_index(action[1])))


def _coop_answer(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    partner = task[1]
    refusals = tuple(("refuse", card_id) for card_id in _distinct(state.hands[partner]))
    return partner, "co-op answer", (("accept",),) + refusals  # no refusing with an empty hand


def _answer_coop_answer(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    partner = task[1]
    state.tally["offers"] += 1
    if action == ("accept",):
        state.tally["accepted"] += 1
        state.partner = partner
        state.emit(events, "co_op", seat=state.seat_ids[state.active], partner=state.seat_ids[partner],
                   accepted=True)
        return
    state.hands[partner].remove(action[1])
    state.hands[state.active].append(action[1])
    state.emit(events, "co_op", seat=state.seat_ids[state.active], partner=state.seat_ids[partner],
               accepted=False, card=state.name(action[1]))


def _flip(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    square = state.fight_square
    if square < 0 or state.sq_card[square] < 0:
        return None
    card_id = state.sq_card[square]
    facts = state.facts[card_id]
    flipped_now = not state.sq_up[square]
    if facts.is_creature:
        state.flips[card_id] = state.flips.get(card_id, 0) + 1
    state.sq_up[square] = facts.is_creature  # only a creature stands face up on a square
    if events is not None:
        state.emit(events, "flip", seat=state.seat_ids[state.active], square=square, card=facts.name,
                   kind="creature" if facts.is_creature else "land" if facts.is_land else "spell",
                   power=facts.power if facts.is_creature else None, face_up_before=not flipped_now)
    if facts.is_creature:
        tasks: list[Task] = []
        if flipped_now:  # G-9: its enters abilities trigger on the flip; "you" is the turn player
            tasks += effects.ability_tasks(state, state.active, facts.enters, ("square", square), card_id)
        tasks += effects.ability_tasks(state, state.active, facts.attacks, ("square", square), card_id)
        state.push(*tasks, ("fight", square, card_id))
        return None
    if facts.is_land:  # G-R3
        state.to_graveyard(card_id)
        state.clear_square(square)
        if state.rules.lands_reflip and task[1] < effects.FLIP_LIMIT:
            state.push(("refill", square), ("flip", task[1] + 1))
        else:
            state.push(("refill", square), ("partner_draws",))
        return None
    if effects.castable_targets(state, state.active, card_id):
        return state.active, "flipped spell", (("cast",), ("graveyard",))
    _answer_flipped(state, task, ("graveyard",), rng, events)
    return None


def _answer_flipped(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    """G-8: a flipped non-creature is cast for free or put into the graveyard; the square is
    refilled from the library; a co-op partner draws 1."""
    square = state.fight_square
    card_id = state.sq_card[square]
    state.clear_square(square)
    follow = [("refill", square), ("partner_draws",)]
    if action == ("cast",):
        state.push(*effects.cast_tasks(state, state.active, card_id, "flip"), *follow)
    else:
        state.to_graveyard(card_id)
        state.emit(events, "discard_flipped", seat=state.seat_ids[state.active], card=state.name(card_id))
        state.push(*follow)


def _refill(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    state.refill(task[1], rng, events)
    return None


def _partner_draws(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    if state.partner >= 0:
        state.draw(state.partner, 1, rng, events, "co-op")
    return None


def _fight(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    square, card_id = task[1], task[2]
    if state.sq_card[square] != card_id or not state.sq_up[square]:
        return None  # it left or died before damage (G-13, G-14)
    combat.fight(state, square, card_id, rng, events)
    return None


def _place(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    """G-10, G-13: place a card from hand face down on the square (G-25: else the library's top)."""
    seat, square = task[1], task[2]
    if state.sq_card[square] >= 0:
        return None
    if not state.hands[seat]:
        state.refill(square, rng, events)
        return None
    return seat, "place", tuple(("place", card_id) for card_id in _distinct(state.hands[seat]))


def _answer_place(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    seat, square = task[1], task[2]
    state.hands[seat].remove(action[1])
    state.clear_square(square)
    state.sq_card[square] = action[1]
    state.emit(events, "place", seat=state.seat_ids[seat], square=square, source="hand")


def _discard(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    seat, count = task[1], task[2]
    if count <= 0 or not state.hands[seat]:
        return None
    return seat, "discard", tuple(("discard", card_id) for card_id in _distinct(state.hands[seat]))


def _answer_discard(state: GrizzlyState, task: Task, action: Any, rng: random.Random, events: Events) -> None:
    seat, count, why = task[1], task[2], task[3]
    state.hands[seat].remove(action[1])
    state.to_graveyard(action[1])
    state.emit(events, "discard", seat=state.seat_ids[seat], card=state.name(action[1]), why=why)
    state.push(("discard", seat, count - 1, why))


def _end_step(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    """G-20: exiled cards go to the graveyard at end of turn (G-R5: not under the expert rules)."""
    if state.exile and state.rules.exile_returns:
        for card_id in state.exile:
            state.to_graveyard(card_id)
        state.exile.clear()
    return None


def _cleanup(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    """G-5: discard down to 3; damage wears off."""
    seat = state.active
    excess = len(state.hands[seat]) - state.config.hand_size
    state.damage[:] = [0] * len(state.damage)
    state.sq_damage[:] = [0] * len(state.sq_damage)
    if excess > 0:
        state.push(("discard", seat, excess, "cleanup"))
    return None


def _next_seat(state: GrizzlyState, task: Task, rng: random.Random, events: Events) -> Pending | None:
    state.active = (state.active + 1) % len(state.seat_ids)
    if state.active == 0:
        state.round += 1
        if state.round > state.config.turn_limit:
            state.round -= 1
            state.finish(None, "turn limit", events)
            return None
    state.push(("turn_start",))
    return None


def _distinct(cards: Sequence[int]) -> list[int]:
    return list(dict.fromkeys(cards))


def _castable(state: GrizzlyState, seat: int, card_id: int) -> bool:
    return (state.facts[card_id].castable_from_hand(state.rules.spells_all)
            and effects.castable_targets(state, seat, card_id))


_STEPS: dict[str, Step] = {
    "turn_start": _turn_start, "main": _main, "roll": _roll, "move": _move, "lap_bonus": _lap_bonus,
    "venture": _venture, "arrive": _arrive, "co-op answer": _coop_answer, "flip": _flip,
    "refill": _refill, "partner_draws": _partner_draws, "fight": _fight, "place": _place,
    "discard": _discard, "end_step": _end_step, "cleanup": _cleanup, "next_seat": _next_seat,
}
_ANSWERS: dict[str, Answer] = {
    "main": _answer_main, "roll": _answer_roll, "lap_bonus": _answer_lap, "venture": _answer_room,
    "arrive": _answer_coop, "co-op answer": _answer_coop_answer, "flip": _answer_flipped,
    "place": _answer_place, "discard": _answer_discard,
}
_STEPS.update(effects.STEPS)
_STEPS.update(combat.STEPS)
_ANSWERS.update(effects.ANSWERS)
STEP_NAMES = frozenset(_STEPS)
WAITING_STEPS = frozenset(_ANSWERS)  # the steps that can wait for an answer
