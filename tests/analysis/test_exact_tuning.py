"""The tuner's exact family (:mod:`reelsmith.analysis.exact_tuning`) on the suite's small titles of
every kind the paylines' family does not cover - ways, a cascade's chains, a count anywhere, the
hold-and-spin - and ``tune --mode`` on the moded title's ante and buy and a ways title's buy:
each tuned variant's exact RTP is within the tolerance and its stored figures re-derive from the
file; a mode's tuning leaves the base game's strips and exact RTP exactly as they were; a title,
mode or option the family cannot tune is refused in one line naming why."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reelsmith.analysis.analyzer import analyze, stored_figures
from reelsmith.analysis.exact_tuning import MAX_EVALUATIONS
from reelsmith.analysis.tuning import TuneResult, UntunableError, tune
from reelsmith.cli import app
from reelsmith.engine.model import load_model
from reelsmith.mechanics.modes.exact import figures as mode_figures
from tests.mechanics import test_cascade
from tests.mechanics.anywhere_title import tiny_anywhere
from tests.mechanics.expanding_title import expanding_title
from tests.mechanics.heights_title import tumble_heights, tumble_ways
from tests.mechanics.hold_title import hold_title
from tests.mechanics.moded_title import moded_title
from tests.mechanics.test_modes_ways import ways_buy

#: The tuner's own tolerance (0.0025 points), as a fraction.
TOLERANCE = Fraction(1, 40_000)


def run(*args: str) -> object:
    return CliRunner().invoke(app, list(args))


def written(folder: Path, result: TuneResult, target: str, tolerance: Fraction) -> None:
    """The variant file ``tune`` wrote: exact RTP within ``tolerance`` of ``target`` percent,
    and the figures stored in it those the analyzer derives from the file again."""
    model = load_model(folder)
    variant = model.variant(result.variant_id)
    analysis = analyze(model, variant.id)
    assert abs(analysis.rtp - Fraction(Decimal(target)) / 100) <= tolerance
    assert stored_figures(analysis) == dict(variant.figures)
    assert float(analysis.rtp) == result.rtp
    assert result.evaluations is not None and 0 < result.evaluations <= MAX_EVALUATIONS


def longer_cascade(folder: Path) -> Path:
    """The cascade tests' tiny title (3 reels x 3 rows, four paylines, a wild, a scatter whose
    two start free spins on the base reels) with strips of 24 to 28 stops padded with fish and
    leaves and free-spin multipliers 1, 2, 3, 3: 220.8% exact, long enough to land near 96%."""
    strips = [
        ["bird", "fish", "star", "leaf", "bird", "leaf", "fish"]
        + ["leaf", "fish", "leaf", "leaf", "fish", "leaf", "leaf"] * 3,
        ["wild", "bird", "fish", "leaf", "star", "bird", "fish", "leaf"]
        + ["leaf", "fish", "leaf", "leaf", "fish", "leaf"] * 3,
        ["fish", "bird", "leaf", "wild", "star", "bird"]
        + ["leaf", "fish", "leaf", "fish", "leaf", "leaf"] * 3,
    ]
    rows = "".join("  [" + ", ".join(f'"{s}"' for s in strip) + "],\n" for strip in strips)
    (folder / "variants").mkdir(parents=True)
    model = test_cascade.MODEL.replace(
        "free_multipliers = [2, 4, 6, 6]", "free_multipliers = [1, 2, 3, 3]"
    )
    (folder / "model.toml").write_text(model, encoding="utf-8")
    variant = f'id = "main"\n\n[reel_sets.base]\nstrips = [\n{rows}]\n'
    (folder / "variants" / "main.toml").write_text(variant, encoding="utf-8")
    return folder


def long_ante(folder: Path, names: tuple[str, ...] = ("ante",)) -> Path:
    """The moded title with the strips of its reel sets ``names`` twice as long (by default
    its ante's; the base game's as they are)."""
    moded_title(folder)
    path = folder / "variants" / "main.toml"
    for name in names:
        head, rest = path.read_text(encoding="utf-8").split(f"[reel_sets.{name}]\nstrips = [\n")
        rows, tail = rest.split("]\n\n", 1)
        strips = [line.strip().rstrip(",")[1:-1] for line in rows.strip().splitlines()]
        doubled = "".join(f"  [{s},{s}],\n" for s in strips)
        path.write_text(
            f"{head}[reel_sets.{name}]\nstrips = [\n{doubled}]\n\n{tail}", encoding="utf-8"
        )
    return folder


# -- the base game of every kind ----------------------------------------------------------


def test_a_ways_title_is_tuned_to_94_within_the_tuner_s_tolerance(tmp_path: Path) -> None:
    folder = tumble_ways(tmp_path / "ways")
    result = tune(load_model(folder), folder, Decimal("94.00"), base_variant="main")
    written(folder, result, "94.00", TOLERANCE)
    assert result.path == folder / "variants" / "94.00.toml"
    assert result.evaluations is not None and result.evaluations < 300
    assert "exact evaluations" in result.path.read_text(encoding="utf-8")


def test_the_cli_tunes_a_ways_title_to_96_and_counts_its_exact_evaluations(
    tmp_path: Path,
) -> None:
    folder = tumble_ways(tmp_path / "ways")
    result = run("tune", str(folder), "--target-rtp", "96.00", "--from", "main")
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[0]
    assert re.search(
        r"RTP 96\.04\d+% -> 9[56]\.99\d+% \(target 96\.00%\) in \d+ moves, \d+ exact", line
    )
    again = run("tune", str(folder), "--target-rtp", "96.00", "--force", "--json")
    assert again.exit_code == 0, again.output
    document = json.loads(again.stdout)
    assert abs(document["rtp"] - 0.96) <= 0.000025 and document["exact_evaluations"] > 0
    assert document["mode"] is None


def test_a_cascade_title_is_tuned_through_its_chains(tmp_path: Path) -> None:
    folder = longer_cascade(tmp_path / "cascade")
    tolerance = Decimal("0.01")  # strips of 24 to 28 stops: the tuner's 0.0025 is out of reach
    result = tune(load_model(folder), folder, Decimal("96.00"), tolerance=tolerance)
    written(folder, result, "96.00", Fraction(tolerance) / 100)
    assert result.start_rtp > 2.2


def test_a_count_anywhere_title_is_tuned(tmp_path: Path) -> None:
    folder = tiny_anywhere(tmp_path / "anywhere")
    tolerance = Decimal("0.05")  # strips of 7 to 9 stops
    result = tune(load_model(folder), folder, Decimal("120.00"), tolerance=tolerance)
    written(folder, result, "120.00", Fraction(tolerance) / 100)
    assert result.start_rtp > 1.38


def test_a_hold_and_spin_title_is_tuned_on_its_base_strips(tmp_path: Path) -> None:
    folder = hold_title(tmp_path / "hold")
    result = tune(load_model(folder), folder, Decimal("94.00"), base_variant="main")
    written(folder, result, "94.00", TOLERANCE)
    model = load_model(folder)
    coin = model.symbol_ids.index("coin")
    for before, after in zip(
        model.variant("main").reel_sets["base"].strips,
        model.variant("94.00").reel_sets["base"].strips,
        strict=True,
    ):  # the coins stay where they were: the feature's trigger law is unchanged
        assert [i for i, s in enumerate(before) if s == coin] == [
            i for i, s in enumerate(after) if s == coin
        ]


# -- a mode -------------------------------------------------------------------------------


def test_tune_mode_moves_the_ante_alone_and_the_base_game_not_at_all(tmp_path: Path) -> None:
    folder = long_ante(tmp_path / "moded")
    before = load_model(folder)
    base_rtp = analyze(before, "main").rtp
    tolerance = Decimal("0.01")  # the ante's strips are 26 to 28 stops
    result = tune(before, folder, Decimal("96.00"), tolerance=tolerance, mode="ante")
    assert result.path == folder / "variants" / "main.toml" and result.mode == "ante"
    after = load_model(folder)
    assert abs(mode_figures(after, "main", "ante").rtp - Fraction(96, 100)) <= Fraction(1, 10_000)
    assert analyze(after, "main").rtp == base_rtp  # exactly
    for name in ("base", "free_spins"):
        old = before.variant("main").reel_sets[name].strips
        new = after.variant("main").reel_sets[name].strips
        assert all((a == b).all() for a, b in zip(old, new, strict=True))
    text = result.path.read_text(encoding="utf-8")
    assert "mode ante aimed at 96.00%" in text
    assert stored_figures(analyze(after, "main")) == dict(after.variant("main").figures)


def test_the_cli_says_which_mode_it_tuned(tmp_path: Path) -> None:
    folder = long_ante(tmp_path / "moded")
    result = run(
        "tune", str(folder), "--target-rtp", "94.00", "--mode", "ante", "--tolerance", "0.01"
    )
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[0]
    assert line.startswith("moded main, mode ante: RTP ")
    assert "the base game's RTP 92.302388% unchanged" in line


# -- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (
            ["--mode", "buy"],
            "mode buy (a bought feature) has no table of its own to move: its free spins spin "
            "reel set 'base', the base game's",
        ),
        (["--mode", "jackpot"], "--mode jackpot: no mode 'jackpot'; the modes are: ante, buy"),
        (["--mode", "ante", "--volatility", "high"], "--volatility moves wilds"),
        (
            ["--mode", "spare"],
            "mode spare has no table of its own to move: its reel set 'free_spins'",
        ),
    ],
)
def test_a_mode_the_family_cannot_tune_is_refused_in_one_line(
    tmp_path: Path, extra: list[str], reason: str
) -> None:
    spare = '\n[modes.spare]\nkind = "ante"\nprice = 2\nreel_set = "free_spins"\n'
    folder = moded_title(tmp_path / "moded", mode=spare)
    if extra == ["--mode", "buy"]:  # a buy whose free spins spin the base game's reels
        free_spins_on_the_base_reels(folder)
    text = (folder / "variants" / "main.toml").read_text(encoding="utf-8")
    result = run("tune", str(folder), "--target-rtp", "96.00", *extra)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and reason in lines[0], lines
    assert (folder / "variants" / "main.toml").read_text(encoding="utf-8") == text


def free_spins_on_the_base_reels(folder: Path) -> Path:
    """The moded title at ``folder`` with its free spins spinning the base game's reels."""
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('reel_set = "free_spins"\n\n[bet]', 'reel_set = "base"\n\n[bet]'))
    assert path.read_text(encoding="utf-8") != text
    return folder


