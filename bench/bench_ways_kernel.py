"""Whole-game simulation speed of ways games on the kernel, one core, beside baselines measured
in the same run: the live engine's Python round loop (the composed round of
:mod:`reelsmith.engine.round`, free spins played out) and a straightforward compiled loop that
reads each screen's grid and pays it by the grid form of the ways rule
(:func:`reelsmith.mechanics.ways.rules.ways_pay`, a per-screen count of every cell), where the
kernel reads per-stop count tables. The whole game is played twice by the kernel on the same
streams: by the round loop as it was (every paying symbol through
:func:`~reelsmith.mechanics.ways.rules.ways_pay_counts`, ``play_ways_reference``) and as it is
(only the symbols alive on the first ``min_run`` reels,
:func:`~reelsmith.mechanics.ways.rules.ways_pay_alive`); their total wins must be equal.

The games are the external ways corpus (``../shared/external/slotopol-ways/``, or
``REELSMITH_SHARED_DIR``) converted at run time: Novomatic African Simba and Jaguar Moon (5x3,
243 ways, free spins with multipliers by the trigger's count; Jaguar Moon's on its own reels,
its scatter required on reels 1-3) and Aristocrat Redroo (5x4, 1024 ways, a wild weight drawn
per free spin on reels 2-4). Before anything is timed the live loop and the kernel play the
same rounds from the same stream and must agree exactly, and so must the straightforward loop
on the base game.

Rates are per CPU second of this process (``time.process_time``).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.kernel import S_WIN, KernelGame
from reelsmith.analysis.kernel.rounds import N_FLOAT_STATS, play_ways_reference
from reelsmith.analysis.pcg64 import load_stream, store_stream, stream_bounded, stream_state
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.ways.rules import ways_pay, ways_rules
from reelsmith.rng import SeededSource

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("novomatic-africansimba", "novomatic-jaguarmoon", "aristocrat-redroo")
#: Rounds: agreement check, live loop, grid loop, kernel runs.
SIZES = (3_000, 3_000, 4_000_000, 20_000_000)


def converter() -> ModuleType:
    """The test suite's ways corpus converter (``tests/catalogue/slotopol_ways.py``)."""
    sys.path.insert(0, str(ROOT))
    path = ROOT / "tests" / "catalogue" / "slotopol_ways.py"
    spec = importlib.util.spec_from_file_location("slotopol_ways_converter", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def live_round(model: GameModel, source: SeededSource) -> int:
    comp = composition(model)
    cost = ways_rules(model).cost
    bet = CoinBet(cost, 1, Decimal(str(model.bet["coin_sizes"][0])))
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    played = core.start_round(comp, bet, core.Stake(cost, 1), source, parts=options)
    return core.finish(comp, played, source).win_coins


@njit(cache=True, nogil=True)
def _grid_base_loop(
    rng: npt.NDArray[np.uint64],
    rounds: int,
    windows: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.int64],
    min_run: int,
    pure_wild: int,
    out: npt.NDArray[np.int64],
) -> int:
    """Base screens paid by the grid form of the rule: stops drawn as the kernel draws them,
    the window copied into a grid, every cell counted for every paying symbol."""
    reels, _width, rows = windows.shape
    grid = np.zeros((rows, reels), dtype=np.int8)
    slots = paying.shape[0] + 1
    run = np.zeros(slots, dtype=np.int64)
    ways = np.zeros(slots, dtype=np.int64)
    pay = np.zeros(slots, dtype=np.int64)
    stream = load_stream(rng)
    total = 0
    for i in range(rounds):
        for reel in range(reels):
            stream, stop = stream_bounded(stream, lengths[reel])
            for row in range(rows):
                grid[row, reel] = windows[reel, stop, row]
        win = ways_pay(
            grid, pays, paying, wild, substitutable, weights, min_run, pure_wild, run, ways, pay
        )
        if i < out.shape[0]:
            out[i] = win
        total += win
    store_stream(stream, rng)
    return total


def grid_rate(model: GameModel, game: KernelGame, rounds: int, seed: int) -> tuple[float, int]:
    rules = ways_rules(model)
    args = (
        game.tables.windows[0],
        game.tables.lengths[0],
        model.line_pays,
        rules.paying,
        model.wild,
        model.substitutable,
        rules.weights,
        rules.min_run,
        rules.pure_wild,
    )
    out = np.zeros(0, dtype=np.int64)
    _grid_base_loop(stream_state(np.random.SeedSequence(seed)), 10, *args, out)  # compile
    start = time.process_time()
    total = _grid_base_loop(stream_state(np.random.SeedSequence(seed)), rounds, *args, out)
    return rounds / (time.process_time() - start), total


