"""A plug-in mechanic through every face of a catalogue title (``engine/plugins.py``).

The plug-in test title (tests/catalogue/models/lucky-fox) is Aurora Fox's rules on three
short reels with a random win multiplier the catalogue lacks, in ``plugin.py`` beside its
model. The invariants: its rounds replay identically from their draws, the plug-in's draw
among them under its own purpose; the kernel's recorded draws replayed through live play give
identical rounds; the exact RTP, hit frequency and base-spin second moment equal a brute-force
sum over every stop combination and every multiplier, played through live play, as
fractions; ``simulate`` agrees with ``analyze`` within its 99% interval; a plug-in's
``win_law`` is the law of its ``apply`` over the draw; ``validate`` names each problem of a
broken plug-in, one line each; and the commands take the folder.
"""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.analysis.simulation import chunk_stream, simulate, simulation_report
from reelsmith.cli import app
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel, ModelError, load_model
from reelsmith.engine.plugins import exact_law_of_draws
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource, SeededSource
from tests import catalogue_rounds as live
from tests.catalogue.test_kernel_parity import play_live, replay_and_compare

FIXTURE = Path(__file__).parent / "models" / "lucky-fox"
PURPOSE = "win_multiplier"
#: The test title's multiplier table, as its model states it: {multiplier: weight}.
MULTIPLIERS = {1: 80, 2: 15, 3: 4, 10: 1}

runner = CliRunner()


