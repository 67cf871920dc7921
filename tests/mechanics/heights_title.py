"""The test suite's titles of variable rows (``[heights]``).

``tiny_heights``: 3 reels of 1 to 3 rows drawn per spin, ways with a wild of weight 2 on the
middle reel and a minimum run of 2, a per-coin scatter that starts free spins (with a trigger
multiplier and a wild weight drawn per free spin): small enough to play every position of every
reel through live play. ``tumble_heights``: 6 reels of 2 to 7 rows (up to 117,649 ways, 130
coins a spin) with a wild, a scatter and free spins on their own reels, as a studio's
variable-rows game is built."""

from __future__ import annotations

from pathlib import Path

TINY_MODEL = """\
id = "tiny-heights"
name = "Tiny Heights"
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
id = "star"
name = "Star"
role = "scatter"

[heights]
reels = [{ 1 = 1, 2 = 2, 3 = 1 }, { 2 = 3, 3 = 1 }, { 1 = 2, 3 = 1 }]

[ways]
cost = 10
min_run = 2
wild_weights = [1, 2, 1]

[ways.free_spins_wild_weights]
"3" = { 1 = 1, 3 = 1 }

[ways_pays]
bird = { 2 = 1, 3 = 5 }
fish = { 2 = 1, 3 = 2 }

[scatter]
symbol = "star"
pays = { 2 = 2, 3 = 20 }
pays_per = "coin"

[free_spins]
trigger = 2
spins = { 2 = 3, 3 = 5 }
retrigger = "none"
multipliers = { 2 = 2, 3 = 3 }

[bet]
lines = { min = 10, max = 10 }
coins_per_line = { min = 1, max = 3 }
coin_sizes = ["0.01"]
max_total_coins = 30
default = { lines = 10, coins_per_line = 1, coin_size = "0.01" }
"""

TINY_VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "fish", "star", "wild", "bird"],
  ["wild", "bird", "star", "fish", "fish", "bird"],
  ["fish", "bird", "wild", "star"],
]

[figures]
rtp = 5.486143
"""

BIG_MODEL = """\
id = "tumble-heights"
name = "Tumble Heights"
reels = 6
rows = 7
default_variant = "main"

[[symbols]]
id = "wild"
name = "Wild"
role = "wild"

[[symbols]]
id = "crown"
name = "Crown"
role = "regular"

[[symbols]]
id = "ring"
name = "Ring"
role = "regular"

[[symbols]]
id = "cup"
name = "Cup"
role = "regular"

[[symbols]]
id = "ace"
name = "Ace"
role = "regular"

[[symbols]]
id = "king"
name = "King"
role = "regular"

[[symbols]]
id = "ten"
name = "Ten"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[heights]
reels = [
  { 2 = 1, 3 = 3, 4 = 4, 5 = 3, 6 = 2, 7 = 1 },
  { 2 = 1, 3 = 3, 4 = 4, 5 = 3, 6 = 2, 7 = 1 },
  { 2 = 1, 3 = 3, 4 = 4, 5 = 3, 6 = 2, 7 = 1 },
  { 2 = 1, 3 = 3, 4 = 4, 5 = 3, 6 = 2, 7 = 1 },
  { 2 = 1, 3 = 3, 4 = 4, 5 = 3, 6 = 2, 7 = 1 },
  { 2 = 1, 3 = 3, 4 = 4, 5 = 3, 6 = 2, 7 = 1 },
]

[ways]
cost = 130
min_run = 3

[ways_pays]
crown = { 3 = 10, 4 = 25, 5 = 50, 6 = 100 }
ring = { 3 = 5, 4 = 10, 5 = 25, 6 = 50 }
cup = { 3 = 4, 4 = 8, 5 = 15, 6 = 30 }
ace = { 3 = 2, 4 = 4, 5 = 8, 6 = 15 }
king = { 3 = 1, 4 = 3, 5 = 6, 6 = 10 }
ten = { 3 = 1, 4 = 2, 5 = 4, 6 = 8 }

