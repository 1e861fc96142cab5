"""Batch simulation, statistics, exact odds and reports.

``simulate`` is imported lazily, so ``import deckquest.sim.odds`` (the `odds` command)
does not pull in the interpreter and the report code.
"""

from __future__ import annotations


def simulate(script, runs: int = 2000, seed: int = 0, jobs: int | None = None, **options):
    """Play ``runs`` seeded runs of ``script``; see ``deckquest.sim.batch.simulate``."""
    from deckquest.sim.batch import simulate as run_batch

    return run_batch(script, runs, seed, jobs, **options)


__all__ = ["simulate"]