@pytest.fixture(scope="module")
def fox() -> GameModel:
    return load_model(FIXTURE)


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "fox"
    shutil.copytree(FIXTURE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _edit(folder: Path, old: str, new: str, name: str = "model.toml") -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


# ---------------------------------------------------------------------------------------
# Live play and replay
# ---------------------------------------------------------------------------------------


def test_live_rounds_draw_the_multiplier_and_replay_identically(fox: GameModel) -> None:
    source = SeededSource(14)
    multiplied = free_multiplied = 0
    for _ in range(400):
        played = play_live(fox, "99.36", source)
        replayed = live.replay(fox, played)
        assert replayed.to_json() == played.to_json()
        for spin in played.spins:
            lines_and_scatter = spin.wins.total_coins
            if lines_and_scatter == 0:
                assert spin.plugin_outcome == 0 and spin.plugin_win == 0
                continue
            assert spin.plugin_outcome in MULTIPLIERS
            assert spin.win_coins == lines_and_scatter * spin.plugin_outcome
            if spin.plugin_outcome > 1:
                multiplied += 1
                free_multiplied += spin.kind == "free"
        drawn = [d for d in played.draws if d.purpose == PURPOSE]
        assert len(drawn) == sum(1 for s in played.spins if s.wins.total_coins > 0)
        assert all(d.bound == sum(MULTIPLIERS.values()) for d in drawn)
        assert played.win_coins == sum(s.win_coins for s in played.spins)
    assert multiplied > 20 and free_multiplied > 0


def test_a_forced_draw_forces_the_multiplier(fox: GameModel) -> None:
    """QA forces a multiplier as it forces reel stops: the draw below the total weight picks
    the multiplier whose cumulative weight first passes it (x10 is the last 1 of 100)."""
    bet = CoinBet(5, 1, Decimal("0.10"))
    options = live.RoundOptions(gamble_allowed=False)
    # reel stops showing owl, owl, owl on the top row (payline 2: 10 coins)
    stops = [Draw("reel_stop", 12, 7), Draw("reel_stop", 13, 8), Draw("reel_stop", 14, 4)]
    for value, multiplier in ((0, 1), (79, 1), (80, 2), (95, 3), (99, 10)):
        source = ReplaySource([*stops, Draw(PURPOSE, 100, value)])
        played = live.start_round(fox, bet, source, options=options)
        base = played.spins[0]
        assert base.wins.line_coins == 10 and base.plugin_outcome == multiplier
        assert played.win_coins == 10 * multiplier and source.remaining == 0
        assert base.to_json()["plugin"] == {"outcome": multiplier, "win_coins": 10 * multiplier}


def test_kernel_rounds_replay_identically_through_live_play(fox: GameModel) -> None:
    compared, triggers, spins = replay_and_compare(fox, "99.36", chunk_stream(2026, 0), 3000)
    assert compared == 3000 and triggers >= 20 and spins >= 3 * triggers
    game = k.KernelGame.build(fox)
    _results, draws, stats, _ = game.trace(chunk_stream(2026, 0), 3000)
    kinds = [int(d[0]) for log in draws for d in log]
    assert kinds.count(k.DRAW_PLUGIN) > 1000
    assert stats[k.S_BASE_PLUGIN] > 0
    assert {d.purpose for log in draws[:50] for d in game.draws_of(log)} == {"reel_stop", PURPOSE}


def test_counting_kernel_equals_recording_kernel(fox: GameModel) -> None:
    """The two compiled loops (recording, counting) play the same rounds."""
    game = k.KernelGame.build(fox)
    _results, _draws, traced, traced_floats = game.trace(chunk_stream(5, 1), 20_000)
    counted, counted_floats, _batches = game.run(chunk_stream(5, 1), 20_000)
    assert traced == counted and traced_floats == pytest.approx(counted_floats, rel=1e-12)


# ---------------------------------------------------------------------------------------
# Exact analysis against brute force
# ---------------------------------------------------------------------------------------


def _values_per_multiplier() -> list[tuple[int, int]]:
    """One draw value per multiplier (the first of its range) and the multiplier's weight."""
    out = []
    start = 0
    for weight in MULTIPLIERS.values():
        out.append((start, weight))
        start += weight
    return out


def _screens(model: GameModel, reel_set: str) -> list[list[Draw]]:
    lengths = model.variant("99.36").reel_sets[reel_set].lengths
    return [
        [Draw("reel_stop", int(n), s) for n, s in zip(lengths, stops, strict=True)]
        for stops in product(*(range(int(n)) for n in lengths))
    ]


def test_exact_figures_equal_brute_force_over_stops_and_multipliers(fox: GameModel) -> None:
    """Every base stop combination x every multiplier through live play (a spin's win, its
    trigger), every free-spin stop combination x every multiplier likewise (a free spin's win
    and the spins it adds); the RTP composes them with the feature's rule (8 spins by the
    table, so E[free spins] = 8 / (1 - m)). Exact fractions, nothing shared with the analysis
    but the live rules."""
    bet = CoinBet(5, 1, Decimal("0.10"))
    options = live.RoundOptions(gamble_allowed=False)
    total_weight = sum(MULTIPLIERS.values())
    base_cases = 0
    base_sum = base_sq = Fraction(0)
    hits = triggers = 0

    def base_spin(stops: list[Draw], value: int) -> live.CatalogueRound:
        source = ReplaySource([*stops, Draw(PURPOSE, 100, value)])
        played = live.start_round(fox, bet, source, options=options)
        assert played.phase is not live.Phase.VOIDED, played.void_reason
        return played

    for stops in _screens(fox, "base"):
        plain = base_spin(stops, 0)
        if plain.spins[0].wins.total_coins == 0:  # no win: the multiplier is not drawn
            outcomes = [(plain, total_weight)]
        else:
            outcomes = [(base_spin(stops, v), w) for v, w in _values_per_multiplier()]
        for played, weight in outcomes:
            win = played.spins[0].win_coins
            base_cases += weight
            base_sum += weight * win
            base_sq += weight * win * win
            triggered = played.free_spins_awarded > 0
            hits += weight * (win > 0 or triggered)
            triggers += weight * triggered
    free_cases = 0
    free_sum = added_sum = Fraction(0)
    # three auroras on the top row: 8 free spins (the spin's scatter win draws a multiplier)
    triggered_round = base_spin(
        [Draw("reel_stop", 12, 0), Draw("reel_stop", 13, 1), Draw("reel_stop", 14, 2)], 0
    )
    assert triggered_round.phase is live.Phase.FREE_SPINS
    assert triggered_round.free_spins_awarded == 8

    def free_spin(stops: list[Draw], value: int) -> live.SpinRecord:
        source = ReplaySource([*stops, Draw(PURPOSE, 100, value)])
        played = live.play_free_spin(fox, triggered_round, source)
        assert played.phase is not live.Phase.VOIDED, played.void_reason
        return played.spins[-1]

    for stops in _screens(fox, "free_spins"):
        plain_spin = free_spin(stops, 0)
        if plain_spin.wins.total_coins == 0:
            cases = [(plain_spin, total_weight)]
        else:
            cases = [(free_spin(stops, v), w) for v, w in _values_per_multiplier()]
        for spin, weight in cases:
            free_cases += weight
            free_sum += weight * spin.win_coins
            added_sum += weight * spin.spins_added
    total_bet = 5
    m = added_sum / free_cases
    p_trigger = Fraction(triggers, base_cases)
    brute_rtp = base_sum / base_cases / total_bet + p_trigger * 8 / (1 - m) * (
        free_sum / free_cases / total_bet
    )
    figures = analyze_rtp(fox)
    assert figures.rtp == brute_rtp
    assert figures.base_spin_rtp == base_sum / base_cases / total_bet
    assert figures.free_spin_win == free_sum / free_cases / total_bet
    full = analyze_full(fox)
    assert full.rtp == brute_rtp
    assert full.hit_frequency == Fraction(hits, base_cases)
    assert full.base.second == base_sq / base_cases / total_bet**2
    # the plug-in's part is what it adds: the base pays before it, times E[M] - 1
    mean_multiplier = Fraction(sum(m * w for m, w in MULTIPLIERS.items()), total_weight)
    assert figures.plugin_rtp == (figures.line_rtp + figures.scatter_rtp) * (mean_multiplier - 1)
    awards = sum((a.rtp for a in full.awards), Fraction(0))
    assert awards + figures.plugin_rtp + figures.plugin_free_spins_rtp == full.rtp
    assert f"{float(full.rtp) * 100:.2f}" == "99.36"  # the variant is named by its RTP


def test_win_law_is_the_law_of_apply_over_the_draw(fox: GameModel) -> None:
    plugin = mechanics(fox).plugin
    assert plugin is not None
    for free in (False, True):
        for win in (0, 1, 5, 10, 37, 880):
            by_value = exact_law_of_draws(plugin, free, win, 5)
            law = plugin.law(free, win, 5)
            scale = len(by_value) // sum(n for _, n in law)
            grouped: dict[int, int] = {}
            for new_win in by_value:
                grouped[new_win] = grouped.get(new_win, 0) + 1
            assert grouped == {y: n * scale for y, n in law}


def test_analyze_and_simulate_agree(fox: GameModel) -> None:
    result = simulate(fox, 400_000, 2026)
    report = simulation_report(fox.name, result, result.exact)
    data = report.to_json()
    assert data["exact_inside_ci99"] is True, (report.source.rtp, data["exact"]["rtp"])
    full = analyze_full(fox)
    assert report.source.hit_frequency == pytest.approx(float(full.hit_frequency), abs=0.005)
    assert report.source.base_spin_std_dev == pytest.approx(full.base_spin_std_dev, rel=0.03)
    assert report.source.stats[k.S_BASE_PLUGIN] / (400_000 * 5) == pytest.approx(
        float(full.figures.plugin_rtp), abs=0.02
    )


def test_a_plugin_on_free_spins_only(tmp_path: Path) -> None:
    """``spins = "free"``: base spins draw no multiplier; the exact RTP moves by the free
    spins' part alone, and the kernel still replays through live play."""
    folder = _copy(tmp_path)
    _edit(folder, 'spins = "all"', 'spins = "free"')
    model = load_model(folder)
    everywhere = analyze_rtp(load_model(FIXTURE))
    figures = analyze_rtp(model)
    assert figures.plugin_rtp == 0 and figures.plugin_free_spins_rtp > 0
    assert figures.plugin_free_spins_rtp == everywhere.plugin_free_spins_rtp
    assert figures.rtp == everywhere.rtp - everywhere.plugin_rtp
    assert analyze_full(model).rtp == figures.rtp
    compared, _triggers, _spins = replay_and_compare(model, "99.36", chunk_stream(3, 0), 1000)
    assert compared == 1000
    played = play_live(model, "99.36", SeededSource(3))
    assert played.spins[0].plugin_outcome is None


# ---------------------------------------------------------------------------------------
# Validation: every problem of a broken plug-in, one line each
# ---------------------------------------------------------------------------------------


def test_validate_a_sound_plugin_title() -> None:
    assert validate_folder(FIXTURE) == []


def test_validate_names_each_bad_parameter(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(
        folder,
        "multipliers = { 1 = 80, 2 = 15, 3 = 4, 10 = 1 }",
        'multipliers = { 0 = 80, 2 = -1, 3 = "4" }\nstep = 2',
    )
    problems = validate_folder(folder)
    where = str(folder / "model.toml")
    assert problems == [
        f"{where}: plugin.params.step: unknown key; the keys are: multipliers",
        f"{where}: plugin.params.multipliers.0: a multiplier must be a whole number >= 1",
        f"{where}: plugin.params.multipliers.2: the weight must be a whole number >= 0, got -1",
        f"{where}: plugin.params.multipliers.3: the weight must be a whole number >= 0, got '4'",
    ]
    with pytest.raises(ModelError, match=r"plugin\.params\.multipliers\.0:"):
        mechanics(load_model(folder))


def test_validate_names_a_bad_plugin_table(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, 'spins = "all"', 'spins = "bonus"\ncolour = "red"')
    where = str(folder / "model.toml")
    assert validate_folder(folder) == [
        f"{where}: plugin: unknown key 'colour'; the keys are: module, params, spins",
        f'{where}: plugin.spins must be "base", "free" or "all", got \'bonus\'',
    ]


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ('"missing.py"', "plugin.module: {folder}/missing.py does not exist"),
        ('"../plugin.py"', "plugin.module: '../plugin.py' must be a file inside {folder}"),
        ('"reelsmith_no_such_plugin"', "plugin.module: no module named 'reelsmith_no_such_plugin'"),
        ("3", "plugin.module must name a .py file of the folder or a module"),
    ],
)
def test_validate_names_a_missing_module(tmp_path: Path, module: str, expected: str) -> None:
    folder = _copy(tmp_path)
    _edit(folder, 'module = "plugin.py"', f"module = {module}")
    problems = validate_folder(folder)
    assert len(problems) == 1
    assert problems[0].startswith(f"{folder / 'model.toml'}: ")
    assert (
        expected.format(folder=folder.resolve() if "exist" in expected else folder) in problems[0]
    )


