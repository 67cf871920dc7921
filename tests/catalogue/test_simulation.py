"""The generic simulation driver: the exact RTP inside the simulated 99% interval on one reel
set of each slotopol game, reproducible by seed whatever the workers (processes or Ray), the
report, and bad input refused with a clear error."""

from __future__ import annotations

import dataclasses
import io
import math
import os
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.analysis.report import LabReport
from reelsmith.analysis.simulation import (
    Z_99,
    ClusterError,
    check_cluster_address,
    run_chunk,
    simulate,
    simulation_report,
)
from reelsmith.engine.model import GameModel, ModelError, load_model
from tests.catalogue.slotopol import CORPUS, StatedFigures, convert, corpus_games
from tests.catalogue.test_kernel_parity import write_comet, write_grid

if not CORPUS.is_dir():  # pragma: no cover - CI always has it
    if os.environ.get("CI"):
        raise RuntimeError(f"the slotopol corpus is missing: {CORPUS}")
    pytest.skip(f"the slotopol corpus is not at {CORPUS}", allow_module_level=True)

#: Rounds per game in the agreement test: 4 M rounds keep all ten games to about 20 s on a
#: loaded 2-core machine; the 99% intervals are then 0.8 to 3.2 percentage points wide.
AGREEMENT_ROUNDS = 4_000_000
SEED = 14


def simulated_report(model: GameModel, rounds: int, seed: int, **options: Any) -> LabReport:
    """``reelsmith simulate``'s report: the one driver's run, the exact figures it was checked
    against beside it."""
    result = simulate(model, rounds, seed, **options)
    return simulation_report(model.name, result, result.exact)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[GameModel, dict]]:
    root = tmp_path_factory.mktemp("slotopol-sim")
    out = {}
    for game in corpus_games():
        stated = convert(game, root / game.stem)
        out[game.stem] = (load_model(root / game.stem), stated)
    return out


@pytest.fixture(scope="module")
def comet(tmp_path_factory: pytest.TempPathFactory) -> GameModel:
    return load_model(write_comet(tmp_path_factory.mktemp("comet") / "comet"))


@pytest.mark.parametrize("game", [path.stem for path in corpus_games()])
def test_exact_rtp_inside_the_simulated_99_percent_interval(
    game: str, corpus: dict[str, tuple[GameModel, dict[str, StatedFigures]]]
) -> None:
    model, stated = corpus[game]
    variant_id = model.default_variant
    figures = analyze_rtp(model, variant_id)
    result = simulate(model, AGREEMENT_ROUNDS, SEED, variant_id=variant_id)
    low, high = result.interval(Z_99)
    assert low <= float(figures.rtp) <= high, (game, result.rtp, float(figures.rtp))
    assert high - low < 0.035  # a real test: the interval is narrow (Disco Babylon: 3.2 pp)
    p = float(figures.trigger_probability)
    half = Z_99 * math.sqrt(p * (1 - p) / result.rounds)
    assert abs(result.free_spins_frequency - p) <= half
    if stated[variant_id].sigma_base_spin is not None:  # Disco Babylon states sigma(sym)
        assert result.base_spin_std_dev == pytest.approx(
            stated[variant_id].sigma_base_spin, rel=0.03
        )


def test_same_seed_same_result_whatever_the_workers(comet: GameModel) -> None:
    one = simulate(comet, 60_000, 5, workers=1, chunk_size=10_000)
    two = simulate(comet, 60_000, 5, workers=2, chunk_size=10_000)
    assert one.chunks == two.chunks == 6 and two.backend == "2 processes"
    assert one.stats == two.stats and one.float_stats == two.float_stats
    assert simulate(comet, 60_000, 6, chunk_size=10_000).stats != one.stats


def test_a_run_is_the_sum_of_its_chunks(comet: GameModel) -> None:
    """Chunk i's stream does not depend on how many chunks there are."""
    assert comet.source is not None
    folder = str(Path(comet.source).parent)
    whole = simulate(comet, 25_000, 9, chunk_size=10_000)
    parts = [
        run_chunk(folder, "test", 9, i, n)[1] for i, n in ((0, 10_000), (1, 10_000), (2, 5_000))
    ]
    merged = [0] * k.N_INT_STATS
    for part in parts:
        k.merge_stats(merged, part)
    assert list(whole.stats) == merged
    assert whole.stats[k.S_MAX_WIN] == max(p[k.S_MAX_WIN] for p in parts)
    assert simulate(comet, 20_000, 9, chunk_size=10_000).stats[k.S_WIN] == (
        parts[0][k.S_WIN] + parts[1][k.S_WIN]
    )


