"""The test suite's small capped title: 3 reels x 3 rows, three paylines always played (3 coins
a spin at one coin per payline), a wild, a paying scatter and a cap of 10 x the total bet (30
coins at one coin a payline) that one spin in a few dozen reaches: a line of wilds pays it alone,
two lines of birds together. ``free_spins=True`` adds free spins (two stars or more), whose
round law the lab composes by Wald's identities and so does not carry whole."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
id = "capped"
name = "Capped"
reels = 3
rows = 3
default_variant = "main"
paylines = [[1, 1, 1], [0, 0, 0], [2, 2, 2]]

[[symbols]]
id = "wild"
name = "Wild"
role = "wild"

[[symbols]]
id = "bird"
name = "Bird"
role = "regular"

[[symbols]]
id = "fish"
name = "Fish"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[line_pays]
wild = { 3 = 30 }
bird = { 3 = 15 }
fish = { 2 = 1, 3 = 6 }

[scatter]
symbol = "star"
pays = { 2 = 1, 3 = 4 }

[max_win]
multiplier = 10

[bet]
lines = { min = 3, max = 3 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 6
default = { lines = 3, coins_per_line = 1, coin_size = "0.01" }
"""

FREE_SPINS = """
[free_spins]
trigger = 2
spins = { 2 = 3, 3 = 5 }
retrigger = "table"
retrigger_spins = { 2 = 1, 3 = 2 }
multiplier = 2
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "wild", "fish", "star", "bird", "fish", "bird"],
  ["wild", "bird", "fish", "bird", "star", "fish"],
  ["fish", "bird", "wild", "bird", "star", "fish", "wild"],
]

[figures]
rtp = {rtp}
"""


def capped_title(
    folder: Path, *, free_spins: bool = False, multiplier: int = 10, rtp: str = "1.0"
) -> Path:
    """Write the title into ``folder`` (its ``rtp`` figure a placeholder: the tests read the
    exact figures, not the stored one)."""
    (folder / "variants").mkdir(parents=True)
    model = MODEL.replace("multiplier = 10", f"multiplier = {multiplier}")
    if free_spins:
        model += FREE_SPINS
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(VARIANT.format(rtp=rtp), encoding="utf-8")
    return folder
