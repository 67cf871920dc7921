"""Parity: the generic kernel and live play give identical rounds for identical draws.

Each kernel round's draws (purpose, bound, value) are fed to the live engine
(``catalogue_round.start_round``, then ``play_free_spin`` while free spins remain) through a
``ReplaySource``, which also checks that live play asks for the same purposes and bounds in the
same order and uses every draw; the round's results must match field for field. A second check
plays live rounds from a ``SeededSource`` with the kernel's seed, round after round, so the
kernel's generator is numpy's draw for draw.

Models: three converted slotopol games (Cleopatra: a wild that doubles the wins it completes and
a line of five wilds paid x1 in free spins; Disco Babylon: reel-1-anchored lines, the wild kept
to reels 2-4; Aladdin: 5x4 with 100 paylines, more than one word of line bits), Days of the
Tsar as its catalogue model declares it (revealed awards, per-egg retriggers, its own free-spin
reels) and small models of reelsmith's own written here: 6x4 with a bonus trigger symbol beside
a scatter kept to three reels, a revealed award, per-symbol retriggers, a cap, a free-spin reel
set, a multiplier on lines only with an exception and a scatter that pays nothing in free
spins; 3x1 with a retrigger table; 7x8 with counts past the scatter table's end.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import load_game
from reelsmith.rng import ReplaySource, SeededSource
from tests import catalogue_rounds as live
from tests.catalogue.slotopol import CORPUS, convert

SLOTOPOL = ("igt-cleopatra", "ct-discobabylon", "agt-aladdin")
PARITY_ROUNDS = 10_000

# ---------------------------------------------------------------------------------------
# Small models of our own
# ---------------------------------------------------------------------------------------


def _toml_list(values: object) -> str:
    """A list of strings, numbers or such lists as a TOML array (JSON's syntax is TOML's)."""
    return json.dumps(values)


def _strips(
    rng: np.random.Generator,
    reels: int,
    length: int,
    weights: dict[str, float],
    kept: dict[str, set[int]],
) -> list[list[str]]:
    """Random strips; a symbol in ``kept`` appears only on those (1-based) reels."""
    strips = []
    for reel in range(1, reels + 1):
        names = [s for s in weights if reel in kept.get(s, {reel})]
        p = np.array([weights[s] for s in names])
        strips.append([str(s) for s in rng.choice(names, size=length, p=p / p.sum())])
    return strips


def write_comet(folder: Path) -> Path:
    """6x4: bonus-triggered free spins with a revealed award, per-symbol retriggers and a cap
    of 30, their own reel set, x3 on lines only (six wilds x1), a scatter on reels 1, 3, 5
    that pays nothing in free spins; the wild (reels 2-6, x2, ties to the symbol) does not
    substitute for the nine."""
    rng = np.random.default_rng(1406)
    reels, rows = 6, 4
    regular = ["ace", "king", "queen", "jack", "ten", "nine"]
    lines = set()
    while len(lines) < 30:
        lines.add(tuple(int(r) for r in rng.integers(0, rows, size=reels)))
    kept = {"star": {2, 3, 4, 5, 6}, "sun": {1, 3, 5}}
    base_weights = {"star": 1.0, "sun": 0.6, "moon": 0.35, **dict.fromkeys(regular, 1.2)}
    free_weights = {"star": 1.4, "sun": 0.6, "moon": 0.3, **dict.fromkeys(regular, 1.0)}
    base = _strips(rng, reels, 24, base_weights, kept)
    free = _strips(rng, reels, 20, free_weights, kept)
    symbols = [("star", "Star", "wild"), ("sun", "Sun", "scatter"), ("moon", "Moon", "bonus")]
    symbols += [(s, s.title(), "regular") for s in regular]
    out = [
        'id = "comet"',
        'name = "Comet"',
        'mechanics = "catalogue"',
        f"reels = {reels}",
        f"rows = {rows}",
        'default_variant = "test"',
        f"paylines = {_toml_list([list(line) for line in sorted(lines)])}",
    ]
    for symbol_id, name, role in symbols:
        out += ["", "[[symbols]]", f'id = "{symbol_id}"', f'name = "{name}"', f'role = "{role}"']
    out += [
        "",
        "[line_pays]",
        'star = { "3" = 20, "4" = 60, "5" = 200, "6" = 1000 }',
        *(
            f'{s} = {{ "3" = {3 + i}, "4" = {8 + 2 * i}, "5" = {20 + 5 * i}, "6" = {50 + 10 * i} }}'
            for i, s in enumerate(reversed(regular))
        ),
        "",
        "[wild]",
        'symbol = "star"',
        f"substitutes = {_toml_list(regular[:-1])}",
        "multiplier = 2",
        'ties = "symbol"',
        "reels = [2, 3, 4, 5, 6]",
        "",
        "[scatter]",
        'symbol = "sun"',
        'pays = { "2" = 1, "3" = 10 }',
        "reels = [1, 3, 5]",
        "pays_in_free_spins = false",
        "",
        "[free_spins]",
        'symbol = "moon"',
        "trigger = 3",
        'reveal = "moon_reveal"',
        'retrigger = "per_symbol"',
        "spins_per_symbol = 1",
        "max_spins = 30",
        "multiplier = 3",
        'multiplier_applies_to = "lines"',
        'exceptions = [{ symbol = "star", count = 6, multiplier = 1 }]',
        'reel_set = "free"',
        "",
        "[bet]",
        "lines = { min = 1, max = 30 }",
        "coins_per_line = { min = 1, max = 1 }",
        'coin_sizes = ["1.00"]',
        "max_total_coins = 30",
        'default = { lines = 30, coins_per_line = 1, coin_size = "1.00" }',
    ]
    variant = [
        'id = "test"',
        "",
        "[moon_reveal]",
        "values = [1, 2, 5]",
        "weights = [5, 3, 1]",
        "",
        "[reel_sets.base]",
        f"strips = {_toml_list(base)}",
        "",
        "[reel_sets.free]",
        f"strips = {_toml_list(free)}",
    ]
    return _write(folder, out, variant)


def write_grid(folder: Path, reels: int, rows: int, seed: int) -> Path:
    """``reels`` x ``rows`` with a scatter trigger anywhere, spins by count, a retrigger table
    and free spins on the base reel set at x2; the scatter table ends at 4, so larger counts
    pay as 4 does."""
    rng = np.random.default_rng(seed)
    regular = ["ace", "king", "queen", "jack"]
    n_lines = min(40, rows**reels)
    lines = set()
    while len(lines) < n_lines:
        lines.add(tuple(int(r) for r in rng.integers(0, rows, size=reels)))
    cells = reels * rows
    weights = {"wild": 0.8, **dict.fromkeys(regular, 1.0)}
    base = _strips(rng, reels, max(12, 4 * rows), weights, {})
    for strip in base:  # one scatter a strip: each reel shows it at rows / length
        strip[int(rng.integers(0, len(strip)))] = "scatter"
    trigger = 2 if cells <= 3 else 3
    out = [
        f'id = "grid{reels}x{rows}"',
        f'name = "Grid {reels}x{rows}"',
        'mechanics = "catalogue"',
        f"reels = {reels}",
        f"rows = {rows}",
        'default_variant = "test"',
        f"paylines = {_toml_list([list(line) for line in sorted(lines)])}",
        "",
        "[[symbols]]",
        'id = "wild"',
        'name = "Wild"',
        'role = "wild"',
        "",
        "[[symbols]]",
        'id = "scatter"',
        'name = "Scatter"',
        'role = "scatter"',
    ]
    for s in regular:
        out += ["", "[[symbols]]", f'id = "{s}"', f'name = "{s.title()}"', 'role = "regular"']
    counts = range(2, reels + 1)
    out += ["", "[line_pays]"]
    out.append("wild = { " + ", ".join(f'"{c}" = {10 * c * c}' for c in counts) + " }")
    for i, s in enumerate(regular):
        out.append(f"{s} = {{ " + ", ".join(f'"{c}" = {(i + 1) * c}' for c in counts) + " }")
    out += [
        "",
        "[scatter]",
        'symbol = "scatter"',
        f'pays = {{ "2" = 1, "{min(4, cells)}" = 5 }}',
        "",
        "[free_spins]",
        f"trigger = {trigger}",
        f'spins = {{ "{trigger}" = 4, "{trigger + 1}" = 6 }}',
        'retrigger = "table"',
        f'retrigger_spins = {{ "{trigger}" = 1, "{trigger + 1}" = 2 }}',
        "multiplier = 2",
        'reel_set = "base"',
        "",
        "[bet]",
        f"lines = {{ min = 1, max = {n_lines} }}",
        "coins_per_line = { min = 1, max = 1 }",
        'coin_sizes = ["1.00"]',
        f"max_total_coins = {n_lines}",
        f'default = {{ lines = {n_lines}, coins_per_line = 1, coin_size = "1.00" }}',
    ]
    variant = ['id = "test"', "", "[reel_sets.base]", f"strips = {_toml_list(base)}"]
    return _write(folder, out, variant)


def _write(folder: Path, model: list[str], variant: list[str]) -> Path:
    (folder / "variants").mkdir(parents=True, exist_ok=True)
    (folder / "model.toml").write_text("\n".join(model) + "\n", encoding="utf-8")
    (folder / "variants" / "test.toml").write_text("\n".join(variant) + "\n", encoding="utf-8")
    return folder


# ---------------------------------------------------------------------------------------
# Fixtures and the replay
# ---------------------------------------------------------------------------------------

SHIPPED = ("days-of-the-tsar",)
MODELS = (*SLOTOPOL, *SHIPPED, "comet", "grid3x1", "grid7x8")


def _make(name: str, root: Path) -> tuple[GameModel, str]:
    """The model and the variant to replay (a slotopol game's first reel set)."""
    folder = root / name
    if name in SHIPPED:
        model = load_game(name)
        return model, model.default_variant
    if name in SLOTOPOL:
        if not CORPUS.is_dir():  # pragma: no cover - CI always has it
            if os.environ.get("CI"):
                raise RuntimeError(f"the slotopol corpus is missing: {CORPUS}")
            pytest.skip(f"the slotopol corpus is not at {CORPUS}")
        convert(CORPUS / f"{name}.json", folder)
    elif name == "comet":
        write_comet(folder)
    else:
        reels, rows = (int(x) for x in name.removeprefix("grid").split("x"))
        write_grid(folder, reels, rows, seed=reels * 10 + rows)
    model = load_model(folder)
    return model, model.default_variant


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[GameModel, str]]:
    root = tmp_path_factory.mktemp("kernel-models")
    return {name: _make(name, root) for name in MODELS}


