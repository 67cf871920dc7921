"""The external ways corpus: three slotopol ways games (243 and 1024 ways, 62 reel sets),
converted to ways models at run time, must give every RTP slotopol's brute-force scanner
stated, to its printed precision: ways with wilds of weight 1, a free spin's random wild
weights (Redroo), scatters paid per coin, free spins with trigger-dependent multipliers, a
scatter needed on each of three reels and bonus reels (Jaguar Moon)."""

from __future__ import annotations

import os

import pytest

from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition, declared_names
from tests.catalogue.slotopol_ways import CORPUS, convert, corpus_games

if not CORPUS.is_dir():  # pragma: no cover - CI always has it
    if os.environ.get("CI"):
        raise RuntimeError(f"the slotopol ways corpus is missing: {CORPUS}")
    pytest.skip(f"the slotopol ways corpus is not at {CORPUS}", allow_module_level=True)

GAMES = [path.stem for path in corpus_games()]


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[GameModel, dict]]:
    root = tmp_path_factory.mktemp("slotopol-ways")
    out = {}
    for game in corpus_games():
        stated = convert(game, root / game.stem)
        out[game.stem] = (load_model(root / game.stem), stated)
    return out


def test_the_corpus_is_whole(converted) -> None:  # type: ignore[no-untyped-def]
    assert len(GAMES) == 3
    assert sum(len(stated) for _, stated in converted.values()) == 62


@pytest.mark.parametrize("game", GAMES)
def test_every_stated_rtp_is_reproduced(game: str, converted) -> None:  # type: ignore[no-untyped-def]
    model, stated = converted[game]
    assert {"ways", "scatter", "free_spins"} <= declared_names(model)
    composition(model)  # the mechanics compose
    assert set(model.variants) == set(stated)
    worst = 0.0
    for variant_id, (rtp_pct, decimals) in stated.items():
        mine = float(analyze_rtp(model, variant_id).rtp) * 100
        tolerance = 0.5 * 10.0**-decimals + 1e-12
        worst = max(worst, abs(mine - rtp_pct))
        assert abs(mine - rtp_pct) <= tolerance, (variant_id, mine, rtp_pct)
    print(f"{game}: {len(stated)} reel sets, largest difference {worst:.1e} pp")
