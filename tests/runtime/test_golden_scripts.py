"""Golden scripts in the style of Crafting Interpreters: `# expect: LINE` comments.

Each `tests/runtime/golden/*.quest` runs with agent `first` and seed 1; the expected lines
must appear in the text transcript in the order written (each compared without its
leading spaces). A script with no expectation fails, so a golden file cannot rot silently.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_file
from deckquest.runtime.interpreter import run_scenario
from deckquest.runtime.transcript import render_text
from runtime_helpers import DB

GOLDEN = Path(__file__).parent / "golden"
EXPECT = re.compile(r"#\s*expect:\s?(.*)$")


def expectations(path: Path) -> list[str]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = EXPECT.search(line)
        if match:
            found.append(match.group(1).strip())
    return found


def unmet(expected: list[str], transcript: str) -> list[str]:
    """The expected lines not found in order (the first missing one and all after it)."""
    lines = [line.strip() for line in transcript.splitlines()]
    position = 0
    for index, want in enumerate(expected):
        try:
            position = lines.index(want, position) + 1
        except ValueError:
            return expected[index:]
    return []


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.quest")), ids=lambda p: p.stem)
def test_golden_script(path):
    expected = expectations(path)
    assert expected, f"{path.name} has no `# expect:` lines"
    result = run_scenario(compile_file(path, DB), "first", 1)
    transcript = render_text(result.events)
    missing = unmet(expected, transcript)
    assert not missing, f"{path.name}: expected, in order: {missing[0]!r}\n--- transcript:\n{transcript}"


def test_the_runner_notices_lines_out_of_order():
    assert unmet(["b", "a"], "a\nb\n") == ["a"]
    assert unmet(["a", "b"], "a\n  b\n") == []
