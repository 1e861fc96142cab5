"""``best``'s PC actions at a decision point (``deckquest.runtime.agents.BestAgent``, docs/agents.md):
its plan, step by step, and what it reads of each PC's cards to follow it.

A module of its own so that the compiled build (setup.py's COMPILED) compiles it: a batch
run with ``best`` asks for some 30 PC actions, each a step of ``plan`` that weighs the hand's
lands and creatures, while the agents' classes stay plain Python, which tests and
``sim explore`` subclass (a compiled class cannot be).
"""

from __future__ import annotations

from typing import Final, Iterator, NamedTuple

from deckquest.cards.model import Card
from deckquest.engine import pc as pcs
from deckquest.engine.combat.mana import Requirement, paid
from deckquest.engine.combat.profile import profile
from deckquest.runtime.interpreter import PcAction, Run

PLAN: Final = "plan"  # Run.memory: where ``best`` is in its PC actions of the decision point

#: The phases of ``best``'s plan at a decision point.
PREPARE: Final = 0
ATTACK: Final = 1
#: ``best``'s place in its plan: (phase, PC index in party order, step of that PC's
#: preparation, whether it cast a creature, whether the decision point is a fight).
Plan = tuple[int, int, int, bool, bool]


def plan(run: Run, memory: dict[str, object], place: Plan) -> Iterator[PcAction]:
    """The ``best`` policy of PC actions from ``place`` on, each action decided on the
    game as the run left it after the one before. Before each, its place after it goes into
    ``memory[PLAN]`` (plain data: a copy of the run, or a save, takes the plan up there).
    Each PC in turn (step 0 to 4): concentrate (if it has no counter), play a land, cast the
    best creatures it can pay for, rest; after casting, concentrate and rest again (T-2.4,
    T-2.3, T-2.6, T-2.10, T-2.5). Then, before a ``fight``, each PC with a creature and no
    concentration counter concentrates, since attacking needs the counter (T-3.1) and a
    creature that may tap (T-2.10)."""
    phase, index, stage, cast_any, fight = place
    party = run.state.pcs
    ids = list(party)
    while phase == PREPARE:
        if index >= len(ids):
            if not fight:
                return
            phase, index = ATTACK, 0
            break
        pc_id = ids[index]
        pc = party[pc_id]
        facts = deck_facts(pc.cards)
        if stage == 0:
            if pc.status != pcs.OK:
                index += 1
                continue
            stage = 1
            if not pc.concentration_counter:
                memory[PLAN] = (PREPARE, index, 1, False, fight)
                yield pc_id, "concentrate", None
        if stage == 1:
            if not pc.can_act:
                index, stage = index + 1, 0
                continue
            stage = 2
            land = land_to_play(pc, facts)
            if land is not None:
                memory[PLAN] = (PREPARE, index, 2, False, fight)
                yield pc_id, "play_land", land
        if stage == 2:
            while (creature := best_castable_creature(pc, facts)) is not None:
                cast_any = True
                memory[PLAN] = (PREPARE, index, 2, True, fight)
                yield pc_id, "cast", creature
            stage = 3
            memory[PLAN] = (PREPARE, index, 3, cast_any, fight)
            yield pc_id, "rest", None
        if stage == 3 and cast_any and pc.can_act:
            stage = 4
            memory[PLAN] = (PREPARE, index, 4, True, fight)
            yield pc_id, "concentrate", None
        if stage == 4 and pc.can_act:
            memory[PLAN] = (PREPARE, index + 1, 0, False, fight)
            yield pc_id, "rest", None
        index, stage, cast_any = index + 1, 0, False
    while index < len(ids):
        pc_id = ids[index]
        pc = party[pc_id]
        index += 1
        if pc.status == pcs.OK and not pc.concentration_counter and any(
                pc.cards[p.card].is_creature for p in pc.battlefield):
            memory[PLAN] = (ATTACK, index, 0, False, fight)
            yield pc_id, "concentrate", None


class DeckFacts(NamedTuple):
    """What ``best``'s preparation reads of each card of a PC's card table, by physical
    card id, worked out once per table (``deck_facts``).

    Cards are immutable and every PC dealt from one party member shares its card table
    (``engine.pc.card_table``), so a batch reads these from tuples instead of asking the
    card's type line, colours and ``profile`` for every card in hand at every decision
    point (``land_to_play`` and ``best_castable_creature`` run some 10 times a run)."""

    cards: tuple[Card, ...]  # the table itself: kept so its id cannot be reused while cached
    lands: tuple[bool, ...]
    creatures: tuple[bool, ...]
    colors: tuple[tuple[str, ...], ...]  # the card's colours (what a creature needs)
    mana: tuple[tuple[frozenset[str], ...], ...]  # what it makes as a source (``profile``)
    makes: tuple[frozenset[str], ...]  # the union of ``mana``: every mana type it can make
    rank: tuple[tuple[int, int], ...]  # (power, mana value): which creature ``best`` casts first
    costs: tuple[Requirement, ...]  # its cost as payment reads it (``profile``)
    needs: tuple[int, ...]  # how many units of mana its cost takes (``Requirement.total``, X = 0)


