"""The hold-and-spin (:mod:`reelsmith.mechanics.hold_and_spin`) on the test suite's titles
(``tests/mechanics/hold_title.py``): the exact round law against every draw of every round of
the tiny title played through live play; the absorbing chain against every per-cell outcome of
every respin; the feature and whole rounds played live inside the exact figures' 99%
intervals; a triggered round replayed from its draws and told by its events; the rules page in
both languages; ``analyze`` exact; and ``validate``'s one line,
naming the key, for each bad table. Collector and multiplier coins: the pay rule on a grid
worked by hand, every draw of every round of the tiny title with them (and every draw of its
feature, the multipliers multiplied or added up) against the exact law, their events, rules
page and ``validate``'s lines."""

from __future__ import annotations

import math
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from reelsmith.analysis.analysis_report import analysis_report
from reelsmith.analysis.analyzer import analyze, stored_figures
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.events import round_events
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.hold_and_spin.chain import (
    after_respin,
    feature_moments,
    final_count_law,
    is_over,
    pay_of,
)
from reelsmith.mechanics.hold_and_spin.live import play_feature
from reelsmith.mechanics.hold_and_spin.rules import CoinValue, HoldAndSpin, hold_and_spin_rules
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import SeededSource
from reelsmith.rules_page import rules_document
from reelsmith.server.titles import Title
from tests.mechanics.hold_title import (
    MODEL,
    coins_hold_title,
    coins_model,
    hold_title,
    tiny_coins_title,
    tiny_hold_title,
)
from tests.mechanics.replaying import replayed

#: The two-sided 99% normal quantile.
Z_99 = 2.5758

NO_GAMBLE = {OPTIONS: RoundOptions(gamble_allowed=False)}


def _model(tmp_path: Path) -> GameModel:
    return load_model(hold_title(tmp_path / "hold"))


def _tiny(tmp_path: Path) -> GameModel:
    return load_model(tiny_hold_title(tmp_path / "tiny"))


def _start(model: GameModel, source: object) -> core.Round:
    lines = model.line_count
    bet = CoinBet(lines, 1, Decimal("0.01"))
    return core.start_round(
        composition(model),
        bet,
        core.Stake(lines, 1),
        source,  # type: ignore[arg-type]
        parts=NO_GAMBLE,
    )


