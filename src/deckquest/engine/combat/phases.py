"""Concentrate and rest with their triggered abilities (T-2.4, T-2.6), outside battles.

Concentrating is the MTG beginning phase for one PC, resting its ending phase: "at the
beginning of your upkeep" abilities of the PC's permanents trigger when it concentrates,
"at the beginning of your end step" ones when it rests. They resolve with the battle
engine's trigger machinery (`resolve.beginning_triggers`) on a board that holds the PC alone:
no opponent, no horde, so "each opponent" finds no one and a target must be one of the
PC's own. What they do stays on the PC (life, cards drawn, tokens, counters); static
effects are the battle's only (`statics.clear_statics`).

They are the calls for the interpreter's `Run.concentrate`, `Run.rest` and `the party rests`
to make, with the run's generator and its event list, in place of `engine.pc.concentrate`
and `engine.pc.rest` (which do the same without triggers); until it makes them, scripts do
not see these triggers (docs/rules.md, "Rules whose engine half waits for the interpreter").
"""

from __future__ import annotations

import random
from typing import Final

from deckquest.cards.model import Card
from deckquest.engine import pc as pcs
from deckquest.engine.combat.profile import profile
from deckquest.engine.combat.resolve import run_trigger, triggered
from deckquest.engine.combat.state import Battle, Horde, Tally
from deckquest.engine.combat.statics import clear_statics
from deckquest.engine.game import Events


def concentrate(pc: pcs.PC, rng: random.Random, events: Events = None) -> list[int]:
    """T-2.4: `engine.pc.concentrate`, its upkeep triggers resolving after the untap."""
    if not may_trigger(pc.cards, "upkeep"):
        return pcs.concentrate(pc)
    return pcs.concentrate(pc, upkeep=lambda who: beginning_triggers(who, "upkeep", rng, events))


def rest(pc: pcs.PC, rng: random.Random, events: Events = None) -> None:
    """T-2.6: `engine.pc.rest`, its end-step triggers resolving before the damage is removed."""
    if not may_trigger(pc.cards, "end_step"):
        pcs.rest(pc)
        return
    pcs.rest(pc, end_step=lambda who: beginning_triggers(who, "end_step", rng, events))


_TIMINGS: Final[dict[int, tuple[tuple[Card, ...], frozenset[str]]]] = {}
_TIMINGS_LIMIT: Final = 1024


def may_trigger(cards: tuple[Card, ...], timing: str) -> bool:
    """Whether any card of this card table has abilities of `timing` (upkeep, end_step),
    worked out once per table: a PC concentrates and rests many times a run, and most decks
    have none, so that its permanents need not be asked one by one. Keyed by the table's
    identity; the entry holds the table (a token made in play gives the PC a new one)."""
    entry = _TIMINGS.get(id(cards))
    if entry is None or entry[0] is not cards:
        if len(_TIMINGS) >= _TIMINGS_LIMIT:
            _TIMINGS.clear()
        timings = frozenset().union(*[profile(card).timings for card in cards])
        entry = _TIMINGS[id(cards)] = (cards, timings)
    return timing in entry[1]


def beginning_triggers(pc: pcs.PC, timing: str, rng: random.Random, events: Events) -> None:
    """The PC's "at the beginning of your upkeep / end step" abilities (`timing` upkeep or
    end_step), in battlefield order, each resolving at once.

    A battle ends when one side is beaten; outside a battle nothing is fought, so the
    outcome the state-based actions note on this one-PC board (no horde: "victory") is
    not an end: each trigger resolves on a board with no outcome.
    """
    if not any(triggered(pc.cards[p.card], timing) for p in pc.battlefield):
        return
    board = Battle(survivors=[pc], horde=Horde(cards=(), library=[]), horde_deck=False,
                   tallies={pc.id: Tally()}, step="adventure")
    for permanent in list(pc.battlefield):
        for ability in triggered(pc.cards[permanent.card], timing):
            if permanent in pc.battlefield and pc.status != pcs.DEAD:
                board.outcome = None
                run_trigger(board, pc.id, permanent.card, ability, rng, events)
    clear_statics(pc.battlefield)
