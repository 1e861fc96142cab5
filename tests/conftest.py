"""The example game system (tests/systems/dice_race) is importable from every test: the
documentation's examples of the game-system codes (docs/errors.md) use it."""

from __future__ import annotations

import sys
from pathlib import Path

SYSTEMS = str(Path(__file__).parent / "systems")
if SYSTEMS not in sys.path:
    sys.path.insert(0, SYSTEMS)

from deckquest.systems import load_all  # noqa: E402

load_all()  # every bundled game system registers itself, as the CLI does (deckquest.cli)
