"""Simulation: reproducible by seed whatever the workers, and in agreement with the exact
analysis (the exact value inside the simulated 99% interval)."""

from __future__ import annotations

import math
import shutil

import pytest

from reelsmith.analysis import days_of_the_tsar as exact
from reelsmith.analysis import tsar_kernel as k
from reelsmith.analysis.tsar_simulation import Z_99, run_chunk, simulate
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


@pytest.mark.parametrize("variant_id", ["96.00", "94.00"])
def test_exact_figures_inside_simulated_99_percent_intervals(tsar_model, variant_id):
    figures = exact.analyze(tsar_model, variant_id)
    full = exact.analyze_full(tsar_model, variant_id)
    result = simulate(GAME, 2_000_000, 31, variant_id=variant_id, workers=1)
    doc = result.to_json()
    low, high = doc["rtp_ci99"]
    assert low <= float(figures.rtp) <= high
    n = result.rounds
    for simulated, value in (
        (doc["hit_frequency"], float(full.hit_frequency)),
        (doc["free_spins_frequency"], float(figures.trigger_probability)),
    ):
        half = Z_99 * math.sqrt(value * (1 - value) / n)
        assert abs(simulated - value) <= half, (simulated, value)
    # the sample standard deviation is itself noisy (heavy tail): 10% is a wide enough band
    assert doc["std_dev"] == pytest.approx(full.std_dev, rel=0.10)
    assert doc["spins_per_second"] > 0 and doc["seed"] == 31


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