class Branch:
    """A random source that answers a fixed path of draws and extends it with zeros, noting
    each draw's bound: walking every path of a round's draw tree in turn plays every outcome
    of the round once, each with probability the product of 1 / bound."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.bounds: list[int] = []

    def randbelow(self, bound: int, purpose: str) -> int:
        at = len(self.bounds)
        if at == len(self.path):
            self.path.append(0)
        self.bounds.append(bound)
        return self.path[at]


def every_round(model: GameModel) -> list[tuple[core.Round, Fraction]]:
    """Every outcome of a round of ``model`` played through live play, with its probability."""
    found = []
    path: list[int] = []
    while True:
        branch = Branch(path)
        played = _start(model, branch)
        assert played.phase == core.COMPLETE
        assert len(branch.path) == len(branch.bounds)  # the round used its whole path
        found.append((played, Fraction(1, math.prod(branch.bounds))))
        at = len(branch.path) - 1
        while at >= 0 and branch.path[at] == branch.bounds[at] - 1:
            at -= 1
        if at < 0:
            return found
        path = [*branch.path[:at], branch.path[at] + 1]


# -- exact against brute force ----------------------------------------------------------


def test_every_draw_of_every_round_played_live_gives_the_exact_law(tmp_path: Path) -> None:
    model = _tiny(tmp_path)
    rounds = every_round(model)
    assert sum(p for _, p in rounds) == 1
    bet = model.line_count
    mean = sum((p * Fraction(r.win_coins, bet) for r, p in rounds), Fraction(0))
    second = sum((p * Fraction(r.win_coins, bet) ** 2 for r, p in rounds), Fraction(0))
    triggered = sum((p for r, p in rounds if "hold_and_spin" in r.spins[0].parts), Fraction(0))
    full = sum(
        (p for r, p in rounds if (rec := r.spins[0].parts.get("hold_and_spin")) and rec.full_grid),
        Fraction(0),
    )
    hits = sum((p for r, p in rounds if r.win_coins > 0), Fraction(0))
    exact = analyze(model)
    assert exact.rtp == mean
    assert exact.variance == second - mean * mean
    assert exact.trigger_probability == triggered
    assert exact.full_grid_probability == full > 0
    assert exact.hit_frequency == hits
    # the feature is most of what the tiny title pays: the brute force checks its law, not lines
    assert exact.feature_rtp > 10 * exact.line_rtp > 0
    assert len(rounds) > 1000


def _rules(cells: int, respins: int, coin: int, blank: int) -> HoldAndSpin:
    values = (CoinValue(1, 3), CoinValue(5, 1), CoinValue(20, 1, "mini"))
    return HoldAndSpin(0, cells, 1, respins, coin, blank, values, {"mini": 20}, "mini")


def _by_every_cell(rules: HoldAndSpin, held: int, left: int) -> dict[int, Fraction]:
    """The final count's law by every subset of the empty cells a respin can land, one cell at
    a time (no binomial law assumed)."""
    if is_over(rules, held, left):
        return {held: Fraction(1)}
    p = Fraction(rules.coin_weight, rules.coin_weight + rules.blank_weight)
    empty = rules.cells - held
    law: dict[int, Fraction] = {}
    for pattern in range(2**empty):
        landed = bin(pattern).count("1")
        chance = p**landed * (1 - p) ** (empty - landed)
        for n, q in _by_every_cell(rules, *after_respin(rules, held, left, landed)).items():
            law[n] = law.get(n, Fraction(0)) + chance * q
    return law


@pytest.mark.parametrize(
    ("cells", "respins", "coin", "blank", "start"),
    [(4, 2, 1, 2, 1), (4, 3, 1, 1, 2), (5, 1, 2, 3, 1), (6, 2, 1, 3, 3)],
)
def test_the_chain_is_every_per_cell_outcome_of_every_respin(
    cells: int, respins: int, coin: int, blank: int, start: int
) -> None:
    rules = _rules(cells, respins, coin, blank)
    assert final_count_law(rules, start) == _by_every_cell(rules, start, respins)


# -- live play inside the exact figures' intervals ----------------------------------------


def test_the_feature_played_live_holds_its_exact_law(tmp_path: Path) -> None:
    rules = hold_and_spin_rules(_model(tmp_path))
    start = rules.trigger
    exact = feature_moments(rules, start)
    cells = [(row, reel) for row in range(3) for reel in range(5)]
    source = SeededSource(7)
    n = 40_000
    pays = []
    counts = []
    for _ in range(n):
        record = play_feature(rules, cells[:start], cells[start:], 1, source)
        pays.append(record.total_bets)
        counts.append(len(record.coins))
    mean = Fraction(sum(pays), n)
    half = Z_99 * math.sqrt(exact.variance / n)
    assert abs(float(mean - exact.mean)) < half, (float(mean), float(exact.mean), half)
    count_mean = exact.mean_coins
    count_var = sum((k * k * p for k, p in exact.final.items()), Fraction(0)) - count_mean**2
    count_half = Z_99 * math.sqrt(count_var / n)
    assert abs(sum(counts) / n - float(count_mean)) < count_half


def test_rounds_played_live_hold_the_exact_rtp(tmp_path: Path) -> None:
    model = _model(tmp_path)
    exact = analyze(model)
    source = SeededSource(11)
    n = 60_000
    total = 0
    triggered = 0
    for _ in range(n):
        played = _start(model, source)
        total += played.win_coins
        triggered += "hold_and_spin" in played.spins[0].parts
    rtp = total / (n * model.line_count)
    half = Z_99 * exact.std_dev / math.sqrt(n)
    assert abs(rtp - float(exact.rtp)) < half, (rtp, float(exact.rtp), half)
    p = float(exact.trigger_probability)
    assert abs(triggered / n - p) < Z_99 * math.sqrt(p * (1 - p) / n)


# -- a round: replay, events, record ------------------------------------------------------


def test_a_triggered_round_replays_and_is_told_by_its_events(tmp_path: Path) -> None:
    model = _model(tmp_path)
    comp = composition(model)
    source = SeededSource(3)
    for _ in range(5_000):
        played = _start(model, source)
        if "hold_and_spin" in played.spins[0].parts:
            break
    else:
        pytest.fail("no round triggered the feature")
    record = played.spins[0].parts["hold_and_spin"]
    rules = hold_and_spin_rules(model)
    assert len(record.start) >= rules.trigger
    assert record.win_coins == record.total_bets * played.stake.total_coins
    assert record.total_bets == sum(v.amount for _, v in record.coins) + record.full_grid_amount
    assert record.respins[-1].left == 0 or len(record.coins) == rules.cells
    again = replayed(comp, played)
    assert again == played
    title = Title(model)
    assert title.feature_triggered(played)  # an autoplay may stop on it
    plain = next(
        r
        for r in (_start(model, source) for _ in range(100))
        if "hold_and_spin" not in r.spins[0].parts
    )
    assert not title.feature_triggered(plain)
    events = round_events(comp, played)
    kinds = [e["type"] for e in events]
    start, end = kinds.index("hold_and_spin_start"), kinds.index("hold_and_spin_end")
    assert kinds[start + 1 : end] == ["hold_and_spin_respin"] * len(record.respins)
    assert events[end]["win_coins"] == record.win_coins
    assert events[-1]["win_coins"] == played.win_coins
    lines = sum(e["coins"] for e in events if e["type"] == "line_win")
    assert played.win_coins == lines + record.win_coins
    cells = {
        tuple(c["position"]) for e in events[start:end] for c in e.get("held", e.get("landed", []))
    }
    assert len(cells) == events[end]["coins_held"] == len(record.coins)


# -- the faces: rules page, analyze, simulate ---------------------------------------------


def test_the_rules_page_says_the_feature_in_both_languages(tmp_path: Path) -> None:
    model = _model(tmp_path)
    english = rules_document(model, language="en")["rules"]["hold_and_spin"]
    german = rules_document(model, language="de")["rules"]["hold_and_spin"]
    assert english[0].startswith("Six or more Coin symbols")
    assert german[0].startswith("Sechs oder mehr Coin-Symbole")
    assert "Grand jackpot: 1,000 times the total bet." in english
    assert "Jackpot Grand: 1.000 mal der Gesamteinsatz." in german
    assert len(english) == len(german)


def test_one_respin_is_said_in_the_singular(tmp_path: Path) -> None:
    """The tiny coins title plays one respin: its page says "one respin begins" and "eine
    Extradrehung" (not "one respins begin", "1 Extradrehungen"); three respins read as before."""
    model = load_model(tiny_coins_title(tmp_path / "tiny"))
    assert hold_and_spin_rules(model).respins == 1
    english = rules_document(model, language="en")["rules"]["hold_and_spin"]
    german = rules_document(model, language="de")["rules"]["hold_and_spin"]
    assert english[1] == (
        "The Coin symbols stay in place, each showing its value, and one respin begins in which "
        "only the empty positions spin."
    )
    assert (
        english[2]
        == "Every new Coin symbol that lands stays in place too, and one more respin follows."
    )
    assert german[1] == (
        "Die Coin-Symbole bleiben stehen, jedes mit seinem Wert, und es beginnt eine "
        "Extradrehung, in der sich nur die leeren Positionen drehen."
    )
    assert german[2] == (
        "Jedes neu erscheinende Coin-Symbol bleibt ebenfalls stehen, und es folgt eine weitere "
        "Extradrehung."
    )
    held = _model(tmp_path)
    three = rules_document(held, language="en")["rules"]["hold_and_spin"]
    assert "and three respins begin in" in three[1]
    assert three[2].endswith("resets the respins to three.")
    drei = rules_document(held, language="de")["rules"]["hold_and_spin"]
    assert "es beginnen drei Extradrehungen, in denen" in drei[1]


