"""The ways' full cycle (``mechanics/ways/full.py``): the walk over the reels' signatures of a
6-reel, 3-row ways game (729 ways, a base reel set of 190,135,296 stop combinations), beside its
baseline measured in the same run: a straightforward compiled evaluation of every stop
combination by the live ways rule (``ways_pay_counts``), counting the same histogram of (scatter
count, win). Both give the same law (checked); times are wall seconds, best of three, after one
run that compiles (or loads) each. The whole ``analyze`` of the title (both reel sets, the free
spins' compound law, every award) is timed too.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.catalogue_exact import analyze_full
from reelsmith.engine.model import load_model
from reelsmith.mechanics.ways.full import screen_distribution
from reelsmith.mechanics.ways.rules import ways_pay_counts, ways_rules

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mechanics.heights_title import tumble_ways  # noqa: E402


@njit(cache=True, nogil=True)
def _every_combination(
    counts: npt.NDArray[np.int64],
    wilds: npt.NDArray[np.int64],
    scatters: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.int64],
    min_run: int,
    pure_wild: int,
    hist: npt.NDArray[np.int64],  # [k, win]
) -> int:
    """Every stop combination paid by the live rule, one at a time (an odometer)."""
    reels = lengths.shape[0]
    stops = np.zeros(reels, dtype=np.int64)
    slots = paying.shape[0] + 1
    out_run = np.zeros(slots, dtype=np.int64)
    out_ways = np.zeros(slots, dtype=np.int64)
    out_pay = np.zeros(slots, dtype=np.int64)
    n = 0
    while True:
        win = ways_pay_counts(
            counts,
            wilds,
            stops,
            pays,
            paying,
            wild,
            substitutable,
            weights,
            min_run,
            pure_wild,
            out_run,
            out_ways,
            out_pay,
        )
        k = 0
        for r in range(reels):
            k += scatters[r, stops[r]]
        hist[k, win] += 1
        n += 1
        r = reels - 1
        while r >= 0:
            stops[r] += 1
            if stops[r] < lengths[r]:
                break
            stops[r] = 0
            r -= 1
        if r < 0:
            return n


def best_of(runs: int, work):  # type: ignore[no-untyped-def]
    times = []
    result = None
    for _ in range(runs):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return min(times), result


def main() -> None:
    folder = tumble_ways(Path(tempfile.mkdtemp()) / "tumble-ways")
    model = load_model(folder)
    rules = ways_rules(model)
    reel_set = model.variant().reel_sets["base"]
    every = np.ones(model.reels, dtype=np.bool_)

    def walk():  # type: ignore[no-untyped-def]
        return screen_distribution(model, reel_set, model.line_pays, False, model.scatter, every)

    windows = reel_set.windows(model.rows)
    counts = np.stack([(windows == s).sum(axis=2) for s in rules.paying], axis=2).astype(np.int64)
    wilds = (windows == model.wild).sum(axis=2).astype(np.int64)
    scatters = (windows == model.scatter).sum(axis=2).astype(np.int64)
    lengths = reel_set.lengths.astype(np.int64)
    walked = walk()
    top = max(max(row, default=0) for row in walked.by_count)
    hist = np.zeros((len(walked.by_count), top + 1), dtype=np.int64)

    def straightforward() -> int:
        hist[:] = 0
        return int(
            _every_combination(
                counts,
                wilds,
                scatters,
                lengths,
                model.line_pays,
                rules.paying,
                model.wild,
                model.substitutable,
                rules.weights,
                rules.min_run,
                rules.pure_wild,
                hist,
            )
        )

    straightforward()  # compile or load
    base_s, combos = best_of(3, straightforward)
    walk_s, found = best_of(3, walk)
    for k, row in enumerate(found.by_count):
        for win, ways in row.items():
            assert hist[k, win] == ways, (k, win)
    assert int(hist.sum()) == found.cycle == combos
    analyze_s, analysis = best_of(3, lambda: analyze_full(model))
    print(f"ways full cycle: {model.id}, base reel set, {combos:,} stop combinations")
    print(f"  straightforward, every combination  {base_s:8.2f} s  (baseline)")
    print(
        f"  the signatures' walk                {walk_s:8.2f} s  {base_s / walk_s:6.1f}x faster, "
        f"{found.nodes:,} nodes"
    )
    print(
        f"  analyze (both reel sets, awards, free spins)  {analyze_s:.2f} s: RTP "
        f"{float(analysis.rtp):.6%}, hit frequency {float(analysis.hit_frequency):.4%}, "
        f"standard deviation {analysis.std_dev:.4f}"
    )


if __name__ == "__main__":
    main()