def test_validate_names_what_a_module_lacks(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "half.py").write_text(
        "PURPOSE = 'reel_stop'\nNAME = 'half'\n"
        "def check(params):\n    return []\n"
        "def table(params):\n    return []\n"
        "def draw_bound(table, free, win, total_bet):\n    return 0\n"
        "def apply(table, free, win, total_bet, value):\n    return win, 0\n"
        "def win_law(table, free, win, total_bet):\n    return [(win, 1)]\n",
        encoding="utf-8",
    )
    (folder / "broken.py").write_text("import no_such_module_here\n", encoding="utf-8")
    _edit(folder, 'module = "plugin.py"', 'module = "half.py"')
    problems = validate_folder(folder)
    source = folder.resolve() / "half.py"
    at = f"{folder / 'model.toml'}: plugin.module {source}"
    assert problems == [
        f"{at}: defines no 'rules' (a plug-in module defines PURPOSE, NAME, check, table, "
        "draw_bound, apply, win_law, rules)"
    ]
    (folder / "half.py").write_text(
        (folder / "half.py").read_text(encoding="utf-8")
        + "def rules(params, spins):\n    return []\n",
        encoding="utf-8",
    )
    assert validate_folder(folder) == [
        f"{at}: PURPOSE must be a draw purpose of its own, not one of gamble_card, reel_stop; "
        "got 'reel_stop'",
        f"{at}: draw_bound must be a numba function (@njit): the kernel calls it",
        f"{at}: apply must be a numba function (@njit): the kernel calls it",
    ]
    _edit(folder, 'module = "half.py"', 'module = "broken.py"')
    (problem,) = validate_folder(folder)
    assert f"{folder.resolve() / 'broken.py'} failed to load" in problem
    assert "no_such_module_here" in problem