def test_analyze_is_exact(tmp_path: Path) -> None:
    """(``tune`` of the title: tests/analysis/test_exact_tuning.py.)"""
    model = _model(tmp_path)
    exact = analyze(model)
    document = analysis_report(exact).to_json()
    assert document["exact"] is True and document["rtp"] == float(exact.rtp)
    assert document["rtp"] == pytest.approx(document["line_rtp"] + document["hold_and_spin_rtp"])
    assert stored_figures(exact)["rtp"] == round(float(exact.rtp), 10)


# -- validate -----------------------------------------------------------------------------


def test_a_sound_title_is_valid_and_a_wrong_stated_rtp_is_named(tmp_path: Path) -> None:
    exact = analyze(_model(tmp_path / "probe"))
    stated = f"{float(exact.rtp):.10f}"
    assert validate_folder(hold_title(tmp_path / "sound", rtp=stated)) == []
    wrong = validate_folder(hold_title(tmp_path / "wrong", rtp="0.5"))
    assert len(wrong) == 1 and "states an RTP of 50.00%" in wrong[0]


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "jackpots = { mini = 20, minor = 50,",
            "jackpots = { minor = 50,",
            "hold_and_spin.values.mini: jackpot tier 'mini' has no value",
        ),
        ("mini = 20, minor", "mini = 0, minor", "hold_and_spin.jackpots.mini: a jackpot tier"),
        ('full_grid = "grand"', 'full_grid = "mega"', "hold_and_spin.full_grid = 'mega'"),
        (
            "values = { 2 = 40, 5 = 25, 10 = 15, 20 = 10, 50 = 5, mini = 4, minor = 1 }",
            "values = { 2 = 0, mini = 0 }",
            "hold_and_spin.values: the weights add up to 0",
        ),
        ("trigger = 6", "trigger = 16", "hold_and_spin.trigger must be a whole number"),
        ("trigger = 6", "trigger = 0", "hold_and_spin.trigger must be a whole number"),
        ("respins = 3", "respins = 0", "hold_and_spin.respins must be a whole number"),
        ("land = { coin = 1, blank = 24 }", "land = { coin = 0, blank = 0 }", "hold_and_spin.land"),
        ("land = { coin = 1, blank = 24 }", "land = { coin = 1 }", "hold_and_spin.land must"),
        ('symbol = "coin"', 'symbol = "bell"', "hold_and_spin.symbol = 'bell' must be"),
        ('symbol = "coin"', 'symbol = "gold"', "hold_and_spin.symbol = 'gold' is not a symbol"),
        ("respins = 3", "respins = 3\nsticky = true", "hold_and_spin: unknown key 'sticky'"),
        ("values = { 2 = 40,", "values = { 0 = 1, 2 = 40,", "hold_and_spin.values.0: a coin value"),
    ],
)
def test_each_bad_table_is_one_line_naming_its_key(
    tmp_path: Path, old: str, new: str, problem: str
) -> None:
    assert old in MODEL
    found = validate_folder(hold_title(tmp_path / "bad", model=MODEL.replace(old, new, 1)))
    assert len(found) == 1 and problem in found[0] and "\n" not in found[0], found


