"""docs/grizzly.md stays true: every rule mapped to existing code and tests that cite it, and
every option and reading documented with its seed line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckquest.systems.grizzly import Grizzly

ROOT = Path(__file__).resolve().parents[3]
DIGEST = ROOT.parent / "shared" / "rules" / "grizzly-bears.md"
DOC = (ROOT / "docs" / "grizzly.md").read_text(encoding="utf-8")


@pytest.mark.skipif(not DIGEST.exists(), reason="../shared/rules is not beside the checkout")
def test_rules_map_lists_every_rule_with_code_and_a_citing_test():
    rules = re.findall(r"^- (G-\d+) ", DIGEST.read_text(encoding="utf-8"), re.M)
    rows = re.findall(r"^\| (G-\d+) \| `([^`]+)` \| `([^`]+)` \|$", DOC, re.M)
    assert [row[0] for row in rows] == rules
    for rule, code, test in rows:
        assert (ROOT / "src" / "deckquest" / code).is_file(), code
        text = (ROOT / "tests" / test).read_text(encoding="utf-8")
        assert re.search(rf"\b{rule}\b", text), f"{test} cites no {rule}"


def test_every_option_and_reading_is_documented_with_its_seed_line():
    for option in Grizzly.options:
        line = option.source.rsplit(":", 1)[1]
        assert f"| `{option.name}` | {option.rule} ☆ | line {line} |" in DOC
    for reading in Grizzly.readings:
        line = reading.source.rsplit(":", 1)[1]
        values = ", ".join(f"`{v}`" for v in reading.values)
        assert f"| `{reading.name}` | {values} | {reading.rule} | line {line} |" in DOC


def test_the_library_api_example_prints_what_it_says(capsys, monkeypatch):
    code = re.search(r"## A game in the library API\n\n```python\n(.*?)```", DOC, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/grizzly.md", "exec"), {})
    printed = capsys.readouterr().out
    promised = re.search(r"# (\{.*), \.\.\.\}", code).group(1)
    assert printed.startswith(promised)
