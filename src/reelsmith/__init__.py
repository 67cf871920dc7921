"""reelsmith: slot titles to the letter of their rules, with the mathematics that proves them."""

__version__ = "0.1.0"
