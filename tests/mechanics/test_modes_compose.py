"""Bet modes on the other round laws: an ante on a hold-and-spin title, a bought feature on
cascades (lines and ways).

The ante's figures are the full analysis of the model whose base reels are the ante's, over
its price, and its rounds played live hold them; the bought feature's figures are checked
against every stop combination of the free reels played through live play (each spin's pay,
the spins it adds and the spins that pay nothing, composed by Wald's identities and the least
root of the no-pay fixed point), and its rounds played live hold them."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from reelsmith.analysis.analyzer import analyze
from reelsmith.analysis.catalogue_exact import no_win_per_spin
from reelsmith.engine.model import load_model
from reelsmith.games import load_game
from reelsmith.mechanics.modes.exact import all_figures, figures, mode_model
from reelsmith.mechanics.modes.simulate import simulate_mode
from tests.mechanics import test_cascade as cascades
from tests.mechanics.hold_title import MODEL as HOLD_MODEL
from tests.mechanics.hold_title import hold_title

ANTE = '\n[modes.ante]\nkind = "ante"\nprice = 1.5\nreel_set = "ante"\n'
BUY = '\n[modes.buy]\nkind = "buy"\nprice = 5\ntriggers = {triggers}\n'


def _hold_with_ante(folder: Path) -> Path:
    """The test suite's hold title with an ante whose reels show one more coin on reel 1."""
    made = hold_title(folder, model=HOLD_MODEL + ANTE)
    variant = made / "variants" / "main.toml"
    text = variant.read_text(encoding="utf-8")
    strips = text.split("[reel_sets.base]\n")[1].split("\n\n")[0]
    more = strips.replace('["bell", "coin", "plum"', '["coin", "coin", "plum"', 1)
    assert more != strips
    variant.write_text(
        text.replace("[figures]", f"[reel_sets.ante]\n{more}\n\n[figures]"), encoding="utf-8"
    )
    return made


def test_an_ante_on_hold_and_spin_is_the_analysis_of_its_reels_over_its_price(
    tmp_path: Path,
) -> None:
    model = load_model(_hold_with_ante(tmp_path / "hold"))
    ante = figures(model, None, "ante")
    reels = analyze(mode_model(model, "ante"))
    assert ante.rtp == reels.rtp / Fraction(3, 2)
    assert ante.std_dev == pytest.approx(reels.std_dev / 1.5, rel=1e-12)
    assert ante.hit_frequency == pytest.approx(float(reels.hit_frequency), rel=1e-12)
    base = all_figures(model, None)[0]
    assert base.rtp == analyze(model).rtp
    assert ante.rtp * Fraction(3, 2) > base.rtp  # one more coin on reel 1: more features
    assert ante.feature_frequency == reels.trigger_probability > base.feature_frequency
    assert base.feature_frequency == analyze(model).trigger_probability
    # live play in the ante: its rounds' mean holds the exact RTP
    played = simulate_mode(model, None, "ante", 20_000, 3)
    assert played.inside, played.to_json()


def test_the_lanterns_ante_starts_the_hold_and_spin_more_often() -> None:
    """Lucky Lanterns' ante: its hold-and-spin frequency is the analysis of the model whose
    base reel set is the ante's (one more Lantern on reels 2 to 4), above the base game's;
    the modes' table says it per round of each mode."""
    from reelsmith.analysis.analysis_report import analysis_report
    from reelsmith.mechanics.modes.report import frequency, with_modes

    model = load_game("lucky-lanterns")
    base, ante = all_figures(model, None)
    assert ante.name == "ante" and ante.feature == base.feature == "hold-and-spin"
    reels = analyze(mode_model(model, "ante"))
    assert ante.feature_frequency == reels.trigger_probability
    assert base.feature_frequency == analyze(model).trigger_probability
    assert ante.feature_frequency > base.feature_frequency > 0
    report = with_modes(analysis_report(analyze(model)), model, None)
    rows = {row["mode"]: row for row in report.to_json()["modes"]}
    assert rows["ante"]["feature_frequency"] == float(reels.trigger_probability)
    text = "\n".join(str(block) for block in report.text if isinstance(block, str))
    assert "hold-and-spin freq: how often a round of the mode starts the hold-and-spin" in text
    table = next(b for b in report.text if not isinstance(b, str) and b.title == "Bet modes, exact")
    row = next(r for r in table.rows if r[0] == "hold-and-spin freq")
    assert row == (
        "hold-and-spin freq",
        frequency(base.feature_frequency),
        frequency(ante.feature_frequency),
    )
    assert frequency(ante.feature_frequency).startswith("1 in ")


@pytest.mark.parametrize(
    ("make", "triggers"),
    [(cascades.tiny, 2), (cascades.tiny, 3), (cascades.tiny_ways, 2)],
    ids=["lines-2", "lines-3", "ways-2"],
)
def test_a_bought_feature_on_cascades_is_every_free_chain_composed(
    tmp_path: Path, make, triggers: int
) -> None:  # type: ignore[no-untyped-def]
    folder = make(tmp_path / "t")
    path = folder / "model.toml"
    path.write_text(path.read_text() + BUY.format(triggers=triggers), encoding="utf-8")
    model = load_model(folder)
    bought = figures(model, None, "buy")
    _, free = cascades._live_sums(model)
    cycle = math.prod(int(n) for n in model.variant().reel_sets["base"].lengths)
    bet = cascades._base(model)[1].total_coins
    spins = {2: 2, 3: 3}[triggers] if make is cascades.tiny else {2: 2, 3: 4}[triggers]
    added = Fraction(free["awards"], cycle)
    per_spin = Fraction(free["pay"], cycle) / (1 - added)  # Wald: a spin and those it adds
    assert bought.rtp == spins * per_spin / bet / 5
    zero = Fraction(cycle - free["hits"], cycle)
    quiet = sorted(free["quiet"].items())
    chances = [zero, *(Fraction(n, cycle) for _, n in quiet)]
    nothing = no_win_per_spin(chances, [0, *(a for a, _ in quiet)]) ** spins
    assert bought.hit_frequency == pytest.approx(1 - nothing, rel=1e-12)
    assert bought.feature_frequency == 1 and bought.to_json()["feature_frequency"] == 1.0
    base = all_figures(model, None)[0]  # the cascade's own analysis gives the base row's
    assert base.feature_frequency == analyze(model).figures.trigger_probability > 0
    assert base.feature == "free spins"
    played = simulate_mode(model, None, "buy", 4_000, 11)
    assert played.inside, played.to_json()
    assert played.hit_frequency == pytest.approx(bought.hit_frequency, abs=0.03)
