"""Helpers shared by the interpreter tests (imported as `runtime_helpers`)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from deckquest.cards.database import CardDatabase, builtin_index
from deckquest.dsl.resolver import compile_source
from deckquest.runtime.agents import FirstAgent
from deckquest.runtime.interpreter import Program, Run

HERE = Path(__file__).parent
DECKS = HERE / "decks"
ROOT = HERE.parent.parent
SCENARIOS = ROOT / "scenarios"
DB = CardDatabase(builtin_index())

# Two PCs: alice plays green (Forest x3 critical), bram plays red (Mountain x3 critical).
PRELUDE = '''scenario "Test":
    rules 2019
pc alice "Alice":
    deck "decks/green.txt"
    critical "Forest" x3
pc bram "Bram":
    deck "decks/red.txt"
    critical "Mountain" x3
'''


def compile_text(folder: Path, text: str):
    """Compile a script written into ``folder`` next to a copy of the test decks."""
    if not (folder / "decks").exists():
        shutil.copytree(DECKS, folder / "decks")
    path = folder / "test.quest"
    path.write_text(text, encoding="utf-8")
    return compile_source(text, path, DB)


def start(folder: Path, body: str, agent=None, seed: int = 1, prelude: str = PRELUDE, **options) -> Run:
    """A run of PRELUDE + body, not yet stepped."""
    program = Program(compile_text(folder, prelude + body))
    return Run(program, agent or FirstAgent(), random.Random(seed), seed=seed, **options)


def play(folder: Path, body: str, agent=None, seed: int = 1, prelude: str = PRELUDE, **options):
    """Run PRELUDE + body to the end: (result, events)."""
    run = start(folder, body, agent, seed, prelude, **options)
    result = run.run()
    return result, run.events


def of_kind(events, kind: str) -> list[dict]:
    return [event for event in events if event["event"] == kind]


def narration(events) -> list[str]:
    return [event["text"] for event in events if event["event"] == "narration"]
