"""The documentation is tested: every example of docs/language.md compiles, and every code of
docs/errors.md is documented with an example that produces it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from deckquest.cards.database import CardDatabase, builtin_index
from deckquest.dsl.diagnostics import CODES
from deckquest.dsl.parser import MAX_FILE_BYTES, MAX_STRING_CHARS
from deckquest.dsl.resolver import MAX_SCENES, compile_file
from deckquest.errors import CompileError
from dsl_helpers import DECKS, fenced_blocks

import dice_race  # noqa: F401  the example game system the game-system codes' examples use

DOCS = Path(__file__).parents[2] / "docs"
LANGUAGE = (DOCS / "language.md").read_text()
ERRORS = (DOCS / "errors.md").read_text()
DB = CardDatabase(builtin_index())

# Codes whose example cannot be written out literally in the document: generated here instead.
GENERATED = {
    "DQ0005": lambda folder: "#" * (MAX_FILE_BYTES + 1),
    "DQ0007": lambda folder: 'scene s "S":\n    "' + "x" * (MAX_STRING_CHARS + 1) + '"\n',
    "DQ0008": lambda folder: 'scenario "Big":\n    rules 2019\n' + "".join(
        f'{"start " if i == 0 else ""}scene s{i} "S":\n    end victory\n' for i in range(MAX_SCENES + 1)),
    "DQ0014": None,  # the file is missing
    "DQ0100": lambda folder: _use_diamond(folder, 12),
}
# Codes the command line gives, not the compiler: a test there produces each.
CLI_CODES = {"DQ0101": Path(__file__).parents[1] / "hostile" / "test_hostile_scripts.py",
             "DQ0015": Path(__file__).parents[1] / "hostile" / "test_hostile_files.py",
             "DQ0016": Path(__file__).parents[1] / "hostile" / "test_hostile_files.py",
             "DQ0102": Path(__file__).parents[1] / "hostile" / "test_hostile_scheduler.py"}


def _use_diamond(folder: Path, depth: int) -> str:
    """Scripts l0 .. l{depth-1}, each using the next twice: 2**depth compiles of the last."""
    for level in range(depth):
        following = f'use "l{level + 1}.quest" as left\nuse "l{level + 1}.quest" as right\n' if level < depth - 1 else ""
        (folder / f"l{level}.quest").write_text(following + f"flag f{level}\n")
    return 'scenario "Diamond":\n    rules 2019\nuse "l0.quest" as top\n\nstart scene hall "Hall":\n    end victory\n'


def codes_in(folder: Path, text: str | None) -> list[str]:
    path = folder / "example.quest"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    try:
        return [d.code for d in compile_file(path, DB).warnings]
    except CompileError as failure:
        return [d.code for d in failure.diagnostics]


@pytest.fixture
def folder(tmp_path):
    shutil.copytree(DECKS, tmp_path / "decks")
    return tmp_path


def error_sections() -> dict[str, str]:
    """The sections of the compiler's codes (DQ0xxx, and the MTG-TRPG DQ5xxx it gives); deck lists,
    card data, saves and party files document theirs in the same file and test them beside
    their code (tests/cards)."""
    parts = re.split(r"^### (DQ\d{4}) ", ERRORS, flags=re.M)
    return {code: text for code, text in zip(parts[1::2], parts[2::2])
            if code < "DQ1000" or "DQ5000" <= code < "DQ6000"}


def test_every_code_is_documented_once():
    assert sorted(error_sections()) == sorted(CODES)
    for code, section in error_sections().items():
        assert "Fix:" in section, code
        assert section.split("\n", 1)[0].strip().startswith(CODES[code].split(" (")[0][:12]), code


@pytest.mark.parametrize("code", sorted(CODES))
def test_error_example_produces_its_code(folder, code):
    blocks = fenced_blocks(error_sections()[code])
    if code in CLI_CODES:
        assert not blocks and code in CLI_CODES[code].read_text(), f"no test of {CLI_CODES[code]} gives {code}"
        return
    if code in GENERATED:
        assert not blocks, f"{code} has a literal example; drop it from GENERATED"
        generate = GENERATED[code]
        text = generate(folder) if generate else None
    else:
        assert len(blocks) == 1, f"{code} needs exactly one ```quest example"
        text = blocks[0][1]
    assert code in codes_in(folder, text)


LANGUAGE_EXAMPLES = fenced_blocks(LANGUAGE)


@pytest.mark.parametrize("line,text", LANGUAGE_EXAMPLES, ids=[f"line{line}" for line, _ in LANGUAGE_EXAMPLES])
def test_language_example_compiles(folder, line, text):
    (folder / "lib").mkdir()
    (folder / "lib" / "camp.quest").write_text('creature scout "Goblin Scout" from card "Goblin Guide"\nflag alarm\n')
    path = folder / "example.quest"
    path.write_text(text, encoding="utf-8")
    try:
        compile_file(path, DB)
    except CompileError as failure:
        pytest.fail(f"docs/language.md:{line}:\n{failure.render()}")


def test_language_reference_covers_every_statement():
    from deckquest.dsl import ast
    from deckquest.systems.trpg import nodes

    statements = ["Narration", "Choice", "Check", "Encounter", "Recruit", "TakeControl", "Fight", "Battle", "Goto",
                  "End", "LoseLife", "GainLife", "Draw", "Give", "Rest", "Sleep", "Wait", "SetFlag", "ClearFlag",
                  "CounterAssign", "If"]
    assert set(statements) == {t.__name__ for t in (*ast.Stmt.__args__, *nodes.STATEMENTS)}  # the core's, MTG-TRPG's
    assert len(LANGUAGE_EXAMPLES) >= 15
