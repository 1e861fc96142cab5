"""Arena's documents are tested: every DQ30xx code the package reports is documented once in
docs/errors.md with an example that produces it, and every ```quest example of docs/arena.md
compiles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_source
from deckquest.errors import CompileError

ROOT = Path(__file__).resolve().parents[3]
ERRORS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
ARENA = (ROOT / "docs" / "arena.md").read_text(encoding="utf-8")
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src" / "deckquest" / "systems" / "arena").glob("*.py"))


def sections() -> dict[str, str]:
    parts = re.split(r"^#### (DQ3\d{3}) ", ERRORS, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def quest_blocks(text: str, tag: str = "quest") -> list[str]:
    return re.findall(rf"^```{tag}\n(.*?)^```", text, re.S | re.M)


def test_every_arena_code_is_documented_once():
    used = set(re.findall(r'"(DQ3\d{3})"', SOURCE))
    documented = re.findall(r"^#### (DQ3\d{3}) ", ERRORS, re.M)
    assert sorted(documented) == sorted(set(documented)) == sorted(used)


@pytest.mark.parametrize("code", sorted(sections()))
def test_error_example_produces_its_code(code):
    section = sections()[code].split("\n## ")[0]
    [example] = quest_blocks(section, "quest arena")
    assert "Fix:" in section
    with pytest.raises(CompileError) as failure:
        compile_source(example, "example.quest")
    assert code in [d.code for d in failure.value.diagnostics]


@pytest.mark.parametrize("example", quest_blocks(ARENA), ids=lambda text: text.split("\n", 1)[0][:40])
def test_arena_guide_example_compiles(example):
    compile_source(example, "example.quest")
