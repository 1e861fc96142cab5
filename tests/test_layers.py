"""The layers point one way (docs/development.md, "Layers"): every import in src/deckquest,
including those inside functions and under ``if TYPE_CHECKING``, is read from the source and
none may point back up, nor sideways between two layers of the same rank.

    face (cli.py, __init__.py, __main__.py, */command.py, the language server lsp/)
      -> sim, packs -> runtime -> systems -> engine, dsl -> cards -> errors (errors.py, files.py, yamlfile.py, signals.py)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "deckquest"
RANKS = {"face": 7, "sim": 6, "packs": 6, "runtime": 5, "systems": 4, "engine": 3, "dsl": 3, "grammar": 3,
         "cards": 2, "errors": 1}
FACE_FILES = {"cli.py", "__init__.py", "__main__.py", "command.py"}


def layer(module: str) -> str:
    """The layer of a module ``deckquest.a.b`` (or of a file's dotted name)."""
    parts = module.split(".")
    if parts[0] != "deckquest":
        raise ValueError(module)
    if len(parts) == 1 or parts[-1] in ("cli", "__main__", "command") or parts[1] == "lsp":
        return "face"
    if parts[1] in RANKS:
        return parts[1]
    return "errors"  # errors.py, files.py, yamlfile.py, signals.py: the ground floor


def module_of(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, module) of every import of a deckquest module in the file, wherever it is
    (``module``: the file's dotted name, by default from its place under src)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = module or module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found += [(node.lineno, f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base)
                      for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == "deckquest"]


def _is_module(dotted: str) -> bool:
    path = SRC.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def problems_in(path: Path, module: str) -> list[str]:
    here = layer(module)
    problems = []
    for line, name in imports(path, module):
        there = layer(name)
        if there == here:
            continue
        if RANKS[there] > RANKS[here] or (RANKS[there] == RANKS[here] and {here, there} != {"dsl", "grammar"}):
            problems.append(f"{module}:{line}: {here} imports {name} ({there})")
    return problems


def back_edges() -> list[str]:
    return [problem for path in sorted(SRC.rglob("*.py")) for problem in problems_in(path, module_of(path))]


def test_no_import_points_back_up_the_layers():
    assert back_edges() == []


@pytest.mark.parametrize("module, expected", [
    ("deckquest.cli", "face"), ("deckquest.sim.command", "face"), ("deckquest.runtime.command", "face"),
    ("deckquest", "face"), ("deckquest.sim.batch", "sim"), ("deckquest.systems.trpg.statements", "systems"),
    ("deckquest.errors", "errors"), ("deckquest.yamlfile", "errors"), ("deckquest.dsl.parser", "dsl"),
])
def test_modules_are_placed_in_their_layers(module, expected):
    assert layer(module) == expected


def test_the_test_reads_imports_inside_functions(tmp_path):
    """An import inside a function counts as much as one at the top (the hidden cycles), and a
    sideways import between two layers of one rank is refused too."""
    probe = tmp_path / "probe.py"
    probe.write_text("import random\n\ndef f():\n    from deckquest.sim import batch\n"
                     "    from deckquest.dsl.ast import Script\n    from ..packs import store\n", encoding="utf-8")
    assert problems_in(probe, "deckquest.engine.probe") == [
        "deckquest.engine.probe:4: engine imports deckquest.sim.batch (sim)",
        "deckquest.engine.probe:5: engine imports deckquest.dsl.ast (dsl)",
        "deckquest.engine.probe:6: engine imports deckquest.packs.store (packs)",
    ]
