"""Driving a Grizzly Bears' Adventure game through the engine's step API with a stacked deal.

``NoShuffle`` leaves the library in the order it is written, so a test states who holds what
and what lies on each square; every move after that is an answer to the engine's decisions
(the die included: a test answers the chance decision with the roll it wants).
"""

from __future__ import annotations

import random
from typing import Any, Hashable, Iterable, Sequence

from deckquest.cards.database import default_database
from deckquest.cards.model import Card
from deckquest.engine.game import CHANCE, Decision
from deckquest.systems.grizzly import GrizzlyConfig, GrizzlyState, Seat

DB = default_database()


def card(name: str) -> Card:
    found = DB.get(name)
    assert found is not None, name
    return found


class NoShuffle(random.Random):
    """A Random whose shuffle keeps the order: the deal is as the test stacked it."""

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        return None


def stacked(hands: Sequence[Sequence[str]], squares: Sequence[str], rest: Sequence[str] = ()) -> tuple[Card, ...]:
    """A library dealt as written: each seat's 3 cards (G-3), then the squares in loop order,
    then the rest of the library from the top."""
    top_first = [name for hand in hands for name in hand] + list(squares) + list(rest)
    return tuple(card(name) for name in reversed(top_first))


class Game:
    """A game with a stacked deal; ``answer`` and ``roll`` go through ``apply``."""

    def __init__(self, hands: Sequence[Sequence[str]], squares: Sequence[str], rest: Sequence[str] = (),
                 *, seats: Iterable[str] | None = None, squares_per_player: int | None = None,
                 **settings: Any):
        seat_ids = list(seats) if seats is not None else [f"p{i + 1}" for i in range(len(hands))]
        per_player = squares_per_player or len(squares) // len(seat_ids)
        settings.setdefault("hand_size", len(hands[0]) if hands else 3)
        self.config = GrizzlyConfig(
            seats=tuple(Seat(s, s.title()) for s in seat_ids),
            library=stacked(hands, squares, rest),
            squares_per_player=per_player,
            **settings,
        )
        self.rng = NoShuffle(7)
        self.events: list[dict[str, Any]] = []
        self.state = GrizzlyState.new(self.config, self.rng, self.events)

    @property
    def decision(self) -> Decision:
        return self.state.decision()

    def answer(self, action: Hashable) -> "Game":
        self.state.apply(action, self.rng, self.events)
        return self

    def roll(self, value: int) -> "Game":
        """Roll from main 1: ``roll`` then the die shows ``value``."""
        self.answer(("roll",))
        assert self.decision.actor == CHANCE, self.decision
        return self.answer(value)

    def id(self, name: str) -> int:
        return next(i for i, facts in enumerate(self.state.facts) if facts.name == name)

    def hand(self, seat: int) -> list[str]:
        return sorted(self.state.name(c) for c in self.state.hands[seat])

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == kind]

    def seat(self, seat_id: str) -> int:
        return self.state.seat_index(seat_id)


FORESTS = ["Forest", "Forest", "Forest"]
WALL = "Wall of Wood"  # 0/3: the bears and a wall leave each other standing


def two(squares: Sequence[str], hands: Sequence[Sequence[str]] = (FORESTS, FORESTS),
        rest: Sequence[str] = ("Forest",) * 20, **settings: Any) -> Game:
    """Two seats, a loop of 6: p1's home corner is before square 0, p2's before square 3."""
    return Game(list(hands), list(squares), list(rest), **settings)


def meet(flipped: str, **settings: Any) -> Game:
    """p1 waits on square 0 beside a wall; p2 beats Scryb Sprites on square 3 and places
    ``flipped`` there face down; p1 then rolls 3 onto square 3, where p2 stands."""
    game = two([WALL, WALL, WALL, "Scryb Sprites", WALL, WALL], hands=(FORESTS, [flipped, "Forest", "Forest"]),
               **settings)
    game.roll(1).answer(("end",))
    game.roll(1).answer(("place", game.id(flipped))).answer(("end",))
    game.roll(3)
    assert game.state.fight_square == 3 and game.state.bears_on(3) == [0, 1]
    return game


def end_turn(game: Game) -> Game:
    """Main 2's ``end``, then the first card for each cleanup discard (G-5)."""
    seat = game.state.active
    game.answer(("end",))
    while game.decision.kind == "discard" and game.state.active == seat:
        game.answer(game.decision.actions[0])
    return game
