"""Golden scripts with inline expectations, in the style of Crafting Interpreters' test suite.

Each tests/dsl/golden/*.quest says what compiling it must report: `# expect: DQ0031 at 12:5`
comments (one per diagnostic, errors and warnings alike), or `# expect: ok` for none.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.cards.database import CardDatabase, builtin_index
from deckquest.dsl.resolver import compile_file
from deckquest.errors import CompileError

GOLDEN = Path(__file__).parent / "golden"
EXPECT = re.compile(r"# expect: (DQ\d{4}) at (\d+):(\d+)")
SCRIPTS = sorted(GOLDEN.glob("*.quest"))


def expectations(path: Path) -> list[tuple[str, int, int]]:
    text = path.read_text()
    assert EXPECT.search(text) or "# expect: ok" in text, f"{path.name} states no expectation"
    return sorted((code, int(line), int(col)) for code, line, col in EXPECT.findall(text))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_golden_script(path):
    try:
        found = compile_file(path, CardDatabase(builtin_index())).warnings
    except CompileError as failure:
        found = failure.diagnostics
    assert sorted((d.code, d.span.line, d.span.col) for d in found) == expectations(path)


def test_there_are_golden_scripts():
    assert len(SCRIPTS) >= 5