def observed(played: live.CatalogueRound) -> tuple[int, ...]:
    """A live round's figures in the kernel's ``R_*`` order."""
    base = played.spins[0]
    scatter = base.wins.scatter_win.coins if base.wins.scatter_win else 0
    free = played.free_spins
    return (
        played.win_coins,
        base.wins.line_coins,
        scatter,
        base.triggers,
        base.spins_added,
        len(free),
        played.free_spins_win_coins,
        sum(s.triggers for s in free),
        sum(s.spins_added for s in free),
    )


def play_live(model: GameModel, variant_id: str, source: object) -> live.CatalogueRound:
    bet = CoinBet(model.line_count, 1, Decimal(str(model.bet["coin_sizes"][0])))
    options = live.RoundOptions(gamble_allowed=False)
    played = live.start_round(model, bet, source, variant=variant_id, options=options)
    while played.phase is live.Phase.FREE_SPINS:
        played = live.play_free_spin(model, played, source)
    assert played.phase is live.Phase.COMPLETE, played.void_reason
    return played


def replay_and_compare(
    model: GameModel, variant_id: str, rng: np.ndarray, rounds: int
) -> tuple[int, int, int]:
    """Replay ``rounds`` kernel rounds through live play; returns (rounds, triggers, spins)."""
    game = k.KernelGame.build(model, variant_id)
    results, draws, _stats, _floats = game.trace(rng, rounds)
    triggers = spins = 0
    for number, (result, log) in enumerate(zip(results, draws, strict=True)):
        source = ReplaySource(game.draws_of(log))
        played = play_live(model, variant_id, source)
        assert observed(played) == tuple(int(x) for x in result), (number, result)
        assert source.remaining == 0
        stops = [d for d in log if d[0] == k.DRAW_REEL_STOP]
        assert [list(s.stops) for s in played.spins] == [
            [int(d[2]) for d in stops[i : i + model.reels]]
            for i in range(0, len(stops), model.reels)
        ]
        triggers += result[k.R_AWARDED] > 0
        spins += result[k.R_FREE_SPINS]
    return len(results), triggers, spins


