"""Sultan Spins simulation: reproducible by seed whatever the workers, honest about dependent
rounds (stationary starts; the band of the exact analysis against the spread of independent
chunks)."""

from __future__ import annotations

import dataclasses
import math
import shutil

import numpy as np
import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis import simulation
from reelsmith.analysis.ladder_exact import analyze_full
from reelsmith.analysis.simulation import Z_99, batch_size_for, chunk_stream, run_chunk
from reelsmith.engine.ladder import ladder_rules
from reelsmith.engine.model import load_model
from reelsmith.games import game_folder, load_game

GAME = "sultan-spins"


def simulate(game_id, rounds, seed, *, folder=None, **options):
    """The one driver on the title (or on a copy of its folder)."""
    model = load_game(game_id) if folder is None else load_model(folder)
    return simulation.simulate(model, rounds, seed, **options)


def test_same_seed_same_result_whatever_the_worker_count():
    one = simulate(GAME, 70_000, 5, workers=1, chunk_size=10_000)
    two = simulate(GAME, 70_000, 5, workers=2, chunk_size=10_000)
    assert one.chunks == two.chunks == 7
    assert one.stats == two.stats and one.float_stats == two.float_stats
    assert one.batches == two.batches and one.interval(Z_99) == two.interval(Z_99)
    other_seed = simulate(GAME, 70_000, 6, workers=1, chunk_size=10_000)
    assert other_seed.stats != one.stats


def test_a_run_is_the_sum_of_its_chunks():
    """Chunk i's stream (and its start state) does not depend on how many chunks there are."""
    long = simulate(GAME, 30_000, 9, chunk_size=10_000)
    size = batch_size_for(30_000)
    folder = str(game_folder(GAME))
    parts = [run_chunk(folder, "94.00", 9, i, 10_000, "stationary", size) for i in range(3)]
    for slot, value in enumerate(long.stats):
        if slot in k.MAX_SLOTS:  # the largest win, the most free spins in a round
            assert value == max(p[1][slot] for p in parts)
        else:
            assert value == sum(p[1][slot] for p in parts)
    assert long.batches == tuple(tuple(p[3]) for p in parts)


def test_stationary_start_draws_the_long_run_law(sultan_model):
    """The start state: each (pot, trigger) pair uniform on seed <= pot < trigger < cap (so
    the pot's age j has probability proportional to K - j), the meter from its law."""
    game = k.KernelGame.build(sultan_model)
    assert game.ladder is not None
    caps = np.array([j.cap for j in ladder_rules(sultan_model).jackpots])
    a = analyze_full(sultan_model)
    rng = chunk_stream(17, 0)
    n = 20_000
    teal = np.zeros((n, 2), dtype=np.int64)
    meters = np.zeros(n, dtype=np.int64)
    for i in range(n):
        pots, triggers, meter = game.start_state(rng, "stationary")
        teal[i] = pots[0], triggers[0]
        meters[i] = meter[0]
        assert (game.ladder.seeds <= pots).all() and (pots < triggers).all()
        assert (triggers <= game.ladder.lasts).all() and (game.ladder.lasts == caps - 1).all()
    k_teal = int(game.ladder.lasts[0] - game.ladder.seeds[0])
    pairs = k_teal * (k_teal + 1) // 2
    counts = np.zeros((k_teal + 1, k_teal + 1))
    seed = game.ladder.seeds[0]
    np.add.at(counts, (teal[:, 0] - seed, teal[:, 1] - seed), 1)
    observed = counts[np.triu_indices(k_teal + 1, 1)]
    chi2 = float(((observed - n / pairs) ** 2 / (n / pairs)).sum())
    assert chi2 < pairs + 4 * math.sqrt(2 * pairs)  # uniform over the pairs
    for m, p in enumerate(a.meter):
        se = math.sqrt(p * (1 - p) / n)
        assert abs((meters == m).mean() - p) < 4.5 * se + 1e-12


def test_a_fresh_player_reads_low_and_the_stationary_one_does_not(sultan_model):
    """Why chunks start from the long-run state: 200 fresh players of 10,000 rounds each leave
    their pots' contributions behind (about 2 percentage points of RTP); 200 stationary ones
    are unbiased."""
    a = analyze_full(sultan_model)
    runs = {
        start: simulate(GAME, 2_000_000, 12, chunk_size=10_000, start=start)
        for start in ("stationary", "fresh")
    }
    low, high = runs["stationary"].interval(Z_99)
    assert low <= a.rtp <= high
    fresh_low, fresh_high = runs["fresh"].interval(Z_99)
    assert fresh_high < a.rtp - 0.005, (fresh_low, fresh_high, a.rtp)