def base_only(model: GameModel) -> KernelGame:
    """The kernel on the model's base game alone (its free spins left out), for the
    like-for-like comparison with the grid loop."""
    folder = model.source.parent if model.source is not None else None
    assert folder is not None
    text = (folder / "model.toml").read_text(encoding="utf-8")
    start = text.index("[free_spins]")
    end = text.index("[bet]")
    base = folder.parent / f"{folder.name}-base"
    (base / "variants").mkdir(parents=True, exist_ok=True)
    (base / "model.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    for variant in (folder / "variants").glob("*.toml"):
        (base / "variants" / variant.name).write_text(variant.read_text(), encoding="utf-8")
    return KernelGame.build(load_model(base))


def kernel_rate(game: KernelGame, rounds: int, repeats: int) -> tuple[float, float, int]:
    """Best rounds per CPU second over ``repeats`` runs, the last run's RTP and total win."""
    best, rtp, won = 0.0, 0.0, 0
    for repeat in range(repeats):
        start = time.process_time()
        stats, _, _ = game.run(chunk_stream(7, repeat), rounds)
        best = max(best, rounds / (time.process_time() - start))
        won = stats[S_WIN]
        rtp = won / (rounds * game.total_bet)
    return best, rtp, won


def reference_rate(game: KernelGame, rounds: int, repeats: int) -> tuple[float, int]:
    """:func:`kernel_rate` for the round loop as it was before it walked only the symbols
    alive on the first ``min_run`` reels (every paying symbol through ``ways_pay_counts``:
    :func:`~reelsmith.analysis.kernel.rounds.play_ways_reference`), on the same streams."""
    best, won = 0.0, 0
    for repeat in range(repeats):
        rng = chunk_stream(7, repeat)
        stats = np.zeros(game.n_stats, dtype=np.int64)
        floats = np.zeros(N_FLOAT_STATS, dtype=np.float64)
        unused = np.zeros((1, game.round_fields), dtype=np.int64)
        none = np.zeros(1, dtype=np.int64)
        args = (rng, rounds, game.kernel_args(), game.start_state(rng), 1, none, stats, floats)
        start = time.process_time()
        play_ways_reference(*args, False, unused, np.zeros((1, 3), np.int64), unused[0])
        best = max(best, rounds / (time.process_time() - start))
        won = int(stats[S_WIN])
    return best, won


def main() -> None:
    ways = converter()
    if not ways.CORPUS.is_dir():
        sys.exit(f"the ways corpus is not at {ways.CORPUS} (set REELSMITH_SHARED_DIR)")
    n_check, n_live, n_grid, n_kernel = SIZES
    print(f"{'ways games, whole game (free spins included)':<48}{'rounds/CPU s':>14}")
    with tempfile.TemporaryDirectory() as scratch:
        for name in GAMES:
            folder = Path(scratch) / name
            ways.convert(ways.CORPUS / f"{name}.json", folder)
            model = load_model(folder)
            game = KernelGame.build(model)
            base = base_only(model)

            # Agreement first (this also compiles the loops): same stream, same rounds.
            results, _draws, _, _ = game.trace(stream_state(np.random.SeedSequence(2024)), n_check)
            source = SeededSource(2024)
            live_wins = [live_round(model, source) for _ in range(n_check)]
            assert live_wins == [int(w) for w in results[:, 0]], f"{name}: live and kernel differ"
            base_results, _draws, _, _ = base.trace(
                stream_state(np.random.SeedSequence(99)), n_check
            )
            out = np.zeros(n_check, dtype=np.int64)
            rules = ways_rules(model)
            _grid_base_loop(
                stream_state(np.random.SeedSequence(99)),
                n_check,
                base.tables.windows[0],
                base.tables.lengths[0],
                model.line_pays,
                rules.paying,
                model.wild,
                model.substitutable,
                rules.weights,
                rules.min_run,
                rules.pure_wild,
                out,
            )
            assert (out == base_results[:, 1]).all(), f"{name}: the grid loop differs"

            start = time.process_time()
            for _ in range(n_live):
                live_round(model, source)
            live = n_live / (time.process_time() - start)
            grid, _ = grid_rate(model, base, n_grid, 5)
            base_rate, _, _ = kernel_rate(base, n_kernel, 3)
            before, won_before = reference_rate(game, n_kernel, 3)
            whole, rtp, won = kernel_rate(game, n_kernel, 3)
            assert won == won_before, f"{name}: the two loops' rounds differ"
            shape = f"{model.reels}x{model.rows}, {model.rows**model.reels} ways"
            print(f"{name} ({shape})")
            print(f"  {'live engine, Python round loop':<46}{live:>14,.0f}")
            print(f"  {'base game: grid loop, ways_pay per screen':<46}{grid:>14,.0f}")
            print(
                f"  {'base game: kernel, per-stop count tables':<46}{base_rate:>14,.0f}"
                f"   x{base_rate / grid:.2f} grid loop"
            )
            print(f"  {'whole game: kernel, every symbol (before)':<46}{before:>14,.0f}")
            print(
                f"  {'whole game: kernel, alive symbols only':<46}{whole:>14,.0f}"
                f"   x{whole / before:.2f} before, x{whole / live:,.0f} live"
            )
            print(f"  (last run RTP {rtp:.4%}, reel set {model.default_variant})")
    print(
        f"(kernel: {n_kernel:,} rounds per run, best of 3; grid loop: {n_grid:,}; "
        f"live: {n_live:,} rounds)"
    )


if __name__ == "__main__":
    main()