# ---------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MODELS)
def test_kernel_rounds_replay_identically_through_live_play(
    name: str, models: dict[str, tuple[GameModel, str]]
) -> None:
    model, variant_id = models[name]
    compared, triggers, spins = replay_and_compare(
        model, variant_id, chunk_stream(2026, 0), PARITY_ROUNDS
    )
    assert compared == PARITY_ROUNDS
    assert triggers >= 20 and spins >= 3 * triggers, (triggers, spins)


def test_the_small_models_reach_their_features(models: dict[str, tuple[GameModel, str]]) -> None:
    """The replayed rounds exercise what the small models are for: the comet's reveals, its
    retriggers and its cap, the grids' retrigger tables and scatter counts past the table."""
    model, variant_id = models["comet"]
    game = k.KernelGame.build(model, variant_id)
    results, draws, stats, _ = game.trace(chunk_stream(2026, 0), PARITY_ROUNDS)
    assert any(d[0] == k.DRAW_REVEAL for log in draws for d in log)
    assert stats[k.S_CAPPED] > 0 and stats[k.S_RETRIGGERS] > 0
    assert (results[:, k.R_AWARDED] + results[:, k.R_ADDED]).max() == 30  # the cap
    assert game.tables.depth.tolist() == [3, 3] and game.tables.prefix.dtype == np.uint16
    for name in ("grid3x1", "grid7x8"):
        model, variant_id = models[name]
        game = k.KernelGame.build(model, variant_id)
        results, _draws, stats, _ = game.trace(chunk_stream(2026, 0), PARITY_ROUNDS)
        assert stats[k.S_RETRIGGERS] > 0
    assert models["grid7x8"][0].reels * models["grid7x8"][0].rows == 56
    assert results[:, k.R_BASE_TRIGGERS].max() > 4  # counted past the scatter table's end


