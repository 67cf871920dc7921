"""The expanding symbol in free spins (``[expanding]``, the "book" mechanic): every stop
combination of a small title and every draw of its symbol played through live play give the
exact RTP (a mixture over the drawn symbol), the kernel's rounds replay through live play draw
for draw, a 400,000-round simulation holds the exact RTP inside its 99.9% interval, a round
records and tells its symbol and expansions, the rules page says it in both languages, and
``validate`` refuses bad tables and combinations in one line naming the key."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import analyze_rtp, total_coins
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import simulate
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.events import round_events
from reelsmith.engine.model import GameModel, load_model
from reelsmith.engine.rounds import replaced
from reelsmith.mechanics import composition
from reelsmith.mechanics.expanding.exact import expansion_by_symbol, without_expanding
from reelsmith.mechanics.expanding.live import Drawn, Expanded
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource, SeededSource
from reelsmith.rules_page import rules_document
from tests.mechanics.expanding_title import expanding_title
from tests.mechanics.replaying import replayed
from tests.mechanics.test_chain_kernel import kernel_figures, observed
from tests.mechanics.test_events import validator

#: The two-sided 99.9% normal quantile.
Z_999 = 3.2905
NO_GAMBLE = {OPTIONS: RoundOptions(gamble_allowed=False)}


def _model(tmp_path: Path) -> GameModel:
    return load_model(expanding_title(tmp_path / "book"))


def _start(model: GameModel, source: object, lines: int | None = None) -> core.Round:
    cost = total_coins(model) if lines is None else lines
    bet = CoinBet(cost, 1, Decimal(str(model.bet["coin_sizes"][0])))
    return core.start_round(
        composition(model),
        bet,
        core.Stake(cost, 1),
        source,
        parts=NO_GAMBLE,  # type: ignore[arg-type]
    )


class Stops:
    """A screen's reel stops, then ``value`` for the expanding symbol's draw (its bound noted,
    None until the round asks for it)."""

    def __init__(self, lengths: list[int], stops: tuple[int, ...], value: int) -> None:
        self.stops = ReplaySource(
            [Draw("reel_stop", n, s) for n, s in zip(lengths, stops, strict=True)]
        )
        self.value = value
        self.bound: int | None = None

    def randbelow(self, bound: int, purpose: str) -> int:
        if purpose != "expanding_symbol":
            return self.stops.randbelow(bound, purpose)
        assert self.bound is None, "one draw of the symbol a round"
        self.bound = bound
        return self.value


def _combinations(model: GameModel, reel_set: str) -> tuple[list[int], list[tuple[int, ...]]]:
    lengths = [int(n) for n in model.variant().reel_sets[reel_set].lengths]
    return lengths, list(itertools.product(*(range(n) for n in lengths)))


# -- exact against brute force ----------------------------------------------------------


def test_every_stop_and_symbol_played_live_gives_the_exact_rtp(tmp_path: Path) -> None:
    """Every base stop combination and every draw of the symbol played live; every free stop
    combination played live for each symbol kept; combined by the renewal of free spins (the
    retriggers' law the same for every symbol), they equal the exact mixture."""
    model = _model(tmp_path)
    comp = composition(model)
    cost = total_coins(model)
    lengths, combos = _combinations(model, "base")
    mean = Fraction(0)
    awards: dict[int, Fraction] = {}
    in_free = None
    for stops in combos:
        value = 0
        while True:
            source = Stops(lengths, stops, value)
            played = _start(model, source)
            p = Fraction(1, len(combos) * (source.bound or 1))
            mean += p * played.spins[0].win_coins
            if source.bound is not None:
                symbol = played.part("expanding")
                awarded = played.part("free_spins").awarded
                awards[symbol] = awards.get(symbol, Fraction(0)) + p * awarded
                in_free = in_free or played
            value += 1
            if source.bound is None or value == source.bound:
                break
    assert in_free is not None and len(awards) == 3
    free_lengths, free_combos = _combinations(model, "free")
    total = mean
    added = set()
    for symbol, weight in awards.items():
        state = replaced(in_free, parts={**in_free.parts, "expanding": symbol})
        free_mean = q = Fraction(0)
        expanded = 0
        for stops in free_combos:
            spin = core.act(comp, state, "free_spin", Stops(free_lengths, stops, 0)).spins[-1]
            free_mean += Fraction(spin.win_coins, len(free_combos))
            q += Fraction(spin.parts["free_spins"].spins_added, len(free_combos))
            expanded += "expanding" in spin.parts
        assert expanded > 0
        added.add(q)
        total += weight * free_mean / (1 - q)
    assert len(added) == 1  # the retriggers do not depend on the symbol drawn
    exact = analyze_rtp(model)
    assert total / cost == exact.rtp
    # the expansion is part of it: the model without [expanding] returns less
    assert analyze_rtp(without_expanding(model)).rtp < exact.rtp
    assert all(v > 0 for v in expansion_by_symbol(model, "main").values())


def test_fewer_lines_pay_the_expansion_on_the_lines_played(tmp_path: Path) -> None:
    """The expansion pays on every payline played: at 2 lines of 5, 2 x the line pay."""
    model = _model(tmp_path)
    comp = composition(model)
    for seed in range(200):
        source = SeededSource(seed)
        played = core.finish(comp, _start(model, source, lines=2), source)
        for spin in played.spins[1:]:
            record = spin.parts.get("expanding")
            if isinstance(record, Expanded):
                assert record.lines == 2
                pays = model.line_pays[model.symbol_index(record.symbol)]
                assert record.coins == 2 * 2 * int(pays[len(record.reels)])  # x2 in free spins
                return
    raise AssertionError("no expansion in 200 rounds")


# -- the kernel -----------------------------------------------------------------------------


def test_kernel_rounds_replay_through_live_play(tmp_path: Path) -> None:
    model = _model(tmp_path)
    game = k.KernelGame.build(model)
    rounds = 3000
    results, draws, stats, _floats = game.trace(stream_state(11), rounds)
    featured = expanded = 0
    for i in range(rounds):
        recorded = game.draws_of(draws[i])
        source = ReplaySource(recorded)
        played = core.finish(composition(model), _start(model, source), source)
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert observed(played) == kernel_figures([int(x) for x in results[i]]), f"round {i}"
        featured += len(played.spins) > 1
        expanded += sum(isinstance(s.parts.get("expanding"), Expanded) for s in played.spins)
        assert sum(d.purpose == "expanding_symbol" for d in recorded) == (len(played.spins) > 1)
    assert stats[k.S_ROUNDS] == rounds
    assert featured > 200 and expanded > 500


def test_the_simulated_rtp_holds_the_exact_one(tmp_path: Path) -> None:
    """400,000 rounds: the exact RTP inside the simulation's 99.9% interval."""
    model = _model(tmp_path)
    exact = float(analyze_rtp(model).rtp)
    result = simulate(model, 400_000, 2026, workers=1)
    low, high = result.interval(Z_999)
    print(f"exact {exact:.6f}, simulated {result.rtp:.6f}, 99.9% interval [{low:.6f}, {high:.6f}]")
    assert low <= exact <= high, (exact, result.rtp, low, high)


# -- a round --------------------------------------------------------------------------------


def test_a_round_records_replays_and_tells_its_symbol(tmp_path: Path) -> None:
    model = _model(tmp_path)
    comp = composition(model)
    check = validator()
    drawn_seen = set()
    for seed in range(80):
        source = SeededSource(seed)
        played = core.finish(comp, _start(model, source), source)
        events = round_events(comp, played)
        assert check.is_valid(events)
        purposes = [d.purpose for d in played.draws]
        if len(played.spins) == 1:
            assert "expanding_symbol" not in purposes
            assert core.round_json(comp, played)["expanding_symbol"] is None
            continue
        assert purposes.count("expanding_symbol") == 1
        drawn = played.spins[0].parts["expanding"]
        assert isinstance(drawn, Drawn)
        drawn_seen.add(drawn.symbol)
        assert core.round_json(comp, played)["expanding_symbol"] == drawn.symbol
        assert {"type": "expanding_symbol_drawn", "spin": 0, "symbol": drawn.symbol} in events
        symbol = model.symbol_index(drawn.symbol)
        for index, spin in enumerate(played.spins[1:], start=1):
            grid = spin.grid
            reels = tuple(r for r in range(model.reels) if (grid[:, r] == symbol).any())
            record = spin.parts.get("expanding")
            pay = int(model.line_pays[symbol][len(reels)]) * 2  # the free spins' x2
            if not pay:
                assert record is None
                continue
            assert record == Expanded(drawn.symbol, reels, 5, pay * 5)
            lines = sum(w.coins for w in spin.parts["paylines"].wins)
            scatter = spin.parts.get("scatter")
            scattered = scatter.coins if scatter is not None else 0
            assert spin.win_coins == lines + scattered + record.coins
            assert {
                "type": "symbol_expanded",
                "spin": index,
                "symbol": drawn.symbol,
                "reels": list(reels),
                "lines": 5,
                "coins": record.coins,
            } in events
        replay = replayed(comp, played)
        assert core.round_json(comp, replay) == core.round_json(comp, played)
    assert drawn_seen == {"bird", "fish", "ten"}


def test_the_server_serves_its_rounds_and_their_events(tmp_path: Path) -> None:
    from collections import Counter

    from reelsmith.server.titles import Title
    from tests.mechanics.test_events import check_round, play

    title = Title(_model(tmp_path))
    check = validator()
    seen: Counter[str] = Counter()
    for seed in range(40):
        played, _ = play(title, seed, gamble=False)
        seen += check_round(title, played, check)
    assert seen["expanding_symbol_drawn"] > 0 and seen["symbol_expanded"] > 0


def test_the_rules_page_says_it_in_both_languages(tmp_path: Path) -> None:
    model = _model(tmp_path)
    english = rules_document(model, language="en")["rules"]["expanding"]
    german = rules_document(model, language="de")["rules"]["expanding"]
    assert any("Bird, Fish or Ten" in line and "Retriggered" in line for line in english)
    assert any("need not be adjacent" in line for line in english)
    assert any("every payline played" in line for line in english)
    assert "Wild does not count as the expanding symbol." in english
    assert any("Bird, Fish oder Ten" in line for line in german)
    assert "Wild zählt nicht als expandierendes Symbol." in german
    assert len(english) == len(german) == 4


# -- the model ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            "bird = 1, fish = 2, ten = 3",
            "bird = 0, fish = 0",
            "expanding.symbols: the weights add up to 0",
        ),
        ("bird = 1, fish", "owl = 1, fish", "expanding.symbols.owl: unknown symbol 'owl'"),
        (
            "bird = 1, fish",
            "wild = 1, fish",
            "expanding.symbols.wild: the expanding symbol is a regular paying symbol, not a wild",
        ),
        (
            "bird = 1, fish",
            "star = 1, fish",
            "expanding.symbols.star: the expanding symbol is a regular paying symbol",
        ),
        (
            "bird = 1, fish",
            "bird = -1, fish",
            "expanding.symbols.bird: the weight must be a whole number >= 0",
        ),
        (
            "bird = { 3 = 5, 4 = 20, 5 = 50 }",
            "bird = { 3 = 0 }",
            "expanding.symbols.bird: it pays nothing on a line in free spins",
        ),
        ("symbols = {", "colour = 1\nsymbols = {", "expanding: unknown key 'colour'"),
        (
            "symbols = { bird = 1, fish = 2, ten = 3 }",
            "",
            "expanding: missing key 'symbols'",
        ),
        (
            'reel_set = "free"',
            'reel_set = "free"\nmultipliers = { 3 = 2 }',
            "expanding: free_spins.multipliers: the expanding symbol is not played with",
        ),
        (
            "[expanding]",
            "[max_win]\nmultiplier = 100\n\n[expanding]",
            "expanding and max_win: the capped law",
        ),
        (
            "[expanding]",
            "[cascade]\nlimit = 2\nmultipliers = [1, 1]\n\n[expanding]",
            "cascade and expanding: a cascade's refill",
        ),
        (
            "[expanding]",
            '[mystery]\nsymbol = "star"\nreveal = { bird = 1 }\n\n[expanding]',
            "expanding and mystery: a mystery's reveal",
        ),
    ],
)
def test_validate_refuses_a_bad_table_in_one_line_naming_the_key(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    folder = expanding_title(tmp_path / "bad", replace=(old, new))
    problems = [p for p in validate_folder(folder) if "states an RTP" not in p]
    assert len(problems) == 1 and says in problems[0], problems


def test_without_free_spins_it_is_refused(tmp_path: Path) -> None:
    folder = expanding_title(tmp_path / "bad", replace=("[free_spins]", "[free_spins_off]"))
    text = (folder / "model.toml").read_text(encoding="utf-8")
    start = text.index("[free_spins_off]")
    end = text.index("[expanding]")
    (folder / "model.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    problems = [p for p in validate_folder(folder) if "states an RTP" not in p]
    assert any("expanding needs free_spins" in p for p in problems), problems


def test_the_terminal_says_the_symbol_and_its_expansions(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = expanding_title(tmp_path / "play")
    result = CliRunner().invoke(
        app, ["play", str(folder), "--seed", "5", "--balance", "50"], input="s\n" * 30 + "q\n"
    )
    assert result.exit_code == 0, result.output
    assert "Expanding symbol for the free spins" in result.output
