"""The max-win cap (:mod:`reelsmith.mechanics.max_win`) on the test suite's capped title
(``tests/mechanics/capped_title.py``, a cap of 10 x the bet that about one round in sixteen
reaches): the exact capped RTP and cap probability against a brute force over every stop played
through live play; the kernel's simulated capped RTP and cap frequency inside the exact's 99%
intervals; kernel rounds, capped ones among them, replayed through live play draw for draw; a
capped round's end (no free spin after the cap, the event, the record); what ``analyze`` says
where the capped figures are not exact; and the model's refusals by key."""

from __future__ import annotations

import itertools
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis.analysis_report import analysis_report
from reelsmith.analysis.analyzer import analyze
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import simulate
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.events import round_events
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition, event_schema
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.max_win.exact import cap_figures
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource, SeededSource
from tests.mechanics.capped_title import capped_title
from tests.mechanics.test_ways_kernel import observed

#: The two-sided 99% normal quantile.
Z_99 = 2.5758

BET = CoinBet(3, 1, Decimal("0.01"))
STAKE = core.Stake(3, 1)
NO_GAMBLE = {OPTIONS: RoundOptions(gamble_allowed=False)}


def _model(tmp_path: Path, **options: object) -> GameModel:
    return load_model(capped_title(tmp_path / "capped", **options))  # type: ignore[arg-type]


def _play(model: GameModel, source: object, parts: dict | None = None) -> core.Round:
    comp = composition(model)
    played = core.start_round(comp, BET, STAKE, source, parts=parts or NO_GAMBLE)  # type: ignore[arg-type]
    return core.finish(comp, played, source)  # type: ignore[arg-type]


# -- exact against brute force --------------------------------------------------------


def test_every_stop_through_live_play_equals_the_exact_capped_figures(tmp_path: Path) -> None:
    model = _model(tmp_path)
    reel_set = model.variant().reel_sets["base"]
    lengths = [int(n) for n in reel_set.lengths]
    paid = reached = uncapped = 0
    for stops in itertools.product(*(range(n) for n in lengths)):
        draws = [Draw("reel_stop", n, s) for n, s in zip(lengths, stops, strict=True)]
        played = _play(model, ReplaySource(draws))
        assert played.phase == core.COMPLETE and played.win_coins <= 30
        paid += played.win_coins
        state = played.part("max_win")
        reached += state.reached
        uncapped += state.uncapped_coins if state.reached else played.win_coins
    cases = reel_set.cycle
    cap = cap_figures(analyze(model))
    assert cap is not None and cap.exact is not None and cap.cap_coins == 30
    assert cap.exact.rtp == Fraction(paid, cases * 3)
    assert cap.exact.probability == Fraction(reached, cases)
    # the cap bites: the capped RTP is below the uncapped one, by what the rounds above it lost
    assert Fraction(uncapped, cases * 3) == analyze(model).rtp > cap.exact.rtp
    assert reached * 20 > cases


# -- the kernel -------------------------------------------------------------------------


def test_the_simulated_capped_figures_hold_the_exact_ones(tmp_path: Path) -> None:
    model = _model(tmp_path)
    cap = cap_figures(analyze(model))
    assert cap is not None and cap.exact is not None
    rounds = 400_000
    result = simulate(model, rounds, 2026, workers=1)
    low, high = result.interval(Z_99)  # type: ignore[misc]
    assert low <= float(cap.exact.rtp) <= high, (float(cap.exact.rtp), low, high)
    assert not low <= float(analyze(model).rtp) <= high  # the uncapped RTP is not what it plays
    p = float(cap.exact.probability)
    half = Z_99 * math.sqrt(p * (1 - p) / rounds)
    hits = result.stats[k.S_CAP_HITS] / rounds
    assert abs(hits - p) <= half, (hits, p, half)
    assert result.stats[k.S_MAX_WIN] == 30  # no round pays above the cap


@pytest.mark.parametrize("free_spins", [False, True])
def test_kernel_rounds_replay_through_live_play(tmp_path: Path, free_spins: bool) -> None:
    """Each kernel round played again through live play on its recorded draws: every draw
    used, the same figures (the free spins cut at the cap included), capped rounds among
    them, and where free spins were left when the cap was reached, none played."""
    model = _model(tmp_path, free_spins=free_spins)
    game = k.KernelGame.build(model)
    assert game.cap_coins == 30
    rounds = 3_000
    results, draws, stats, _ = game.trace(stream_state(11), rounds)
    capped = cut_short = 0
    for i in range(rounds):
        source = ReplaySource(game.draws_of(draws[i]))
        played = _play(model, source)
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert observed(played) == tuple(int(x) for x in results[i]), f"round {i}"
        state = played.part("max_win")
        capped += state.reached
        if free_spins and state.reached:
            cut_short += played.part("free_spins").remaining > 0
    assert capped == stats[k.S_CAP_HITS] and capped > 50
    if free_spins:
        assert cut_short > 0


