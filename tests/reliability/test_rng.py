"""The live RNG, as a test lab would test it.

Every draw below is ``reelsmith.rng.SystemSource().randbelow(n, "reel_stop")``: the call the
live engine makes for each reel stop (``secrets.randbelow`` over the OS CSPRNG, rejection
sampling, no modulo bias; see ``reelsmith/rng/source.py``). For every reel of both titles'
live variants, base and free-spin strips (20 reels, lengths 52 to 258), the draws are tested
for uniform stop frequencies (chi-square), independence of consecutive draws (chi-square of
pairs) and lag-1 serial correlation.

Confidence: each family of tests is judged at 99% (Bonferroni: it passes when every p-value is
above 0.01 / the number of tests), and the count of single tests below 0.01 is reported beside
the number expected by chance. A family that fails is drawn again once, with fresh draws:
a real defect fails both times, a 1-in-100 accident does not. The same battery is shown to
reject a modulo-biased source and a sticky one, so it can fail.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
import pytest

from reelsmith.games import load_game
from reelsmith.rng import SystemSource
from tests.reliability import figures
from tests.reliability.rngstats import (
    Result,
    chi2_sf,
    chi2_sf_own,
    serial_correlation,
    serial_pairs,
    uniformity,
)

LIVE = (("days-of-the-tsar", "96.00"), ("sultan-spins", "94.00"))
CONFIDENCE = 0.99


def reels() -> list[tuple[str, int]]:
    """(name, strip length) of every reel the live games spin."""
    found = []
    for game, variant in LIVE:
        for set_name, reel_set in load_game(game).variant(variant).reel_sets.items():
            for reel, length in enumerate(reel_set.lengths):
                found.append((f"{game} {variant} {set_name} reel {reel + 1}", int(length)))
    return found


def live_draws(bound: int, count: int) -> np.ndarray:
    """``count`` reel stops below ``bound``, each one through the live engine's call."""
    draw = SystemSource().randbelow
    return np.fromiter((draw(bound, "reel_stop") for _ in range(count)), np.int64, count)


def battery(source: Callable[[int, int], np.ndarray], per_reel: int) -> list[Result]:
    results = []
    for name, length in reels():
        draws = source(length, per_reel)
        results.append(uniformity(draws, length, name))
        results.append(serial_pairs(draws, length, name))
        results.append(serial_correlation(draws, name))
    return results


def family_passes(results: list[Result]) -> bool:
    return min(r.p for r in results) > (1 - CONFIDENCE) / len(results)


def judge(label: str, per_reel: int) -> None:
    attempts = []
    for _attempt in range(2):
        start = time.perf_counter()
        results = battery(live_draws, per_reel)
        elapsed = time.perf_counter() - start
        draws = per_reel * len(reels())
        figures.add("rng_draws", draws)
        attempts.append(results)
        below = sum(r.p < 1 - CONFIDENCE for r in results)
        worst = min(results, key=lambda r: r.p)
        by_kind = {}
        for kind in ("frequencies", "serial pairs", "correlation"):
            ps = [r.p for r in results if kind in r.name]
            by_kind[kind] = f"min p {min(ps):.4f}, median p {float(np.median(ps)):.3f}"
        figures.note(
            "RNG (live path, SystemSource.randbelow)",
            f"{label}: {draws:,} draws over {len(reels())} reels in {elapsed:.0f} s; "
            f"{len(results)} tests, {below} below p=0.01 (expected by chance "
            f"{len(results) * (1 - CONFIDENCE):.1f}); lowest p {worst.p:.5f} ({worst.name}); "
            f"family at 99%: {'pass' if family_passes(results) else 'FAIL'}",
        )
        for kind, text in by_kind.items():
            figures.note("RNG (live path, SystemSource.randbelow)", f"  {kind}: {text}")
        if family_passes(results):
            return
    pytest.fail(f"{label}: the RNG failed at 99% twice on fresh draws: {attempts[-1][:3]}")


def test_live_rng_10_million_draws():
    judge("short", 500_000)  # 20 reels x 500,000 = 10,000,000


@pytest.mark.slow
def test_live_rng_100_million_draws():
    judge("long", 5_000_000)


def test_the_battery_rejects_a_modulo_biased_source():
    """``byte % n`` (the classic bug) favours the low stops: the frequencies test sees it."""

    def biased(bound: int, count: int) -> np.ndarray:
        return np.frombuffer(os.urandom(count), np.uint8).astype(np.int64) % bound

    results = [r for r in battery(biased, 100_000) if "frequencies" in r.name]
    assert not family_passes(results)
    assert sum(r.p < 1e-6 for r in results) >= 15


def test_the_battery_rejects_a_sticky_source():
    """A source that repeats its last value 2% of the time: the serial tests see it."""

    def sticky(bound: int, count: int) -> np.ndarray:
        draws = live_draws(bound, count)
        repeat = np.frombuffer(os.urandom(count), np.uint8) < 5  # 5/256 ~ 2%
        for i in np.flatnonzero(repeat[1:]) + 1:
            draws[i] = draws[i - 1]
        return draws

    results = [r for r in battery(sticky, 100_000) if "frequencies" not in r.name]
    assert not family_passes(results)


@pytest.mark.parametrize(("statistic", "dof"), [(10.0, 5), (60.0, 53), (300.0, 257), (0.5, 1)])
def test_own_chi_square_tail_matches_scipy(statistic, dof):
    pytest.importorskip("scipy")
    assert chi2_sf_own(statistic, dof) == pytest.approx(chi2_sf(statistic, dof), rel=1e-9)
