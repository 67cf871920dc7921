"""A fuzzer for the mathematics: random small titles over the mechanics and their combinations
(paylines, ways or pays anywhere by count; a wild that may pay on its own, substitute for some
symbols only, multiply the line wins it completes and win or lose ties; a scatter that may pay;
free spins with a multiplier and retriggers; cascades with multipliers per screen, in free
spins their own, the scatter counted on every screen of a chain or on its final one; mystery
symbols revealing a regular symbol or the wild, in free spins by a table of their own; variable
rows on a ways title, each reel's heights by weight; cells drawn one by one from weighted
tables; sticky wilds in free spins, brute-forced from every state of their chain), each played
at every stop (or position)
combination, by its weight, and every outcome of a mystery's reveal, through live play,
must give the exact RTP the lab derives (``analyze_rtp``: the RTP route, a cascade's full-cycle
enumeration, or the mystery's mixture), to the last digit.

The brute force knows nothing of the lab's formulas: it plays each base screen and each free
screen through the composed round and combines them by the renewal of free spins (a free spin's
total is its win and the totals of the spins it adds), which the test states itself."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from reelsmith.analysis.catalogue_exact import analyze_rtp, total_coins
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, ModelError, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource
from tests.catalogue.slotopol import _toml

REGULAR = ("a", "b", "c")


@dataclass(frozen=True)
class Title:
    """A generated title: its ``model.toml`` and strips."""

    model: str
    strips: list[list[str]]
    #: Drawn cells: each reel's table of symbol = weight, in place of the strips.
    cells: list[dict[str, int]] | None = None


@st.composite
def titles(
    draw: Any,
    variable_rows: bool = False,
    cells: bool = False,
    tumbling: bool = False,
    bought: bool = False,
) -> Title:
    """A random title; ``variable_rows``: always a ways title with ``[heights]``; ``cells``:
    always a title whose cells are drawn one by one (no mystery or heights; with ``tumbling``
    a cascade refilled by cells, its reels' tables often one table, else no cascade);
    ``bought``: always free spins and a bought feature (``[modes.buy]``), on a cascade or on
    plain screens (no mystery or heights beside it)."""
    rows = draw(st.sampled_from([2, 3]))
    evaluators = ["paylines", "ways", "anywhere"] + ["anywhere"] * 2 * tumbling
    evaluator = "ways" if variable_rows else draw(st.sampled_from(evaluators))
    ways = evaluator == "ways"
    anywhere = evaluator == "anywhere"
    wild = draw(st.booleans())
    scatter = bought or draw(st.booleans())
    free = bought or (scatter and draw(st.booleans()))
    if bought:
        cascade = draw(st.booleans())
    else:
        cascade = tumbling or (not variable_rows and not cells and draw(st.booleans()))
    # refused together: mystery with cascades, variable rows or drawn cells
    mystery = not bought and not cascade and not variable_rows and not cells and draw(st.booleans())
    # variable rows pay by ways, and are refused beside cascades and mystery symbols
    heights = variable_rows or (
        ways and not bought and not cascade and not mystery and not cells and draw(st.booleans())
    )
    symbols = list(REGULAR) + (["w"] if wild else []) + (["s"] if scatter else [])
    symbols += ["m"] if mystery else []
    out = ['id = "fuzz"', 'name = "Fuzz"', "reels = 3", f"rows = {rows}", 'default_variant = "v"']
    if evaluator == "paylines":
        lines = [[r, r, r] for r in range(rows)] + [[0, 1, 0]]
        out.append(f"paylines = {_toml(lines)}")
    roles = {"w": "wild", "s": "scatter", "m": "bonus"}
    for symbol in symbols:
        out += ["", "[[symbols]]", f'id = "{symbol}"', f'name = "{symbol.upper()}"']
        out.append(f'role = "{roles.get(symbol, "regular")}"')
    pays = {}
    for symbol in REGULAR:
        counts = ("2", "3", "4+") if anywhere else ("2", "3")
        table = {n: draw(st.integers(0, 4)) for n in counts}
        pays[symbol] = {n: p for n, p in table.items() if p}
    if wild and draw(st.booleans()):
        pays["w"] = {("2+" if anywhere else "3"): draw(st.integers(1, 6))}
    assume(any(pays.values()))
    cost = 6
    if heights:
        laws = []
        for _reel in range(3):
            shown = draw(st.lists(st.integers(1, rows), min_size=1, max_size=rows, unique=True))
            law = {str(h): draw(st.integers(0, 2)) for h in sorted(shown)}
            law[str(shown[0])] = max(law[str(shown[0])], 1)
            laws.append(law)
        out += ["", "[heights]", f"reels = {_toml(laws)}"]
    if ways:
        choices = ["every_symbol", "none"] + (["wild"] if "w" in pays else [])
        pure = draw(st.sampled_from(choices)) if wild else "every_symbol"
        weights = [1, draw(st.integers(1, 2)), 1]
        out += ["", "[ways]", f"cost = {cost}", "min_run = 2", f"wild_weights = {weights}"]
        out.append(f'pure_wild_ways = "{pure}"')
        out += ["", "[ways_pays]"]
    elif anywhere:
        pure = draw(st.sampled_from(["every_symbol", "none"]))
        out += ["", "[anywhere]", f"cost = {cost}", f'pure_wild_counts = "{pure}"']
        out += ["", "[anywhere_pays]"]
    else:
        cost = len([[r, r, r] for r in range(rows)]) + 1
        out += ["", "[line_pays]"]
    out += [f"{s} = {_toml(t)}" for s, t in pays.items() if t]
    if wild:
        out += ["", "[wild]", 'symbol = "w"']
        if evaluator == "paylines":
            out.append(f"multiplier = {draw(st.integers(1, 2))}")
            out.append(f'ties = "{draw(st.sampled_from(["wild", "symbol"]))}"')
        if draw(st.booleans()):
            out.append(f"substitutes = {_toml(list(REGULAR[:2]))}")
    if scatter:
        table = {str(n): draw(st.integers(0, 3)) for n in (2, 3)}
        out += ["", "[scatter]", 'symbol = "s"']
        out.append(f"pays = {_toml({n: p for n, p in table.items() if p})}")
    if cascade:
        limit = draw(st.integers(2, 3))
        multipliers = [draw(st.integers(1, 3)) for _ in range(limit)]
        out += ["", "[cascade]", f"limit = {limit}", f"multipliers = {multipliers}"]
        out.append(f'scatter = "{draw(st.sampled_from(["every", "final"]))}"')
        if cells:
            out.append('refill = "cells"')
        if free and draw(st.booleans()):
            out.append(f"free_multipliers = {[m * 2 for m in multipliers]}")
    if mystery:
        revealable = list(REGULAR) + (["w"] if wild else [])

        def reveal_table() -> dict[str, int]:
            chosen = draw(st.lists(st.sampled_from(revealable), min_size=1, unique=True))
            table = {symbol: draw(st.integers(0, 3)) for symbol in chosen}
            table[chosen[0]] = max(table[chosen[0]], 1)
            return table

        out += ["", "[mystery]", 'symbol = "m"', f"reveal = {_toml(reveal_table())}"]
        if free and draw(st.booleans()):
            out.append(f"free_spins_reveal = {_toml(reveal_table())}")
    if free:
        spins = {"2": draw(st.integers(1, 2)), "3": draw(st.integers(2, 4))}
        out += ["", "[free_spins]", "trigger = 2", f"spins = {_toml(spins)}"]
        if draw(st.booleans()):
            out += ['retrigger = "table"', f"retrigger_spins = {_toml({'3': 1})}"]
        else:
            out.append('retrigger = "none"')
        out.append(f"multiplier = {draw(st.integers(1, 2))}")
        out.append('reel_set = "base"')
    if cells:
        out += ["", "[cells]"]
    if bought:
        triggers = draw(st.integers(2, 3))
        out += ["", "[modes.buy]", 'kind = "buy"', "price = 4", f"triggers = {triggers}"]
    out += ["", "[bet]", f"lines = {{ min = {cost}, max = {cost} }}"]
    out += ["coins_per_line = { min = 1, max = 1 }", 'coin_sizes = ["0.01"]']
    out += [f"max_total_coins = {cost}"]
    out.append(f'default = {{ lines = {cost}, coins_per_line = 1, coin_size = "0.01" }}')
    strips = [
        draw(st.lists(st.sampled_from(symbols), min_size=rows, max_size=rows + 3)) for _ in range(3)
    ]
    tables = None
    if cells:  # each reel's table: a few symbols (few enough to play every window), a weight each
        most = 4 if rows == 2 else 3
        tables = []
        for _reel in range(3):
            chosen = draw(
                st.lists(st.sampled_from(symbols), min_size=1, max_size=most, unique=True)
            )
            table = {symbol: draw(st.integers(0, 3)) for symbol in chosen}
            table[chosen[0]] = max(table[chosen[0]], 1)
            tables.append(table)
        if tumbling and draw(st.integers(0, 2)):  # one table on every reel, mostly
            tables = [tables[0]] * 3
    return Title("\n".join(out) + "\n", strips, tables)


def write(title: Title, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.toml").write_text(title.model, encoding="utf-8")
    (folder / "variants").mkdir(exist_ok=True)
    window = f"cells = {_toml(title.cells)}" if title.cells else f"strips = {_toml(title.strips)}"
    variant = f'id = "v"\n\n[reel_sets.base]\n{window}\n\n[figures]\nrtp = 1.0\n'
    (folder / "variants" / "v.toml").write_text(variant, encoding="utf-8")
    return folder


def brute_force_rtp(model: GameModel) -> Fraction | None:
    """Every stop combination's base screen and free screen played live, combined by the
    renewal of free spins; None where a free spin adds a spin or more on average."""
    comp = composition(model)
    cost = total_coins(model)
    bet, stake = CoinBet(cost, 1, Decimal("0.01")), core.Stake(cost, 1)
    reel_set = model.variant().reel_sets["base"]
    reels = range(model.reels)
    # each reel's positions (its stops, and with variable rows its heights; with drawn cells
    # every window), each position the reel's draws land on with its weight: each draw's
    # bound and the least value that lands it
    bounds = [int(reel_set.totals[r] if reel_set.weighted else reel_set.lengths[r]) for r in reels]
    weights = [[int(w) for w in reel_set.position_weights(r)] for r in reels]

    def position_draws(r: int, p: int) -> list[Draw]:
        if reel_set.cells is not None:  # one cell draw per row: the digits of the position
            total, cumulative = reel_set.cell_draws(r)
            starts = [0, *(int(c) for c in cumulative[:-1])]
            digits = []
            for _row in range(model.rows):
                p, digit = divmod(p, len(starts))
                digits.append(digit)
            return [Draw("cell", total, starts[d]) for d in reversed(digits)]
        if reel_set.weighted:
            return [Draw("reel_stop", bounds[r], int(reel_set.cumulative[r, p]) - weights[r][p])]
        return [Draw("reel_stop", bounds[r], p)]

    combos = [
        c
        for c in itertools.product(*(range(len(w)) for w in weights))
        if all(weights[r][p] for r, p in enumerate(c))
    ]

    def outcomes(play: Any) -> list[tuple[Fraction, Any]]:
        """Every stop (or position) combination's round, each outcome of a mystery's reveal
        its own, with its probability."""
        found = []
        for positions in combos:
            weight = Fraction(1)
            for r, p in enumerate(positions):
                weight *= Fraction(weights[r][p], bounds[r])
            draws = [d for r, p in enumerate(positions) for d in position_draws(r, p)]
            value = 0
            while True:
                source = Outcome(draws, value)
                played = play(source)  # the screen notes the reveal's bound, if it asks one
                found.append((weight / (source.bound or 1), played))
                value += 1
                if source.bound is None or value == source.bound:
                    break
        return found

    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    mean = base_awards = Fraction(0)
    in_free = None
    for p, played in outcomes(
        lambda source: core.start_round(comp, bet, stake, source, parts=options)
    ):
        mean += p * played.spins[0].win_coins
        state = played.part("free_spins")
        awarded = state.awarded if state is not None else 0
        base_awards += p * awarded
        if awarded and in_free is None:
            in_free = played
    if in_free is None:
        return mean / cost
    free_mean = q = Fraction(0)
    for p, played in outcomes(lambda source: core.act(comp, in_free, "free_spin", source)):
        spin = played.spins[-1]
        free_mean += p * spin.win_coins
        q += p * spin.parts["free_spins"].spins_added
    if q >= 1:
        return None
    total = free_mean / (1 - q)
    return (mean + base_awards * total) / cost


class Outcome:
    """The draws of one screen: its reel stops (or its cells), then ``value`` for a mystery's
    reveal (its bound noted, None until the screen asks for one)."""

    def __init__(self, draws: list[Draw], value: int) -> None:
        self.stops = ReplaySource(draws)
        self.value = value
        self.bound: int | None = None

    def randbelow(self, bound: int, purpose: str) -> int:
        if purpose != "mystery":
            return self.stops.randbelow(bound, purpose)
        assert self.bound is None, "one reveal a screen"
        self.bound = bound
        return self.value


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=titles())
def test_the_exact_rtp_is_every_stop_combination_played_live(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    folder = write(title, tmp_path_factory.mktemp("fuzz"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    endless = [p for p in problems if "never end" in p]
    assert problems == endless, (title.model, problems)
    model = load_model(folder)
    if endless:  # validate's refusal: the brute force must find a free spin adds 1 or more
        assert brute_force_rtp(model) is None, (title.model, title.strips)
        return
    for table in (
        "ways",
        "heights",
        "anywhere",
        "cascade",
        "free_spins",
        "wild",
        "scatter",
        "mystery",
    ):
        event(f"{table}: {'yes' if table in model.raw else 'no'}")
    if "cascade" in model.raw and "scatter" in model.raw:
        event(f"cascade scatter: {model.raw['cascade']['scatter']}")
    expected = brute_force_rtp(model)
    if expected is None:
        with pytest.raises(ModelError, match="never end"):
            analyze_rtp(model)
        return
    assert analyze_rtp(model).rtp == expected, (title.model, title.strips)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # fixed titles and seeds: the 99.9% interval is checked, never flaky
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=titles())
def test_the_kernel_plays_every_title_as_live_play_and_holds_the_exact_rtp(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    """Over the same random titles: 300 kernel rounds replay through live play draw for draw
    and figure for figure, and the exact RTP lies inside the 99.9% interval of 100,000 kernel
    rounds (free spins that never end are validate's refusal, not played); the title capped at
    the lowest cap its paytable allows replays its kernel rounds through live play too."""
    import math

    from reelsmith.analysis import kernel as k
    from reelsmith.analysis.pcg64 import stream_state
    from reelsmith.mechanics.max_win.rules import largest_single_pay
    from tests.mechanics.test_chain_kernel import Z_999, replay, replay_capped

    folder = write(title, tmp_path_factory.mktemp("fuzz"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    assume(not problems)
    model = load_model(folder)
    figures = analyze_rtp(model)
    # free spins that add three quarters of a spin or more each make rounds of thousands of
    # spins, whose sum a run of this size does not settle: the brute force above covers them
    assume(figures.added_per_free_spin < Fraction(3, 4))
    for table in ("ways", "heights", "anywhere", "cascade", "free_spins", "mystery"):
        event(f"{table}: {'yes' if table in model.raw else 'no'}")
    replay(model, 300, seed=3)
    exact = float(figures.rtp)
    rounds = 100_000
    game = k.KernelGame.build(model)
    stats, squares, _batches = game.run(stream_state(11), rounds)
    bet = game.total_bet
    mean = stats[k.S_WIN] / rounds / bet
    spread = max(squares[k.F_WIN_SQ] / rounds / bet**2 - mean * mean, 0.0) ** 0.5
    half = Z_999 * spread / rounds**0.5
    assert abs(mean - exact) <= half + 1e-12, (title.model, title.strips, mean, exact, half)
    if "mystery" in model.raw:
        return  # validate refuses a cap beside mystery symbols
    capped = write(title, tmp_path_factory.mktemp("capped"))
    multiplier = max(math.ceil(largest_single_pay(model)), 1)
    with (capped / "model.toml").open("a", encoding="utf-8") as file:
        file.write(f"\n[max_win]\nmultiplier = {multiplier}\n")
    reached = replay_capped(load_model(capped), 300, seed=5)
    event(f"rounds reaching the cap: {'some' if reached else 'none'}")


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=titles(variable_rows=True))
def test_variable_rows_are_every_position_played_live_and_replay_from_the_kernel(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    """Random ways titles with ``[heights]``: the exact RTP is every position combination
    (stop and height, by weight) played live, and 300 kernel rounds replay through live play
    draw for draw."""
    from tests.mechanics.test_chain_kernel import replay

    folder = write(title, tmp_path_factory.mktemp("rows"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    assume(not problems)
    model = load_model(folder)
    assert model.heights is not None
    expected = brute_force_rtp(model)
    assume(expected is not None)
    figures = analyze_rtp(model)
    assert figures.rtp == expected, (title.model, title.strips)
    assume(figures.added_per_free_spin < Fraction(3, 4))
    replay(model, 300, seed=3)


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=titles(cells=True))
def test_drawn_cells_are_every_window_played_live_and_replay_from_the_kernel(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    """Random titles whose cells are drawn one by one (paylines, ways or a count anywhere): the
    exact RTP is every window of every reel (its cells' draws, by weight) played live, and 300
    kernel rounds replay through live play draw for draw."""
    from tests.mechanics.test_chain_kernel import replay

    folder = write(title, tmp_path_factory.mktemp("cells"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    assume(not problems)
    model = load_model(folder)
    assert model.variant().reel_sets["base"].cells is not None
    for table in ("ways", "anywhere", "free_spins", "wild", "scatter"):
        event(f"{table}: {'yes' if table in model.raw else 'no'}")
    expected = brute_force_rtp(model)
    assume(expected is not None)
    figures = analyze_rtp(model)
    assert figures.rtp == expected, (title.model, title.cells)
    assume(figures.added_per_free_spin < Fraction(3, 4))
    replay(model, 300, seed=3)


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,  # fixed titles and seeds: the 99.9% interval is checked, never flaky
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=titles(cells=True, tumbling=True))
def test_cascades_refilled_by_cells_replay_and_hold_their_exact_rtp(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    """Random cascades on drawn cells, refilled cell by cell: 300 kernel rounds replay through
    live play draw for draw; a count anywhere whose reels share one table has an exact RTP (the
    chain of its counts) inside the 99.9% interval of 100,000 kernel rounds; any other is
    refused as beyond the exact law, by name."""
    from reelsmith.analysis import kernel as k
    from reelsmith.analysis.enumeration import BeyondEnumerationError
    from reelsmith.analysis.pcg64 import stream_state
    from tests.mechanics.test_chain_kernel import Z_999, replay

    folder = write(title, tmp_path_factory.mktemp("tumbling"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    assume(not problems)
    model = load_model(folder)
    assert model.raw["cascade"]["refill"] == "cells"
    shared = len({str(t) for t in title.cells or []}) == 1
    exact_law = "anywhere" in model.raw and shared
    event(f"one table: {'yes' if shared else 'no'}")
    for table in ("ways", "anywhere", "free_spins"):
        event(f"{table}: {'yes' if table in model.raw else 'no'}")
    event(f"exact law (a count on one table): {'yes' if exact_law else 'no'}")
    if not exact_law:
        with pytest.raises(BeyondEnumerationError):
            analyze_rtp(model)
        # without an exact law nothing shows that retriggered free spins end on average
        assume(model.raw.get("free_spins", {}).get("retrigger", "none") == "none")
        replay(model, 300, seed=3)
        return
    figures = analyze_rtp(model)
    assume(figures.added_per_free_spin < Fraction(3, 4))
    replay(model, 300, seed=3)
    rounds = 100_000
    game = k.KernelGame.build(model)
    stats, squares, _batches = game.run(stream_state(11), rounds)
    bet = game.total_bet
    mean = stats[k.S_WIN] / rounds / bet
    spread = max(squares[k.F_WIN_SQ] / rounds / bet**2 - mean * mean, 0.0) ** 0.5
    half = Z_999 * spread / rounds**0.5
    exact = float(figures.rtp)
    assert abs(mean - exact) <= half + 1e-12, (title.model, title.cells, mean, exact, half)


@st.composite
def sticky_titles(draw: Any) -> Title:
    """A random tiny lines title of 3 reels x 2 rows with sticky wilds in its free spins: the
    wild's pays, multiplier and ties, the scatter's pays, the free spins' spins, retriggers
    (none, or by table under a cap) and multiplier, and the reels whose wilds stick drawn; its
    one reel set small enough to play every stop combination from every state live."""
    out = ['id = "sticky-fuzz"', 'name = "Sticky Fuzz"', "reels = 3", "rows = 2"]
    out += ['default_variant = "v"', "paylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0]]"]
    roles = {"w": "wild", "s": "scatter"}
    for symbol in ("a", "b", "w", "s"):
        out += ["", "[[symbols]]", f'id = "{symbol}"', f'name = "{symbol.upper()}"']
        out.append(f'role = "{roles.get(symbol, "regular")}"')
    out += ["", "[line_pays]", f"a = {{ 3 = {draw(st.integers(1, 5))} }}"]
    out.append(f"b = {{ 2 = {draw(st.integers(1, 2))}, 3 = {draw(st.integers(2, 4))} }}")
    if draw(st.booleans()):
        out.append(f"w = {{ 3 = {draw(st.integers(1, 6))} }}")
    out += ["", "[wild]", 'symbol = "w"', f"multiplier = {draw(st.integers(1, 2))}"]
    out.append(f'ties = "{draw(st.sampled_from(["wild", "symbol"]))}"')
    out += ["", "[scatter]", 'symbol = "s"', f"pays = {{ 2 = {draw(st.integers(0, 2))} }}"]
    spins = {"2": draw(st.integers(1, 2)), "3": draw(st.integers(2, 3))}
    out += ["", "[free_spins]", "trigger = 2", f"spins = {_toml(spins)}"]
    if draw(st.booleans()):
        out += ['retrigger = "table"', "retrigger_spins = { 2 = 1 }", "max_spins = 4"]
    else:
        out.append('retrigger = "none"')
    out += [f"multiplier = {draw(st.integers(1, 2))}", 'reel_set = "base"']
    out += ["", "[sticky_wilds]"]
    reels = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True))
    if len(reels) < 3:
        out.append(f"reels = {sorted(reels)}")
    out += ["", "[bet]", "lines = { min = 3, max = 3 }", "coins_per_line = { min = 1, max = 1 }"]
    out += ['coin_sizes = ["0.01"]', "max_total_coins = 3"]
    out.append('default = { lines = 3, coins_per_line = 1, coin_size = "0.01" }')
    shown = ["a", "b", "w", "s"]
    strips = [draw(st.lists(st.sampled_from(shown), min_size=2, max_size=4)) for _ in range(3)]
    return Title("\n".join(out) + "\n", strips)


@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=sticky_titles())
def test_sticky_wilds_are_every_state_played_live_and_replay_from_the_kernel(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    """Random titles with sticky wilds: the exact chain's RTP is every stop combination played
    live from every state a feature reaches (its stuck cells, spins left and awarded), and 300
    kernel rounds replay through live play draw for draw."""
    from tests.mechanics.test_chain_kernel import replay
    from tests.mechanics.test_sticky import brute_force_rtp

    folder = write(title, tmp_path_factory.mktemp("sticky"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    assert not problems, (title.model, problems)
    model = load_model(folder)
    expected, states = brute_force_rtp(model)
    event(f"feature states: {'more than 16' if states > 16 else 'up to 16'}")
    assert analyze_rtp(model).rtp == expected, (title.model, title.strips)
    replay(model, 300, seed=3)


@st.composite
def hold_titles(draw: Any) -> Title:
    """A random tiny lines title of 3 reels x 2 rows with the hold-and-spin: its trigger,
    respins, landing odds, coin values (bets or jackpot tiers, and a collector or a multiplier
    coin beside them, the multipliers multiplied or added up) and full-grid tier drawn, small
    enough to play every draw of every round live."""
    wild = draw(st.booleans())
    symbols = ["a", "coin"] + (["w"] if wild else [])
    out = ['id = "hold-fuzz"', 'name = "Hold Fuzz"', "reels = 3", "rows = 2"]
    out += ['default_variant = "v"', "paylines = [[0, 0, 0], [1, 1, 1]]"]
    roles = {"w": "wild", "coin": "bonus"}
    for symbol in symbols:
        out += ["", "[[symbols]]", f'id = "{symbol}"', f'name = "{symbol.upper()}"']
        out.append(f'role = "{roles.get(symbol, "regular")}"')
    out += ["", "[line_pays]", f"a = {{ 3 = {draw(st.integers(1, 5))} }}"]
    if wild:
        out += ["", "[wild]", 'symbol = "w"']
    # few branches a draw: two coin values at most (a collector or a multiplier coin among them
    # beside a plain value), small weights (the brute force walks every draw of every round)
    chosen = draw(
        st.lists(
            st.sampled_from(["1", "2", "5", "mini", "collect", "x2", "x3"]),
            min_size=1,
            max_size=2,
            unique=True,
        )
    )
    if not any(key.isdigit() for key in chosen):  # a collector or multiplier needs a value
        chosen = [key if key == "mini" else "2" for key in chosen[:1]]
    values = {key: draw(st.integers(1, 2)) for key in chosen}
    jackpots = {"mini": draw(st.integers(5, 20))}
    full = draw(st.booleans())
    if full:
        jackpots["grand"] = draw(st.integers(25, 60))
    trigger = draw(st.integers(4, 5))
    out += ["", "[hold_and_spin]", 'symbol = "coin"', f"trigger = {trigger}"]
    out.append(f"respins = {draw(st.integers(1, 2)) if trigger == 5 else 1}")
    land = {"coin": 1, "blank": draw(st.integers(1, 2))}
    out += [f"land = {_toml(land)}", f"values = {_toml(values)}"]
    if full:
        out.append('full_grid = "grand"')
    if draw(st.booleans()):
        out.append(f'multipliers = "{draw(st.sampled_from(["product", "sum"]))}"')
    out.append(f"jackpots = {_toml(jackpots)}")
    out += ["", "[bet]", "lines = { min = 2, max = 2 }", "coins_per_line = { min = 1, max = 1 }"]
    out += ['coin_sizes = ["0.01"]', "max_total_coins = 2"]
    out.append('default = { lines = 2, coins_per_line = 1, coin_size = "0.01" }')
    shown = symbols + ["coin"] * 3  # coins often enough that most titles trigger
    strips = [draw(st.lists(st.sampled_from(shown), min_size=2, max_size=3)) for _ in range(3)]
    return Title("\n".join(out) + "\n", strips)


@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=hold_titles())
def test_the_hold_and_spin_is_every_draw_of_every_round_played_live(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    """Random tiny hold-and-spin titles: every draw of every round (the stops, each respin's
    landings and coin values) played through live play gives the exact RTP, variance, trigger
    and hit frequency of ``analyze``; 300 kernel rounds replay through live play."""
    from reelsmith.analysis.analyzer import analyze
    from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules
    from tests.mechanics.test_hold_and_spin import every_round
    from tests.mechanics.test_hold_kernel import replay

    folder = write(title, tmp_path_factory.mktemp("hold"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    assert not problems, (title.model, problems)
    model = load_model(folder)
    rounds = every_round(model)
    bet = model.line_count
    mean = sum((p * Fraction(r.win_coins, bet) for r, p in rounds), Fraction(0))
    second = sum((p * Fraction(r.win_coins, bet) ** 2 for r, p in rounds), Fraction(0))
    triggered = sum((p for r, p in rounds if "hold_and_spin" in r.spins[0].parts), Fraction(0))
    hits = sum((p for r, p in rounds if r.win_coins > 0), Fraction(0))
    exact = analyze(model)
    event(f"triggers: {'yes' if triggered else 'no'}")
    special = hold_and_spin_rules(model).collectors or hold_and_spin_rules(model).multipliers
    event(f"collectors or multipliers: {'yes' if special else 'no'}")
    assert (exact.rtp, exact.variance) == (mean, second - mean * mean), title.model
    assert (exact.trigger_probability, exact.hit_frequency) == (triggered, hits), title.model
    replay(model, 300, seed=5, every=300)


@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,  # fixed titles and seeds: the 99.9% interval is checked, never flaky
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=titles(bought=True))
def test_a_bought_feature_holds_its_exact_rtp_in_live_play(
    tmp_path_factory: pytest.TempPathFactory, title: Title
) -> None:
    """Random titles with free spins and a bought feature, on paylines, ways or counts, with
    or without cascades: 3,000 bought rounds played live hold the buy's exact RTP (the free
    spins given the trigger; on a cascade its free reels' full cycle of chains by Wald's
    identities) in their 99.9% interval."""
    from reelsmith.mechanics.modes.exact import figures
    from reelsmith.mechanics.modes.simulate import simulate_mode
    from tests.mechanics.test_chain_kernel import Z_999

    folder = write(title, tmp_path_factory.mktemp("buy"))
    problems = [p for p in validate_folder(folder) if "stated" not in p and "RTP" not in p]
    assume(not any("never end" in p for p in problems))  # validate's refusal, tested above
    assert problems == [], (title.model, problems)
    model = load_model(folder)
    evaluator = next((t for t in ("ways", "anywhere") if t in model.raw), "paylines")
    event(f"evaluator: {evaluator}, {'cascade' if 'cascade' in model.raw else 'no cascade'}")
    exact = figures(model, None, "buy")
    played = simulate_mode(model, None, "buy", 3_000, 17)
    half = Z_999 * played.std_dev / played.rounds**0.5
    assert abs(played.rtp - float(exact.rtp)) <= max(half, 1e-12), (title.model, title.strips)
