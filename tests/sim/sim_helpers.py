"""Helpers shared by the simulation tests (imported as `sim_helpers`)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
ROOT = HERE.parent.parent
SHRINE = ROOT / "scenarios" / "drowned_shrine" / "drowned_shrine.quest"


def report_schema() -> dict:
    """The JSON Schema shipped in the package, read the way an installed package reads it."""
    return json.loads(resources.files("deckquest.sim").joinpath("report.schema.json").read_text("utf-8"))


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the first line of ``path`` containing ``text``."""
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")
