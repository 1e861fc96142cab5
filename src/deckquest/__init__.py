"""deckquest: scenario scripts, exact odds and batch simulation for games played with Magic
cards (MTG-TRPG, and every game system registered in ``deckquest.systems``).

The package's face, for a user's own Python (docs/library.md):

* ``compile(path)``: a checked ``Scenario`` (or a ``CompileError`` listing every problem);
* ``run(script, agent="first", seed=0)``: one play-through, its outcome and events;
* ``simulate(script, runs=2000, seed=0)``: a batch of seeded runs and its ``Report``;
* ``explore(script)``: every choice, check and battle outcome covered, and what is broken;
* ``systems``: the game systems (``deckquest.systems``: ``names()``, ``get(name)``, ``REGISTRY``).

``script`` is a path, ``PACK/SCENARIO`` of an installed pack, or a compiled ``Scenario``.
The rest of the library is imported only when one of these is first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deckquest.version import __version__

if TYPE_CHECKING:
    from deckquest.dsl.scenario import Scenario

__all__ = ["__version__", "compile", "run", "simulate", "explore", "systems"]


def compile(path, db=None) -> "Scenario":  # noqa: A001  the face's verb, as `deckquest check` does it
    """Compile the script at ``path`` (or ``PACK/SCENARIO``); its ``use``/``deck`` references
    are found in its pack and the installed packs. Raises ``CompileError`` with every error."""
    from deckquest.dsl.resolver import compile_file
    from deckquest.packs.store import resolve_script_reference
    from deckquest.runtime.command import locate_script

    _systems()
    return compile_file(locate_script(str(path)), db, locator=resolve_script_reference)


def run(script, agent: str = "first", seed: int = 0, **options: Any):
    """Play ``script`` once; a ``RunResult`` (``outcome``, ``text``, ``events``, ...). Options as
    ``deckquest.runtime.interpreter.run_scenario``: ``party``, ``choices``, ``record``,
    ``listener``, ``max_steps``."""
    from deckquest.runtime.interpreter import run_scenario

    return run_scenario(_compiled(script), agent, seed, **options)


def simulate(script, runs: int = 2000, seed: int = 0, jobs: int | None = None, **options: Any):
    """Play ``runs`` seeded runs of ``script`` on ``jobs`` processes; the ``Report``. Options as
    ``deckquest.sim.batch.simulate``: ``party``, ``agent``, ``max_steps``, ``progress``."""
    from deckquest.sim.batch import simulate as batch

    return batch(_compiled(script), runs, seed, jobs, **options)


def explore(script, **options: Any):
    """Explore ``script``: an ``ExploreReport`` of its findings (``party``, ``seed``,
    ``max_steps``, ``max_runs`` as ``deckquest.sim.explore.explore``)."""
    from deckquest.sim.explore import explore as search

    return search(_compiled(script), **options)


def _compiled(script):
    return script if hasattr(script, "scenes") else compile(script)


def _systems():
    # Not `from deckquest import systems`: that asks this module for the attribute first, and
    # its `__getattr__` below is this function (RecursionError in a fresh interpreter).
    import deckquest.systems as systems

    systems.load_all()
    return systems


def __getattr__(name: str):
    if name == "systems":  # imported on first use, every game system loaded
        return _systems()
    raise AttributeError(f"module 'deckquest' has no attribute {name!r}")
