"""Helpers for the Arena tests (imported as `arena_helpers`): games from text, golden maps."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckquest.engine.game import play
from deckquest.systems.arena.battlefield import Battlefield, Glyph, RowText, read_rows
from deckquest.systems.arena.cards import Army, ArmyCard
from deckquest.systems.arena.rules import ArenaRules
from deckquest.systems.arena.state import ArenaGame, ArenaState

GOLDEN = Path(__file__).parent / "golden"


def terrain_rows(text: str) -> list[str]:
    return [line.strip() for line in text.strip("\n").splitlines() if line.strip()]


def battlefield(rows: list[str], starts: dict | None = None, glyphs: tuple = ()) -> Battlefield:
    terrain, problems = read_rows([RowText(r, i + 1, 1) for i, r in enumerate(rows)])
    assert not problems, problems
    return Battlefield("test", terrain, starts or {}, glyphs)


def card(name: str, category: str = "squad", life: int = 5, move: int = 5, range: int = 1, attack: int = 3,
         defence: int = 2, size: int = 4, **more) -> ArmyCard:
    return ArmyCard(name, category, life, move, range, attack, defence, size, **more)


def duel_game(rows: list[str], first: ArmyCard, second: ArmyCard, rules: ArenaRules = ArenaRules(),
              starts: dict | None = None, **more) -> ArenaGame:
    """Two armies of one planeswalker each (and more cards if given) on ``rows``."""
    armies = (Army("p1", "First", (replace(first, category="planeswalker"),) + more.pop("p1_cards", ()), more.pop("p1_spells", ())),
              Army("p2", "Second", (replace(second, category="planeswalker"),) + more.pop("p2_cards", ()), more.pop("p2_spells", ())))
    return ArenaGame(battlefield(rows, starts, more.pop("glyphs", ())), armies, more.pop("spells", {}), rules, **more)


def chance_first(state: ArenaState, rng: random.Random, seat: str = "p1") -> None:
    """Answer the d20 roll-off so that ``seat`` goes first."""
    assert state.decision().kind == "order"
    state.apply(seat, rng, [])


@dataclass
class Scripted:
    """An agent answering from a list of predicates/actions, then the first action."""

    answers: list = field(default_factory=list)

    def choose(self, state, decision, rng):
        while self.answers:
            answer = self.answers.pop(0)
            if answer in decision.actions:
                return answer
        return decision.actions[-1]


@dataclass
class Golden:
    """A golden map: a mover (or viewer), other figures, terrain, expected grid."""

    name: str
    rule: str
    rows: list[str]
    mover: dict
    figures: list[dict]
    glyphs: list[tuple[int, int]]
    expect: list[str]
    readings: dict[str, str]
    routes: list[tuple[str, dict]]
    places: list[str] | None

    def game(self) -> tuple[ArenaState, object]:
        walker = card("Mover", "planeswalker", move=self.mover.get("move", 5), size=self.mover.get("size", 4),
                      hexes=len(self.mover["at"]), abilities=("flying",) if self.mover.get("flying") else ())
        friends = [f for f in self.figures if f["side"] == "friend"]
        enemies = [f for f in self.figures if f["side"] == "enemy"]
        p1 = (walker,) + tuple(card(f"Friend{i}", size=f.get("size", 4)) for i, f in enumerate(friends))
        p2 = (card("Foe", "planeswalker"),) + tuple(card(f"Enemy{i}", size=f.get("size", 4)) for i, f in enumerate(enemies))
        glyphs = tuple(Glyph(f"Glyph {i}", pos) for i, pos in enumerate(self.glyphs))
        rules = ArenaRules.from_readings(self.readings)
        game = ArenaGame(battlefield(self.rows, glyphs=glyphs), (Army("p1", "Movers", p1), Army("p2", "Foes", p2)), {}, rules)
        state = game.new_state()
        mover = state.figures["p1.Mover"]
        state.put(mover, tuple(self.mover["at"]))
        for i, f in enumerate(friends):
            state.put(state.figures[f"p1.Friend{i}"], (f["at"][0],))
        for i, f in enumerate(enemies):
            state.put(state.figures[f"p2.Enemy{i}"], (f["at"][0],))
        return state, mover


def pos(text: str) -> tuple[int, int]:
    col, row = text.split(",")
    return int(col), int(row)


def read_golden(path: Path) -> Golden:
    """Read a golden map file (format in golden/README.md)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rule, rows, expect, figures, glyphs, readings, routes = "", [], [], [], [], {}, []
    mover: dict = {}
    places = None
    section = None
    for raw in lines:
        line = raw.strip()
        if not line or raw.startswith("#"):
            continue
        if raw.startswith("    ") and section in ("terrain", "expect"):
            (rows if section == "terrain" else expect).append(line)
            continue
        key, _, rest = line.partition(":")
        words = rest.split()
        section = key
        if key == "rule":
            rule = rest.strip()
        elif key in ("mover", "viewer"):
            mover = {"at": [pos(w) for w in words[words.index("at") + 1:] if "," in w]}
            for name in ("move", "size"):
                if name in words:
                    mover[name] = int(words[words.index(name) + 1])
            mover["flying"] = "flying" in words
        elif key in ("friend", "enemy"):
            figure = {"side": key, "at": [pos(words[0])]}
            if "size" in words:
                figure["size"] = int(words[words.index("size") + 1])
            figures.append(figure)
        elif key == "glyph":
            glyphs.append(pos(words[0]))
        elif key == "reading":
            readings[words[0]] = words[1]
        elif key == "route":
            where = words[0]
            routes.append((where, {words[i]: int(words[i + 1]) for i in range(1, len(words), 2)}))
        elif key == "places":
            places = words
    return Golden(path.stem, rule, rows, mover, figures, glyphs, expect, readings, routes, places)


def grid(expect: list[str]) -> dict[tuple[int, int], str]:
    cells = {}
    for row, line in enumerate(expect, start=1):
        for col, ch in enumerate(line.split(), start=1):
            cells[(col, row)] = ch
    return cells


def run_game(game: ArenaGame, agents: dict, seed: int) -> tuple[ArenaState, list[dict]]:
    state = game.new_state()
    events: list[dict] = []
    play(state, agents, random.Random(seed), events)
    return state, events

