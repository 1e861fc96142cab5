"""The dice race's engine: two or more racers take turns on a track (DR-1 to DR-5).

DR-1: on her turn a racer rolls a six-sided die.
DR-2: she then steps (moves the roll) or dashes: she rolls again, and moves both rolls if the
      second is higher than the first, else she stumbles and does not move.
DR-3: the first racer to reach the last square wins; with the reading `finish exact` she must
      land on it exactly, and a roll past it bounces back from it.
DR-4: ☆ `option knock back`: a racer landing on another racer's square sends that one to 0.
DR-5: then the next racer in declaration order has her turn.

It has the one engine shape (``deckquest.engine.game``): decisions, chance, apply, clone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Hashable

from deckquest.engine.game import CHANCE, OVER, Decision

FACES = (1, 2, 3, 4, 5, 6)
DIE = Decision(CHANCE, "die", FACES, (1 / 6,) * 6)
STEP, DASH = "step", "dash"


@dataclass
class RaceGame:
    track: int  # the last square
    order: tuple[str, ...]  # the racers, in turn order
    exact: bool = False  # DR-3 reading `finish exact`
    knock_back: bool = False  # DR-4
    positions: dict[str, int] = field(default_factory=dict)
    turns: dict[str, int] = field(default_factory=dict)
    turn: int = 0
    phase: str = "roll"  # roll (DR-1), choose (DR-2), dash (the second roll)
    rolled: int = 0
    winner: str | None = None

    def __post_init__(self) -> None:
        for racer in self.order:
            self.positions.setdefault(racer, 0)
            self.turns.setdefault(racer, 0)

    @property
    def racer(self) -> str:
        return self.order[self.turn]

    def decision(self) -> Decision:
        if self.winner is not None:
            return Decision(OVER, "over")
        if self.phase == "choose":
            return Decision(self.racer, "dash", (STEP, DASH))
        return DIE

    def apply(self, action: Hashable, rng: random.Random, events: list[dict[str, Any]] | None = None) -> None:
        events = events if events is not None else []
        racer = self.racer
        if self.phase == "roll":
            events.append({"event": "roll", "racer": racer, "die": action})
            self.rolled, self.phase = int(action), "choose"  # type: ignore[call-overload]
        elif self.phase == "choose" and action == STEP:
            self.move(racer, self.rolled, events)
            self._next()
        elif self.phase == "choose":
            events.append({"event": "dash", "racer": racer})
            self.phase = "dash"
        else:
            events.append({"event": "roll", "racer": racer, "die": action})
            if int(action) > self.rolled:  # type: ignore[call-overload]
                self.move(racer, self.rolled + int(action), events)  # type: ignore[call-overload]
            else:
                events.append({"event": "stumble", "racer": racer, "first": self.rolled, "second": action})
            self._next()

    def move(self, racer: str, squares: int, events: list[dict[str, Any]]) -> None:
        """DR-2, DR-3, DR-4: move ``racer`` (also the `advance` statement's effect)."""
        if self.winner is not None:
            return
        target = self.positions[racer] + squares
        if target > self.track:
            target = max(0, self.track - (target - self.track)) if self.exact else self.track
        self.positions[racer] = target
        events.append({"event": "move", "racer": racer, "squares": squares, "position": target, "track": self.track})
        if self.knock_back:
            for other in self.order:
                if other != racer and self.positions[other] == target and target < self.track:
                    self.positions[other] = 0
                    events.append({"event": "knocked_back", "racer": other, "by": racer})
        if target == self.track:
            self.winner = racer
            events.append({"event": "win", "racer": racer, "turns": self.turns[racer] + 1})

    def _next(self) -> None:
        self.turns[self.racer] += 1
        self.turn = (self.turn + 1) % len(self.order)
        self.phase = "roll"

    def clone(self) -> "RaceGame":
        return replace(self, positions=dict(self.positions), turns=dict(self.turns))

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data: what a saved session stores."""
        return {"track": self.track, "order": list(self.order), "exact": self.exact, "knock_back": self.knock_back,
                "positions": dict(self.positions), "turns": dict(self.turns), "turn": self.turn,
                "phase": self.phase, "rolled": self.rolled, "winner": self.winner}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "RaceGame":
        return cls(**{**data, "order": tuple(data["order"])})

    def outcome(self) -> dict[str, Any] | None:
        if self.winner is None:
            return None
        return {"outcome": f"{self.winner} wins", "winner": self.winner}


def dash_value(rolled: int) -> float:
    """The squares a dash moves on average after rolling ``rolled`` (DR-2), exactly."""
    return sum(rolled + second for second in FACES if second > rolled) / len(FACES)


class FirstAgent:
    """Always the first action: steps."""

    name = "first"

    def choose(self, state: RaceGame, decision: Decision, rng: random.Random) -> Hashable:
        return decision.actions[0]


class RandomAgent:
    """Steps or dashes at random (the run's Random)."""

    name = "random"

    def choose(self, state: RaceGame, decision: Decision, rng: random.Random) -> Hashable:
        return decision.actions[rng.randrange(len(decision.actions))]


class GreedyAgent:
    """Dashes when a dash moves farther on average than the roll (rolls of 1 to 3)."""

    name = "greedy"

    def choose(self, state: RaceGame, decision: Decision, rng: random.Random) -> Hashable:
        return DASH if dash_value(state.rolled) > state.rolled else STEP