[scatter]
symbol = "star"
pays = { 4 = 2, 5 = 10, 6 = 100 }

[free_spins]
trigger = 4
spins = { 4 = 8, 5 = 12, 6 = 20 }
retrigger = "table"
reel_set = "free"

[bet]
lines = { min = 130, max = 130 }
coins_per_line = { min = 1, max = 10 }
coin_sizes = ["0.01", "0.05"]
max_total_coins = 1300
default = { lines = 130, coins_per_line = 1, coin_size = "0.01" }
"""

_BASE = [
    "crown ace king ten ring star ace ten cup king wild ten ace king ring cup ten ace king crown "
    "ten cup ace king ring ten",
    "ring king ten ace cup wild king ten ace star crown ten king cup ace ring ten king ace cup "
    "king ten ring ace",
    "cup ten ace king crown ring ten king ace cup star ten wild ace king ten ring cup ace ten "
    "king crown ace ten",
    "ace king ten cup ring ace wild ten king crown star ace ten cup king ring ace ten king cup "
    "ten ace ring king",
    "king ace cup ten crown king ring ace star ten cup king ace wild ten ring king ace cup ten "
    "crown king ace",
    "ten ring king ace cup ten crown king star ace ten ring cup king wild ace ten king cup ring "
    "ace ten king",
]
_FREE = [
    "crown ace king wild ten ring star ace ten cup king wild ten ace ring cup ten ace crown",
    "ring king wild ten ace cup wild king star crown ten king cup ace ring wild king ace cup",
    "cup ten ace wild crown ring ten king star cup ten wild ace king ring cup ace crown",
    "ace king wild cup ring ace wild ten king star crown ace ten cup king ring ace ten",
    "king ace cup wild crown king ring ace star ten cup king wild ten ring king ace cup",
    "ten ring wild ace cup ten crown king star ace ten ring cup king wild ace ten king",
]


def _strips(rows: list[str]) -> str:
    return (
        "[\n"
        + "".join("  [" + ", ".join(f'"{s}"' for s in row.split()) + "],\n" for row in rows)
        + "]"
    )


def write(folder: Path, model: str, variant: str) -> Path:
    (folder / "variants").mkdir(parents=True)
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(variant, encoding="utf-8")
    return folder


def tiny_heights(folder: Path, model: str = TINY_MODEL) -> Path:
    return write(folder, model, TINY_VARIANT)


def tumble_heights(folder: Path) -> Path:
    variant = (
        'id = "main"\n\n[reel_sets.base]\nstrips = '
        + _strips(_BASE)
        + "\n\n[reel_sets.free]\nstrips = "
        + _strips(_FREE)
        + "\n\n[figures]\nrtp = 0.947108\n"
    )
    return write(folder, BIG_MODEL, variant)


def tumble_ways(folder: Path) -> Path:
    """``tumble_heights`` on a fixed window of 3 rows (729 ways) at 13 coins a spin: a ways
    title whose full cycle (190,135,296 base combinations) the lab enumerates."""
    start, end = BIG_MODEL.index("[heights]"), BIG_MODEL.index("[ways]")
    model = (BIG_MODEL[:start] + BIG_MODEL[end:]).replace("rows = 7", "rows = 3")
    model = model.replace('id = "tumble-heights"', 'id = "tumble-ways"')
    model = model.replace('name = "Tumble Heights"', 'name = "Tumble Ways"')
    model = model.replace("{ min = 130, max = 130 }", "{ min = 13, max = 13 }")
    model = model.replace("cost = 130", "cost = 13").replace("lines = 130,", "lines = 13,")
    model = model.replace("max_total_coins = 1300", "max_total_coins = 130")
    variant = (
        'id = "main"\n\n[reel_sets.base]\nstrips = '
        + _strips(_BASE)
        + "\n\n[reel_sets.free]\nstrips = "
        + _strips(_FREE)
        + "\n\n[figures]\nrtp = 0.960417\n"
    )
    return write(folder, model, variant)
