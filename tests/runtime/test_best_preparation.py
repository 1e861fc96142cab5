"""``best``'s preparation reads per-deck facts (``preparation.DeckFacts``) and gives the answers
its rules give (T-2.3, T-2.5): the land it plays and the creature it casts, checked against
those rules written plainly on the cards (``profile``, ``adventure.payment``) on generated
hands and battlefields of every bundled party's decks.

``benchmarks/dump_runs.py`` showed the runs byte-identical before and after the facts; this
covers hands the bundled runs never deal (several lands, unaffordable creatures, tapped and
summoning-sick sources).
"""

from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.cards.model import Card
from deckquest.dsl.resolver import compile_file
from deckquest.engine import adventure
from deckquest.engine.combat.profile import profile
from deckquest.engine.pc import PC, card_table
from deckquest.engine.permanents import Permanent
from deckquest.runtime.preparation import best_castable_creature, deck_facts, land_to_play
from deckquest.runtime.interpreter import Program
from runtime_helpers import DB, SCENARIOS


@lru_cache(maxsize=1)
def decks() -> list[tuple[Card, ...]]:
    """The card table of every party member of the bundled MTG-TRPG adventures."""
    tables = {}
    for path in sorted(SCENARIOS.glob("*/*.quest")):
        program = Program(compile_file(path, DB))
        for member in getattr(program, "party", ()):
            table = card_table(member.cards)
            tables[id(table)] = table
    return list(tables.values())


def plain_land(pc: PC) -> int | None:
    """T-2.5: a land making a colour the creatures in hand need, else the first land in hand."""
    if pc.land_played:
        return None
    lands = [card_id for card_id in pc.hand if pc.cards[card_id].is_land]
    if len(lands) < 2:
        return lands[0] if lands else None
    needed = {color for card_id in pc.hand if pc.cards[card_id].is_creature for color in pc.cards[card_id].colors}
    for card_id in lands:
        if any(unit & needed for unit in profile(pc.cards[card_id]).mana):
            return card_id
    return lands[0]


def plain_creature(pc: PC) -> int | None:
    """T-2.3: the creature in hand with the most power, then mana value (of equals the first),
    that the untapped sources pay for (``adventure.payment``)."""
    best, best_key = None, (0, 0)
    for card_id in pc.hand:
        card = pc.cards[card_id]
        if card.is_creature and adventure.payment(pc, card) is not None:
            key = (profile(card).power, card.mana_value)
            if best is None or key > best_key:
                best, best_key = card_id, key
    return best


def dealt(cards: tuple[Card, ...], seed: int) -> PC:
    """A PC with a random hand and a battlefield of lands and creatures, some tapped or sick."""
    rng = random.Random(seed)
    ids = list(range(len(cards)))
    rng.shuffle(ids)
    hand, rest = ids[:rng.randint(0, 9)], ids[9:]
    on_board = [card_id for card_id in rest if cards[card_id].is_land or cards[card_id].is_creature]
    battlefield = [Permanent(card=card_id, owner="pc", tapped=rng.random() < 0.3,
                             summoning_sick=cards[card_id].is_creature and rng.random() < 0.5)
                   for card_id in on_board[:rng.randint(0, 7)]]
    return PC(id="pc", name="PC", cards=cards, hand=hand, battlefield=battlefield, concentration_counter=True,
              land_played=rng.random() < 0.2)


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=0, max_value=2**32))
def test_best_plays_the_land_and_casts_the_creature_its_rules_say(deck, seed):
    """T-2.3, T-2.5: the per-deck facts answer as the rules read on the cards."""
    tables = decks()
    cards = tables[deck % len(tables)]
    pc = dealt(cards, seed)
    facts = deck_facts(pc.cards)
    assert land_to_play(pc, facts) == plain_land(pc)
    assert best_castable_creature(pc, facts) == plain_creature(pc)


def test_the_generated_states_cast_and_refuse_creatures():
    """The generator reaches both answers of the creature rule (else the test above proves little)."""
    answers = [best_castable_creature(pc, deck_facts(pc.cards))
               for cards in decks() for pc in (dealt(cards, seed) for seed in range(60))]
    assert any(answer is None for answer in answers) and any(answer is not None for answer in answers)


def test_a_table_grown_by_a_battle_reads_every_card_as_its_own():
    """A battle in which a PC made tokens leaves it a new table, the old one and the tokens'
    cards (``write_back``); its facts, read partly from the rows of the old table's cards,
    are each card's own, in the new table's order."""
    tables = decks()
    for cards, other in zip(tables, tables[1:] + tables[:1]):
        deck_facts(cards)
        grown = cards + other[:3]
        facts = deck_facts(grown)
        assert facts.cards is grown
        reads = [profile(card) for card in grown]
        assert facts.lands == tuple(card.is_land for card in grown)
        assert facts.creatures == tuple(card.is_creature for card in grown)
        assert facts.colors == tuple(card.colors for card in grown)
        assert facts.mana == tuple(read.mana for read in reads)
        assert facts.makes == tuple(frozenset().union(*read.mana) for read in reads)
        assert facts.rank == tuple((read.power, card.mana_value) for card, read in zip(grown, reads))
        assert facts.costs == tuple(read.cost for read in reads)
        assert facts.needs == tuple(read.cost.total() for read in reads)
