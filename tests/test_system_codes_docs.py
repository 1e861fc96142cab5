"""Every game system's diagnostic codes are documented in docs/errors.md (issue 13c, item 4):
for each registered system (the bundled ones and the test suite's dice race), every code of its
range (``GameSystem.codes``) that its package reports is documented once under a
``### DQnnnn`` heading, no documented code of its range is unused, and each section's one
```quest example produces its code (an error or a warning) at a line and column of the example."""

from __future__ import annotations

import inspect
import re
import shutil
from pathlib import Path

import pytest

import dice_race  # noqa: F401  registers the example system (tests/systems/dice_race)
from deckquest.cards.database import CardDatabase, builtin_index
from deckquest.dsl.diagnostics import CODES
from deckquest.dsl.resolver import compile_file
from deckquest.errors import CompileError
from deckquest.systems import GameSystem, load_all

ROOT = Path(__file__).resolve().parent.parent
ERRORS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
DB = CardDatabase(builtin_index())


def systems() -> list[type[GameSystem]]:
    return [system for system in load_all().systems.values() if system.codes.last >= system.codes.first]


def used_codes(system: type[GameSystem]) -> set[str]:
    """The codes of the system's range that its package's source reports, and those the core's
    table gives it (MTG-TRPG's language is still the core's: DQ5000 is the resolver's)."""
    package = Path(inspect.getfile(system)).parent
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(package.rglob("*.py")))
    return {code for code in [*re.findall(r'"(DQ\d{4})"', source), *CODES] if code in system.codes}


def sections() -> list[tuple[str, str]]:
    parts = re.split(r"^### (DQ\d{4}) ", ERRORS, flags=re.M)
    return [(code, text.split("\n## ")[0].split("\n# ")[0]) for code, text in zip(parts[1::2], parts[2::2])]


CASES = [(system.name, code) for system in systems() for code in sorted(used_codes(system))]


@pytest.fixture
def folder(tmp_path):
    decks = tmp_path / "decks"
    shutil.copytree(ROOT / "tests" / "dsl" / "decks", decks)  # the core examples' decks (DQ5000)
    shutil.copy(ROOT / "scenarios" / "sword_coast" / "decks" / "sword_coast.txt", decks)
    (decks / "small.txt").write_text("20 Hill Giant\n", encoding="utf-8")
    (decks / "tiny.txt").write_text("5 Hill Giant\n", encoding="utf-8")
    (decks / "bears.txt").write_text("56 Hill Giant\n4 Grizzly Bears\n", encoding="utf-8")
    return tmp_path


def test_the_registry_holds_the_systems_with_codes():
    assert {"grizzly", "arena", "isekai", "dice_race"} <= {system.name for system in systems()}
    assert {name for name, _ in CASES} >= {"grizzly", "arena", "isekai", "dice_race"}


@pytest.mark.parametrize("system", systems(), ids=lambda system: system.name)
def test_every_code_a_system_uses_is_documented_once(system):
    documented = [code for code, _ in sections() if code in system.codes]
    assert len(documented) == len(set(documented)), f"{system.name}: a code documented twice"
    assert sorted(documented) == sorted(used_codes(system)), system.name


@pytest.mark.parametrize("name, code", CASES)
def test_each_example_produces_its_code(folder, name, code):
    section = dict(sections())[code]
    examples = re.findall(r"^```quest\n(.*?)^```", section, re.S | re.M)
    assert len(examples) == 1, f"{code} needs exactly one ```quest example"
    assert "Fix:" in section, code
    path = folder / "example.quest"
    path.write_text(examples[0], encoding="utf-8")
    try:
        diagnostics = compile_file(path, DB).warnings
    except CompileError as failure:
        diagnostics = failure.diagnostics
    found = [d for d in diagnostics if d.code == code]
    assert found, [d.render() for d in diagnostics]
    span = found[0].span
    assert span.line >= 1 and span.col >= 1 and examples[0].splitlines()[span.line - 1].strip(), code
    assert found[0].render().startswith(f"{path}:{span.line}:{span.col}: ")
