"""The test suite's cascades on drawn cells (``[cascade] refill = "cells"``).

``cell_tumbles``: 3 reels x 2 rows paid by a count anywhere, every cell drawn from one table
(the free spins' own), a cascade of three screens with multipliers 1, 2, 3 (1, 2, 4 in free
spins), a scatter paying and starting free spins: its exact law is the Markov chain of its
counts. ``small_tumbles``: the same game whose cells never show the wild, small enough to
follow every refill of every chain through the live rule. ``cell_tumbles_lines``: the game
paid on three paylines, whose chains depend on where each new cell lands: no exact law,
simulated."""

from __future__ import annotations

from pathlib import Path

from tests.mechanics.cells_title import SYMBOLS, write

MODEL = (
    """\
id = "cell-tumbles"
name = "Cell Tumbles"
reels = 3
rows = 2
default_variant = "main"
"""
    + SYMBOLS
    + """
[anywhere]
cost = 5

[anywhere_pays]
bird = { 4 = 2, 5 = 6, 6 = 20 }
fish = { 5 = 2, 6 = 8 }

[cells]

[cascade]
limit = 3
multipliers = [1, 2, 3]
free_multipliers = [1, 2, 4]
refill = "cells"

[scatter]
symbol = "star"
pays = { 3 = 2 }

[free_spins]
trigger = 3
spins = { 3 = 4 }
retrigger = "table"
retrigger_spins = { 3 = 2 }
reel_set = "free"

[bet]
lines = { min = 5, max = 5 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01"]
max_total_coins = 10
default = { lines = 5, coins_per_line = 1, coin_size = "0.01" }
"""
)

VARIANT = """\
id = "main"

[reel_sets.base]
cells = { wild = 1, bird = 4, fish = 6, star = 2 }

[reel_sets.free]
cells = { wild = 2, bird = 4, fish = 5, star = 1 }

[figures]
rtp = RTP
"""

LINES_MODEL = (
    MODEL.replace("cell-tumbles", "cell-tumbles-lines")
    .replace("Cell Tumbles", "Cell Tumbles Lines")
    .replace(
        'default_variant = "main"\n',
        'default_variant = "main"\npaylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0]]\n',
    )
    .replace("[anywhere]\ncost = 5\n\n[anywhere_pays]\n", "[line_pays]\n")
    .replace(
        "bird = { 4 = 2, 5 = 6, 6 = 20 }\nfish = { 5 = 2, 6 = 8 }\n",
        "wild = { 3 = 4 }\nbird = { 3 = 2 }\nfish = { 3 = 1 }\n",
    )
    .replace("{ min = 5, max = 5 }", "{ min = 3, max = 3 }")
    .replace("max_total_coins = 10", "max_total_coins = 6")
    .replace("lines = 5,", "lines = 3,")
    .replace("pays = { 3 = 2 }", "pays = { 3 = 1 }")
    .replace("spins = { 3 = 4 }", "spins = { 3 = 3 }")
    .replace("free_multipliers = [1, 2, 4]", "free_multipliers = [1, 1, 2]")
)


def cell_tumbles(folder: Path) -> Path:
    return write(folder, MODEL, VARIANT.replace("RTP", "0.930295"))


def small_tumbles(folder: Path) -> Path:
    variant = VARIANT.replace("wild = 1, ", "").replace("wild = 2, ", "")
    return write(folder, MODEL, variant.replace("RTP", "0.9"))


def cell_tumbles_lines(folder: Path) -> Path:
    # its RTP is simulated: 1,000,000 rounds gave 99.84%
    return write(folder, LINES_MODEL, VARIANT.replace("RTP", "0.9984"))
