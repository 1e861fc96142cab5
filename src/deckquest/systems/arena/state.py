"""The Arena engine: one game in progress, in the one engine shape (``deckquest.engine.game``).

Setup (A-1 to A-3): each seat places its planeswalker on its start zone, a d20 roll-off (a
chance decision, every seat equally likely) sets the turn order, spell decks are shuffled and
3 cards drawn. A turn (A-5 to A-10): draw, activate one army card (the planeswalker may then
summon, A-6), cast spells (A-7), move the activated card's figures one at a time (A-8), attack
with them (A-9, spells too), discard down to the hand limit (A-10). Dice are chance decisions
with exact probabilities: an attack's (swords, shields), a swipe's or a fall's one die.

Decisions (``kind``: actions):
- ``place``: ("place", hexes) - the planeswalker's start hex;
- ``activate``: ("activate", card);
- ``summon``: ("summon", card, hexes) or ("done",);
- ``cast``: ("cast", spell, target figure id or None) or ("done",);
- ``move``: ("move", figure id) or ("done",); then ``destination``: ("to", hexes);
- ``attack``: ("attack", attacker, target), ("ability", figure, name, target), ("cast", ...),
  or ("done",);
- ``discard``: ("discard", spell);
- chance ``order`` (a seat), ``attack roll`` ((swords, shields)), ``swipe`` / ``fall`` (1 or 0
  damage).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Hashable

from deckquest.engine.game import CHANCE, OVER, Decision
from deckquest.systems.arena import effects
from deckquest.systems.arena.battlefield import Battlefield
from deckquest.systems.arena.cards import Army, ArmyCard, Bonus, Spell
from deckquest.systems.arena.combat import height_dice, roll_outcomes
from deckquest.systems.arena.hexes import Pos, distance, label, neighbours
from deckquest.systems.arena.movement import Place, Route, routes, standing_level
from deckquest.systems.arena.render import draw_map
from deckquest.systems.arena.rules import ArenaRules
from deckquest.systems.arena.sight import in_sight, sees_hex

DONE: tuple[str] = ("done",)
NEXT_STAGE = {"activate": "discard", "summon": "cast", "cast": "move", "move": "attack", "attack": "discard"}


@dataclass(frozen=True)
class HoldGlyph:
    """Victory: a seat holds the glyph at the end of ``rounds`` rounds in a row."""

    glyph: str
    rounds: int = 1


@dataclass(frozen=True)
class Score:
    """Victory: a seat's score (A-24) reaches ``points``."""

    points: int


Victory = HoldGlyph | Score


@dataclass
class ArenaGame:
    """What every state of one game shares and never changes: the battlefield, the armies in
    seat order, the spells, the rules, the authored victory conditions, and tables built once."""

    battlefield: Battlefield
    armies: tuple[Army, ...]
    spells: dict[str, Spell] = field(default_factory=dict)
    rules: ArenaRules = field(default_factory=ArenaRules)
    victories: tuple[Victory, ...] = ()

    def __post_init__(self) -> None:
        self.terrain = self.battlefield.terrain
        levels = self.terrain.levels
        self.adjacent: dict[Pos, tuple[Pos, ...]] = {
            pos: tuple(n for n in neighbours(pos) if n in levels or n in self.terrain.walls)
            for pos in list(levels) + list(self.terrain.walls)}
        self.glyph_hexes = {g.pos: g for g in self.battlefield.glyphs}
        self.seats = tuple(a.seat for a in self.armies)
        self.army = {a.seat: a for a in self.armies}
        self.has_bonuses = bool(self.battlefield.glyphs) or any(c.bonuses() for a in self.armies for c in a.cards)

    def new_state(self) -> "ArenaState":
        return ArenaState.new(self)