def test_band_matches_the_spread_of_independent_players(sultan_model):
    """The analyzer's band: Var(sum of 10,000 rounds) from the exact per-round variance,
    the meter's covariance and the pots' covariance between rounds, against the spread of
    400 independent stationary players of 10,000 rounds (within sampling noise; rounds being
    independent would give 16% more)."""
    a = analyze_full(sultan_model)
    n = 10_000
    result = simulate(GAME, 400 * n, 21, chunk_size=n, workers=2)
    rtps = np.array([sum(b) for b in result.batches]) / (n * result.lines)
    empirical = float(rtps.var(ddof=1))
    predicted = a.sum_variance(n) / n**2
    assert empirical == pytest.approx(predicted, rel=0.3), (empirical, predicted)
    assert predicted < a.variance / n


def test_simulates_a_tuned_copy_of_the_folder(tmp_path):
    copy = tmp_path / "sultan_spins"
    shutil.copytree(game_folder(GAME), copy, ignore=shutil.ignore_patterns("__pycache__"))
    from_copy = simulate(GAME, 20_000, 3, folder=copy)
    from_package = simulate(GAME, 20_000, 3)
    assert from_copy.stats == from_package.stats


def test_bad_arguments():
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        simulate(GAME, 0, 1)
    with pytest.raises(ValueError, match="seed must be"):
        simulate(GAME, 10, -1)
    with pytest.raises(ValueError, match="start must be one of"):
        simulate(GAME, 10, 1, start="warm")


def test_a_run_too_short_for_an_interval_says_so():
    doc = simulate(GAME, 1, 4).to_json()
    assert doc["rtp_ci95"] is None and doc["rtp_standard_error"] is None


def test_ray_local_instance_gives_the_same_result():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = simulate(GAME, 30_000, 8, chunk_size=10_000, cluster="local")
    finally:
        ray.shutdown()
    local = simulate(GAME, 30_000, 8, chunk_size=10_000)
    assert on_ray.backend.startswith("ray")
    assert on_ray.stats == local.stats and on_ray.batches == local.batches


def test_the_kernel_refuses_weighted_stops_naming_the_reel_set(sultan_model):
    """Live play draws a weighted reel set's stops below its total weight; the ladder kernel
    draws below the strip's length, so it refuses such a reel set instead of playing other
    odds."""
    variant = sultan_model.variant()
    plain = variant.reel_sets["free_spins"]
    weighted = type(plain).build(
        plain.name,
        plain.strips,
        sultan_model.rows,
        [np.arange(1, len(s) + 1, dtype=np.int64) for s in plain.strips],
    )
    assert k.KernelGame.build(sultan_model, variant.id).tables.depth.min() >= 0
    reweighed = dataclasses.replace(
        variant, reel_sets={**variant.reel_sets, "free_spins": weighted}
    )
    model = dataclasses.replace(sultan_model, variants={variant.id: reweighed})
    with pytest.raises(ValueError, match="free_spins weighs its stops"):
        k.KernelGame.build(model, variant.id)


def test_a_doubling_wild_on_the_ladder_analyses_inside_its_simulated_interval(tmp_path):
    """Sultan Spins with ``[wild] multiplier = 2``: the exact analysis pays the wild's
    multiplier as live play and the kernel do (it once printed the shipped title's 94% against
    a simulated 149%)."""
    folder = tmp_path / "doubling"
    shutil.copytree(game_folder(GAME), folder)
    model_file = folder / "model.toml"
    text = model_file.read_text(encoding="utf-8")
    model_file.write_text(text + '\n[wild]\nsymbol = "wild"\nmultiplier = 2\n', encoding="utf-8")
    model = load_model(folder)
    assert model.wild_multiplier == 2
    analysis = analyze_full(model)
    shipped = analyze_full(load_game(GAME))
    assert analysis.rtp > shipped.rtp + 0.3  # the multiplier is paid, not the shipped figure
    run = simulation.simulate(model, 2_000_000, 31, workers=1, chunk_size=250_000)
    low, high = run.interval(3.2905267314918945)  # 99.9%
    assert low <= analysis.rtp <= high, (analysis.rtp, low, high)
