"""The test suite's hold-and-spin titles.

``hold_title``: a lines game of 5 reels x 3 rows, five paylines always played (5 coins a spin at
one coin per payline), a wild, and coins that start the hold-and-spin when six or more show
anywhere: three respins, each empty cell landing a coin one time in 25, coins worth 2 to 50
total bets or a mini or minor jackpot, a grand for a full grid. ``tiny_hold_title``: the same
on 3 reels x 2 rows (four coins trigger) with two respins and small weights, small enough to
play every draw of every round through live play. ``coins_hold_title`` and
``tiny_coins_title``: the same two titles with collector and multiplier coins among the values
(``COINS_VALUES`` / ``TINY_COINS_VALUES``), the multipliers multiplied together or added up;
the tiny one triggers on five coins of its six cells and plays one respin, so that every draw
of every round stays few enough to play live."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
id = "hold"
name = "Hold"
reels = 5
rows = 3
default_variant = "main"
paylines = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2]]

[[symbols]]
id = "wild"
name = "Wild"
role = "wild"

[[symbols]]
id = "bell"
name = "Bell"
role = "regular"

[[symbols]]
id = "plum"
name = "Plum"
role = "regular"

[[symbols]]
id = "lime"
name = "Lime"
role = "regular"

[[symbols]]
id = "coin"
name = "Coin"
role = "bonus"

[line_pays]
wild = { 5 = 50 }
bell = { 3 = 5, 4 = 15, 5 = 40 }
plum = { 3 = 2, 4 = 6, 5 = 20 }
lime = { 3 = 1, 4 = 3, 5 = 10 }

[hold_and_spin]
symbol = "coin"
trigger = 6
respins = 3
land = { coin = 1, blank = 24 }
values = { 2 = 40, 5 = 25, 10 = 15, 20 = 10, 50 = 5, mini = 4, minor = 1 }
full_grid = "grand"
jackpots = { mini = 20, minor = 50, major = 250, grand = 1000 }

[bet]
lines = { min = 5, max = 5 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 10
default = { lines = 5, coins_per_line = 1, coin_size = "0.01" }
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bell", "coin", "plum", "lime", "wild", "lime", "plum", "lime", "bell", "lime", "plum", "coin"],
  ["plum", "coin", "lime", "bell", "plum", "lime", "plum", "wild", "lime", "plum", "lime"],
  ["lime", "coin", "bell", "plum", "lime", "wild", "lime", "plum", "bell", "lime", "coin", "plum"],
  ["bell", "lime", "coin", "plum", "lime", "plum", "wild", "plum", "lime", "bell", "lime"],
  ["lime", "coin", "plum", "bell", "lime", "plum", "wild", "lime", "bell", "plum", "lime", "coin"],
]

[figures]
rtp = {rtp}
"""

TINY_MODEL = """\
id = "tiny-hold"
name = "Tiny Hold"
reels = 3
rows = 2
default_variant = "main"
paylines = [[0, 0, 0], [1, 1, 1]]

[[symbols]]
id = "bell"
name = "Bell"
role = "regular"

[[symbols]]
id = "coin"
name = "Coin"
role = "bonus"

[line_pays]
bell = { 3 = 3 }

[hold_and_spin]
symbol = "coin"
trigger = 4
respins = 2
land = { coin = 1, blank = 1 }
values = { 3 = 1, mini = 1 }
full_grid = "grand"
jackpots = { mini = 10, grand = 50 }

[bet]
lines = { min = 2, max = 2 }
coins_per_line = { min = 1, max = 1 }
coin_sizes = ["0.01"]
max_total_coins = 2
default = { lines = 2, coins_per_line = 1, coin_size = "0.01" }
"""

TINY_VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bell", "coin", "coin"],
  ["coin", "bell", "coin"],
  ["coin", "coin", "bell"],
]

[figures]
rtp = {rtp}
"""


#: The 5x3 title's values with collectors and x2 / x5 multiplier coins.
COINS_VALUES = (
    "values = { 2 = 40, 5 = 25, 10 = 15, 20 = 10, 50 = 5, mini = 4, minor = 1, collect = 6, "
    "x2 = 5, x5 = 1 }"
)
#: The tiny title's: a plain value, a jackpot, a collector and an x3 multiplier.
TINY_COINS_VALUES = "values = { 2 = 1, mini = 1, collect = 1, x3 = 1 }"


def coins_model(*, sum_mode: bool = False) -> str:
    """The 5x3 model with collectors and multipliers (``sum_mode``: they add up)."""
    values = "values = { 2 = 40, 5 = 25, 10 = 15, 20 = 10, 50 = 5, mini = 4, minor = 1 }"
    assert values in MODEL
    text = MODEL.replace(values, COINS_VALUES).replace('id = "hold"', 'id = "coins-hold"', 1)
    return text.replace("respins = 3\n", 'respins = 3\nmultipliers = "sum"\n') if sum_mode else text


def tiny_coins_model(*, sum_mode: bool = False) -> str:
    """The tiny model with collectors and multipliers: five coins trigger, one respin."""
    text = TINY_MODEL.replace('id = "tiny-hold"', 'id = "tiny-coins"', 1)
    for old, new in (
        ("values = { 3 = 1, mini = 1 }", TINY_COINS_VALUES),
        ("trigger = 4", "trigger = 5"),
        ("respins = 2", 'respins = 1\nmultipliers = "sum"' if sum_mode else "respins = 1"),
    ):
        assert old in text
        text = text.replace(old, new, 1)
    return text


def _write(folder: Path, model: str, variant: str, rtp: str) -> Path:
    (folder / "variants").mkdir(parents=True)
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(variant.replace("{rtp}", rtp), encoding="utf-8")
    return folder


def hold_title(folder: Path, *, model: str = MODEL, rtp: str = "1.0") -> Path:
    """Write the 5x3 title into ``folder`` (``model``: its model text, changed by a test;
    ``rtp`` a placeholder the tests compare with the exact figure, never the other way)."""
    return _write(folder, model, VARIANT, rtp)


def tiny_hold_title(folder: Path, *, rtp: str = "1.0") -> Path:
    """Write the 2x2 title into ``folder``."""
    return _write(folder, TINY_MODEL, TINY_VARIANT, rtp)


def coins_hold_title(folder: Path, *, sum_mode: bool = False, rtp: str = "1.0") -> Path:
    """Write the 5x3 title with collectors and multipliers into ``folder``."""
    return _write(folder, coins_model(sum_mode=sum_mode), VARIANT, rtp)


def tiny_coins_title(folder: Path, *, sum_mode: bool = False, rtp: str = "1.0") -> Path:
    """Write the tiny title with collectors and multipliers into ``folder``."""
    return _write(folder, tiny_coins_model(sum_mode=sum_mode), TINY_VARIANT, rtp)
