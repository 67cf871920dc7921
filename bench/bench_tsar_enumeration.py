"""Full-cycle enumeration and exact analysis speed for Days of the Tsar, on one core.

Three evaluators of the joint (eggs, line pay) distribution over stop combinations, measured in
the same run: a naive pure-Python evaluator (every screen, every payline), the engine's compiled
screen kernel applied screen by screen, and the tree enumeration the analyzer uses. All three
are first checked to give the identical distribution on the same slice of the cycle; the tree
enumeration then covers the full cycles of both reel sets. Last, the whole exact analysis
(``reelsmith analyze``, whose two reel sets enumerate on two threads) is timed per variant.

Rates are per CPU second of this process (``time.process_time``): the figure per core, and
one that other work on the machine disturbs much less than wall-clock time.
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
from numba import njit

from reelsmith.analysis.catalogue_exact import analyze_full
from reelsmith.analysis.enumeration import enumerate_screens
from reelsmith.engine.lines import count_symbol, evaluate_lines, fill_window
from reelsmith.games import load_game


def naive_distribution(model, reel_set, stop_lists):
    """Every combination, every payline, in plain Python: {(eggs, line pay): ways}."""
    ids = model.symbol_ids
    strips = [[ids[int(s)] for s in strip] for strip in reel_set.strips]
    paylines = model.paylines.tolist()
    pays = {
        ids[s]: {c: int(model.line_pays[s, c]) for c in range(6) if model.line_pays[s, c]}
        for s in range(len(ids))
    }
    wild, egg = ids[model.wild], ids[model.scatter]
    substitutable = {s.id for s in model.symbols if s.role == "regular"}
    out: Counter[tuple[int, int]] = Counter()

    def windows(reel):
        strip = strips[reel]
        return [[strip[(s + r) % len(strip)] for r in range(3)] for s in stop_lists[reel]]

    per_reel = [windows(r) for r in range(5)]
    for w0 in per_reel[0]:
        for w1 in per_reel[1]:
            for w2 in per_reel[2]:
                for w3 in per_reel[3]:
                    for w4 in per_reel[4]:
                        screen = (w0, w1, w2, w3, w4)
                        total = 0
                        for line in paylines:
                            cells = [screen[reel][row] for reel, row in enumerate(line)]
                            run = 0
                            while run < 5 and cells[run] == wild:
                                run += 1
                            best = pays[wild].get(run, 0)
                            if run < 5 and cells[run] in substitutable:
                                symbol, count = cells[run], run + 1
                                while count < 5 and cells[count] in (symbol, wild):
                                    count += 1
                                best = max(best, pays[symbol].get(count, 0))
                            total += best
                        eggs = sum(w.count(egg) for w in screen)
                        out[(eggs, total)] += 1
    return dict(out)


@njit(cache=True)
def compiled_screens(padded, lists, n_stops, paylines, line_pays, wild, substitutable, egg, ways):
    """The engine's kernels screen by screen (fill_window, evaluate_lines, count_symbol)."""
    grid = np.empty((3, 5), dtype=np.int8)
    stops = np.zeros(5, dtype=np.int64)
    out_s = np.empty(paylines.shape[0], dtype=np.int64)
    out_c = np.empty(paylines.shape[0], dtype=np.int64)
    out_p = np.empty(paylines.shape[0], dtype=np.int64)
    for a in range(n_stops[0]):
        stops[0] = lists[0, a]
        for b in range(n_stops[1]):
            stops[1] = lists[1, b]
            for c in range(n_stops[2]):
                stops[2] = lists[2, c]
                for d in range(n_stops[3]):
                    stops[3] = lists[3, d]
                    for e in range(n_stops[4]):
                        stops[4] = lists[4, e]
                        fill_window(padded, stops, grid)
                        pay = evaluate_lines(
                            grid, paylines, paylines.shape[0], line_pays, wild, substitutable,
                            1, True, out_s, out_c, out_p,
                        )  # fmt: skip
                        ways[count_symbol(grid, egg), pay] += 1


def compiled_distribution(model, reel_set, stop_lists):
    lists = np.zeros((5, max(len(s) for s in stop_lists)), dtype=np.int64)
    for r, stops in enumerate(stop_lists):
        lists[r, : len(stops)] = stops
    n_stops = np.array([len(s) for s in stop_lists], dtype=np.int64)
    ways = np.zeros((16, 25 * int(model.line_pays.max()) + 1), dtype=np.int64)
    compiled_screens(
        reel_set.padded, lists, n_stops, model.paylines, model.line_pays, model.wild,
        model.substitutable, model.scatter, ways,
    )  # fmt: skip
    return {(int(k), int(p)): int(ways[k, p]) for k, p in zip(*np.nonzero(ways), strict=True)}


def tree_distribution(model, reel_set, stop_lists):
    d = enumerate_screens(model, reel_set, stop_lists=stop_lists)
    return {(int(k), int(p)): int(d.ways[k, p]) for k, p in zip(*np.nonzero(d.ways), strict=True)}


def main() -> None:
    model = load_game("days-of-the-tsar")
    base = model.variant().reel_sets["base"]
    full = [list(range(int(n))) for n in base.lengths]
    naive_slice = [[0, 24], [9], [1, 15], full[3], full[4]]  # 5,512 combinations
    compiled_slice = [full[0][:2], full[1], full[2], full[3], full[4]]  # ~16 million
    naive_count = int(np.prod([len(s) for s in naive_slice]))
    compiled_count = int(np.prod([len(s) for s in compiled_slice]))

    # Agreement first (also compiles every kernel before it is timed).
    check = tree_distribution(model, base, naive_slice)
    assert naive_distribution(model, base, naive_slice) == check
    assert compiled_distribution(model, base, naive_slice) == check
    assert tree_distribution(model, base, compiled_slice) == compiled_distribution(
        model, base, compiled_slice
    )

    start = time.process_time()
    naive_distribution(model, base, naive_slice)
    naive_rate = naive_count / (time.process_time() - start)
    start = time.process_time()
    compiled_distribution(model, base, compiled_slice)
    compiled_rate = compiled_count / (time.process_time() - start)
    rates = []
    for variant_id in sorted(model.variants):
        for reel_set in model.variant(variant_id).reel_sets.values():
            start = time.process_time()
            enumerate_screens(model, reel_set)
            rates.append(reel_set.cycle / (time.process_time() - start))
    tree_rate = min(rates)

    print(f"{'full-cycle enumeration (25 lines)':<40}{'per CPU second':>16}")
    print(f"{'naive pure Python, screen by screen':<40}{naive_rate:>16,.0f}")
    print(
        f"{'compiled kernels, screen by screen':<40}{compiled_rate:>16,.0f}"
        f"   x{compiled_rate / naive_rate:,.0f}"
    )
    print(
        f"{'tree enumeration (1 core, slowest set)':<40}{tree_rate:>16,.0f}"
        f"   x{tree_rate / naive_rate:,.0f}"
    )
    print(f"(tree: every full cycle of every shipped reel set, {len(rates)} sets)")
    print()
    print(f"{'exact analysis (analyze, 2 threads)':<40}{'wall seconds':>16}")
    for variant_id in sorted(model.variants):
        start = time.perf_counter()
        analysis = analyze_full(model, variant_id)
        seconds = time.perf_counter() - start
        print(f"{'variant ' + variant_id:<40}{seconds:>16.2f}   RTP {float(analysis.rtp):.5%}")


if __name__ == "__main__":
    main()