def test_ray_local_instance_gives_the_same_result(comet: GameModel) -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = simulate(comet, 30_000, 8, chunk_size=10_000, cluster="local")
    finally:
        ray.shutdown()
    local = simulate(comet, 30_000, 8, chunk_size=10_000)
    assert on_ray.backend.startswith("ray")
    assert on_ray.stats == local.stats and on_ray.float_stats == local.float_stats


def test_progress_reports_every_round(comet: GameModel) -> None:
    seen: list[int] = []
    simulate(comet, 25_000, 1, chunk_size=10_000, progress=seen.append)
    assert sorted(seen) == [5_000, 10_000, 10_000]


def test_report_sets_the_exact_figures_beside_the_simulated(
    corpus: dict[str, tuple[GameModel, dict[str, StatedFigures]]],
) -> None:
    model, _stated = corpus["ct-discobabylon"]
    report = simulated_report(model, 400_000, 3, variant_id=model.default_variant)
    data = report.to_json()
    exact = float(analyze_rtp(model, model.default_variant).rtp)
    assert data["exact"]["rtp"] == exact and data["exact_inside_ci99"] is True
    assert data["rounds"] == 400_000 and data["bet"]["total_coins"] == model.line_count == 10
    assert sum(b["probability"] for b in data["win_distribution"]) == pytest.approx(1.0)
    low, high = data["rtp_ci99"]
    assert low < data["rtp"] < high
    parts = data["rtp_breakdown"]
    assert parts["line_wins"] + parts["scatter"] + parts["free_spins"] == pytest.approx(data["rtp"])
    out = io.StringIO()
    report.render(Console(file=out, width=120))
    text = out.getvalue()
    assert "400,000 simulated rounds" in text and f"{exact:.4%}" in text
    assert "inside the simulated 99% interval" in text


def test_a_capped_feature_is_simulated_beside_its_exact_figures(comet: GameModel) -> None:
    """The comet's features often reach their cap of 30 spins; the exact analysis of a capped
    feature lies inside the simulated 99% interval."""
    report = simulated_report(comet, 400_000, 2)
    assert report.source.stats[k.S_CAPPED] > 1_000
    low, high = report.source.interval(Z_99)
    assert low <= report.to_json()["exact"]["rtp"] <= high
    assert report.to_json()["exact_inside_ci99"] is True
    out = io.StringIO()
    report.render(Console(file=out, width=120))
    assert "features reaching the cap" in out.getvalue()


def test_bad_input_is_refused(comet: GameModel, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        simulate(comet, 0, 1)
    with pytest.raises(ValueError, match="seed must be"):
        simulate(comet, 10, -1)
    with pytest.raises(ValueError, match="workers must be at least 1"):
        simulate(comet, 10, 1, workers=0)
    with pytest.raises(ValueError, match="chunk size must be at least 1"):
        simulate(comet, 10, 1, chunk_size=0)
    with pytest.raises(ModelError, match="no RTP variant 'nope'"):
        simulate(comet, 10, 1, variant_id="nope")
    plain = write_grid(tmp_path / "plain", 5, 3, seed=53)
    text = (plain / "model.toml").read_text(encoding="utf-8")
    (plain / "model.toml").write_text(text.replace('mechanics = "catalogue"\n', ""), "utf-8")
    # the key is optional: the model's tables declare what it plays
    assert simulate(load_model(plain), 10, 1).rounds == 10
    in_memory = dataclasses.replace(comet, source=None)
    with pytest.raises(ValueError, match="simulated in this process only"):
        simulate(in_memory, 20_000, 1, workers=2, chunk_size=10_000)
    assert simulate(in_memory, 1_000, 1).rounds == 1_000  # in this process it is fine
    # a free spin that adds more than one spin on average, and no cap: never ends
    folder = write_grid(tmp_path / "endless", 7, 8, seed=78)
    text = (folder / "model.toml").read_text(encoding="utf-8")
    text = text.replace('retrigger = "table"', 'retrigger = "per_symbol"\nspins_per_symbol = 9')
    (folder / "model.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ModelError, match="never end on average"):
        simulate(load_model(folder), 10, 1)
    with pytest.raises(ClusterError, match="expected host:port"):
        check_cluster_address("nowhere")
