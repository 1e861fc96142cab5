"""docs/library.md stays true: each Python block runs as a user's script would (from the
checkout's root), and what it prints comes from the library (issue 13: the package's face)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import deckquest

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, re.S)
FACE = re.findall(r"^\| `deckquest\.(\w+)", DOC, re.M)  # the names of the face's table

#: Each name of the face used alone, as the first thing a fresh interpreter does after
#: `import deckquest` (the test suite's own process has imported everything already).
FIRST_USE = {
    "compile": 'print(deckquest.compile("scenarios/drowned_shrine/drowned_shrine.quest").title)',
    "run": 'print(deckquest.run("scenarios/drowned_shrine/drowned_shrine.quest", seed=1).outcome)',
    "simulate": 'print(deckquest.simulate("scenarios/drowned_shrine/drowned_shrine.quest", runs=3, jobs=1).runs)',
    "explore": 'print(deckquest.explore("scenarios/drowned_shrine/drowned_shrine.quest").runs)',
    "systems": 'print(deckquest.systems.names())',
}


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


def test_every_name_of_the_face_has_a_first_use_below():
    assert FACE and set(FACE) == set(FIRST_USE)


@pytest.mark.parametrize("name", sorted(FIRST_USE))
def test_each_name_of_the_face_works_first_in_a_fresh_interpreter(name):
    """Issue 28, item 8: `import deckquest; deckquest.systems.names()` raised RecursionError
    (the module's `__getattr__` asked itself for `systems`). Each name docs/library.md lists
    works as the first use in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, "-c", f"import deckquest\n{FIRST_USE[name]}"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.stdout.strip(), name
