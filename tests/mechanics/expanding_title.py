"""The test suite's small "book" title: 5 reels x 3 rows, 5 paylines, a wild, a paying scatter
(stars on reels 1, 3 and 5) that starts 4 free spins (2 more on a retrigger) on their own reel
set, paid double, and an expanding symbol drawn for them from bird, fish and ten (fish pays from
two symbols, so it may expand on two reels)."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
id = "expanding-test"
name = "Expanding Test"
reels = 5
rows = 3
default_variant = "main"
paylines = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2]]

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
wild = { 3 = 10, 4 = 40, 5 = 100 }
bird = { 3 = 5, 4 = 20, 5 = 50 }
fish = { 2 = 1, 3 = 4, 4 = 10, 5 = 25 }
ten = { 3 = 2, 4 = 5, 5 = 10 }

[bet]
lines = { min = 1, max = 5 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 10
default = { lines = 5, coins_per_line = 1, coin_size = "0.01" }

[free_spins]
trigger = 3
spins = { 3 = 4 }
retrigger = "table"
retrigger_spins = { 3 = 2 }
multiplier = 2
reel_set = "free"

[expanding]
symbols = { bird = 1, fish = 2, ten = 3 }
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "wild", "fish", "star", "ten", "fish"],
  ["ten", "bird", "fish", "bird", "ten"],
  ["fish", "bird", "ten", "star", "fish", "wild"],
  ["bird", "ten", "fish", "ten", "fish"],
  ["ten", "fish", "bird", "star", "ten", "bird"],
]

[reel_sets.free]
strips = [
  ["bird", "ten", "fish", "star", "ten"],
  ["fish", "bird", "ten", "wild", "ten"],
  ["ten", "bird", "fish", "star", "ten"],
  ["bird", "ten", "fish", "ten", "ten"],
  ["ten", "fish", "bird", "star", "ten"],
]

[figures]
rtp = 1.0
"""


def expanding_title(folder: Path, *, replace: tuple[str, str] | None = None) -> Path:
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
