"""docs/library.md stays true: each Python block runs as a user's script would (from the
checkout's root), and what it prints comes from the library (issue 13: the package's face)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

import deckquest

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "library.md").read_text(encoding="utf-8"), re.S)


def run_block(block: str, monkeypatch) -> str:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/library.md", "exec"), {})
    return out.getvalue()


def test_the_user_script_compiles_runs_simulates_explores_and_lists_systems(monkeypatch):
    printed = run_block(BLOCKS[0], monkeypatch).splitlines()
    shrine = deckquest.compile(ROOT / "scenarios" / "drowned_shrine" / "drowned_shrine.quest")
    result = deckquest.run(shrine, agent="best", seed=7)
    report = deckquest.simulate(shrine, runs=200, seed=1, jobs=1)
    assert printed[0] == f"{shrine.title} - {len(shrine.scenes)} scenes"
    assert printed[1] == f"one run: {result.outcome} after {result.steps} statements"
    assert printed[3] == f"victory in {report.share('victory'):.0%} of 200 runs"
    assert printed[4] == report.data["verdict"]["headline"]
    assert printed[5].startswith("explored in ")
    assert "trpg" in printed[6] and printed[6].startswith("game systems: ")


def test_the_face_names_what_it_exports():
    assert set(deckquest.__all__) == {"__version__", "compile", "run", "simulate", "explore", "systems"}
    assert deckquest.systems.get("trpg").title == "MTG-TRPG"


@pytest.mark.parametrize("block", BLOCKS[1:])
def test_the_error_example_prints_the_codes(block, monkeypatch):
    assert run_block(block, monkeypatch).strip() == "['DQ0014']"
