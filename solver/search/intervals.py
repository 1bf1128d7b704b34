"""95% intervals of mean scores in [0, 1], for search answers and arena results alike."""

from __future__ import annotations

import math

__all__ = ["Z95", "score_interval", "wilson_interval"]

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def wilson_interval(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion `mean` observed over `n` trials."""
    if n <= 0:
        return (0.0, 1.0)
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(mean * (1 - mean), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def score_interval(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """95% interval of the mean of `n` scores with sum `total` and sum of squares `total_sq`.

    The wider of the normal interval (from the observed variance) and the
    Wilson interval of a proportion with that mean, so a handful of equal
    results never reads as certainty.
    """
    if n <= 0:
        return (0.0, 1.0)
    mean = total / n
    half = Z95 * math.sqrt(max(total_sq / n - mean * mean, 0.0) / n)
    low, high = wilson_interval(mean, n)
    return (min(max(0.0, mean - half), low), max(min(1.0, mean + half), high))
