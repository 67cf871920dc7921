"""The test suite's small mystery title: 3 reels x 3 rows, a wild, a paying scatter and a
mystery symbol on every reel that turns into a bird, a fish or the wild (one draw a spin). It
pays by three paylines (``evaluator="lines"``), every way (``"ways"``) or by count anywhere
(``"anywhere"``); ``free_spins=True`` adds free spins (three stars) whose mysteries draw
from their own table, richer in wilds."""

from __future__ import annotations

from pathlib import Path

HEAD = """\
id = "mystery-test"
name = "Mystery Test"
reels = 3
rows = 3
default_variant = "main"
"""

SYMBOLS = """
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

[[symbols]]
id = "mystery"
name = "Mystery"
role = "bonus"

[scatter]
symbol = "star"
pays = { 3 = 2 }

[mystery]
symbol = "mystery"
reveal = { bird = 3, fish = 5, wild = 1 }
"""

LINES = """paylines = [[1, 1, 1], [0, 0, 0], [2, 2, 2]]
"""
LINE_PAYS = """
[line_pays]
wild = { 3 = 10 }
bird = { 3 = 4 }
fish = { 3 = 2 }

[bet]
lines = { min = 3, max = 3 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 6
default = { lines = 3, coins_per_line = 1, coin_size = "0.01" }
"""

WAYS = """
[ways]
cost = 10

[ways_pays]
wild = { 3 = 10 }
bird = { 3 = 2 }
fish = { 3 = 1 }

[bet]
lines = { min = 10, max = 10 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 20
default = { lines = 10, coins_per_line = 1, coin_size = "0.01" }
"""

ANYWHERE = """
[anywhere]
cost = 10

[anywhere_pays]
bird = { 5 = 5, "6+" = 20 }
fish = { 5 = 2, 6 = 6, "7+" = 30 }

[bet]
lines = { min = 10, max = 10 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01", "0.10"]
max_total_coins = 20
default = { lines = 10, coins_per_line = 1, coin_size = "0.01" }
"""

FREE_SPINS = """
[free_spins]
trigger = 3
spins = { 3 = 3 }
retrigger = "table"
retrigger_spins = { 3 = 1 }
multiplier = 1
"""
FREE_TABLE = "free_spins_reveal = { bird = 2, wild = 1 }\n"

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "wild", "fish", "star", "mystery", "fish", "bird"],
  ["mystery", "bird", "fish", "bird", "star", "fish"],
  ["fish", "bird", "mystery", "mystery", "star", "fish", "wild"],
]

[figures]
rtp = 1.0
"""


def mystery_title(
    folder: Path, *, evaluator: str = "lines", free_spins: bool = False, extra: str = ""
) -> Path:
    """Write the title into ``folder`` (its ``rtp`` figure a placeholder: the tests read the
    exact figures, not the stored one); ``extra`` is added to ``[mystery]``'s table."""
    (folder / "variants").mkdir(parents=True)
    symbols = SYMBOLS.replace("reveal = {", extra + "reveal = {", 1) if extra else SYMBOLS
    if free_spins:
        symbols = symbols.replace("reveal = {", FREE_TABLE + "reveal = {", 1)
    pays = {"lines": LINE_PAYS, "ways": WAYS, "anywhere": ANYWHERE}[evaluator]
    model = HEAD + (LINES if evaluator == "lines" else "") + symbols + pays
    if free_spins:
        model += FREE_SPINS
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(VARIANT, encoding="utf-8")
    return folder
