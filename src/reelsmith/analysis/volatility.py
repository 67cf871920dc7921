"""Volatility classes of the math lab, by the standard deviation of a whole round per unit bet.

There is no industry standard for the names. The bands span what the shipped kinds of game
reach: a lines game with free spins and reveals (standard deviation about 5.2: frequent small
line wins, the free spins carrying the variance) is medium-high and can be tuned into every
band at the usual RTPs (from about 3.8 to above 10); a game with must-hit-by pots up to a few
thousand bets is high, the pots alone keeping it above 11.
"""

from __future__ import annotations

import math

#: (name, lowest standard deviation, first standard deviation above) per class, in order.
VOLATILITY_CLASSES: tuple[tuple[str, float, float], ...] = (
    ("low", 0.0, 4.0),
    ("medium", 4.0, 5.0),
    ("medium-high", 5.0, 10.0),
    ("high", 10.0, math.inf),
)
VOLATILITIES: tuple[str, ...] = tuple(name for name, _, _ in VOLATILITY_CLASSES)

#: Two-sided normal quantiles of the volatility index (z x standard deviation) and of the
#: RTP's confidence band.
Z_90 = 1.6448536269514722
Z_95 = 1.959963984540054
#: Rounds after which the reports print the RTP's 95% band.
CONFIDENCE_SPINS = (10**3, 10**4, 10**5, 10**6, 10**7, 10**8)


def volatility_class(std_dev: float) -> str:
    """The class of a standard deviation per unit bet."""
    for name, low, high in VOLATILITY_CLASSES:
        if low <= std_dev < high:
            return name
    raise ValueError(f"no volatility class for standard deviation {std_dev}")


def describe_classes() -> str:
    """The bands in one line, for reports: 'low < 4, medium < 5, medium-high < 10, high'."""
    parts = [f"{name} < {high:g}" for name, _, high in VOLATILITY_CLASSES if high != math.inf]
    return ", ".join([*parts, VOLATILITY_CLASSES[-1][0]])
