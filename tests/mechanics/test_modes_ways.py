"""A bought feature on a plain ways title (no cascade): its exact figures against every free stop
combination (and every wild weight a free spin draws) played through live play and composed by
Wald's identities and the least root of the no-pay fixed point; its rounds (capped or not)
played live inside the exact RTP's interval; ``reelsmith analyze`` listing the mode; and
``reelsmith tune --mode buy`` on it."""

from __future__ import annotations

import itertools
import json
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from reelsmith.analysis.catalogue_exact import feature_given, no_win_per_spin
from reelsmith.cli import app
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.modes.exact import figures
from reelsmith.mechanics.modes.simulate import simulate_mode
from reelsmith.mechanics.ways.rules import ways_rules
from reelsmith.rng import Draw, ReplaySource

MODEL = """\
id = "tiny-ways-buy"
name = "Tiny Ways Buy"
reels = 3
rows = 2
default_variant = "main"

[[symbols]]
id = "wild"
name = "Wild"
role = "wild"

[[symbols]]
id = "bird"
name = "Bird"
role = "regular"

[[symbols]]
id = "fish"
name = "Fish"
role = "regular"

[[symbols]]
id = "leaf"
name = "Leaf"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[ways]
cost = 10
min_run = 2
wild_weights = [1, 2, 1]
pure_wild_ways = "wild"
{weights}
[ways_pays]
wild = {{ 2 = 1, 3 = 4 }}
bird = {{ 2 = 1, 3 = 5 }}
fish = {{ 3 = 2 }}
leaf = {{ 3 = 1 }}

[scatter]
symbol = "star"
pays = {{ 2 = 1, 3 = 4 }}
max_per_reel = 1

[free_spins]
trigger = 2
spins = {{ 2 = 3, 3 = 5 }}
retrigger = "table"
retrigger_spins = {{ 2 = 1, 3 = 2 }}
multiplier = 2
reel_set = "free"
{cap}
[bet]
lines = {{ min = 10, max = 10 }}
coins_per_line = {{ min = 1, max = 2 }}
coin_sizes = ["0.01"]
max_total_coins = 20
default = {{ lines = 10, coins_per_line = 1, coin_size = "0.01" }}

[modes]
rtp_tolerance = 100

[modes.buy]
kind = "buy"
price = 7
triggers = {triggers}
"""

DRAWN = '\n[ways.free_spins_wild_weights]\n"2" = { 2 = 1, 3 = 2 }\n'

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "leaf", "fish", "leaf", "star", "leaf", "wild", "leaf", "fish", "leaf", "bird", "leaf"],
  ["leaf", "wild", "leaf", "fish", "leaf", "star", "leaf", "bird", "leaf", "leaf", "fish"],
  ["fish", "bird", "leaf", "star", "fish", "wild", "bird", "leaf", "fish", "fish"],
]

[reel_sets.free]
strips = [
  ["bird", "leaf", "fish", "star", "leaf", "wild", "leaf", "fish", "leaf"],
  ["leaf", "wild", "leaf", "fish", "star", "leaf", "bird", "leaf"],
  ["fish", "bird", "fish", "star", "leaf", "wild", "bird", "fish"],
]

