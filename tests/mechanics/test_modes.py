"""Bet modes: an ante and a bought feature on the test suite's moded title.

Each mode's exact figures are checked against its rounds played by live play (the simulated
mean inside its 99% interval around the exact RTP), the ante's also against the base analysis
of the model whose base reels are the ante's; a round in a mode replays from its record; every
bad mode key gets one line from validate naming it; the rules page states each mode, its price
and its RTP in English and German."""

from __future__ import annotations

import json
import math
import statistics
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from reelsmith import mechanics
from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.errors import RuleError
from reelsmith.engine.events import round_events
from reelsmith.engine.model import load_model
from reelsmith.engine.round import Stake, finish, replay_from, round_json, start_round
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.modes.exact import all_figures, figures, mode_model
from reelsmith.modelio.validate import check_folder
from reelsmith.rng import SeededSource
from reelsmith.rules_page import rules_document
from tests.mechanics.moded_title import moded_title

#: The stated RTP of the title's one variant (its base game's exact RTP, 10 places).
STATED = "0.9230238757"
BET = CoinBet(3, 1, Decimal("0.20"))
STAKE = Stake(3, 1)


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return load_model(moded_title(tmp_path_factory.mktemp("moded") / "moded", rtp=STATED))


def _play(model, mode: str | None, rounds: int, seed: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Each round's win in multiples of what it cost (its mode's price x the bet)."""
    composition = mechanics.composition(model)
    price = figures(model, None, mode).price if mode else Fraction(1)
    rng = SeededSource(seed)
    parts = {OPTIONS: RoundOptions(), **({"mode": mode} if mode else {})}
    out = []
    for _ in range(rounds):
        played = finish(composition, start_round(composition, BET, STAKE, rng, parts=parts), rng)
        out.append(played.win_coins / (STAKE.total_coins * float(price)))
    return out


def test_the_modes_exact_figures(model) -> None:  # type: ignore[no-untyped-def]
    found = {f.name: f for f in all_figures(model, None)}
    assert list(found) == ["base", "ante", "buy"]
    assert round(float(found["base"].rtp), 10) == float(STATED)
    assert found["ante"].price == Fraction(5, 4) and found["buy"].price == Fraction(19, 5)
    # the ante is the base game on the ante's reels, over its price
    ante = mode_model(model, "ante")
    assert found["ante"].rtp == analyze_rtp(ante).rtp / Fraction(5, 4)
    assert found["ante"].rtp == analyze_full(ante).rtp / Fraction(5, 4)
    assert found["ante"].hit_frequency > found["base"].hit_frequency  # one more star a reel
    # how often a round starts the free spins: each analysis' trigger probability, a buy always
    trigger = analyze_full(ante).figures.trigger_probability
    assert found["ante"].feature_frequency == trigger > found["base"].feature_frequency
    assert found["base"].feature_frequency == analyze_rtp(model).trigger_probability
    assert found["buy"].feature_frequency == 1
    # the buy: the feature's mean from three stars, by Wald's identity on the free reels
    figures_ = analyze_rtp(model)
    five_spins = Fraction(5) / (1 - figures_.added_per_free_spin)
    assert found["buy"].rtp == five_spins * figures_.free_spin_win / Fraction(19, 5)
    for row in found.values():
        assert 0 < row.hit_frequency <= 1 and row.std_dev > 0
        assert row.to_json()["rtp"] == float(row.rtp)


@pytest.mark.parametrize(("mode", "rounds"), [(None, 30_000), ("ante", 30_000), ("buy", 12_000)])
def test_live_play_agrees_with_the_exact_rtp(model, mode: str | None, rounds: int) -> None:  # type: ignore[no-untyped-def]
    exact = float(all_figures(model, None)[["base", "ante", "buy"].index(mode or "base")].rtp)
    wins = _play(model, mode, rounds, seed=2026)
    mean = statistics.fmean(wins)
    half = 2.576 * statistics.stdev(wins) / math.sqrt(rounds)
    assert mean - half <= exact <= mean + half, (mode, mean, half, exact)


def test_a_round_in_a_mode_is_recorded_and_replays(model) -> None:  # type: ignore[no-untyped-def]
    composition = mechanics.composition(model)
    rng = SeededSource(5)
    for mode in ("ante", "buy"):
        parts = {OPTIONS: RoundOptions(), "mode": mode}
        played = finish(composition, start_round(composition, BET, STAKE, rng, parts=parts), rng)
        shown = round_json(composition, played)
        assert shown["mode"] == mode
        again = replay_from(
            composition, BET, STAKE, played.variant, played.actions, played.draws, parts=parts
        )
        assert round_json(composition, again) == shown
        kinds = [e["type"] for e in round_events(composition, played)]
        if mode == "buy":
            assert kinds[:2] == ["round_started", "feature_bought"]
            assert all(s.kind == "free" for s in played.spins) and len(played.spins) >= 5
        else:
            assert "feature_bought" not in kinds and played.spins[0].kind == "base"
    with pytest.raises(RuleError, match="no mode 'turbo'"):
        start_round(composition, BET, STAKE, rng, parts={OPTIONS: RoundOptions(), "mode": "turbo"})


def test_an_ante_spins_its_own_reels(model) -> None:  # type: ignore[no-untyped-def]
    composition = mechanics.composition(model)
    variant = model.variant()
    rng = SeededSource(11)
    parts = {OPTIONS: RoundOptions(), "mode": "ante"}
    for _ in range(50):
        played = start_round(composition, BET, STAKE, rng, parts=parts)
        spin = played.spins[0]
        ante = variant.reel_sets["ante"]
        landed = [
            [model.symbol_id(int(ante.padded[r, at + row])) for r, at in enumerate(spin.stops)]
            for row in range(model.rows)
        ]
        assert [list(r) for r in spin.landed] == landed


def _lines(tmp_path: Path, **kwargs: str) -> tuple[list[str], list[str]]:
    found = check_folder(moded_title(tmp_path / "t", rtp=STATED, **kwargs))
    return found.problems, found.warnings


def test_validate_passes_the_title_and_warns_on_the_rtp_spread(tmp_path: Path) -> None:
    problems, warnings = _lines(tmp_path)
    assert problems == []
    assert not any("modes' RTPs" in w for w in warnings)
    problems, warnings = _lines(tmp_path / "narrow", tolerance="1")
    assert problems == []
    spread = [w for w in warnings if "modes' RTPs" in w]
    assert len(spread) == 1
    assert "differ by 2.1164 percentage points" in spread[0]
    assert "modes.rtp_tolerance = 1" in spread[0]


@pytest.mark.parametrize(
    ("extra", "line"),
    [
        (
            '[modes.super]\nkind = "ante"\nreel_set = "ante"\n',
            "modes.super: missing key 'price': a mode is sold at a price in total bets",
        ),
        (
            '[modes.super]\nkind = "buy"\nprice = 5\ntriggers = 3\ncolour = "red"\n',
            "modes.super: unknown key 'colour'; the keys of a buy are: kind, price, triggers",
        ),
        (
            '[modes.super]\nkind = "ante"\nprice = 1.255\nreel_set = "ante"\n',
            "modes.super.price must be a number of total bets above 0 with at most two decimals",
        ),
        (
            '[modes.super]\nkind = "jackpot"\nprice = 2\n',
            "modes.super.kind must be one of ante, buy, got 'jackpot'",
        ),
        (
            '[modes.super]\nkind = "buy"\nprice = 5\ntriggers = 1\n',
            "modes.super.triggers must be a whole count from free_spins.trigger (2)",
        ),
        (
            '[modes.super]\nkind = "ante"\nprice = 2\nreel_set = "gold"\n',
            "modes.super.reel_set 'gold' is not a reel set of this variant",
        ),
    ],
)
def test_validate_names_a_bad_mode_key(tmp_path: Path, extra: str, line: str) -> None:
    problems, _ = _lines(tmp_path, mode="\n" + extra)
    assert len(problems) == 1, problems
    assert line in problems[0]


def test_a_buy_needs_free_spins(tmp_path: Path) -> None:
    folder = moded_title(tmp_path / "t", rtp=STATED)
    text = (folder / "model.toml").read_text(encoding="utf-8")
    start = text.index("[free_spins]")
    end = text.index("[bet]")
    (folder / "model.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    problems = check_folder(folder).problems
    assert any(
        "modes.buy: a bought feature needs free spins ([free_spins]); this model has none" in p
        for p in problems
    ), problems


def test_the_rules_page_states_each_mode_in_english_and_german(model) -> None:  # type: ignore[no-untyped-def]
    found = {f.name: f for f in all_figures(model, None)}
    ante = f"{float(found['ante'].rtp) * 100:.2f}"
    buy = f"{float(found['buy'].rtp) * 100:.2f}"
    english = rules_document(model, language="en")
    text = " ".join(str(s) for s in english["rules"]["modes"])
    assert "Ante: costs 1.25 times the bet" in text
    assert "Buy: costs 3.8 times the bet and buys the free spins at once" in text
    assert "as if 3 Star symbols had landed" in text
    assert f"RTP of ante, over the long run and on what it costs, is {ante}%" in text
    assert f"is {buy}%" in text
    german = rules_document(model, language="de")
    text = " ".join(str(s) for s in german["rules"]["modes"])
    assert "Ante: kostet das 1,25-Fache des Einsatzes" in text
    assert "als wären 3 Star-Symbole erschienen" in text
    assert f"{ante.replace('.', ',')} %" in text and f"{buy.replace('.', ',')} %" in text


def test_analyze_lists_every_mode_in_its_text_and_json(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = moded_title(tmp_path / "t", rtp=STATED)
    runner = CliRunner()
    shown = runner.invoke(app, ["analyze", str(folder), "--json"])
    assert shown.exit_code == 0, shown.output
    document = json.loads(shown.output)
    modes = {row["mode"]: row for row in document["modes"]}
    assert list(modes) == ["base", "ante", "buy"]
    assert modes["base"]["rtp"] == pytest.approx(document["rtp"], abs=1e-9)
    assert modes["ante"]["price"] == 1.25 and modes["buy"]["triggers"] == 3
    assert round(modes["buy"]["rtp"] * 100, 2) == 94.42
    assert modes["buy"]["feature_frequency"] == 1.0
    assert modes["ante"]["feature_frequency"] > modes["base"]["feature_frequency"] > 0
    text = runner.invoke(app, ["analyze", str(folder)], terminal_width=200)
    assert text.exit_code == 0
    assert "Bet modes, exact" in text.output and "buy 3" in text.output
    assert "free spins freq" in text.output and "every round" in text.output
    pytest.importorskip("matplotlib")
    sheet = tmp_path / "par.html"
    written = runner.invoke(app, ["analyze", str(folder), "--report", str(sheet)])
    assert written.exit_code == 0, written.output
    html = sheet.read_text(encoding="utf-8")
    assert "<h2>Bet modes</h2>" in html and "<td>buy 3</td>" in html
    assert "<th>free spins freq</th>" in html and "<td>every round</td>" in html


@pytest.mark.parametrize("mode", ["ante", "buy"])
def test_simulate_a_mode_against_its_exact_rtp(tmp_path: Path, mode: str) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = moded_title(tmp_path / "t", rtp=STATED)
    shown = CliRunner().invoke(
        app, ["simulate", str(folder), "--mode", mode, "--spins", "20000", "--seed", "3", "--json"]
    )
    assert shown.exit_code == 0, shown.output
    result = json.loads(shown.output)
    assert result["mode"] == mode and result["rounds"] == 20_000
    low, high = result["rtp_interval_99"]
    assert low <= result["exact_rtp"] <= high and result["exact_inside_interval"] is True
    assert result["played_by"] == "live play"
    refused = CliRunner().invoke(app, ["simulate", str(folder), "--mode", "turbo", "--spins", "10"])
    assert refused.exit_code != 0 and "no mode 'turbo'" in refused.output
