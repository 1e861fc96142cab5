"""No input, however broken, gives a Python traceback: only a Scenario or a CompileError."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckquest.cards.database import CardDatabase, builtin_index
from deckquest.dsl.resolver import compile_source
from deckquest.errors import CompileError
from dsl_helpers import DECKS

EXAMPLE = (Path(__file__).parents[2] / "scenarios" / "goblin_cave" / "goblin_cave.quest").read_text()
FOLDER = DECKS.parent  # scripts are compiled as if beside the test decks; nothing is written there
DB = CardDatabase(builtin_index())

FRAGMENTS = [
    'scenario "T":', "rules 2019", "rules 2014", "players 1 to 4", 'version "1.0.0"', 'pc alice "A":',
    'deck "decks/green.txt"', 'critical "Forest" x3', 'creature bear "B" from card "Grizzly Bears"',
    "stats 2/2", "flag lit", "counter torches = 3", "when a pc is dying:", 'start scene s "S":',
    'scene t "T":', '"Narration {pc} {torches}"', "choice:", '"Go" if lit:', "-> s", "-> t",
    "check green difficulty 3 by party:", "success:", "failure:", "victory:", "defeat:", "escape:",
    "encounter bear", "recruit bear difficulty 2:", "fight bear holding back", "battle against bear:",
    "prepare by party", 'end victory "won"', 'end "truce" "x"', "pc loses 2 life", "each pc loses 1 life",
    "alice gains 1 life", "alice draws 2", 'give "Torch" to pc', "the party rests", "the party sleeps",
    "wait 10 minutes", "set lit", "clear lit", "torches += 1", "torches = 2", "if lit and torches < 2:",
    "if not (alice.life > 3 or party size == 2):", "else:", 'use "other.quest"', "when battle turn 2:",
    "when bear is defeated:", '"unterminated', "\t-> s", "((((", "x3", "{", ":", "99999999999999999999",
]


def check_no_crash(text: str) -> None:
    try:
        compile_source(text, FOLDER / "fuzz.quest", DB)
    except CompileError as failure:
        assert failure.diagnostics
        assert all(d.code for d in failure.diagnostics)
        failure.render()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from(FRAGMENTS)), max_size=30))
def test_generated_scripts_never_crash(lines):
    check_no_crash("".join("    " * depth + fragment + "\n" for depth, fragment in lines))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(EXAMPLE)), st.integers(0, 12), st.text(max_size=6)), min_size=1, max_size=6))
def test_mutated_example_never_crashes(edits):
    text = EXAMPLE
    for position, cut, insert in edits:
        text = text[:position] + insert + text[position + cut:]
    check_no_crash(text)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes(text):
    check_no_crash(text)
