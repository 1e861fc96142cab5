"""The balance report's sections from real games (the figures a host reads)."""

from __future__ import annotations

import random

from deckquest.engine.game import play
from deckquest.systems.grizzly import GrizzlyConfig, GrizzlyState, Seat
from deckquest.systems.grizzly.agents import GreedyAgent
from collections import Counter

from deckquest.systems.grizzly.report import aggregate, format_text, row, wilson

from grizzly_helpers import card

NAMES = ["Craw Wurm", "Hill Giant", "Furnace Whelp", "Typhoid Rats", "Flame Slash", "Divination",
         "Rancor", "Scryb Sprites", "Runeclaw Bear", "Forest"]


def _batch(games: int, **settings) -> tuple[Counter, GrizzlyConfig]:
    config = GrizzlyConfig(seats=tuple(Seat(s, s.title()) for s in ("ana", "ben", "cai")),
                           library=tuple(card(n) for n in NAMES * 6), **settings)
    records: Counter = Counter()
    for index in range(games):
        rng = random.Random(index)
        state = GrizzlyState.new(config, rng)
        play(state, {s.id: GreedyAgent() for s in config.seats}, rng)
        records[row(state.outcome())] += 1
    return records, config


def test_seat_rates_balance_and_lengths_add_up():
    """Win rates with Wilson intervals, balance = 1 - the largest gap, G-1 winners only."""
    records, config = _batch(40, options=frozenset({"dragon bounty"}))
    data = aggregate(records, [(s.id, s.name) for s in config.seats])
    rates = [row["rate"] for row in data["seats"]]
    assert sum(row["wins"] for row in data["seats"]) + sum(data["stopped"].values()) == 40
    assert data["balance"] == round(1 - (max(rates) - min(rates)), 6)
    assert data["first_seat_advantage"] == round(rates[0] - 1 / 3, 6)
    for row in data["seats"]:
        assert row["low"] <= row["rate"] <= row["high"]
    assert data["rounds"]["p10"] <= data["rounds"]["p50"] <= data["rounds"]["p90"]
    assert set(data["treasures_by_source"]) <= {"lap", "dragon"} and data["treasures_by_source"]["lap"] > 0
    assert {row["card"] for row in data["deaths_per_flip"]} <= {"Craw Wurm", "Hill Giant", "Furnace Whelp",
                                                                "Typhoid Rats", "Runeclaw Bear", "Scryb Sprites"}
    text = format_text(data)
    assert "Balance:" in text and "Deadliest flips" in text and "Lead changes" in text


def test_games_stopped_by_the_turn_limit_are_reported_with_the_reason():
    records, config = _batch(3, turn_limit=2)
    data = aggregate(records, [(s.id, s.name) for s in config.seats])
    assert data["stopped"] == {"turn limit": 3}
    assert "Stopped: 3 games: the turn limit was reached" in format_text(data)


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