[figures]
rtp = 1.0
"""

BET = CoinBet(10, 1, Decimal("0.01"))
STAKE = core.Stake(10, 1)


def ways_buy(
    folder: Path, triggers: int = 3, drawn: bool = True, times: int = 1, cap: int = 0
) -> Path:
    """The title: three reels of two rows paid by ways (a wild counting twice on reel 2, and in
    a free spin drawn 2 or 3 with odds 1 : 2 where ``drawn``), a scatter paying the bet, free
    spins on their own reels at twice the pays, retriggered, and a feature bought for 7 bets
    that starts as ``triggers`` scatters would; each strip repeated ``times`` times (the same
    figures, finer single stops for the tuner); ``cap`` the most spins a feature plays (0: no
    cap)."""
    folder.mkdir(parents=True, exist_ok=True)
    model = MODEL.format(
        triggers=triggers,
        weights=DRAWN if drawn else "",
        cap=f"max_spins = {cap}\n" if cap else "",
    )
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants").mkdir(exist_ok=True)
    variant = "\n".join(
        f"  [{', '.join([line.strip()[1:-2]] * times)}]," if line.startswith("  [") else line
        for line in VARIANT.splitlines()
    )
    (folder / "variants" / "main.toml").write_text(variant + "\n", encoding="utf-8")
    return folder


def _draws(model: GameModel, reel_set: str, stops: tuple[int, ...]) -> list[Draw]:
    lengths = model.variant().reel_sets[reel_set].lengths
    return [Draw("reel_stop", int(n), s) for n, s in zip(lengths, stops, strict=True)]


def _free_spins_played(model: GameModel) -> dict[str, Any]:
    """Every free stop combination, and every value of each wild weight's draw, played as a
    free spin through live play (each case equally likely): the cases, their pays, the spins
    they add, the spins that pay or add, and those paying nothing by the spins they add."""
    comp = composition(model)
    base = [int(n) for n in model.variant().reel_sets["base"].lengths]
    in_free = None
    for stops in itertools.product(*(range(n) for n in base)):
        played = core.start_round(
            comp,
            BET,
            STAKE,
            ReplaySource(_draws(model, "base", stops)),
            parts={OPTIONS: RoundOptions(False)},
        )
        if played.phase == "free_spins":
            in_free = played
            break
    assert in_free is not None
    rules = ways_rules(model)
    weight_draws = [
        [Draw("wild_weight", sum(odds), v) for v in range(sum(odds))]
        for _reel, (_values, odds) in sorted(rules.free_weights.items())
    ]
    free = [int(n) for n in model.variant().reel_sets["free"].lengths]
    sums: dict[str, Any] = {"cases": 0, "pay": 0, "awards": 0, "hits": 0, "quiet": {}}
    for stops in itertools.product(*(range(n) for n in free)):
        for drawn in itertools.product(*weight_draws):
            source = ReplaySource([*_draws(model, "free", stops), *drawn])
            played = core.act(comp, in_free, "free_spin", source)
            spin = played.spins[-1]
            added = spin.parts["free_spins"].spins_added
            sums["cases"] += 1
            sums["pay"] += spin.win_coins
            sums["awards"] += added
            sums["hits"] += spin.win_coins > 0 or added > 0
            if spin.win_coins == 0 and added > 0:
                sums["quiet"][added] = sums["quiet"].get(added, 0) + 1
    return sums


@pytest.mark.parametrize(
    ("triggers", "drawn"), [(3, True), (2, True), (3, False)], ids=["3-drawn", "2-drawn", "3-fixed"]
)
def test_a_bought_feature_on_ways_is_every_free_spin_composed(
    tmp_path: Path, triggers: int, drawn: bool
) -> None:
    model = load_model(ways_buy(tmp_path / "t", triggers, drawn))
    bought = figures(model, None, "buy")
    sums = _free_spins_played(model)
    cases = sums["cases"]
    assert cases == math.prod((9, 8, 8)) * (3 if drawn else 1)
    spins = {2: 3, 3: 5}[triggers]
    added = Fraction(sums["awards"], cases)
    assert 0 < added < 1
    per_spin = Fraction(sums["pay"], cases) / (1 - added)  # Wald: a spin and those it adds
    print(f"\nbuy with {triggers} stars ({'drawn' if drawn else 'fixed'} wild weights):")
    print(f"  exact RTP {bought.rtp} = {float(bought.rtp):.12f}")
    print(f"  live free spins composed {spins * per_spin / 10 / bought.price}")
    assert bought.rtp == spins * per_spin / 10 / bought.price
    given = feature_given(model, None, triggers)
    assert given.spins.mean == spins / (1 - added)
    zero = Fraction(cases - sums["hits"], cases)
    quiet = sorted(sums["quiet"].items())
    chances = [zero, *(Fraction(n, cases) for _, n in quiet)]
    nothing = no_win_per_spin(chances, [0, *(a for a, _ in quiet)]) ** spins
    print(f"  hit frequency {bought.hit_frequency:.12f} (composed {1 - nothing:.12f})")
    print(f"  no spin pays: {given.no_win:.6e} (composed {nothing:.6e})")
    assert given.no_win == pytest.approx(nothing, rel=1e-9)
    assert bought.hit_frequency == pytest.approx(1 - nothing, rel=1e-12)
    assert bought.feature_frequency == 1


@pytest.mark.parametrize("cap", [0, 6], ids=["uncapped", "max-spins-6"])
def test_a_bought_feature_on_ways_holds_live_play(tmp_path: Path, cap: int) -> None:
    model = load_model(ways_buy(tmp_path / "t", cap=cap))
    bought = figures(model, None, "buy")
    if cap:  # the capped chain plays fewer spins than the uncapped law's
        uncapped = figures(load_model(ways_buy(tmp_path / "u")), None, "buy")
        assert bought.rtp < uncapped.rtp
    played = simulate_mode(model, None, "buy", 4_000, 11)
    print(f"\ncap {cap}: exact RTP {float(bought.rtp):.6f}, live {played.to_json()}")
    assert played.inside, played.to_json()
    assert played.hit_frequency == pytest.approx(bought.hit_frequency, abs=0.03)


def test_analyze_lists_the_buy_on_a_ways_title(tmp_path: Path) -> None:
    folder = ways_buy(tmp_path / "t")
    model = load_model(folder)
    bought = figures(model, None, "buy")
    runner = CliRunner()
    result = runner.invoke(app, ["analyze", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["mode"]: row for row in json.loads(result.output)["modes"]}
    assert rows["buy"]["rtp"] == pytest.approx(float(bought.rtp), rel=1e-12)
    text = runner.invoke(app, ["analyze", str(folder)])
    assert text.exit_code == 0, text.output
    assert "Bet modes, exact" in text.output and "buy" in text.output
    table = text.output.split("Bet modes, exact")[1]
    rtp_row = next(line for line in table.splitlines() if "│ RTP" in line)
    print(f"\n{rtp_row}")
    assert f"{float(bought.rtp) * 100:.5f}%" in rtp_row