def test_validate_names_a_check_that_fails(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "multipliers = { 1 = 80, 2 = 15, 3 = 4, 10 = 1 }", "multipliers = 3")
    _edit(
        folder,
        '    table = params.get("multipliers")',
        '    table = dict(params["multipliers"])',
        "plugin.py",
    )
    (problem,) = validate_folder(folder)
    assert problem.startswith(
        f"{folder / 'model.toml'}: plugin.module {folder.resolve()}/plugin.py"
    )
    assert "its check or table failed: TypeError" in problem


def test_a_model_with_two_plugins_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    text = (folder / "model.toml").read_text(encoding="utf-8")
    head, _plugin = text.split("[plugin]")
    (folder / "model.toml").write_text(
        head + '[[plugin]]\nmodule = "plugin.py"\n[[plugin]]\nmodule = "plugin.py"\n',
        encoding="utf-8",
    )
    assert validate_folder(folder) == [
        f"{folder / 'model.toml'}: plugin must be one table ([plugin]); a model has one plug-in"
    ]


# ---------------------------------------------------------------------------------------
# Commands on the folder
# ---------------------------------------------------------------------------------------


def test_commands_take_the_plugin_folder() -> None:
    analyzed = runner.invoke(app, ["analyze", str(FIXTURE), "--json"])
    assert analyzed.exit_code == 0, analyzed.output
    assert json.loads(analyzed.stdout)["rtp"] == pytest.approx(0.9936263736, abs=1e-10)
    text = runner.invoke(app, ["analyze", str(FIXTURE)])
    assert "win multiplier" in text.stdout and "19.20879%" in text.stdout  # its RTP part
    rules = runner.invoke(app, ["rules", str(FIXTURE), "--json"])
    assert rules.exit_code == 0, rules.output
    section = json.loads(rules.stdout)["rules"]["win_multiplier"]
    assert "x1 (80.00%), x2 (15.00%), x3 (4.00%), x10 (1.00%)" in section[0]
    grid = "owl,owl,owl/king,ace,lynx/ace,king,aurora"
    evaluated = runner.invoke(app, ["evaluate", str(FIXTURE), "--grid", grid, "--json"])
    assert evaluated.exit_code == 0, evaluated.output
    doc = json.loads(evaluated.stdout)
    assert doc["total_coins"] == 10
    assert doc["plugin"]["wins"] == [
        {"total_coins": 10, "probability": 0.8},
        {"total_coins": 20, "probability": 0.15},
        {"total_coins": 30, "probability": 0.04},
        {"total_coins": 100, "probability": 0.01},
    ]
    simulated = runner.invoke(
        app, ["simulate", str(FIXTURE), "--spins", "50000", "--seed", "1", "--json"]
    )
    assert simulated.exit_code == 0, simulated.output
    assert json.loads(simulated.stdout)["exact"]["rtp"] == pytest.approx(0.9936263736)
    assert runner.invoke(app, ["validate", str(FIXTURE)]).exit_code == 0


def test_tune_refuses_a_plugin_title(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    result = runner.invoke(app, ["tune", str(folder), "--target-rtp", "95.00"])
    assert result.exit_code != 0
    assert "tune does not tune a model with a plug-in" in result.output
    assert sorted(p.name for p in (folder / "variants").iterdir()) == ["99.36.toml"]
