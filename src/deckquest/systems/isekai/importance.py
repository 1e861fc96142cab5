"""Each card's importance to a deck: the win-rate change when it is taken out (issue 16).

"Taken out" keeps the deck legal (I-1: 50 cards a deck): the card's copies are replaced by
copies of the most plentiful other card of the same part of the deck. Every variant plays the
same seeds (run i is seeded from i), so the differences are not drowned in dealing luck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from deckquest.engine.game import Agent, play
from deckquest.systems.isekai.agents import GreedyAgent
from deckquest.systems.isekai.cards import CardSet, Deck, Duelist
from deckquest.systems.isekai.duel import new_duel
from deckquest.systems.isekai.rules import Rules


@dataclass(frozen=True)
class Importance:
    card: str
    win_rate: float  # the seat's win rate without the card
    change: float  # the deck's win rate minus that: how much the card adds


def win_rate(duelists: Sequence[Duelist], cards: CardSet, seat: str, runs: int, rules: Rules,
             agent: Callable[[], Agent] = GreedyAgent) -> float:
    wins = 0
    for run in range(runs):
        state = new_duel(duelists, cards, rules)
        play(state, {duelist.id: agent() for duelist in duelists}, random.Random(run))
        wins += (state.outcome() or {}).get("winner") == seat
    return wins / runs


def without(deck: Deck, card: str) -> Deck | None:
    """The deck with ``card``'s copies replaced by the most plentiful other card of its part
    (None when its part holds nothing else)."""
    for part in ("main", "skills"):
        entries = getattr(deck, part)
        if all(name != card for name, _ in entries):
            continue
        others = sorted((-count, name) for name, count in entries if name != card)
        if not others:
            return None
        stand_in = others[0][1]
        copies = sum(count for name, count in entries if name == card)
        changed = tuple((name, count + (copies if name == stand_in else 0)) for name, count in entries if name != card)
        return replace(deck, main=changed) if part == "main" else replace(deck, skills=changed)
    return None


def importance(duelists: Sequence[Duelist], cards: CardSet, seat: str, runs: int, rules: Rules | None = None,
               agent: Callable[[], Agent] = GreedyAgent) -> tuple[float, list[Importance]]:
    """The seat's win rate, and each card of its decks by importance (largest first)."""
    rules = rules or Rules()
    base = win_rate(duelists, cards, seat, runs, rules, agent)
    found = []
    index = next(i for i, d in enumerate(duelists) if d.id == seat)
    deck = duelists[index].deck
    for card in sorted({name for name, _ in deck.main + deck.skills}):
        changed = without(deck, card)
        if changed is None:
            continue
        seats = list(duelists)
        seats[index] = replace(duelists[index], deck=changed)
        rate = win_rate(seats, cards, seat, runs, rules, agent)
        found.append(Importance(card, rate, round(base - rate, 6)))
    found.sort(key=lambda item: (-item.change, item.card))
    return base, found
