"""deckquest's build backend: setuptools' own, plus mypy's compiler when `DECKQUEST_MYPYC=1`.

A plain `pip install .` builds the pure-Python package exactly as setuptools alone would. With
`DECKQUEST_MYPYC=1` set, setup.py compiles the battle engine with mypyc (docs/development.md,
"Compiled build"), so the build environment needs mypy: PEP 517 lets a backend add build
requirements (`get_requires_for_build_wheel`), which keeps mypy and a C compiler out of
every other install. This is setuptools' documented way of adding dynamic build dependencies
(a backend in the tree, `backend-path` in pyproject.toml).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterator

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 (every other hook is setuptools' own)

#: The compiler, with the same lower bound as the `test` extra's mypy.
MYPYC_REQUIRES = ["mypy[mypyc]>=1.10"]


def compiled() -> bool:
    """Whether this build compiles (`DECKQUEST_MYPYC=1`)."""
    return os.environ.get("DECKQUEST_MYPYC") == "1"


@contextmanager
def _pure() -> Iterator[None]:
    """setuptools runs setup.py to collect build requirements, before mypy can be installed:
    that one run asks for no compiled modules."""
    saved = os.environ.pop("DECKQUEST_MYPYC", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["DECKQUEST_MYPYC"] = saved


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    with _pure():
        requires: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    return requires + MYPYC_REQUIRES if compiled() else requires


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    _refuse_editable()
    requires: list[str] = _setuptools.get_requires_for_build_editable(config_settings)
    return requires


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    _refuse_editable()
    result: str = _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
    return result


def _refuse_editable() -> None:
    """An editable install stays pure Python: compiled modules in src/ would shadow each edit."""
    if compiled():
        raise SystemExit("DECKQUEST_MYPYC=1 builds a wheel (`pip install .`), not an editable install: "
                         "compiled modules in src/ would run instead of your edits")
