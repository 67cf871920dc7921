"""The test suite's titles whose cells are drawn one by one (``[cells]``).

``tiny_cells``: 3 reels x 2 rows paid on three paylines, a wild, a scatter whose two or more
start free spins (retriggered by the table) on their own cell tables, one per reel: small
enough to play every window of every reel through live play (16 per reel, 4,096 screens).
``tiny_cells_ways`` and ``tiny_cells_anywhere`` are the same game paid by ways and by a count
anywhere. ``grand_cells``: 5 reels x 3 rows, 9 symbols (729 windows per reel) on 10 paylines at
94.42%, as a studio's cell-drawn game is built."""

from __future__ import annotations

from pathlib import Path

SYMBOLS = """\
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
"""

FEATURES = """\
[cells]

[scatter]
symbol = "star"
pays = { 2 = 1, 3 = 5 }

[free_spins]
trigger = 2
spins = { 2 = 3, 3 = 6 }
retrigger = "table"
retrigger_spins = { 2 = 1, 3 = 2 }
reel_set = "free"
multiplier = 2
"""

TINY_MODEL = (
    """\
id = "tiny-cells"
name = "Tiny Cells"
reels = 3
rows = 2
default_variant = "main"
paylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0]]

"""
    + SYMBOLS
    + """
[line_pays]
wild = { 3 = 20 }
bird = { 2 = 1, 3 = 6 }
fish = { 3 = 3 }

"""
    + FEATURES
    + """
[bet]
lines = { min = 3, max = 3 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01"]
max_total_coins = 6
default = { lines = 3, coins_per_line = 1, coin_size = "0.01" }
"""
)

TINY_VARIANT = """\
id = "main"

[reel_sets.base]
cells = { wild = 1, bird = 4, fish = 6, star = 2 }

[reel_sets.free]
cells = [
  { wild = 1, bird = 3, fish = 3, star = 1 },
  { wild = 2, bird = 3, fish = 4, star = 1 },
  { bird = 5, fish = 4, star = 1 },
]

[figures]
rtp = 4.201224
"""


def _cost(model: str, table: str, cost: int, pays: str) -> str:
    start, end = model.index("[line_pays]"), model.index("[cells]")
    model = model[:start] + f"[{table}]\ncost = {cost}\n\n[{table}_pays]\n" + pays + model[end:]
    model = model.replace("paylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0]]\n", "")
    return (
        model.replace("{ min = 3, max = 3 }", f"{{ min = {cost}, max = {cost} }}")
        .replace("lines = 3,", f"lines = {cost},")
        .replace("max_total_coins = 6", f"max_total_coins = {2 * cost}")
    )


WAYS_MODEL = _cost(
    TINY_MODEL.replace("tiny-cells", "tiny-cells-ways").replace("Tiny Cells", "Tiny Cells Ways"),
    "ways",
    8,
    "wild = { 3 = 20 }\nbird = { 2 = 1, 3 = 6 }\nfish = { 3 = 3 }\n\n",
)

ANYWHERE_MODEL = _cost(
    TINY_MODEL.replace("tiny-cells", "tiny-cells-anywhere").replace(
        "Tiny Cells", "Tiny Cells Anywhere"
    ),
    "anywhere",
    5,
    'bird = { 3 = 2, 4 = 4, "5+" = 20 }\nfish = { 4 = 2, "5+" = 10 }\n\n',
)

GRAND_MODEL = """\
id = "grand-cells"
name = "Grand Cells"
reels = 5
rows = 3
default_variant = "main"
paylines = [
  [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2], [2, 2, 1, 0, 0], [1, 0, 0, 0, 1], [1, 2, 2, 2, 1], [0, 1, 1, 1, 0],
]

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
id = "ace"
name = "Ace"
role = "regular"

[[symbols]]
id = "king"
name = "King"
role = "regular"

[[symbols]]
id = "queen"
name = "Queen"
role = "regular"

[[symbols]]
id = "jack"
name = "Jack"
role = "regular"

[[symbols]]
id = "ten"
name = "Ten"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[line_pays]
wild = { 3 = 50, 4 = 200, 5 = 1000 }
crown = { 3 = 30, 4 = 100, 5 = 500 }
ring = { 3 = 20, 4 = 60, 5 = 250 }
ace = { 3 = 10, 4 = 30, 5 = 120 }
king = { 3 = 8, 4 = 25, 5 = 100 }
queen = { 3 = 6, 4 = 20, 5 = 80 }
jack = { 3 = 5, 4 = 15, 5 = 60 }
ten = { 3 = 4, 4 = 12, 5 = 50 }

[cells]

[scatter]
symbol = "star"
pays = { 3 = 2, 4 = 10, 5 = 50 }

[free_spins]
trigger = 3
spins = { 3 = 8, 4 = 12, 5 = 20 }
retrigger = "table"
retrigger_spins = { 3 = 4, 4 = 6, 5 = 10 }
reel_set = "free"
multiplier = 2

[bet]
lines = { min = 10, max = 10 }
coins_per_line = { min = 1, max = 5 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 50
default = { lines = 10, coins_per_line = 1, coin_size = "0.01" }
"""

GRAND_VARIANT = """\
id = "main"

[reel_sets.base.cells]
wild = 4
crown = 4
ring = 6
ace = 9
king = 10
queen = 11
jack = 12
ten = 13
star = 3

[reel_sets.free.cells]
wild = 3
crown = 5
ring = 6
ace = 9
king = 10
queen = 11
jack = 12
ten = 13
star = 2

[figures]
rtp = 0.944164
"""


def write(folder: Path, model: str, variant: str) -> Path:
    (folder / "variants").mkdir(parents=True)
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(variant, encoding="utf-8")
    return folder


def tiny_cells(folder: Path, model: str = TINY_MODEL) -> Path:
    return write(folder, model, TINY_VARIANT)


def tiny_cells_ways(folder: Path) -> Path:
    return write(folder, WAYS_MODEL, TINY_VARIANT.replace("4.201224", "3.974325"))


def tiny_cells_anywhere(folder: Path) -> Path:
    return write(folder, ANYWHERE_MODEL, TINY_VARIANT.replace("4.201224", "3.714614"))


def grand_cells(folder: Path) -> Path:
    return write(folder, GRAND_MODEL, GRAND_VARIANT)
