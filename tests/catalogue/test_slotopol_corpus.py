"""The external corpus: ten slotopol games (191 reel sets), converted to catalogue models at
run time, must give every RTP slotopol's brute-force calculator stated, to its printed
precision, and Disco Babylon's base-spin standard deviation ``sigma(sym)`` likewise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.engine.model import GameModel, load_model
from tests.catalogue.slotopol import CORPUS, StatedFigures, convert, corpus_games

if not CORPUS.is_dir():  # pragma: no cover - CI always has it
    if os.environ.get("CI"):
        raise RuntimeError(f"the slotopol corpus is missing: {CORPUS}")
    pytest.skip(f"the slotopol corpus is not at {CORPUS}", allow_module_level=True)

GAMES = [path.stem for path in corpus_games()]


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[GameModel, dict]]:
    root = tmp_path_factory.mktemp("slotopol")
    out = {}
    for game in corpus_games():
        stated = convert(game, root / game.stem)
        out[game.stem] = (load_model(root / game.stem), stated)
    return out


def test_the_corpus_is_whole() -> None:
    assert len(GAMES) == 10


@pytest.mark.parametrize("game", GAMES)
def test_every_stated_rtp_is_reproduced(
    game: str, converted: dict[str, tuple[GameModel, dict[str, StatedFigures]]]
) -> None:
    model, stated = converted[game]
    assert set(model.variants) == set(stated)
    for variant_id, figures in stated.items():
        rtp_pct = float(analyze_rtp(model, variant_id).rtp) * 100
        tolerance = 0.5 * 10.0**-figures.decimals + 1e-12
        assert abs(rtp_pct - figures.rtp_pct) <= tolerance, (variant_id, rtp_pct, figures)


def test_disco_babylon_base_spin_sigma(
    converted: dict[str, tuple[GameModel, dict[str, StatedFigures]]],
) -> None:
    model, stated = converted["ct-discobabylon"]
    checked = 0
    for variant_id, figures in stated.items():
        if figures.sigma_base_spin is None:
            continue
        analysis = analyze_full(model, variant_id)
        tolerance = 0.5 * 10.0**-figures.sigma_decimals + 1e-12
        assert abs(analysis.base_spin_std_dev - figures.sigma_base_spin) <= tolerance, variant_id
        # the enumeration's RTP is the per-line route's, exactly (analyze_full checks it too)
        assert analysis.base.mean == analysis.figures.base_spin_rtp
        checked += 1
    assert checked == len(stated)


def test_a_converted_model_is_a_plain_folder(tmp_path: Path) -> None:
    """The conversion writes a model folder that loads like a shipped title's."""
    folder = tmp_path / "gems"
    stated = convert(CORPUS / "agt-gems.json", folder)
    assert (folder / "model.toml").is_file()
    assert len(list((folder / "variants").glob("*.toml"))) == len(stated) == 18