@pytest.mark.parametrize("name", ["igt-cleopatra", "comet", "grid7x8"])
def test_kernel_stream_is_a_seeded_source_draw_for_draw(
    name: str, models: dict[str, tuple[GameModel, str]]
) -> None:
    """Live play drawing from ``SeededSource(seed)`` plays the rounds the kernel plays from
    ``PCG64(SeedSequence(seed))``, one after another on one stream."""
    model, variant_id = models[name]
    game = k.KernelGame.build(model, variant_id)
    results, _draws, _stats, _ = game.trace(stream_state(np.random.SeedSequence(77)), 3_000)
    source = SeededSource(77)
    for result in results:
        assert observed(play_live(model, variant_id, source)) == tuple(int(x) for x in result)


@pytest.mark.parametrize("name", MODELS)
def test_prefix_tables_change_nothing(name: str, models: dict[str, tuple[GameModel, str]]) -> None:
    """The kernel without prefix tables (every payline evaluated) and with them at every
    depth plays identical rounds from the same stream."""
    model, variant_id = models[name]
    traces = []
    for depth in sorted({0, 1, 2, min(3, model.reels)}):
        game = k.KernelGame.build(model, variant_id, depth=depth)
        assert game.tables.depth.tolist() == [depth, depth]
        entries = game.tables.entries
        if depth == 0:  # one entry: every payline open, no cell read
            assert entries[:, 0, k.E_END].tolist() == [model.line_count] * 2
            assert (game.tables.open_states[:, : model.line_count] == k.START).all()
        if depth == model.reels:  # every payline decided by the prefix
            assert (entries[:, :, k.E_OPEN] == entries[:, :, k.E_END]).all()
        results, _draws, stats, floats = game.trace(chunk_stream(5, 1), 50_000)
        traces.append((results.tolist(), stats, floats))
    assert all(t == traces[0] for t in traces[1:])


def test_statistics_are_those_of_the_recorded_rounds(
    models: dict[str, tuple[GameModel, str]],
) -> None:
    """``run`` (no trace) keeps the statistics of the rounds ``trace`` records, slot by slot."""
    model, variant_id = models["comet"]
    game = k.KernelGame.build(model, variant_id)
    results, _draws, traced, traced_floats = game.trace(chunk_stream(8, 0), 40_000)
    stats, floats, _batches = game.run(chunk_stream(8, 0), 40_000)
    assert stats == traced and floats == traced_floats
    win = results[:, k.R_WIN]
    base = results[:, k.R_BASE_LINE] + results[:, k.R_BASE_SCATTER]
    free = results[:, k.R_FREE_SPINS]
    trigger = mechanics(model).free_spins.trigger  # type: ignore[union-attr]
    edges = k.band_edges_in_coins(game.total_bet)
    bands = np.zeros(k.N_BANDS, dtype=np.int64)
    for w in win:
        bands[0 if w == 0 else min(int(np.searchsorted(edges[1:-1], w)) + 1, k.N_BANDS - 1)] += 1
    expected = {
        k.S_ROUNDS: len(win),
        k.S_WIN: int(win.sum()),
        k.S_BASE_LINE: int(results[:, k.R_BASE_LINE].sum()),
        k.S_BASE_SCATTER: int(results[:, k.R_BASE_SCATTER].sum()),
        k.S_FREE_WIN: int(results[:, k.R_FREE_WIN].sum()),
        k.S_BASE_HITS: int(((base > 0) | (results[:, k.R_BASE_TRIGGERS] >= trigger)).sum()),
        k.S_ROUND_HITS: int((win > 0).sum()),
        k.S_TRIGGERS: int((free > 0).sum()),
        k.S_FREE_SPINS: int(free.sum()),
        k.S_CAPPED: int((results[:, k.R_AWARDED] + results[:, k.R_ADDED] >= 30).sum()),
        k.S_MAX_WIN: int(win.max()),
        k.S_MAX_FREE_SPINS: int(free.max()),
    }
    for slot, value in expected.items():
        assert stats[slot] == value, slot
    assert stats[k.S_BANDS : k.S_BANDS + k.N_BANDS] == bands.tolist()
    assert floats[k.F_WIN_SQ] == pytest.approx(float((win.astype(float) ** 2).sum()), rel=1e-12)
    assert floats[k.F_BASE_WIN_SQ] == pytest.approx(float((base.astype(float) ** 2).sum()))


