"""Batch simulation, statistics, exact odds and reports.

``simulate`` is imported lazily, so importing the package does not pull in the
interpreter and the report code. (The exact odds are the engine's: ``deckquest.engine.odds``.)
"""

from __future__ import annotations


def simulate(script, runs: int = 2000, seed: int = 0, jobs: int | None = None, **options):
    """Play ``runs`` seeded runs of ``script``; see ``deckquest.sim.batch.simulate``."""
    from deckquest.sim.batch import simulate as run_batch

    return run_batch(script, runs, seed, jobs, **options)


__all__ = ["simulate"]
