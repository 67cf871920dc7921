"""Whole-game simulation speed of the generic catalogue kernel on one core, beside two
baselines measured in the same run: the live engine's Python round loop (the composed round
of :mod:`reelsmith.engine.round`, free spins played out) and the same kernel without its prefix
tables (every payline walked through the line automaton on every screen). Every shipped
catalogue title is timed the same way on its own model (the ladder titles, whose screens the
prefix tables serve the same way, are timed by ``bench_simulation.py``).

The titles are 5x3 slotopol games converted to catalogue models at run time from the shared
corpus (``../shared/external/slotopol/``, or ``REELSMITH_SHARED_DIR``): NetEnt Spellcast (20
lines, a wild on every reel that doubles the wins it completes) and CT Disco Babylon (10
lines). The plug-in test title
(``tests/catalogue/models/lucky-fox``, a random win multiplier compiled into its own kernel
loop) is timed the same way. Before anything is timed the live loop and the kernel play the
same rounds from the same stream and must agree exactly.

Rates are per CPU second of this process (``time.process_time``): the figure per core, and
one that other work on the machine disturbs much less than wall-clock time.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from reelsmith.analysis.kernel import S_WIN, KernelGame
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import TITLE_FOLDERS, load_game
from reelsmith.mechanics import composition, declared_names
from reelsmith.mechanics.coins.live import bet_options
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.rng import SeededSource

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("netent-spellcast", "ct-discobabylon")
#: A test title with a plug-in mechanic (a random win multiplier): timed beside the others.
PLUGIN_TITLE = ROOT / "tests" / "catalogue" / "models" / "lucky-fox"


def catalogue_titles() -> list[str]:
    """The shipped titles without the ladder (whose screens ``bench_simulation.py`` times)."""
    return [g for g in sorted(TITLE_FOLDERS) if "ladder" not in declared_names(load_game(g))]


def corpus_converter() -> ModuleType:
    """The test suite's corpus converter (``tests/catalogue/slotopol.py``), loaded from its file:
    the corpus is test data and its conversion lives with the tests."""
    path = ROOT / "tests" / "catalogue" / "slotopol.py"
    spec = importlib.util.spec_from_file_location("slotopol_converter", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def live_round(model: GameModel, bet: CoinBet, source: SeededSource) -> int:
    """One live round, its free spins played out and its win collected."""
    comp = composition(model)
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    stake = core.Stake(bet.lines, bet.coins_per_line)
    played = core.start_round(comp, bet, stake, source, parts=options)
    return core.finish(comp, played, source).win_coins


def rate(game: KernelGame, rounds: int, repeats: int) -> tuple[float, float]:
    """Best rounds per CPU second over ``repeats`` runs, and the last run's RTP."""
    best = 0.0
    rtp = 0.0
    for repeat in range(repeats):
        start = time.process_time()
        stats, _, _ = game.run(chunk_stream(7, repeat), rounds)
        best = max(best, rounds / (time.process_time() - start))
        rtp = stats[S_WIN] / (rounds * game.total_bet)
    return best, rtp


def main() -> None:
    converter = corpus_converter()
    if not converter.CORPUS.is_dir():
        sys.exit(f"the slotopol corpus is not at {converter.CORPUS} (set REELSMITH_SHARED_DIR)")
    n_check, n_live, n_flat, n_kernel = 5_000, 5_000, 4_000_000, 20_000_000
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        models = []
        for name in GAMES:
            folder = Path(scratch) / name
            converter.convert(converter.CORPUS / f"{name}.json", folder)
            models.append((name, load_model(folder)))
        models += [(title, load_game(title)) for title in catalogue_titles()]
        if PLUGIN_TITLE.is_dir():  # the plug-in test title: its kernel loop with the step in it
            models.append(
                (f"{PLUGIN_TITLE.name} (3x3, win multiplier plug-in)", load_model(PLUGIN_TITLE))
            )
        for name, model in models:
            game = KernelGame.build(model)
            flat = KernelGame.build(model, depth=0)
            bet = CoinBet(model.line_count, 1, bet_options(model).default.coin_size)

            # Agreement first (this also compiles the kernel): same stream, same rounds.
            results, _draws, _, _ = game.trace(stream_state(np.random.SeedSequence(2024)), n_check)
            flat_results, _draws, _, _ = flat.trace(
                stream_state(np.random.SeedSequence(2024)), n_check
            )
            source = SeededSource(2024)
            live_wins = [live_round(model, bet, source) for _ in range(n_check)]
            assert live_wins == [int(w) for w in results[:, 0]], "live and kernel rounds differ"
            assert (flat_results == results).all(), "the kernel without tables differs"

            start = time.process_time()
            for _ in range(n_live):
                live_round(model, bet, source)
            live_rate = n_live / (time.process_time() - start)
            flat_rate, _ = rate(flat, n_flat, 2)
            kernel_rate, rtp = rate(game, n_kernel, 3)
            rows.append((name, model.line_count, live_rate, flat_rate, kernel_rate, rtp, game))

    print(f"{'whole game (free spins included), 5x3, one coin per line':<44}{'rounds/CPU s':>14}")
    for name, lines, live_rate, flat_rate, kernel_rate, rtp, game in rows:
        depth = int(game.tables.depth[0])
        print(f"{name} ({lines} lines)")
        print(f"  {'live engine, Python round loop':<42}{live_rate:>14,.0f}")
        print(f"  {'generic kernel, no prefix tables':<42}{flat_rate:>14,.0f}")
        print(
            f"  {f'generic kernel, prefix tables (depth {depth})':<42}{kernel_rate:>14,.0f}"
            f"   x{kernel_rate / live_rate:,.0f} live, x{kernel_rate / flat_rate:.2f} no tables"
        )
        print(f"  (last run RTP {rtp:.4%})")
    print(
        f"(kernels: {n_kernel:,} rounds per run, best of 3; no tables: {n_flat:,}, best of 2; "
        f"live: {n_live:,} rounds)"
    )


if __name__ == "__main__":
    main()
