"""Pearson's chi-square test of dice counts against equal odds, with an exact p-value.

The p-value is the chi-square distribution's survival function for a whole number of
degrees of freedom, in closed form (the regularised upper incomplete gamma function of
an integer or half-integer order is a finite sum), so no SciPy is needed and no
approximation enters. Terms are computed in log space so huge statistics give 0, not
overflow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi_square(counts: Sequence[int]) -> float:
    """Pearson's statistic of `counts` against every face being equally likely."""
    total = sum(counts)
    if len(counts) < 2 or total == 0:
        raise ValueError("a chi-square test needs at least two faces and one roll")
    expected = total / len(counts)
    return sum((n - expected) ** 2 for n in counts) / expected


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with `df` degrees of freedom (df >= 1).

    Q(k/2, x/2): for even k it is e^-y * sum_{i<k/2} y^i / i!; for odd k it is
    erfc(sqrt y) + e^-y * sum_{j<(k-1)/2} y^(j+1/2) / Gamma(j+3/2), with y = x/2.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    y = x / 2
    log_y = math.log(y)
    if df % 2 == 0:
        total = sum(math.exp(-y + i * log_y - math.lgamma(i + 1)) for i in range(df // 2))
    else:
        total = math.erfc(math.sqrt(y)) + sum(
            math.exp(-y + (j + 0.5) * log_y - math.lgamma(j + 1.5)) for j in range(df // 2)
        )
    return min(1.0, total)


def uniformity(counts: Sequence[int]) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of counts of a die's faces."""
    statistic = chi_square(counts)
    df = len(counts) - 1
    return statistic, df, chi_square_sf(statistic, df)
