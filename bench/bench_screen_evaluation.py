"""Screen evaluation speed: the compiled line kernel against a naive pure-Python evaluator.

Both evaluate the same random Days of the Tsar screens (25 lines); their pays are compared
before anything is timed.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from reelsmith.engine.lines import count_symbol, evaluate_lines, fill_window
from reelsmith.games import load_game


def naive_screen_pay(screen, paylines, line_pays, wild, scatter, scatter_pays, lines, cpl):
    """Total coins for one screen (rows of symbol ids), lines enabled, coins per line."""
    total = 0
    for line in paylines[:lines]:
        cells = [screen[row][reel] for reel, row in enumerate(line)]
        wild_run = 0
        while wild_run < len(cells) and cells[wild_run] == wild:
            wild_run += 1
        best = line_pays[wild].get(wild_run, 0)
        first = next((c for c in cells if c != wild), None)
        if first is not None and first != scatter:
            run = 0
            while run < len(cells) and cells[run] in (first, wild):
                run += 1
            best = max(best, line_pays[first].get(run, 0))
        total += best * cpl
    eggs = sum(row.count(scatter) for row in screen)
    total += scatter_pays.get(min(eggs, 5), 0) * lines * cpl
    return total


@njit(cache=True)
def kernel_total(padded, stops, paylines, line_pays, wild, substitutable, scatter, scatter_pays):
    n = stops.shape[0]
    rows = 3
    grid = np.empty((rows, stops.shape[1]), dtype=np.int8)
    out_s = np.empty(paylines.shape[0], dtype=np.int64)
    out_c = np.empty(paylines.shape[0], dtype=np.int64)
    out_p = np.empty(paylines.shape[0], dtype=np.int64)
    total = 0
    for i in range(n):
        fill_window(padded, stops[i], grid)
        total += evaluate_lines(
            grid, paylines, paylines.shape[0], line_pays, wild, substitutable, 1, True,
            out_s, out_c, out_p,
        )  # fmt: skip
        eggs = count_symbol(grid, scatter)
        total += scatter_pays[min(eggs, scatter_pays.shape[0] - 1)] * paylines.shape[0]
    return total


def main() -> None:
    model = load_game("days-of-the-tsar")
    reel_set = model.variant().reel_sets["base"]
    rng = np.random.default_rng(1)
    n_kernel, n_naive = 2_000_000, 50_000
    stops = np.stack([rng.integers(0, int(n), n_kernel) for n in reel_set.lengths], axis=1)
    args = (
        model.paylines,
        model.line_pays,
        model.wild,
        model.substitutable,
        model.scatter,
        model.scatter_pays,
    )

    ids = model.symbol_ids
    paylines = model.paylines.tolist()
    line_pays = {
        ids[s]: {c: int(model.line_pays[s, c]) for c in range(6) if model.line_pays[s, c]}
        for s in range(len(ids))
    }
    scatter_pays = {c: int(model.scatter_pays[c]) for c in range(6) if model.scatter_pays[c]}

    def naive(block):
        total = 0
        for row in block:
            screen = [[ids[reel_set.padded[r, row[r] + k]] for r in range(5)] for k in range(3)]
            total += naive_screen_pay(
                screen, paylines, line_pays, "tsar", "egg", scatter_pays, 25, 1
            )
        return total

    # agreement first (this also compiles the kernel before it is timed)
    check = stops[:20_000]
    kernel_check = kernel_total(reel_set.padded, check, *args)
    naive_check = naive(check)
    assert kernel_check == naive_check, (kernel_check, naive_check)

    start = time.perf_counter()
    kernel_total(reel_set.padded, stops, *args)
    kernel_rate = n_kernel / (time.perf_counter() - start)
    start = time.perf_counter()
    naive(stops[:n_naive])
    naive_rate = n_naive / (time.perf_counter() - start)
    print(f"{'evaluator':<28}{'screens/s':>14}")
    print(f"{'naive pure Python':<28}{naive_rate:>14,.0f}")
    print(
        f"{'compiled kernel (1 core)':<28}{kernel_rate:>14,.0f}   x{kernel_rate / naive_rate:,.0f}"
    )


if __name__ == "__main__":
    main()
