"""The per-table caches a battle reads its sides' cards through (`profile.CardTables`:
`profiles_of`, `programs_of`, `state.facts_of`, `program.program_at`): whatever order tables
are asked in, more of them than it keeps at hand, tables equal but not the same object
(a token joining a side makes a new table), each answer is the card's own profile and program."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.engine.combat.profile import RECENT_TABLES, profile
from deckquest.engine.combat.program import program, program_at
from deckquest.engine.combat.state import facts_of
from deckquest.engine.pc import PC
from combat_helpers import BEAR, CORPSE, ELVES, FOREST, MIND_STONE, WURM, ZOMBIE

CARDS = (FOREST, BEAR, CORPSE, ELVES, MIND_STONE, WURM, ZOMBIE)
# More tables than the recent ones kept, some equal in content but distinct objects.
TABLES = [tuple(CARDS[(start + i) % len(CARDS)] for i in range(5)) for start in range(len(CARDS))]
TABLES += [tuple(list(table)) for table in TABLES[:3]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(TABLES) - 1), st.integers(0, 4)), min_size=1, max_size=60))
def test_a_tables_cards_read_as_their_own_profile_and_program(asks):
    assert len(TABLES) > RECENT_TABLES
    for table_number, card in asks:
        pc = PC("ann", "Ann", TABLES[table_number])
        assert facts_of(pc, card) is profile(pc.cards[card])
        assert program_at(pc.cards, card) is program(pc.cards[card])