def test_a_round_that_does_not_fit_the_log_is_undone(
    models: dict[str, tuple[GameModel, str]],
) -> None:
    """Recording a round into a log too short for it plays nothing and puts the stream back
    where the round began, so a retry with a longer log plays the same round."""
    model, variant_id = models["comet"]
    game = k.KernelGame.build(model, variant_id)
    chunk = next(
        i for i in range(1000) if game.trace(chunk_stream(3, i), 1)[0][0, k.R_FREE_SPINS] > 0
    )
    first, _draws, _, _ = game.trace(chunk_stream(3, chunk), 1)
    rng = chunk_stream(3, chunk)
    before = rng.copy()
    stats = np.zeros(k.N_INT_STATS, dtype=np.int64)
    floats = np.zeros(k.N_FLOAT_STATS, dtype=np.float64)
    results = np.zeros((1, k.ROUND_FIELDS), dtype=np.int64)
    ends = np.zeros(1, dtype=np.int64)
    base_spin_only = np.zeros((model.reels, 3), dtype=np.int64)  # room for the base spin alone
    assert game.play(rng, 1, stats, floats, True, results, base_spin_only, ends) == 0
    assert (rng == before).all() and not stats.any() and not results.any()
    assert game.play(rng, 1, stats, floats, True, results, np.zeros((4096, 3), np.int64), ends)
    assert results[0].tolist() == first[0].tolist() and stats[k.S_ROUNDS] == 1


def _replay_stream(folder: str, variant_id: str, seed: int, chunk: int, rounds: int) -> int:
    model = load_model(Path(folder))
    compared, _triggers, _spins = replay_and_compare(
        model, variant_id, chunk_stream(seed, chunk), rounds
    )
    return compared


@pytest.mark.slow
@pytest.mark.parametrize("name", MODELS)
def test_one_million_rounds_replay_identically(
    name: str, models: dict[str, tuple[GameModel, str]]
) -> None:
    model, variant_id = models[name]
    assert model.source is not None
    folder = str(Path(model.source).parent)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        parts = list(
            pool.map(
                _replay_stream, [folder] * 4, [variant_id] * 4, [99] * 4, range(4), [250_000] * 4
            )
        )
    assert sum(parts) == 1_000_000


@pytest.mark.parametrize("title", ["days-of-the-tsar", "sultan-spins"])
def test_a_round_undone_for_a_full_log_leaves_no_counts(title: str) -> None:
    """Trace mode undoes a round whose draws would overflow the log and plays it again in the
    next call; what the round had counted before it stopped (retriggers, a ladder's gems, pot
    hits and levels) is undone with it: a trace through a log too small for most rounds'
    free spins keeps the statistics of a run without one, slot by slot."""
    game = k.KernelGame.build(load_game(title))
    rounds = 20_000
    stats, floats, _batches = game.run(chunk_stream(31, 0), rounds)
    rng = chunk_stream(31, 0)
    state = game.start_state(rng, "stationary")
    traced = np.zeros(game.n_stats, dtype=np.int64)
    traced_floats = np.zeros(len(floats), dtype=np.float64)
    results = np.zeros((rounds, game.round_fields), dtype=np.int64)
    ends = np.zeros(rounds, dtype=np.int64)
    capacity = 3 * game.model.reels * 2  # a base spin fits; a round of free spins seldom does
    done = calls = 0
    while done < rounds:
        log = np.zeros((capacity, 3), dtype=np.int64)
        played = game.play(
            rng,
            rounds - done,
            traced,
            traced_floats,
            True,
            results[done:],
            log,
            ends[done:],
            state=state,
        )
        calls += 1
        if played == 0:
            capacity *= 2  # this round needs more rows; the next call starts small again
        else:
            capacity = 3 * game.model.reels * 2
        done += played
    assert calls > rounds // 10  # rounds were undone for want of room, often
    assert [int(x) for x in traced] == stats
    # the squares are summed per call, so in another grouping: equal to rounding
    assert [float(x) for x in traced_floats] == pytest.approx(floats, rel=1e-12)
