"""Simulation: reproducible by seed whatever the workers, a run the sum of its chunks, the same
on Ray (the agreement with the exact analysis, every variant inside the simulated 99%
interval, is in tests/contract/test_figures.py)."""

from __future__ import annotations

import shutil

import pytest

from reelsmith.analysis import tsar_kernel as k
from reelsmith.analysis.tsar_simulation import run_chunk, simulate
from reelsmith.games import game_folder

GAME = "days-of-the-tsar"


def test_same_seed_same_result_whatever_the_worker_count():
    one = simulate(GAME, 70_000, 5, workers=1, chunk_size=10_000)
    two = simulate(GAME, 70_000, 5, workers=2, chunk_size=10_000)
    assert one.chunks == two.chunks == 7
    assert one.stats == two.stats and one.float_stats == two.float_stats
    other_seed = simulate(GAME, 70_000, 6, workers=1, chunk_size=10_000)
    assert other_seed.stats != one.stats


def test_a_run_is_the_sum_of_its_chunks():
    """Chunk i's stream does not depend on how many chunks there are: a run of three chunks
    is exactly chunks 0, 1 and 2 run on their own."""
    long = simulate(GAME, 30_000, 9, chunk_size=10_000)
    parts = [run_chunk(GAME, None, "96.00", 9, index, 10_000)[1] for index in range(3)]
    for slot, value in enumerate(long.stats):
        if slot == k.S_MAX_WIN:
            assert value == max(p[slot] for p in parts)
        else:
            assert value == sum(p[slot] for p in parts)
    assert simulate(GAME, 20_000, 9, chunk_size=10_000).stats[k.S_WIN] == (
        parts[0][k.S_WIN] + parts[1][k.S_WIN]
    )


def test_simulates_a_tuned_copy_of_the_folder(tmp_path):
    copy = tmp_path / "days_of_the_tsar"
    shutil.copytree(game_folder(GAME), copy)
    from_copy = simulate(GAME, 20_000, 3, folder=copy)
    from_package = simulate(GAME, 20_000, 3)
    assert from_copy.stats == from_package.stats


def test_bad_arguments():
    with pytest.raises(ValueError, match="spins must be at least 1"):
        simulate(GAME, 0, 1)
    with pytest.raises(ValueError, match="seed must be"):
        simulate(GAME, 10, -1)


def test_ray_local_instance_gives_the_same_result():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = simulate(GAME, 30_000, 8, chunk_size=10_000, cluster="local")
    finally:
        ray.shutdown()
    local = simulate(GAME, 30_000, 8, chunk_size=10_000)
    assert on_ray.backend.startswith("ray")
    assert on_ray.stats == local.stats and on_ray.float_stats == local.float_stats