def test_a_mechanic_it_does_not_compose_with_is_refused_with_the_reason(tmp_path: Path) -> None:
    model = (
        MODEL.replace(
            '[[symbols]]\nid = "coin"',
            '[[symbols]]\nid = "star"\nname = "Star"\nrole = "scatter"\n\n[[symbols]]\nid = "coin"',
        )
        + '\n[scatter]\nsymbol = "star"\npays = { 3 = 2 }\n'
    )
    found = validate_folder(hold_title(tmp_path / "scatter", model=model))
    assert any("hold_and_spin and scatter: the hold-and-spin's exact analysis" in f for f in found)


# -- collector and multiplier coins -------------------------------------------------------


def _coin(rules: HoldAndSpin, label: str) -> CoinValue:
    return next(v for v in rules.values if v.label == label)


@pytest.mark.parametrize(("sum_mode", "multiplier"), [(False, 10), (True, 7)])
def test_collectors_collect_and_multipliers_multiply_the_plain_values_only(
    tmp_path: Path, sum_mode: bool, multiplier: int
) -> None:
    """Coins 2, 5, two collectors, x2, x5 and a mini (20): the plain values 7 times the
    multiplier (x2 times x5 = 10, or x2 plus x5 = 7) paid once and once more per collector,
    the mini beside them; a full grid adds the grand (1,000), neither multiplied."""
    rules = hold_and_spin_rules(load_model(coins_hold_title(tmp_path / "c", sum_mode=sum_mode)))
    coins = [_coin(rules, label) for label in ("2", "collect", "5", "x2", "collect", "x5", "mini")]
    pay = pay_of(rules, coins, full=False)
    assert (pay.plain, pay.collectors, pay.multiplier) == (7, 2, multiplier)
    assert pay.collected == 7 * multiplier
    assert pay.total == 3 * multiplier * 7 + 20
    assert pay_of(rules, coins, full=True).total == 3 * multiplier * 7 + 20 + 1000
    alone = [_coin(rules, label) for label in ("x5", "collect", "mini")]
    assert pay_of(rules, alone, full=False).total == 20  # nothing plain to collect or multiply
    plain = [_coin(rules, label) for label in ("2", "5")]
    assert pay_of(rules, plain, full=False).total == 7