_DECK_FACTS: dict[int, DeckFacts] = {}
_DECK_FACTS_LIMIT = 256  # card tables cached at once (a batch has one per party member)

#: A card's row of ``DeckFacts``: the card, then its field of each ``DeckFacts`` tuple after ``cards``.
Row = tuple[Card, bool, bool, tuple[str, ...], tuple[frozenset[str], ...], frozenset[str], tuple[int, int],
            Requirement, int]
#: Each card's row, by the card's identity (as ``engine.colors.rule_colors`` keeps its
#: answers): a battle in which a PC made tokens leaves it a new card table, the old one and
#: the tokens' cards (``write_back`` in ``engine.combat.battle``), so most batch runs with a
#: battle meet a new table; its rows but the tokens' are read from here, not worked out again.
_ROWS: dict[int, Row] = {}
_ROWS_LIMIT = 4096


def deck_facts(cards: tuple[Card, ...]) -> DeckFacts:
    """The ``DeckFacts`` of a card table, keyed by its identity (as ``checks.card_facts``:
    the entry holds the table, so a stale id cannot match)."""
    facts = _DECK_FACTS.get(id(cards))
    if facts is None or facts.cards is not cards or len(facts.lands) != len(cards):
        if len(_DECK_FACTS) >= _DECK_FACTS_LIMIT:
            _DECK_FACTS.clear()
        rows = [_row(card) for card in cards]
        facts = _DECK_FACTS[id(cards)] = DeckFacts(
            cards,
            tuple([row[1] for row in rows]),
            tuple([row[2] for row in rows]),
            tuple([row[3] for row in rows]),
            tuple([row[4] for row in rows]),
            tuple([row[5] for row in rows]),
            tuple([row[6] for row in rows]),
            tuple([row[7] for row in rows]),
            tuple([row[8] for row in rows]),
        )
    return facts


def _row(card: Card) -> Row:
    """A card's row of ``DeckFacts`` (``_ROWS``; the row holds the card, so a stale id cannot match)."""
    row = _ROWS.get(id(card))
    if row is None or row[0] is not card:
        if len(_ROWS) >= _ROWS_LIMIT:
            _ROWS.clear()
        read = profile(card)
        row = _ROWS[id(card)] = (card, card.is_land, card.is_creature, card.colors, read.mana,
                                 frozenset[str]().union(*read.mana), (read.power, card.mana_value), read.cost,
                                 read.cost.total())
    return row


def land_to_play(pc: pcs.PC, facts: DeckFacts) -> int | None:
    """A land that makes a colour the creatures in hand need, else the first land in hand.
    (A land makes a needed colour when one of its units does: the union of its units,
    ``DeckFacts.makes``, meets the needed colours.)"""
    if pc.land_played:
        return None
    is_land = facts.lands
    lands = [card_id for card_id in pc.hand if is_land[card_id]]
    if len(lands) < 2:  # none, or the one there is
        return lands[0] if lands else None
    is_creature, colors = facts.creatures, facts.colors
    needed = {color for card_id in pc.hand if is_creature[card_id] for color in colors[card_id]}
    makes = facts.makes
    for card_id in lands:
        if not makes[card_id].isdisjoint(needed):
            return card_id
    return lands[0]


def best_castable_creature(pc: pcs.PC, facts: DeckFacts) -> int | None:
    """The creature in hand with the most power (then the highest mana value; of equals the
    first) that the untapped sources can pay for. What the sources make is listed only
    when the hand holds a creature, in battlefield order as ``mana_sources`` lists it; a
    cost of more units than the sources make together is not asked of ``paid``, which
    answers None to it without trying (``mana._positions``' first test)."""
    is_creature = facts.creatures
    creatures = [card_id for card_id in pc.hand if is_creature[card_id]]
    if not creatures:
        return None
    mana = facts.mana
    made = tuple([mana[p.card] for p in pc.battlefield  # the same for every creature in hand
                  if mana[p.card] and not p.tapped and not p.summoning_sick])
    units = sum(map(len, made))
    rank, costs, needs = facts.rank, facts.costs, facts.needs
    best, best_key = None, (0, 0)
    for card_id in creatures:
        key = rank[card_id]
        if ((best is None or key > best_key) and needs[card_id] <= units
                and paid(made, costs[card_id]) is not None):
            best, best_key = card_id, key
    return best