# -- a capped round -------------------------------------------------------------------------


def test_a_capped_round_ends_at_once_and_says_so(tmp_path: Path) -> None:
    model = _model(tmp_path, free_spins=True)
    comp = composition(model)
    for seed in range(2_000):
        played = _play(model, SeededSource(seed))
        state = played.part("max_win")
        if state.reached and len(played.spins) > 1 and played.part("free_spins").remaining:
            break
    else:  # pragma: no cover - the title is made to reach its cap in free spins
        pytest.fail("no round reached the cap with free spins left")
    assert played.phase == core.COMPLETE and played.win_coins == 30
    assert sum(s.win_coins for s in played.spins) == 30 < state.uncapped_coins
    last = core.round_json(comp, played)
    assert last["cap_reached"] is True and last["max_win_coins"] == 30
    assert last["spins"][-1]["cap_reached"] is True  # type: ignore[index]
    events = round_events(comp, played)
    kinds = [e["type"] for e in events]
    assert kinds.count("cap_reached") == 1 and kinds[-1] == "round_ended"
    cap_event = next(e for e in events if e["type"] == "cap_reached")
    assert cap_event["spin"] == len(played.spins) - 1
    assert cap_event["cap_coins"] == 30 and cap_event["uncapped_coins"] == state.uncapped_coins
    assert "cap_reached" in {entry["title"] for entry in event_schema()["items"]["oneOf"]}
    # the round replays from its record, capped the same way
    again = core.replay_from(
        comp, BET, STAKE, played.variant, played.actions, played.draws, parts=NO_GAMBLE
    )
    assert core.round_json(comp, again) == last


def test_a_market_s_lower_cap_is_the_round_s(tmp_path: Path) -> None:
    """The round options' cap (a market's) below the model's caps the round lower; above it,
    the model's stands."""
    model = _model(tmp_path)
    lower = {OPTIONS: RoundOptions(gamble_allowed=False, max_win_multiplier=4)}
    higher = {OPTIONS: RoundOptions(gamble_allowed=False, max_win_multiplier=50)}
    seen = 0
    for seed in range(300):
        low = _play(model, SeededSource(seed), lower)
        high = _play(model, SeededSource(seed), higher)
        plain = _play(model, SeededSource(seed))
        assert low.win_coins == min(plain.win_coins, 12)
        assert high.win_coins == plain.win_coins <= 30
        seen += low.part("max_win").reached and not plain.part("max_win").reached
    assert seen > 10


# -- analyze ------------------------------------------------------------------------------


def test_analyze_says_where_the_capped_figures_are_not_exact(tmp_path: Path) -> None:
    """With free spins the round's law is composed by Wald's identities: analyze gives no
    capped figure as exact, prints no uncapped RTP as the RTP, and gives the kernel's capped
    figures marked simulated with their interval."""
    model = _model(tmp_path, free_spins=True)
    report = analysis_report(analyze(model))
    doc = report.to_json()
    assert doc["rtp"] is None and doc["std_dev"] is None
    assert doc["uncapped"]["rtp"] == pytest.approx(float(analyze(model).rtp))
    cap = doc["max_win"]
    assert cap["exact"] is False and "Wald" in cap["why_not_exact"]
    sim = cap["simulated"]
    assert sim["method"].startswith("simulated") and sim["rounds"] == 1_000_000
    low, high = sim["rtp_ci99"]
    assert low <= sim["rtp"] <= high < doc["uncapped"]["rtp"]
    text = "\n".join(str(block) for block in report.text if isinstance(block, str))
    assert "NOT exact" in text and "simulated, 1,000,000 rounds" in text
    assert not any(line.startswith("RTP ") for line in text.splitlines())


def test_analyze_states_the_exact_capped_figures(tmp_path: Path) -> None:
    model = _model(tmp_path)
    doc = analysis_report(analyze(model)).to_json()
    cap = cap_figures(analyze(model))
    assert cap is not None and cap.exact is not None
    assert doc["max_win"]["exact"] is True and doc["max_win"]["multiplier"] == 10
    assert doc["rtp"] == float(cap.exact.rtp) < doc["uncapped"]["rtp"]
    assert doc["max_win"]["probability"] == float(cap.exact.probability)


# -- the model ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ("multiplier = 9", "max_win.multiplier = 9 is below the largest single pay"),
        ("multiplier = 0", "max_win.multiplier must be a whole number of total bets above 0"),
        ("multiplier = -5", "max_win.multiplier must be a whole number of total bets above 0"),
        ("multiplier = 12.5", "max_win.multiplier must be a whole number of total bets above 0"),
        ("multiplier = 20\nfactor = 2", "max_win: unknown key 'factor'"),
    ],
)
def test_validate_refuses_a_bad_cap_in_one_line_naming_the_key(
    tmp_path: Path, table: str, says: str
) -> None:
    folder = capped_title(tmp_path / "bad")
    path = folder / "model.toml"
    path.write_text(path.read_text().replace("multiplier = 10", table), encoding="utf-8")
    problems = validate_folder(folder)
    assert len(problems) == 1 and says in problems[0], problems


