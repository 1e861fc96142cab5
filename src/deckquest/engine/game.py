"""One shape for every game's engine, after OpenSpiel's ``State``.

A game in progress (an MTG-TRPG battle, a Grizzly Bears' game, an Arena skirmish, an Isekai
duel) says whose decision it is (a seat, chance, or nobody: the game is over) and which
actions are legal; one action is applied at a time. Agents only answer decisions; only the
engine changes the game. Chance is explicit: a chance decision lists its outcomes, with their
probabilities where they can be enumerated (dice), so exact analysis can walk them and a run
can draw them from its one seeded ``random.Random``. Draws that cannot be enumerated (a
shuffle) are made inside ``apply`` from the same ``random.Random``.

The state is plain data: ``clone`` is a save game and an explore branch, ``to_data`` is what a
saved session stores.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Mapping, Protocol


class EventLog(Protocol):
    """What an engine appends its structured events to (dicts with an "event" key): a list,
    or a listener's own log that passes each event on as it comes (the runtime's battle log
    stamps and publishes it). Not `list`: a compiled build appends to a declared `list`
    directly, past a subclass's own `append`."""

    def append(self, event: dict[str, Any], /) -> None: ...

    def extend(self, events: Iterable[dict[str, Any]], /) -> None: ...


#: An engine's event log, or None when nobody listens: engines never print, the runtime
#: renders the events.
Events = EventLog | None

CHANCE = "chance"
OVER = "over"


@dataclass(frozen=True, slots=True)
class Decision:
    """What a game asks now.

    ``actor`` is a seat id, ``CHANCE`` or ``OVER``; ``kind`` names the question in the game's
    own vocabulary ("turn", "dash", "co-op", "block", "move"); ``actions`` are the legal
    answers, plain hashable data in a stable order; for a chance decision ``probabilities``
    gives each action's chance when they are enumerable, else None.
    """

    actor: str
    kind: str
    actions: tuple[Hashable, ...] = ()
    probabilities: tuple[float, ...] | None = None

    @property
    def over(self) -> bool:
        return self.actor == OVER


class GameState(Protocol):
    """The step API every engine offers (see the module docstring)."""

    def decision(self) -> Decision: ...

    def apply(self, action: Hashable, rng: random.Random, events: list[dict[str, Any]] | None = None) -> None: ...

    def clone(self) -> "GameState": ...

    def outcome(self) -> dict[str, Any] | None: ...


class Agent(Protocol):
    """Answers a seat's decisions; never changes the game itself."""

    name: str  # as the run's `start` event names it

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> Hashable: ...


class StopRun(Exception):
    """Raised by an agent to end the run cleanly: the person at a seat left the table (end of
    input, or ``save`` / ``quit`` typed at a prompt). The run ends "abandoned" and
    ``deckquest run --save`` saves it at the decision it stopped at."""


@dataclass(frozen=True)
class SeatIO:
    """Where a person at a seat meets the game, handed to a human seat's agent by the run:
    ``ask(prompt)`` reads a line (``EOFError`` at the end of input), ``say(text)`` shows one.
    The terminal's (builtin ``input`` and ``print``) at the table, a test's lists in tests."""

    ask: Callable[[str], str]
    say: Callable[[str], None]


def draw_chance(decision: Decision, rng: random.Random) -> Hashable:
    """A chance decision's outcome drawn from the run's Random (one ``random()`` call)."""
    if decision.probabilities is None:
        return decision.actions[rng.randrange(len(decision.actions))]
    point = rng.random()
    total = 0.0
    for action, probability in zip(decision.actions, decision.probabilities):
        total += probability
        if point < total:
            return action
    return decision.actions[-1]


def play(
    state: GameState,
    agents: Mapping[str, Agent],
    rng: random.Random,
    events: list[dict[str, Any]] | None = None,
    max_decisions: int | None = None,
) -> int:
    """Play ``state`` until it is over (or ``max_decisions`` answered); returns the decisions
    answered. ``agents`` maps seat ids to agents."""
    answered = 0
    while max_decisions is None or answered < max_decisions:
        decision = state.decision()
        if decision.actor == OVER:
            break
        if decision.actor == CHANCE:
            action = draw_chance(decision, rng)
        else:
            action = agents[decision.actor].choose(state, decision, rng)
        state.apply(action, rng, events)
        answered += 1
    return answered