def test_every_draw_of_every_round_with_collectors_and_multipliers_gives_the_exact_law(
    tmp_path: Path,
) -> None:
    """The tiny title with a value, a jackpot, a collector and an x3 among its coins: every
    draw of every round (stops, landings, each coin's entry) played through live play (the
    multipliers added up: the feature's own test below plays both ways of combining them)."""
    model = load_model(tiny_coins_title(tmp_path / "tiny", sum_mode=True))
    rounds = every_round(model)
    assert sum(p for _, p in rounds) == 1
    bet = model.line_count
    mean = sum((p * Fraction(r.win_coins, bet) for r, p in rounds), Fraction(0))
    second = sum((p * Fraction(r.win_coins, bet) ** 2 for r, p in rounds), Fraction(0))
    hits = sum((p for r, p in rounds if r.win_coins > 0), Fraction(0))
    exact = analyze(model)
    assert exact.rtp == mean
    assert exact.variance == second - mean * mean
    assert exact.hit_frequency == hits
    records = [rec for r, _ in rounds if (rec := r.spins[0].parts.get("hold_and_spin"))]
    # grids where collectors collect and several x3 add up (6, not 9) were played
    assert any(rec.collected and rec.grid_multiplier == 6 for rec in records)
    assert any(rec.total_bets == 0 for rec in records)  # collectors and multipliers alone
    assert exact.feature_rtp > 10 * exact.line_rtp > 0


def _every_feature(rules: HoldAndSpin, start: int) -> tuple[Fraction, Fraction, Fraction]:
    """The feature started with ``start`` coins, every draw of it played through live play:
    the total probability, E[H] and E[H^2]."""
    cells = [(row, reel) for row in range(2) for reel in range(3)]
    total = mean = second = Fraction(0)
    path: list[int] = []
    while True:
        branch = Branch(path)
        record = play_feature(rules, cells[:start], cells[start:], 1, branch)  # type: ignore[arg-type]
        p = Fraction(1, math.prod(branch.bounds))
        total += p
        mean += p * record.total_bets
        second += p * record.total_bets**2
        at = len(branch.path) - 1
        while at >= 0 and branch.path[at] == branch.bounds[at] - 1:
            at -= 1
        if at < 0:
            return total, mean, second
        path = [*branch.path[:at], branch.path[at] + 1]


@pytest.mark.parametrize(
    ("sum_mode", "start", "respins"), [(False, 5, 2), (True, 5, 2), (False, 6, 1), (True, 6, 1)]
)
def test_every_draw_of_the_feature_gives_its_exact_moments(
    tmp_path: Path, sum_mode: bool, start: int, respins: int
) -> None:
    model = load_model(tiny_coins_title(tmp_path / "tiny", sum_mode=sum_mode))
    rules = replace(hold_and_spin_rules(model), respins=respins)
    total, mean, second = _every_feature(rules, start)
    exact = feature_moments(rules, start)
    assert total == 1
    assert (exact.mean, exact.second) == (mean, second)


def test_collector_and_multiplier_coins_are_told_by_their_events(tmp_path: Path) -> None:
    from tests.mechanics.test_events import validator

    model = load_model(coins_hold_title(tmp_path / "coins"))
    comp = composition(model)
    check = validator()
    source = SeededSource(5)
    kinds: set[str] = set()
    ends = 0
    for _ in range(20_000):
        played = _start(model, source)
        record = played.spins[0].parts.get("hold_and_spin")
        if record is None:
            continue
        events = round_events(comp, played)
        assert not [e.message for e in check.iter_errors(events)]
        coins = [c for e in events for c in e.get("held", e.get("landed", []))]
        for coin, (_cell, value) in zip(coins, record.coins, strict=True):
            if value.collects:
                assert (coin["kind"], coin["value"], coin["bets"]) == ("collect", "collect", 0)
            elif value.factor:
                assert coin["kind"] == "multiplier" and coin["value"] == f"x{value.factor}"
                assert coin["multiplier"] == value.factor
            else:
                assert "kind" not in coin and "multiplier" not in coin
            kinds.add(coin.get("kind", "value"))
        end = next(e for e in events if e["type"] == "hold_and_spin_end")
        assert (end["collected"], end["multiplier"]) == (record.collected, record.grid_multiplier)
        assert end["total_bets"] == record.total_bets
        ends += 1
        if ends >= 40 and kinds == {"value", "collect", "multiplier"}:
            break
    assert kinds == {"value", "collect", "multiplier"}
    # a title without them sends none of the new fields
    plain_model = _model(tmp_path)
    for _ in range(5_000):
        played = _start(plain_model, source)
        if "hold_and_spin" in played.spins[0].parts:
            break
    events = round_events(composition(plain_model), played)
    end = next(e for e in events if e["type"] == "hold_and_spin_end")
    assert "collected" not in end and "multiplier" not in end
    assert all("kind" not in c for e in events for c in e.get("held", e.get("landed", [])))


