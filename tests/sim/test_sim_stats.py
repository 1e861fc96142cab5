"""Wilson intervals and percentiles of the report (sim/stats.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckquest.sim.stats import histogram_percentile, percentile, wilson_interval


def test_wilson_known_value():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_wilson_at_never_and_always():
    assert wilson_interval(0, 100)[0] == 0.0 and wilson_interval(0, 100)[1] > 0
    assert wilson_interval(100, 100)[1] == 1.0 and wilson_interval(100, 100)[0] < 1
    assert wilson_interval(0, 0) == (0.0, 1.0)


@given(st.dictionaries(st.integers(-5, 40), st.integers(1, 6), min_size=1), st.floats(0, 1))
def test_histogram_percentile_equals_expanded(counts, fraction):
    expanded = sorted(value for value, n in counts.items() for _ in range(n))
    assert histogram_percentile(counts, fraction) == pytest.approx(percentile(expanded, fraction))
