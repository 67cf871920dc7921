"""The test suite's small sticky-wild title: 3 reels x 2 rows, 4 paylines, a wild that sticks
in free spins on reels 2 and 3 (a wild on reel 1 pays but does not stick), a scatter (stars,
three paying 2) whose two start 3 free spins (4 for three), retriggered by one more spin for
two stars, at most 5 spins a feature, on their own reel set and paid double. The free spins'
wild lands on 4 window positions: the chain has 16 sets of stuck cells."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
id = "sticky-test"
name = "Sticky Test"
reels = 3
rows = 2
default_variant = "main"
paylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0], [1, 0, 1]]

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
id = "ten"
name = "Ten"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[scatter]
symbol = "star"
pays = { 3 = 2 }

[line_pays]
wild = { 3 = 3 }
bird = { 3 = 2 }
fish = { 3 = 2 }
ten = { 3 = 1 }

[bet]
lines = { min = 1, max = 4 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 8
default = { lines = 4, coins_per_line = 1, coin_size = "0.01" }

[free_spins]
trigger = 2
spins = { 2 = 3, 3 = 4 }
retrigger = "table"
retrigger_spins = { 2 = 1 }
max_spins = 5
multiplier = 2
reel_set = "free"

[sticky_wilds]
reels = [2, 3]
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "star", "fish", "ten", "wild", "ten", "fish", "bird"],
  ["ten", "bird", "fish", "star", "ten", "fish", "bird"],
  ["fish", "bird", "ten", "star", "wild", "bird", "ten", "fish"],
]

[reel_sets.free]
strips = [
  ["bird", "wild", "fish", "star"],
  ["ten", "bird", "wild", "fish"],
  ["fish", "star", "ten", "wild"],
]

[figures]
rtp = 1.0
"""


def sticky_title(folder: Path, *, replace: tuple[str, str] | None = None) -> Path:
    """Write the title into ``folder`` (its ``rtp`` figure a placeholder: the tests read the
    exact figures); ``replace`` changes the model text once (old, new)."""
    (folder / "variants").mkdir(parents=True)
    model = MODEL
    if replace is not None:
        assert replace[0] in model, replace[0]
        model = model.replace(replace[0], replace[1], 1)
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(VARIANT, encoding="utf-8")
    return folder