def test_tune_mode_buy_moves_the_free_reels_then_brings_the_base_game_back(
    tmp_path: Path,
) -> None:
    # strips four times as long: single stops fine enough to land within 0.01 points
    folder = long_ante(tmp_path / "moded", ("base", "free_spins", "base", "free_spins"))
    before = load_model(folder)
    base_rtp = analyze(before, "main").rtp
    tolerance = Decimal("0.01")
    result = tune(before, folder, Decimal("95.00"), tolerance=tolerance, mode="buy")
    assert result.path == folder / "variants" / "main.toml" and result.mode == "buy"
    after = load_model(folder)
    assert abs(mode_figures(after, "main", "buy").rtp - Fraction(95, 100)) <= Fraction(1, 10_000)
    assert abs(analyze(after, "main").rtp - base_rtp) <= Fraction(1, 10_000)
    moved = {
        name: not all(
            (a == b).all()
            for a, b in zip(
                before.variant("main").reel_sets[name].strips,
                after.variant("main").reel_sets[name].strips,
                strict=True,
            )
        )
        for name in ("base", "free_spins", "ante")
    }
    assert moved == {"base": True, "free_spins": True, "ante": False}
    text = result.path.read_text(encoding="utf-8")
    assert "mode buy aimed at 95.00%" in text and "then the base game brought back" in text
    assert stored_figures(analyze(after, "main")) == dict(after.variant("main").figures)


