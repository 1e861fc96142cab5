"""Small statistics for batch runs: intervals and percentiles, no dependencies."""

from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 and n
    successes, which is where a GM's "never" and "always" endings live.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - margin)  # exact ends, no rounding dust
    high = 1.0 if successes >= trials else min(1.0, centre + margin)
    return (low, high)


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The value at `fraction` (0..1) of sorted data, interpolating linearly."""
    if not sorted_values:
        return 0.0
    position = (len(sorted_values) - 1) * fraction
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    weight = position - low
    return sorted_values[low] * (1 - weight) + sorted_values[high] * weight


def histogram_percentile(counts: dict[int, int], fraction: float) -> float:
    """`percentile` over data given as {value: count}, without expanding it."""
    total = sum(counts.values())
    if total == 0:
        return 0.0
    rank = (total - 1) * fraction
    low_rank, high_rank = math.floor(rank), math.ceil(rank)
    low = high = None
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if low is None and seen > low_rank:
            low = value
        if seen > high_rank:
            high = value
            break
    weight = rank - low_rank
    return low * (1 - weight) + high * weight


def histogram_mean(counts: dict[int, int]) -> float:
    total = sum(counts.values())
    return sum(value * count for value, count in counts.items()) / total if total else 0.0
