"""Every event the engine emits has a transcript line."""

from __future__ import annotations

import random

from deckquest.engine.game import play
from deckquest.systems.grizzly import GrizzlyConfig, GrizzlyState, Seat
from deckquest.systems.grizzly.agents import RandomAgent
from deckquest.systems.grizzly.transcript import LINES, render

from grizzly_helpers import card, meet

NAMES = ["Craw Wurm", "Furnace Whelp", "Typhoid Rats", "Flame Slash", "Divination", "Rancor", "Bonesplitter",
         "Frost Lynx", "Man-o'-War", "Ravenous Chupacabra", "Lava Axe", "Preordain", "Vindicate", "Forest",
         "Scryb Sprites", "Hymn to Tourach"]


def test_every_event_kind_renders():
    config = GrizzlyConfig(seats=tuple(Seat(s, s.title()) for s in ("ana", "ben", "cai")),
                           library=tuple(card(n) for n in NAMES * 4), options=frozenset({"dungeon", "dragon bounty"}))
    seen = set()
    for seed in range(30):
        rng = random.Random(seed)
        events: list[dict] = []
        state = GrizzlyState.new(config, rng, events)
        play(state, {s.id: RandomAgent() for s in config.seats}, rng, events)
        for event in events:
            assert render(event, {"ana": "Ana"}), event
            seen.add(event["event"])
    game = meet("Hill Giant")
    game.answer(("offer", "p2")).answer(("accept",))
    seen |= {e["event"] for e in game.events}
    assert set(LINES) - seen <= {"treasure_lost", "leaves"}
    assert render({"event": "bears_fight", "seat": "ana", "partner": "ben", "card": "Hill Giant", "power": 3,
                   "toughness": 3, "bears_power": 4, "bears_toughness": 4, "result": "win", "round": 2},
                  {"ana": "Ana", "ben": "Ben"}) == "  Combat: Ana and Ben (4/4) against Hill Giant (3/3): the bears win."
