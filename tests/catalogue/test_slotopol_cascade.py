"""The external cascade corpus, converted to cascade models at run time: its two line games
(Gonzo's Quest: 16 reel sets, a multiplier per cascade step and free spins that trigger on any
screen of the chain; Win Storm: 31 reel sets, a paying scatter removed with the wins) and its
pay-anywhere game (Sugar Town: 26 reel sets of about a billion stop combinations each, symbols
paid by count with wilds counting for all of them). Each reel set's full cycle, every chain
played out, must give the RTP slotopol's brute force stated to its printed precision, and its
cascade counters ``N[2..5]`` (how many stop combinations reach each screen) and free spins
awarded over the cycle exactly. One reel set of each line game runs in the quick suite; every
reel set of the three games in the slow one (``make test-slow``)."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition, declared_names
from reelsmith.mechanics.cascade.exact import cascade_figures
from tests.catalogue.slotopol_cascade import (
    CORPUS,
    COUNT_GAMES,
    LINE_GAMES,
    convert,
    convert_counts,
    corpus_game,
)

if not CORPUS.is_dir():  # pragma: no cover - CI always has it
    if os.environ.get("CI"):
        raise RuntimeError(f"the slotopol cascade corpus is missing: {CORPUS}")
    pytest.skip(f"the slotopol cascade corpus is not at {CORPUS}", allow_module_level=True)


@pytest.fixture(scope="module")
def converted(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[GameModel, dict[str, dict[str, Any]]]]:
    root = tmp_path_factory.mktemp("slotopol-cascade")
    out = {}
    for stem in LINE_GAMES:
        stated = convert(corpus_game(stem), root / stem)
        out[stem] = (load_model(root / stem), stated)
    for stem in COUNT_GAMES:
        stated = convert_counts(corpus_game(stem), root / stem)
        out[stem] = (load_model(root / stem), stated)
    return out


def check(model: GameModel, variant_id: str, stated: dict[str, Any]) -> float:
    """The reel set's exact figures against the stated ones; the RTP difference in pp."""
    figures = cascade_figures(model, variant_id)
    assert figures.base.cycle == stated["reshuffles"]
    mine = float(figures.rtp) * 100
    tolerance = 0.5 * 10.0 ** -stated["decimals"] + 1e-12
    assert abs(mine - stated["rtp_pct"]) <= tolerance, (variant_id, mine, stated["rtp_pct"])
    for k, count in stated["N"].items():
        assert figures.base.reached[k - 1] == count, (variant_id, k)
    if stated["free_spins"] is not None:
        assert figures.base.awards == stated["free_spins"], variant_id
    return abs(mine - stated["rtp_pct"])


def test_the_corpus_is_whole(converted) -> None:  # type: ignore[no-untyped-def]
    assert sum(len(stated) for _, stated in converted.values()) == 16 + 31 + 26
    for model, _ in converted.values():
        assert "cascade" in declared_names(model)
        composition(model)  # the mechanics compose


@pytest.mark.parametrize("game", LINE_GAMES)
def test_one_reel_set_of_each_game(game: str, converted) -> None:  # type: ignore[no-untyped-def]
    model, stated = converted[game]
    smallest = min(stated, key=lambda key: stated[key]["reshuffles"])
    started = time.perf_counter()
    worst = check(model, smallest, stated[smallest])
    print(
        f"{game} {smallest}: {stated[smallest]['reshuffles']:,} stop combinations, "
        f"difference {worst:.1e} pp, {time.perf_counter() - started:.1f} s"
    )


@pytest.mark.slow
@pytest.mark.parametrize("game", LINE_GAMES + COUNT_GAMES)
def test_every_reel_set(game: str, converted) -> None:  # type: ignore[no-untyped-def]
    model, stated = converted[game]
    worst = max(check(model, key, figures) for key, figures in stated.items())
    print(f"{game}: {len(stated)} reel sets, largest difference {worst:.1e} pp")


def test_validate_leaves_a_large_cycle_to_analyze(converted) -> None:  # type: ignore[no-untyped-def]
    """validate does not spend minutes per variant enumerating a 5x3 cascade title: it says
    the stated RTP is left to analyze, and finds no problem."""
    from pathlib import Path

    from reelsmith.modelio.validate import check_folder

    model, _ = converted["ct-winstorm"]
    found = check_folder(Path(str(model.source)).parent)
    assert found.problems == []
    assert any("reelsmith analyze gives it" in w for w in found.warnings), found.warnings


@pytest.mark.parametrize("game", (*LINE_GAMES, *COUNT_GAMES))
def test_the_kernel_plays_each_game(game: str, converted) -> None:  # type: ignore[no-untyped-def]
    """The simulation kernel on a reel set of each game: 600 rounds replay through live play
    draw for draw, and 400,000 rounds hold the stated RTP inside their 99.9% interval (a
    check of the kernel's whole chain law, free spins included, against the corpus' own
    brute force, without our enumeration)."""
    from reelsmith.analysis import kernel as k
    from reelsmith.analysis.pcg64 import stream_state
    from tests.mechanics.test_chain_kernel import Z_999, replay

    model, stated = converted[game]
    variant_id = model.default_variant
    _featured, chained = replay(model, 600, seed=17)
    assert chained > 50
    rounds = 400_000
    game_tables = k.KernelGame.build(model, variant_id)
    stats, squares, _batches = game_tables.run(stream_state(2026), rounds)
    bet = game_tables.total_bet
    mean = stats[k.S_WIN] / rounds / bet
    spread = (squares[k.F_WIN_SQ] / rounds / bet**2 - mean * mean) ** 0.5
    half = Z_999 * spread / rounds**0.5
    assert abs(mean * 100 - stated[variant_id]["rtp_pct"]) <= half * 100, (mean, half)