def test_the_rules_page_says_collectors_and_multipliers_in_both_languages(
    tmp_path: Path,
) -> None:
    model = load_model(coins_hold_title(tmp_path / "coins", sum_mode=True))
    english = rules_document(model, language="en")["rules"]["hold_and_spin"]
    german = rules_document(model, language="de")["rules"]["hold_and_spin"]
    assert any(line.startswith("A Coin symbol may be a collector") for line in english)
    assert any("multiplier instead (x2, x5)" in line for line in english)
    assert "Several multipliers on the screen are added together." in english
    assert "Jackpots are neither collected nor multiplied." in english
    assert any(line.startswith("Ein Coin-Symbol kann stattdessen ein Sammler") for line in german)
    assert "Mehrere Multiplikatoren im Bild werden addiert." in german
    assert len(english) == len(german)
    plain = rules_document(_model(tmp_path / "plain"), language="en")["rules"]["hold_and_spin"]
    assert not any("collect" in line or "multiplier" in line for line in plain)


COINS = coins_model()


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("x2 = 5", "x1 = 5", "hold_and_spin.values.x1: a multiplier coin is written x and a whole"),
        ("x2 = 5", '"x2.5" = 5', "hold_and_spin.values.x2.5: a multiplier coin is written"),
        ("x2 = 5", "x = 5", "hold_and_spin.values.x: a multiplier coin is written"),
        ("x2 = 5", "xtwo = 5", "hold_and_spin.values.xtwo: a multiplier coin is written"),
        ("x2 = 5", "collector = 5", "hold_and_spin.values.collector: jackpot tier 'collector'"),
        (
            "values = { 2 = 40, 5 = 25, 10 = 15, 20 = 10, 50 = 5,",
            "values = { 2 = 0, 5 = 0, 10 = 0, 20 = 0, 50 = 0,",
            "hold_and_spin.values.collect: a collect coin needs a plain coin value",
        ),
        (
            "values = { 2 = 40, 5 = 25, 10 = 15, 20 = 10, 50 = 5, mini = 4, minor = 1, collect = 6",
            "values = { 2 = 0, 5 = 0, 10 = 0, 20 = 0, 50 = 0, mini = 4, minor = 1, collect = 0",
            "hold_and_spin.values.x2: a multiplier coin needs a plain coin value",
        ),
        ("respins = 3", 'respins = 3\nmultipliers = "max"', "hold_and_spin.multipliers = 'max'"),
        ("mini = 20, minor", "collect = 20, mini = 20, minor", "hold_and_spin.jackpots.collect"),
        ("mini = 20, minor", "x3 = 20, mini = 20, minor", "hold_and_spin.jackpots.x3: the name"),
        ("x5 = 1", "x1000000 = 1", "hold_and_spin.values: the largest pay a grid can make"),
    ],
)
def test_each_bad_collector_or_multiplier_is_one_line_naming_its_key(
    tmp_path: Path, old: str, new: str, problem: str
) -> None:
    assert old in COINS
    found = validate_folder(hold_title(tmp_path / "bad", model=COINS.replace(old, new, 1)))
    assert len(found) == 1 and problem in found[0] and "\n" not in found[0], found


def test_a_title_with_collectors_and_multipliers_is_valid(tmp_path: Path) -> None:
    exact = analyze(load_model(coins_hold_title(tmp_path / "probe", sum_mode=True)))
    stated = f"{float(exact.rtp):.10f}"
    assert validate_folder(coins_hold_title(tmp_path / "sound", sum_mode=True, rtp=stated)) == []
