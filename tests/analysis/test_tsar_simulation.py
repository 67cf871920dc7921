"""Days of the Tsar on the generic simulation driver, reached as ``reelsmith simulate`` reaches
it: reproducible by seed whatever the workers (the model loaded from its folder by each
process), and the same for a copy of the title's folder (the driver's chunking and Ray are in
tests/catalogue/test_simulation.py; the agreement with the exact analysis, every variant inside
the simulated 99% interval, in tests/contract/test_figures.py)."""

from __future__ import annotations

import shutil

from reelsmith.games import game_folder, load_game
from reelsmith.mechanics import round_face
from reelsmith.mechanics.base import face

GAME = "days-of-the-tsar"


def simulate(rounds, seed, **options):
    return face(round_face(load_game(GAME), "simulate"))(GAME, rounds, seed, **options).source


def test_same_seed_same_result_whatever_the_worker_count():
    one = simulate(1_100_000, 5, workers=1)
    two = simulate(1_100_000, 5, workers=2)
    assert one.chunks == two.chunks == 3 and two.backend == "2 processes"
    assert one.stats == two.stats and one.float_stats == two.float_stats
    assert simulate(20_000, 6).stats != simulate(20_000, 5).stats


def test_simulates_a_tuned_copy_of_the_folder(tmp_path):
    copy = tmp_path / "days_of_the_tsar"
    shutil.copytree(game_folder(GAME), copy)
    from_copy = simulate(20_000, 3, folder=copy)
    from_package = simulate(20_000, 3)
    assert from_copy.stats == from_package.stats
