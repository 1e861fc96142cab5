"""Whole games under every option and reading keep the game's invariants (hypothesis picks
the set-up and the seed): no card is made or lost, Treasures and counters are never negative,
every bear stands on the loop or at home, and every game ends."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.engine.game import CHANCE, OVER, draw_chance
from deckquest.systems.grizzly import GrizzlyConfig, GrizzlyState, Seat
from deckquest.systems.grizzly.agents import GreedyAgent, RandomAgent
from deckquest.systems.grizzly.config import OPTIONS, READINGS

from grizzly_helpers import card

NAMES = ["Craw Wurm", "Furnace Whelp", "Typhoid Rats", "Flame Slash", "Divination", "Rancor", "Bonesplitter",
         "Frost Lynx", "Man-o'-War", "Ravenous Chupacabra", "Preordain", "Vindicate", "Forest", "Journey to Nowhere",
         "Glorious Anthem", "Giant Growth", "Pyroclasm", "Prey Upon", "Hill Giant", "Black Knight"]


def cards_in_play(state: GrizzlyState) -> int:
    zones = [state.library, state.exile, [c for c in state.sq_card if c >= 0]]
    zones += state.graveyards + state.hands + state.auras + state.equipped + state.perms + state.allies
    return sum(len(zone) for zone in zones)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 4), options=st.sets(st.sampled_from(OPTIONS)),
       readings=st.fixed_dictionaries({name: st.sampled_from(values) for name, values in READINGS.items()}),
       expert=st.booleans(), greedy=st.booleans())
def test_games_keep_their_invariants(seed, seats, options, readings, expert, greedy):
    library = tuple(card(name) for name in NAMES * 3)
    config = GrizzlyConfig(seats=tuple(Seat(f"s{i}", f"S{i}") for i in range(seats)), library=library,
                           options=frozenset(options), readings=readings, expert=expert, turn_limit=60)
    rng = random.Random(seed)
    state = GrizzlyState.new(config, rng)
    agent = GreedyAgent() if greedy else RandomAgent()
    for _ in range(20_000):
        decision = state.decision()
        if decision.actor == OVER:
            break
        if decision.kind == "main":
            assert cards_in_play(state) == len(library)
            assert min(state.treasures) >= 0 and min(state.counters) >= 0
            assert all(0 <= p <= state.loop_length for p in state.pos)
            assert state.clone().decision() == decision
        action = draw_chance(decision, rng) if decision.actor == CHANCE else agent.choose(state, decision, rng)
        state.apply(action, rng)
    outcome = state.outcome()
    assert outcome is not None and outcome["reason"] in ("treasures", "library out", "turn limit")