def test_the_cap_is_refused_beside_a_ladder_and_composes_with_a_cascade(tmp_path: Path) -> None:
    from reelsmith.mechanics import composition_problems

    raw = dict(_model(tmp_path).raw)
    cascaded = {**raw, "cascade": {"limit": 2, "multipliers": [1, 1]}}
    assert not any("max_win" in line for line in composition_problems(cascaded, "m"))
    laddered = {**raw, "ladder": {}}
    found = composition_problems(laddered, "m")
    assert any("ladder and max_win" in line for line in found), found


def test_a_capped_ways_title_replays_and_is_not_called_exact(tmp_path: Path) -> None:
    """The tiny ways title of the ways tests with a cap of 2 x its bet of 10 coins: the kernel
    caps its rounds (base spins and free spins with drawn wild weights) as live play does, and
    ``simulate`` sets no exact capped RTP beside them (the lab has no full analysis of ways)."""
    from tests.mechanics.test_ways import tiny

    folder = tiny(tmp_path / "ways")
    path = folder / "model.toml"
    path.write_text(path.read_text() + "\n[max_win]\nmultiplier = 2\n", encoding="utf-8")
    model = load_model(folder)
    game = k.KernelGame.build(model)
    assert game.cap_coins == 20
    rounds = 2_000
    results, draws, stats, _ = game.trace(stream_state(5), rounds)
    bet, stake = CoinBet(10, 1, Decimal("0.01")), core.Stake(10, 1)
    comp = composition(model)
    for i in range(rounds):
        source = ReplaySource(game.draws_of(draws[i]))
        played = core.finish(
            comp, core.start_round(comp, bet, stake, source, parts=NO_GAMBLE), source
        )
        assert source.remaining == 0 and observed(played) == tuple(int(x) for x in results[i])
        assert played.win_coins <= 20
    assert stats[k.S_CAP_HITS] > 100
    result = simulate(model, 50_000, 3, workers=1)
    assert result.exact["rtp"] is None and result.exact["max_win_multiplier"] == 2
    assert "ways" in result.exact["why_not_exact"]
    assert result.stats[k.S_MAX_WIN] == 20


def test_the_gamble_never_takes_a_round_past_its_cap(tmp_path: Path) -> None:
    """With a gamble on the capped title: a win at the cap is paid without a gamble; below
    it, only the choices whose win stays within the cap are offered."""
    folder = capped_title(tmp_path / "gamble")
    path = folder / "model.toml"
    path.write_text(
        path.read_text() + '\n[gamble]\nmax_gambles = 5\nwin_limit_credits = "1000.00"\n',
        encoding="utf-8",
    )
    model = load_model(folder)
    comp = composition(model)
    reel_set = model.variant().reel_sets["base"]
    lengths = [int(n) for n in reel_set.lengths]
    offered: dict[int, set[str]] = {}
    for stops in itertools.product(*(range(n) for n in lengths)):
        draws = [Draw("reel_stop", n, s) for n, s in zip(lengths, stops, strict=True)]
        played = core.start_round(
            comp, BET, STAKE, ReplaySource(draws), parts={OPTIONS: RoundOptions()}
        )
        choices = {a.split()[1] for a in core.actions(comp, played) if a.startswith("gamble")}
        offered.setdefault(played.win_coins, set()).update(choices)
        if played.part("max_win").reached:
            assert played.phase == core.COMPLETE and played.win_coins == 30
    assert offered[30] == set()
    for win, choices in offered.items():
        colour = {"red", "black"} <= choices
        suit = bool(choices - {"red", "black"})
        assert colour == (0 < win * 2 <= 30) and suit == (0 < win * 4 <= 30), (win, choices)
    assert any(0 < w * 2 <= 30 < w * 4 for w in offered)  # a win offered colour and not suit


@pytest.mark.parametrize("free_spins", [False, True])
def test_the_par_sheet_states_the_cap_and_its_odds(tmp_path: Path, free_spins: bool) -> None:
    pytest.importorskip("matplotlib")
    model = _model(tmp_path, free_spins=free_spins)
    html = analysis_report(analyze(model)).to_html()
    assert "max win cap" in html and "10x bet" in html
    assert "RTP (capped)" in html and "P(round reaches the cap)" in html
    assert "RTP (uncapped)" in html
    if free_spins:
        assert "simulated, 1,000,000 rounds; not exact" in html
    else:
        assert "exact (the round&#x27;s win law, capped)" in html or "exact (the round" in html


def test_the_terminal_says_the_round_reached_its_maximum(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = capped_title(tmp_path / "play", free_spins=True)
    result = CliRunner().invoke(
        app, ["play", str(folder), "--seed", "3", "--balance", "50"], input="s\n" * 8 + "q\n"
    )
    assert result.exit_code == 0, result.output
    assert "Maximum win reached: 10x the bet, 30 coins" in result.output