def test_tune_mode_buy_on_a_ways_title_moves_its_free_reels_and_brings_the_base_back(
    tmp_path: Path,
) -> None:
    """A plain ways title (drawn free wild weights) whose buy's exact RTP is the ways' own walk
    of the free reels: ``tune --mode buy`` moves the free reel set to the target, then the base
    reel set until the base game's exact RTP is back."""
    folder = ways_buy(tmp_path / "ways", times=4)  # single stops fine enough for 0.01 points
    before = load_model(folder)
    base_rtp = analyze(before, "main").rtp
    buy_rtp = mode_figures(before, "main", "buy").rtp
    assert abs(buy_rtp - Fraction(96, 100)) > Fraction(1, 1_000)
    result = run(
        "tune", str(folder), "--target-rtp", "96.00", "--mode", "buy", "--tolerance", "0.01"
    )
    assert result.exit_code == 0, result.output
    line = result.output.splitlines()[0]
    print(f"\n{line}")
    assert line.startswith("tiny-ways-buy main, mode buy: RTP ")
    after = load_model(folder)
    assert abs(mode_figures(after, "main", "buy").rtp - Fraction(96, 100)) <= Fraction(1, 10_000)
    assert abs(analyze(after, "main").rtp - base_rtp) <= Fraction(1, 10_000)
    moved = {
        name: not all(
            (a == b).all()
            for a, b in zip(
                before.variant("main").reel_sets[name].strips,
                after.variant("main").reel_sets[name].strips,
                strict=True,
            )
        )
        for name in ("base", "free")
    }
    assert moved == {"base": True, "free": True}
    assert stored_figures(analyze(after, "main")) == dict(after.variant("main").figures)


def test_a_bought_feature_s_refusal_names_the_price_that_gives_the_target(tmp_path: Path) -> None:
    folder = free_spins_on_the_base_reels(moded_title(tmp_path / "moded"))
    with pytest.raises(UntunableError, match=r"modes\.buy\.price = 3\.86 gives 96\.0052%"):
        tune(load_model(folder), folder, Decimal("96.00"), mode="buy")


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (expanding_title, "the full analysis (second moments, hit frequency) of expanding"),
        (tumble_heights, "beyond the exact sums' 64-bit integers"),
    ],
)
def test_a_title_the_analyzer_does_not_give_exactly_is_refused_by_name(
    tmp_path: Path, make: object, reason: str
) -> None:
    folder = make(tmp_path / "title")  # type: ignore[operator]
    result = run("tune", str(folder), "--target-rtp", "96.00")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not give it exactly" in lines[0] and reason in lines[0]
    assert not (folder / "variants" / "96.00.toml").exists()
