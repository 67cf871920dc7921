"""The test suite's title with bet modes: 3 reels x 3 rows, three paylines always played (3
coins a spin at one coin per payline), a wild, a paying scatter whose two or more start free
spins on their own reels (retriggered), an ante at 1.25 bets whose base reels carry one more
star, and a feature bought for 3.8 bets that starts the free spins as three stars would. Exact
RTPs: base 92.30%, ante 93.67%, buy 94.42%. Small enough for live play to simulate every mode
in a test."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
id = "moded"
name = "Moded"
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
id = "leaf"
name = "Leaf"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[line_pays]
wild = { 3 = 40 }
bird = { 3 = 8 }
fish = { 3 = 3 }
leaf = { 3 = 2 }

[scatter]
symbol = "star"
pays = { 2 = 1, 3 = 4 }

[free_spins]
trigger = 2
spins = { 2 = 3, 3 = 5 }
retrigger = "table"
retrigger_spins = { 2 = 1, 3 = 2 }
reel_set = "free_spins"

[bet]
lines = { min = 3, max = 3 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.20","1.00"]
max_total_coins = 6
default = { lines = 3, coins_per_line = 1, coin_size = "0.20" }

[modes]
rtp_tolerance = {tolerance}

[modes.ante]
kind = "ante"
price = 1.25
reel_set = "ante"

[modes.buy]
kind = "buy"
price = 3.8
triggers = 3
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird","fish","leaf","wild","leaf","fish","star","leaf","bird","fish","leaf","leaf","fish","leaf"],
  ["leaf","wild","bird","fish","leaf","bird","star","fish","leaf","fish","leaf","leaf","bird"],
  ["fish","leaf","bird","wild","leaf","bird","leaf","fish","leaf","fish","bird","leaf","star","leaf"],
]

[reel_sets.ante]
strips = [
  ["bird","fish","leaf","wild","leaf","fish","star","leaf","bird","fish","leaf","leaf","fish","star"],
  ["leaf","wild","bird","fish","leaf","bird","star","fish","leaf","fish","leaf","leaf","bird"],
  ["fish","leaf","bird","wild","leaf","bird","leaf","fish","leaf","fish","bird","leaf","star","leaf"],
]

[reel_sets.free_spins]
strips = [
  ["bird","wild","fish","leaf","bird","star","fish","leaf","leaf","fish"],
  ["wild","bird","fish","leaf","fish","star","fish","leaf","leaf","leaf"],
  ["fish","bird","leaf","bird","fish","wild","fish","leaf","leaf","leaf"],
]

[figures]
rtp = {rtp}
"""


def moded_title(folder: Path, *, rtp: str = "0.95", tolerance: str = "3", mode: str = "") -> Path:
    """Write the title into ``folder``: ``rtp`` its stated figure, ``tolerance`` the modes' RTP
    tolerance in percentage points, ``mode`` TOML appended to the model (a further mode, or a
    change the test makes)."""
    (folder / "variants").mkdir(parents=True)
    model = MODEL.replace("{tolerance}", tolerance) + mode
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(VARIANT.replace("{rtp}", rtp), encoding="utf-8")
    return folder
