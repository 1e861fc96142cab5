"""Every code of deck lists (DQ1009-DQ1029), card data (DQ8xxx), saves and party files (DQ9xxx)
is documented in docs/errors.md with an example and the fix, and every documented one exists.
(The language's codes are checked by tests/dsl/test_dsl_docs.py; DQ1001-DQ1008 by
docs/decklists.md's table.) The hostile corpus (tests/hostile/) produces them through the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.cards import decklist, importers, jsonstream
from deckquest.runtime import party, saves
from deckquest.systems import game_saves

ERRORS = (Path(__file__).parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
RANGES = [("DQ1009", "DQ1029"), ("DQ8000", "DQ8099"), ("DQ9000", "DQ9099")]


def in_ranges(code: str) -> bool:
    return any(low <= code <= high for low, high in RANGES)


def defined() -> set[str]:
    """The codes the modules name (module-level constants such as ``LINE_TOO_LONG = "DQ1010"``)."""
    return {value for module in (decklist, importers, jsonstream, saves, party, game_saves) for value in vars(module).values()
            if isinstance(value, str) and re.fullmatch(r"DQ\d{4}", value) and in_ranges(value)}


def sections() -> dict[str, str]:
    parts = re.split(r"^### (DQ\d{4}) ", ERRORS, flags=re.M)
    return {code: text.split("\n#", 1)[0] for code, text in zip(parts[1::2], parts[2::2]) if in_ranges(code)}


def test_the_documented_codes_are_the_defined_ones():
    assert sorted(sections()) == sorted(defined())


@pytest.mark.parametrize("code", sorted(defined()))
def test_each_code_has_an_example_of_itself_and_a_fix(code):
    section = sections()[code]
    assert "Fix:" in section
    example = re.search(r"```text\n(.*?)```", section, re.S)
    assert example and f"error[{code}]" in example.group(1)
