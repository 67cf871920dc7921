"""The statistics of the RNG tests: chi-square goodness of fit, a serial pairs test and the
lag-1 serial correlation, with their p-values.

p-values come from ``scipy.stats`` when it is installed; otherwise from the regularized upper
incomplete gamma function computed here (series and continued fraction, as in Numerical
Recipes), and the normal tail from ``math.erfc``. A test checks both agree where scipy exists.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def _gammaincc(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a), the regularized upper incomplete gamma function."""
    if x <= 0:
        return 1.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series for P(a, x), then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(100_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # Lentz's continued fraction for Q(a, x)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom."""
    try:
        from scipy.stats import chi2
    except ImportError:  # pragma: no cover - scipy is usually there
        return _gammaincc(dof / 2, statistic / 2)
    return float(chi2.sf(statistic, dof))


def chi2_sf_own(statistic: float, dof: int) -> float:
    return _gammaincc(dof / 2, statistic / 2)


def normal_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class Result:
    name: str
    statistic: float
    dof: int
    p: float


def uniformity(draws: np.ndarray, bound: int, name: str) -> Result:
    """Chi-square test that every value in [0, bound) is equally frequent."""
    counts = np.bincount(draws, minlength=bound).astype(np.float64)
    if len(counts) != bound:
        raise ValueError(f"{name}: a draw at or above {bound}")
    expected = len(draws) / bound
    statistic = float(((counts - expected) ** 2 / expected).sum())
    return Result(f"{name} frequencies", statistic, bound - 1, chi2_sf(statistic, bound - 1))


def serial_pairs(draws: np.ndarray, bound: int, name: str, bins: int = 16) -> Result:
    """Chi-square test of non-overlapping consecutive pairs (x[2i], x[2i+1]) over ``bins`` x
    ``bins`` cells: consecutive draws must be independent. Values fall in bins by
    ``v * bins // bound``, and each cell's expectation is computed exactly from how many values
    fall in each bin, so unequal bins are fine."""
    width = np.bincount(np.arange(bound) * bins // bound, minlength=bins) / bound
    pairs = draws[: len(draws) // 2 * 2].reshape(-1, 2)
    cells = (pairs[:, 0] * bins // bound) * bins + pairs[:, 1] * bins // bound
    counts = np.bincount(cells, minlength=bins * bins).astype(np.float64)
    expected = np.outer(width, width).ravel() * len(pairs)
    statistic = float(((counts - expected) ** 2 / expected).sum())
    dof = bins * bins - 1
    return Result(f"{name} serial pairs", statistic, dof, chi2_sf(statistic, dof))


def serial_correlation(draws: np.ndarray, name: str, lag: int = 1) -> Result:
    """Lag-``lag`` serial correlation coefficient r; under independence r * sqrt(n) is close
    to standard normal."""
    x = draws.astype(np.float64)
    x -= x.mean()
    r = float((x[:-lag] * x[lag:]).sum() / (x * x).sum())
    z = r * math.sqrt(len(x))
    return Result(f"{name} lag-{lag} correlation r={r:+.5f}", z, 0, normal_two_sided(z))
