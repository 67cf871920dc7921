"""Volatility classes of the math lab, by the standard deviation of a whole round per unit bet.

There is no industry standard for the names. These bands follow how the titles are described:
Days of the Tsar (standard deviation about 5.2: frequent small line wins, and free spins whose
egg reveals and Tsars carry the variance) is medium-high; Sultan Spins (about 12: the
must-hit-by pots up to 5000x alone keep it above 11) is high. Each band is reachable by tuning
Days of the Tsar at the usual RTPs (its lowest reachable deviation is about 3.8, its highest
above 10); Sultan Spins can only be high.
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
