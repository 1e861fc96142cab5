"""Concentrate and rest outside battles (T-2.4, T-2.6) through ``engine.combat.phases``: its
shortcut for a card table with no upkeep (end-step) ability (``phases.may_trigger``) leaves
the PC, the events and the generator exactly as the trigger machinery run in full does.

The plain path is ``engine.pc.concentrate`` / ``rest`` given the trigger step
(``phases.beginning_triggers``) every time, as ``phases`` called it before the shortcut.
"""

from __future__ import annotations

import random

import pytest

from deckquest.cards.model import Card
from deckquest.engine import pc as pcs
from deckquest.engine.combat import phases
from deckquest.engine.permanents import Permanent

FOREST = Card.build("Forest", None, "Basic Land — Forest")
BEAR = Card.build("Runeclaw Bear", "{1}{G}", "Creature — Bear", power="2", toughness="2")
PINGER = Card.build("Pinger", "{1}{R}", "Creature — Imp", power="1", toughness="1",
                    oracle_text="At the beginning of your upkeep, Pinger deals 1 damage to you.")
HEALER = Card.build("Healer", "{1}{W}", "Enchantment", oracle_text="At the beginning of your end step, you gain 2 life.")
PLAIN_DECK = (FOREST,) * 20 + (BEAR,) * 20
TRIGGER_DECK = (FOREST,) * 20 + (BEAR,) * 10 + (PINGER,) * 5 + (HEALER,) * 5


def dealt(deck: tuple[Card, ...], seed: int) -> pcs.PC:
    """A PC a few turns in: permanents tapped, sick, damaged and pumped at random."""
    rng = random.Random(seed)
    pc = pcs.create_pc("ann", "Ann", deck, frozenset(), rng)
    for card_id in pc.library[:rng.randrange(6)]:
        pc.battlefield.append(Permanent(card_id, "ann", rng.random() < 0.5, rng.random() < 0.5, rng.randrange(2),
                                        power_bonus=rng.randrange(2), granted=rng.randrange(2)))
    pc.life = rng.randrange(1, 4)
    return pc


def plain(step: str, pc: pcs.PC, rng: random.Random, events: list) -> None:
    if step == "concentrate":
        pcs.concentrate(pc, upkeep=lambda who: phases.beginning_triggers(who, "upkeep", rng, events))
    else:
        pcs.rest(pc, end_step=lambda who: phases.beginning_triggers(who, "end_step", rng, events))


@pytest.mark.parametrize("deck", [PLAIN_DECK, TRIGGER_DECK], ids=["no triggers", "upkeep and end-step triggers"])
@pytest.mark.parametrize("step", ["concentrate", "rest"])
def test_T_2_4_T_2_6_phases_do_what_the_full_trigger_step_does(deck, step):
    for seed in range(40):
        ours, theirs = dealt(deck, seed), dealt(deck, seed)
        if step == "rest":
            ours.concentration_counter = theirs.concentration_counter = True
        our_rng, their_rng = random.Random(seed), random.Random(seed)
        our_events: list = []
        their_events: list = []
        getattr(phases, step)(ours, our_rng, our_events)
        plain(step, theirs, their_rng, their_events)
        assert ours == theirs and our_events == their_events
        assert our_rng.getstate() == their_rng.getstate()


def test_may_trigger_reads_the_cards_of_the_table():
    """Upkeep and end-step abilities are found per table; a new table (a token made in
    play gives the PC one) is read afresh."""
    assert not phases.may_trigger(PLAIN_DECK, "upkeep") and not phases.may_trigger(PLAIN_DECK, "end_step")
    assert phases.may_trigger(PLAIN_DECK + (PINGER,), "upkeep")
    assert not phases.may_trigger(PLAIN_DECK + (PINGER,), "end_step")
    assert phases.may_trigger(TRIGGER_DECK, "end_step")