class Figure:
    """One figure: its army card, where it is (``stock``, ``map`` or ``graveyard``) and its
    damage markers."""

    __slots__ = ("id", "seat", "card", "hexes", "damage", "place", "level")

    def __init__(self, id: str, seat: str, card: ArmyCard, hexes: Place = (), damage: int = 0, place: str = "stock", level: int = 0):
        self.id = id
        self.seat = seat
        self.card = card
        self.hexes = hexes
        self.damage = damage
        self.place = place
        self.level = level

    def copy(self) -> "Figure":
        return Figure(self.id, self.seat, self.card, self.hexes, self.damage, self.place, self.level)

    @property
    def name(self) -> str:
        return self.id.split(".", 1)[1].replace(".", " ")


def _figures(army: Army) -> list[Figure]:
    figures = []
    for card in army.cards:
        for number in range(1, card.figures + 1):
            suffix = f".{number}" if card.figures > 1 else ""
            figures.append(Figure(f"{army.seat}.{card.name}{suffix}", army.seat, card))
    return figures


class ArenaState:
    """A game in progress: plain data over the shared ``ArenaGame``."""

    def __init__(self, game: ArenaGame):
        self.game = game
        self.figures: dict[str, Figure] = {}
        self.occupant: dict[Pos, str] = {}
        self.hands: dict[str, list[str]] = {}
        self.decks: dict[str, list[str]] = {}
        self.scores: dict[str, int] = {}
        self.kills: dict[str, int] = {}
        self.defeated: list[str] = []
        self.order: tuple[str, ...] = ()
        self.active = 0
        self.round = 0
        self.turns = 0
        self.stage = "place"
        self.placing = 0
        self.activated: str | None = None
        self.moved: list[str] = []
        self.attacked: list[str] = []
        self.summoned = 0
        self.cast = 0
        self.choosing: str | None = None  # the figure whose destination is asked
        self.walker: str | None = None  # the figure on its way
        self.walk: list[Place] = []
        self.walked: list[Place] = []
        self.swiped = False
        self.pending: list[tuple] = []
        self.turn_bonuses: list[tuple[str, Bonus]] = []
        self.held: dict[str, tuple[str, int]] = {}  # glyph -> (seat, rounds held in a row)
        self.holders: dict[str, list[str]] = {}  # glyph -> seats that held it at a round's or the game's end
        self.fallen: list[tuple[str, Pos]] = []  # (figure, hex) of every figure destroyed
        self.result: dict[str, Any] | None = None
        self._decision: Decision | None = None
        self._routes: dict[Place, Route] | None = None  # the routes a destination decision offers
        self._listening = True

    @classmethod
    def new(cls, game: ArenaGame) -> "ArenaState":
        state = cls(game)
        for army in game.armies:
            for figure in _figures(army):
                state.figures[figure.id] = figure
            state.hands[army.seat] = []
            state.decks[army.seat] = list(army.spells)
            state.scores[army.seat] = 0
            state.kills[army.seat] = 0
        return state

    def clone(self) -> "ArenaState":
        other = ArenaState.__new__(ArenaState)
        other.__dict__.update(self.__dict__)
        other.figures = {k: f.copy() for k, f in self.figures.items()}
        other.occupant = dict(self.occupant)
        other.hands = {k: list(v) for k, v in self.hands.items()}
        other.decks = {k: list(v) for k, v in self.decks.items()}
        other.scores = dict(self.scores)
        other.kills = dict(self.kills)
        other.defeated = list(self.defeated)
        other.moved = list(self.moved)
        other.attacked = list(self.attacked)
        other.walk = list(self.walk)
        other.walked = list(self.walked)
        other.pending = list(self.pending)
        other.turn_bonuses = list(self.turn_bonuses)
        other.held = dict(self.held)
        other.holders = {k: list(v) for k, v in self.holders.items()}
        other.fallen = list(self.fallen)
        other.result = dict(self.result) if self.result else None
        return other

    # --- what the game asks -------------------------------------------------------------

    @property
    def seat(self) -> str:
        """The seat whose turn it is (or who places its planeswalker)."""
        if self.stage == "place":
            return self.game.seats[self.placing]
        return self.order[self.active]

    def outcome(self) -> dict[str, Any] | None:
        return self.result

    def decision(self) -> Decision:
        if self._decision is None:
            self._decision = self._ask()
        return self._decision

    def _ask(self) -> Decision:
        if self.result is not None:
            return Decision(OVER, "over")
        if self.pending:
            return self._roll()
        if self.stage == "order":
            seats = self.game.seats
            return Decision(CHANCE, "order", seats, tuple(1 / len(seats) for _ in seats))
        return Decision(self.seat, self.stage, tuple(self._actions()))

    def _actions(self) -> list[Hashable]:
        stage = self.stage
        if stage == "place":
            return [("place", place) for place in self.start_places(self.seat)]
        if stage == "activate":
            return [("activate", card) for card in self.activatable()]
        if stage == "summon":
            return self.summon_actions() + [DONE]
        if stage == "cast":
            return self.cast_actions() + [DONE]
        if stage == "move":
            return [("move", f.id) for f in self.movers()] + [DONE]
        if stage == "destination":
            self._routes = self.routes(self.figures[self.choosing or ""])
            return [("to", place) for place in self._routes]
        if stage == "attack":
            return self.attack_actions() + self.cast_actions() + [DONE]
        if stage == "discard":
            return [("discard", name) for name in dict.fromkeys(self.hands[self.seat])]
        raise AssertionError(stage)

    def _roll(self) -> Decision:
        roll = self.pending[0]
        if roll[0] in ("attack", "strike"):
            actions, probabilities = roll_outcomes(roll[3], roll[4], self.game.rules.dice)
            return Decision(CHANCE, "attack roll", actions, probabilities)
        sword = float(self.game.rules.dice.sword)
        return Decision(CHANCE, roll[0], (1, 0), (sword, 1 - sword))

    # --- figures and the map --------------------------------------------------------------

    def on_map(self) -> list[Figure]:
        return [f for f in self.figures.values() if f.place == "map"]

    def army_figures(self, seat: str, card: str | None = None, place: str = "map") -> list[Figure]:
        return [f for f in self.figures.values() if f.seat == seat and f.place == place and (card is None or f.card.name == card)]

    def planeswalker(self, seat: str) -> Figure | None:
        return next((f for f in self.figures.values() if f.seat == seat and f.place == "map"
                     and f.card.category == "planeswalker"), None)

    def engaged_between(self, a: Place, level_a: int, size_a: int, b: Place, level_b: int, size_b: int) -> bool:
        """Whether figures on ``a`` and ``b`` are engaged (A-15, A-R2): adjacent, and at the
        same level (``level``) or neither standing on top of the other (``heroscape``)."""
        if self.game.rules.engagement == "level":
            if level_a != level_b:
                return False
        elif level_a >= level_b + size_b or level_b >= level_a + size_a:
            return False
        adjacent = self.game.adjacent
        return any(y in adjacent[x] for x in a for y in b)

    def engaged(self, f: Figure, g: Figure) -> bool:
        return self.engaged_between(f.hexes, f.level, f.card.size, g.hexes, g.level, g.card.size)

    def engaged_enemies(self, f: Figure) -> list[Figure]:
        return [g for g in self.on_map() if g.seat != f.seat and self.engaged(f, g)]

    def heads(self, *leave_out: Figure) -> dict[Pos, int]:
        """Hexes holding figures, with the height of the figure's head there (sight)."""
        skip = {f.id for f in leave_out}
        return {h: f.level + f.card.size for f in self.on_map() if f.id not in skip for h in f.hexes}

    def sees(self, f: Figure, g: Figure) -> bool:
        """Line of sight from ``f`` to ``g`` (A-R6)."""
        return in_sight(self.game.terrain, f.hexes, f.card.size, g.hexes, g.card.size, self.heads(f, g),
                        self.game.rules.sight == "flat")

    def reach(self, f: Figure, g: Figure) -> int:
        return min(distance(a, b) for a in f.hexes for b in g.hexes)

    def stat(self, f: Figure, name: str) -> int:
        """A figure's ``move``, ``range``, ``attack`` or ``defence`` with its bonuses: its card's
        static abilities, its army's glyphs held (A-14), spells cast this turn."""
        value: int = getattr(f.card, name)
        if not self.game.has_bonuses and not self.turn_bonuses:
            return value
        for bonus in self._bonuses(f.seat):
            if bonus[1].stat == name and (bonus[1].scope == "army" or bonus[0] == f.card.name):
                value += bonus[1].amount
        return max(value, 0)

    def _bonuses(self, seat: str) -> list[tuple[str, Bonus]]:
        found = [("", b) for s, b in self.turn_bonuses if s == seat]
        army = self.game.army[seat]
        for card in army.cards:
            bonuses = card.bonuses()
            if bonuses and self.army_figures(seat, card.name):
                found.extend((card.name, b) for b in bonuses)
        for glyph in self.glyphs_held(seat):
            found.extend(("", e) for e in glyph.effects if isinstance(e, Bonus))
        return found

    def glyphs_held(self, seat: str) -> list:
        held = []
        for pos, glyph in self.game.glyph_hexes.items():
            fid = self.occupant.get(pos)
            if fid is not None and self.figures[fid].seat == seat:
                held.append(glyph)
        return held

    def holder(self, glyph_name: str) -> str | None:
        glyph = next(g for g in self.game.battlefield.glyphs if g.name == glyph_name)
        fid = self.occupant.get(glyph.pos)
        return self.figures[fid].seat if fid is not None else None

    # --- setup (A-1 to A-3) ---------------------------------------------------------------

    def start_places(self, seat: str) -> list[Place]:
        card = self.game.army[seat].planeswalker
        zone = self.game.battlefield.starts.get(seat, ())
        free = [p for p in zone if p not in self.occupant]
        if card.hexes == 1:
            return [(p,) for p in free]
        levels = self.game.terrain.levels
        return [(p, q) for p in free for q in self.game.adjacent[p] if q in free and levels[p] == levels[q]]

    def put(self, f: Figure, place: Place) -> None:
        """Stand ``f`` on ``place`` (placing, summoning; a GM or a test setting up a position)."""
        f.hexes = place
        f.place = "map"
        f.level = standing_level(self.game.terrain.levels, place)
        for h in place:
            self.occupant[h] = f.id

    def _lift(self, f: Figure) -> None:
        for h in f.hexes:
            if self.occupant.get(h) == f.id:
                del self.occupant[h]

    # --- the turn (A-5 to A-10) -----------------------------------------------------------

    def activatable(self) -> list[str]:
        seat = self.seat
        return [c.name for c in self.game.army[seat].cards if self.army_figures(seat, c.name)]

    def movers(self) -> list[Figure]:
        return [f for f in self.army_figures(self.seat, self.activated) if f.id not in self.moved]

    def routes(self, f: Figure) -> dict[Place, Route]:
        return routes(self, f)

    def summon_places(self, card: ArmyCard) -> list[Place]:
        """Empty hexes within the summon range (5) of the planeswalker and in its sight (A-6)."""
        walker = self.planeswalker(self.seat)
        if walker is None:
            return []
        terrain = self.game.terrain
        levels = terrain.levels
        heads = self.heads(walker)
        flat = self.game.rules.sight == "flat"
        limit = self.game.rules.summon_range
        good = [p for p in levels if p not in self.occupant and min(distance(p, w) for w in walker.hexes) <= limit
                and sees_hex(terrain, walker.hexes, walker.card.size, p, card.size, heads, flat)]
        if card.hexes == 1:
            return [(p,) for p in good]
        ok = set(good)
        return [(p, q) for p in good for q in self.game.adjacent[p] if q in ok and levels[q] == levels[p]]

    def summon_actions(self) -> list[Hashable]:
        actions: list[Hashable] = []
        seat = self.seat
        for card in self.game.army[seat].cards:
            if self.army_figures(seat, card.name, "stock"):
                actions.extend(("summon", card.name, place) for place in self.summon_places(card))
        return actions

    def cast_actions(self) -> list[Hashable]:
        if self.cast >= self.game.rules.spells_per_turn or not self.hands[self.seat]:
            return []
        actions: list[Hashable] = []
        for name in dict.fromkeys(self.hands[self.seat]):
            spell = self.game.spells[name]
            targets = effects.choices(self, self.seat, spell.effects, None)
            actions.extend(("cast", name, t) for t in targets)
        return actions

    def attack_targets(self, f: Figure) -> list[Figure]:
        """The figures ``f`` may attack: in range and in sight (A-19); an engaged figure only
        figures it is engaged with, needing no sight (A-22, A-R3)."""
        enemies = [g for g in self.on_map() if g.seat != f.seat]
        engaged = [g for g in enemies if self.engaged(f, g)]
        if engaged and self.game.rules.attacks == "engaged":
            return engaged
        reach = self.stat(f, "range")
        return [g for g in enemies if g in engaged or (self.reach(f, g) <= reach and self.sees(f, g))]

    def attack_actions(self) -> list[Hashable]:
        actions: list[Hashable] = []
        for f in self.army_figures(self.seat, self.activated):
            if f.id in self.attacked:
                continue
            actions.extend(("attack", f.id, g.id) for g in self.attack_targets(f))
            for ability in f.card.activated():
                actions.extend(("ability", f.id, ability.name, t) for t in effects.choices(self, self.seat, ability.effects, f))
        return actions

    def attack_dice(self, f: Figure, g: Figure) -> tuple[int, int]:
        """Dice rolled by attacker ``f`` and defender ``g``, with height advantage (A-19, A-21)."""
        extra_a, extra_d = height_dice(f.level, g.level, self.game.rules.height_dice)
        return self.stat(f, "attack") + extra_a, self.stat(g, "defence") + extra_d

    # --- applying an action ---------------------------------------------------------------

    def apply(self, action: Hashable, rng: random.Random, events: list[dict[str, Any]] | None = None) -> None:
        self._listening = events is not None  # nobody reads the events: a round's map is not drawn
        if events is None:
            events = []
        self._decision = None
        if self.pending:
            self._resolve_roll(action, events)
        elif self.stage == "order":
            self._start(str(action), rng, events)
        else:
            assert isinstance(action, tuple)
            getattr(self, "_do_" + self.stage)(action, events)
        self._advance(events)

    def _start(self, first: str, rng: random.Random, events: list[dict[str, Any]]) -> None:
        seats = self.game.seats
        at = seats.index(first)
        self.order = seats[at:] + seats[:at]
        events.append({"event": "turn order", "order": list(self.order)})
        for seat in seats:  # shuffle, draw 3
            rng.shuffle(self.decks[seat])
            self.draw(seat, self.game.rules.opening_hand, events)
        self.active = 0
        self._begin_turn(events, new_round=True)

    def draw(self, seat: str, count: int, events: list[dict[str, Any]]) -> None:
        deck = self.decks[seat]
        drawn = deck[:count]
        del deck[:count]
        self.hands[seat].extend(drawn)
        if drawn:
            events.append({"event": "draw", "seat": seat, "cards": len(drawn)})

    def _do_place(self, action: tuple, events: list[dict[str, Any]]) -> None:
        f = self.planeswalker_in_stock(self.seat)
        self.put(f, action[1])
        events.append({"event": "place", "seat": f.seat, "figure": f.id, "at": label(action[1][0])})
        self.placing += 1
        if self.placing == len(self.game.seats):
            self.stage = "order"

    def planeswalker_in_stock(self, seat: str) -> Figure:
        return next(f for f in self.figures.values() if f.seat == seat and f.card.category == "planeswalker")

    def _begin_turn(self, events: list[dict[str, Any]], new_round: bool) -> None:
        if new_round:
            self.round += 1
            events.append({"event": "round start", "round": self.round,
                           "map": draw_map(self).splitlines() if self._listening else []})
        seat = self.seat
        events.append({"event": "turn", "seat": seat, "round": self.round})
        self.activated = None
        self.moved, self.attacked, self.summoned, self.cast = [], [], 0, 0
        self.turn_bonuses = []
        self.draw(seat, 1, events)
        self.stage = "activate"

    def _do_activate(self, action: tuple, events: list[dict[str, Any]]) -> None:
        card = self.game.army[self.seat].card(action[1])
        self.activated = card.name
        events.append({"event": "activate", "seat": self.seat, "card": card.name})
        for trigger in card.triggered("activated"):
            effects.resolve_each(self, self.seat, trigger.effects, None, events)
        walker = self.planeswalker(self.seat)
        self.stage = "summon" if card.category == "planeswalker" and walker is not None else "cast"

    def _do_summon(self, action: tuple, events: list[dict[str, Any]]) -> None:
        if action == DONE:
            self.stage = "cast"
            return
        f = self.army_figures(self.seat, action[1], "stock")[0]
        self.put(f, action[2])
        self.summoned += 1
        events.append({"event": "summon", "seat": f.seat, "figure": f.id, "at": label(action[2][0])})
        self._taken(f, events)
        if self.summoned >= self.game.rules.summon:
            self.stage = "cast"

    def _do_cast(self, action: tuple, events: list[dict[str, Any]]) -> None:
        if action == DONE:
            self.stage = "move"
            return
        self._cast_spell(action, events)

    def _cast_spell(self, action: tuple, events: list[dict[str, Any]]) -> None:
        _, name, target = action
        seat = self.seat
        self.hands[seat].remove(name)
        self.cast += 1
        events.append({"event": "spell", "seat": seat, "spell": name, "target": target})
        effects.resolve(self, seat, self.game.spells[name].effects, target, None, events)

    def _do_move(self, action: tuple, events: list[dict[str, Any]]) -> None:
        if action == DONE:
            self.stage = "attack"
            return
        self.choosing = action[1]
        self.stage = "destination"

    def _do_destination(self, action: tuple, events: list[dict[str, Any]]) -> None:
        f = self.figures[self.choosing or ""]
        self.choosing = None
        self.moved.append(f.id)
        route = (self._routes or self.routes(f))[action[1]]
        self._routes = None
        self.stage = "move"
        if not route.path:
            return
        self._lift(f)
        self.walker = f.id
        self.walk = list(route.path)
        self.walked = [f.hexes]
        self.swiped = False

    def _do_attack(self, action: tuple, events: list[dict[str, Any]]) -> None:
        kind = action[0]
        if action == DONE:
            self.stage = "discard"
        elif kind == "cast":
            self._cast_spell(action, events)
        elif kind == "attack":
            f, g = self.figures[action[1]], self.figures[action[2]]
            self.attacked.append(f.id)
            attack, defence = self.attack_dice(f, g)
            events.append({"event": "attack", "seat": f.seat, "attacker": f.id, "target": g.id,
                           "attack dice": attack, "defence dice": defence})
            self.pending.append(("attack", f.id, g.id, attack, defence))
        else:
            f = self.figures[action[1]]
            self.attacked.append(f.id)
            ability = next(a for a in f.card.activated() if a.name == action[2])
            events.append({"event": "ability", "seat": f.seat, "figure": f.id, "ability": ability.name, "target": action[3]})
            effects.resolve(self, f.seat, ability.effects, action[3], f, events)

    def _do_discard(self, action: tuple, events: list[dict[str, Any]]) -> None:
        self.hands[self.seat].remove(action[1])
        events.append({"event": "discard", "seat": self.seat, "spell": action[1]})

    # --- dice ---------------------------------------------------------------------------

    def _resolve_roll(self, action: Hashable, events: list[dict[str, Any]]) -> None:
        roll = self.pending.pop(0)
        kind = roll[0]
        if kind in ("attack", "strike"):
            assert isinstance(action, tuple)
            swords, shields = action
            events.append({"event": "roll", "kind": kind, "swords": swords, "shields": shields})
            source = self.figures[roll[1]].seat if kind == "attack" else roll[1]
            self.wound(self.figures[roll[2]], max(swords - shields, 0), source, events)
        else:
            f = self.figures[roll[-1]]
            events.append({"event": "roll", "kind": kind, "figure": f.id, "swords": action})
            source = self.figures[roll[1]].seat if kind == "swipe" else None
            self.wound(f, int(action), source, events)  # type: ignore[call-overload]

    def wound(self, f: Figure, damage: int, source: str | None, events: list[dict[str, Any]]) -> None:
        """Damage markers on ``f``; destroyed when damage reaches life (A-19)."""
        if damage <= 0 or f.place != "map":
            return
        f.damage += damage
        events.append({"event": "wound", "figure": f.id, "damage": damage, "total": f.damage, "life": f.card.life})
        if f.damage >= f.card.life:
            self.destroy(f, source, events)

    def destroy(self, f: Figure, source: str | None, events: list[dict[str, Any]]) -> None:
        at = f.hexes[0]
        self.fallen.append((f.id, at))
        self._lift(f)
        f.place = "graveyard"
        events.append({"event": "figure destroyed", "figure": f.id, "seat": f.seat, "card": f.card.name, "at": label(at)})
        if f.id == self.walker:
            self._end_walk(f, events, arrived=False)
        scorer = source if source != f.seat else None
        if scorer is None and len(self.game.seats) == 2:
            scorer = next(s for s in self.game.seats if s != f.seat)
        if scorer is not None:
            self.kills[scorer] += 1
            if not any(g.card is f.card and g.seat == f.seat and g.place != "graveyard" for g in self.figures.values()):
                self.scores[scorer] += f.card.cost  # the card goes to the graveyard with its last figure
        for trigger in f.card.triggered("destroyed"):
            effects.resolve_each(self, f.seat, trigger.effects, f, events)
        if f.card.category == "planeswalker":
            self._defeat(f.seat, events)

    def _defeat(self, seat: str, events: list[dict[str, Any]]) -> None:
        """A-4: a seat whose planeswalker is destroyed is out; its figures leave the map."""
        self.defeated.append(seat)
        for g in self.army_figures(seat):
            self._lift(g)
            g.place = "graveyard"
        alive = [s for s in self.game.seats if s not in self.defeated]
        if len(alive) == 1:
            self._finish(alive[0], "planeswalker", events)

    def _finish(self, winner: str | None, reason: str, events: list[dict[str, Any]]) -> None:
        self._note_holders()
        self.result = {"winner": winner, "reason": reason, "round": self.round, "turns": self.turns,
                       "scores": dict(self.scores)}
        events.append({"event": "game over", **self.result})

    # --- moving step by step (A-11 to A-17) -------------------------------------------------

    def _walk_on(self, events: list[dict[str, Any]]) -> None:
        f = self.figures[self.walker or ""]
        here, there = self.walked[-1], self.walk[0]
        if not self.swiped:
            self.swiped = True
            level = standing_level(self.game.terrain.levels, there)
            for g in self.engaged_enemies(f):
                if not self.engaged_between(there, level, f.card.size, g.hexes, g.level, g.card.size):
                    events.append({"event": "swipe", "figure": f.id, "by": g.id})
                    self.pending.append(("swipe", g.id, f.id))
            if self.pending:
                return
        self.walk.pop(0)
        self.swiped = False
        self.walked.append(there)
        levels = self.game.terrain.levels
        f.hexes = there
        f.level = standing_level(levels, there)
        if not f.card.flying:
            drop = standing_level(levels, here) - f.level
            if drop > f.card.size and not all(levels[h] == -1 for h in there):
                events.append({"event": "fall", "figure": f.id, "levels": drop})
                self.pending.append(("fall", f.id))
        if not self.walk and not self.pending:
            self._end_walk(f, events, arrived=True)

    def _end_walk(self, f: Figure, events: list[dict[str, Any]], arrived: bool) -> None:
        events.append({"event": "move", "seat": f.seat, "figure": f.id, "from": label(self.walked[0][0]),
                       "to": label(self.walked[-1][0]), "path": [label(p[0]) for p in self.walked[1:]]})
        self.walker = None
        self.walk = []
        if arrived:
            for h in f.hexes:
                self.occupant[h] = f.id
            self._taken(f, events)

    def _taken(self, f: Figure, events: list[dict[str, Any]]) -> None:
        for h in f.hexes:
            glyph = self.game.glyph_hexes.get(h)
            if glyph is not None:
                events.append({"event": "glyph taken", "glyph": glyph.name, "seat": f.seat, "figure": f.id})

    # --- moving the game on ---------------------------------------------------------------

    def _advance(self, events: list[dict[str, Any]]) -> None:
        """Runs what needs no decision until something does: steps of a walk, stages with
        nothing to choose, the end of a turn and of a round. A stage's actions are worked out
        once here and kept as the decision."""
        while self.result is None and not self.pending:
            if self.walker is not None:
                if self.walk:
                    self._walk_on(events)
                else:
                    self._end_walk(self.figures[self.walker], events, arrived=True)
                continue
            if self.stage in ("place", "order", "destination"):
                return
            if self.seat in self.defeated or self.stage == "discard" and not self._over_hand():
                self._end_turn(events)
                continue
            actions = self._actions()
            if len(actions) > (1 if DONE in actions else 0):
                self._decision = Decision(self.seat, self.stage, tuple(actions))
                return
            self.stage = NEXT_STAGE[self.stage]

    def _over_hand(self) -> bool:
        return len(self.hands[self.seat]) > self.game.rules.hand_limit

    def _end_turn(self, events: list[dict[str, Any]]) -> None:
        self.turns += 1
        limit = self.game.rules.turn_limit
        seats = len(self.order)
        nxt = self.active
        for _ in range(seats):
            nxt = (nxt + 1) % seats
            if self.order[nxt] not in self.defeated:
                break
        new_round = nxt <= self.active
        if new_round:
            self._end_round(events)
            if self.result is not None:
                return
        if self.game.rules.limit == "rounds" and new_round and self.round >= limit or \
                self.game.rules.limit == "turns" and self.turns >= limit:
            self._by_score(events)
            return
        self.active = nxt
        self._begin_turn(events, new_round)

    def _note_holders(self) -> None:
        for glyph in self.game.battlefield.glyphs:
            seat = self.holder(glyph.name)
            if seat is not None and seat not in self.holders.setdefault(glyph.name, []):
                self.holders[glyph.name].append(seat)

    def _end_round(self, events: list[dict[str, Any]]) -> None:
        """Glyphs held at the round's end count towards a hold-the-glyph victory."""
        self._note_holders()
        for victory in self.game.victories:
            if isinstance(victory, HoldGlyph):
                seat = self.holder(victory.glyph)
                before = self.held.get(victory.glyph)
                count = before[1] + 1 if before and before[0] == seat else 1
                self.held[victory.glyph] = (seat or "", count)
                if seat is not None and count >= victory.rounds:
                    self._finish(seat, f"held {victory.glyph}", events)
                    return
            elif isinstance(victory, Score):
                leaders = [s for s in self.game.seats if self.scores[s] >= victory.points]
                if len(leaders) == 1:
                    self._finish(leaders[0], "score", events)
                    return

    def _by_score(self, events: list[dict[str, Any]]) -> None:
        """A-24: at the turn limit the highest score wins; equal scores, more enemy figures
        destroyed; still equal, a draw."""
        alive = [s for s in self.game.seats if s not in self.defeated]
        rank = {s: (self.scores[s], self.kills[s]) for s in alive}
        top = max(rank.values())
        leaders = [s for s in alive if rank[s] == top]
        self._finish(leaders[0] if len(leaders) == 1 else None, "turn limit", events)

    def to_data(self) -> dict[str, Any]:
        """The state as plain data (a save)."""
        return {
            "stage": self.stage, "round": self.round, "turns": self.turns, "order": list(self.order),
            "active": self.active, "activated": self.activated,
            "figures": {f.id: {"place": f.place, "at": [label(h) for h in f.hexes], "damage": f.damage}
                        for f in self.figures.values()},
            "hands": self.hands, "decks": self.decks, "scores": self.scores, "result": self.result,
        }
