"""The example game system (tests/systems/dice_race) is importable from every test: the
documentation's examples of the game-system codes (docs/errors.md) use it. Every test gets a
DECKQUEST_HOME of its own (docs/development.md, "The test suite")."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

SYSTEMS = str(Path(__file__).parent / "systems")
if SYSTEMS not in sys.path:
    sys.path.insert(0, SYSTEMS)

from deckquest.systems import load_all  # noqa: E402

load_all()  # every bundled game system registers itself, as the CLI does (deckquest.cli)


@pytest.fixture(scope="session")
def _homes(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("homes")


@pytest.fixture(autouse=True)
def isolated_home(_homes, monkeypatch) -> None:
    """An empty DECKQUEST_HOME for each test (and the commands it starts): the packs and cards
    of the machine's user, or of a test that ran before, never change a result, and no test
    writes into the user's folder."""
    monkeypatch.setenv("DECKQUEST_HOME", tempfile.mkdtemp(dir=_homes))
