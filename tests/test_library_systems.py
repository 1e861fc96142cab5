"""A user's own Python reaches every registered game system through the face alone
(issue 13c, item 3): ``deckquest.compile``, ``run``, ``simulate`` and ``explore`` of a
`system grizzly` / `system arena` script work in a fresh interpreter that never called
``deckquest.systems.load_all()``. The test suite's conftest loads every system, so this runs
in a child process, as a user's script would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

USER_SCRIPT = """
import sys
import deckquest
from deckquest.dsl.language import LANGUAGES
assert "grizzly" not in LANGUAGES and "arena" not in LANGUAGES  # nothing loaded the systems yet
sword = "scenarios/sword_coast/sword_coast.quest"
duel = "scenarios/the_duel/the_duel.quest"
if sys.argv[1] == "compile":
    print(deckquest.compile(sword).system)
elif sys.argv[1] == "run":
    print(deckquest.run(sword, seed=1).outcome)
elif sys.argv[1] == "simulate":
    print(deckquest.simulate(duel, runs=4, jobs=1).runs)
else:
    print(deckquest.explore(duel).complete)
"""


def user_python(verb: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-c", USER_SCRIPT, verb], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_each_verb_of_the_face_loads_the_game_systems():
    expected = {"compile": "grizzly", "run": "wins", "simulate": "4", "explore": "True"}
    for verb, printed in expected.items():
        result = user_python(verb)
        assert result.returncode == 0, result.stderr
        assert printed in result.stdout, (verb, result.stdout)
