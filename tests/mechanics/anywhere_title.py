"""A small pay-anywhere test title: three reels of three rows, symbols paid by their count on
the window (tiers ``4``, ``5-6``, ``7+``), a wild on reels 2 and 3 counting for every symbol
and paying on its own count, a scatter paid per coin that starts free spins at a multiplier,
and, as an option, cascades with a multiplier per screen."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
id = "tiny-anywhere"
name = "Tiny Anywhere"
reels = 3
rows = 3
default_variant = "main"

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

[anywhere]
cost = 10

[anywhere_pays]
bird = { 4 = 2, 5 = 5, "6+" = 20 }
fish = { 4 = 1, "5-6" = 3, "7+" = 10 }
leaf = { "5+" = 2 }
wild = { "3+" = 50 }

[wild]
symbol = "wild"
reels = [2, 3]

[scatter]
symbol = "star"
pays = { 2 = 5, 3 = 20 }
pays_per = "coin"
max_per_reel = 1

[free_spins]
trigger = 2
spins = { 2 = 2, 3 = 3 }
retrigger = "table"
retrigger_spins = { 3 = 1 }
multiplier = 2
reel_set = "base"

[bet]
lines = { min = 10, max = 10 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01"]
max_total_coins = 20
default = { lines = 10, coins_per_line = 1, coin_size = "0.01" }
"""

CASCADE = """
[cascade]
limit = 4
multipliers = [1, 2, 3, 3]
free_multipliers = [1, 2, 3, 3]
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "fish", "star", "leaf", "bird", "leaf", "fish", "bird"],
  ["wild", "bird", "fish", "leaf", "star", "bird", "fish", "leaf", "bird"],
  ["fish", "bird", "leaf", "wild", "star", "bird", "fish"],
]

[figures]
rtp = {rtp}
"""


def tiny_anywhere(folder: Path, cascade: bool = False, rtp: str = "1.0") -> Path:
    """The title in ``folder`` (with cascades where ``cascade``), its variant ``main`` stating
    ``rtp``."""
    folder.mkdir(parents=True, exist_ok=True)
    model = MODEL + (CASCADE if cascade else "")
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants").mkdir(exist_ok=True)
    (folder / "variants" / "main.toml").write_text(VARIANT.replace("{rtp}", rtp), encoding="utf-8")
    return folder
