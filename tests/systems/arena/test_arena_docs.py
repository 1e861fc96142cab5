"""Arena's guide is tested: every ```quest example of docs/arena.md compiles (its DQ3xxx codes'
examples in docs/errors.md are checked by tests/test_system_codes_docs.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_source

ROOT = Path(__file__).resolve().parents[3]
ARENA = (ROOT / "docs" / "arena.md").read_text(encoding="utf-8")


def quest_blocks(text: str, tag: str = "quest") -> list[str]:
    return re.findall(rf"^```{tag}\n(.*?)^```", text, re.S | re.M)


@pytest.mark.parametrize("example", quest_blocks(ARENA), ids=lambda text: text.split("\n", 1)[0][:40])
def test_arena_guide_example_compiles(example):
    compile_source(example, "example.quest")
