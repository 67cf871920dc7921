"""Mystery symbols (``[mystery]``): every draw of every round of a small title played through
live play gives the exact RTP (paylines, ways, pays anywhere), the kernel's rounds replay
through live play draw for draw, a simulation holds the exact RTP of a title with free spins
(their own reveal table) inside its 99% interval, a round records and tells its reveal, the
rules page says it in both languages, and ``validate`` refuses bad tables and combinations in
one line naming the key."""

from __future__ import annotations

import math
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
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import ReplaySource, SeededSource
from reelsmith.rules_page import rules_document
from tests.mechanics.mystery_title import mystery_title
from tests.mechanics.test_chain_kernel import kernel_figures, observed
from tests.mechanics.test_events import validator

#: The two-sided 99% normal quantile.
Z_99 = 2.5758
NO_GAMBLE = {OPTIONS: RoundOptions(gamble_allowed=False)}
EVALUATORS = ("lines", "ways", "anywhere")


def _model(tmp_path: Path, evaluator: str = "lines", free_spins: bool = False) -> GameModel:
    return load_model(
        mystery_title(
            tmp_path / f"{evaluator}-{free_spins}", evaluator=evaluator, free_spins=free_spins
        )
    )


def _start(model: GameModel, source: object) -> core.Round:
    cost = total_coins(model)
    bet = CoinBet(cost, 1, Decimal(str(model.bet["coin_sizes"][0])))
    return core.start_round(
        composition(model),
        bet,
        core.Stake(cost, 1),
        source,
        parts=NO_GAMBLE,  # type: ignore[arg-type]
    )


class Branch:
    """A random source answering a fixed path of draws, extended with zeros, noting each
    draw's bound: walking every path of the draw tree plays every outcome of a round once,
    each with probability the product of 1 / bound."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.bounds: list[int] = []
        self.purposes: list[str] = []

    def randbelow(self, bound: int, purpose: str) -> int:
        at = len(self.bounds)
        if at == len(self.path):
            self.path.append(0)
        self.bounds.append(bound)
        self.purposes.append(purpose)
        return self.path[at]


# -- exact against brute force ----------------------------------------------------------


@pytest.mark.parametrize("evaluator", EVALUATORS)
def test_every_draw_of_every_round_played_live_gives_the_exact_rtp(
    tmp_path: Path, evaluator: str
) -> None:
    model = _model(tmp_path, evaluator)
    cost = total_coins(model)
    mean = total = Fraction(0)
    reveals = 0
    path: list[int] = []
    while True:
        branch = Branch(path)
        played = _start(model, branch)
        assert played.phase == core.COMPLETE
        p = Fraction(1, math.prod(branch.bounds))
        total += p
        mean += p * Fraction(played.win_coins, cost)
        reveals += "mystery" in branch.purposes
        at = len(branch.path) - 1
        while at >= 0 and branch.path[at] == branch.bounds[at] - 1:
            at -= 1
        if at < 0:
            break
        path = [*branch.path[:at], branch.path[at] + 1]
    assert total == 1
    assert reveals > 0  # the walk went through the reveal's every outcome
    exact = analyze_rtp(model).rtp
    assert mean == exact
    # and the mystery changes the figure: the strips read as they landed pay otherwise
    from reelsmith.mechanics.mystery.exact import revealed_model

    assert analyze_rtp(revealed_model(model, model.symbol_index("fish"))).rtp != exact


@pytest.mark.parametrize("evaluator", EVALUATORS)
def test_every_stop_and_reveal_with_free_spins_gives_the_exact_rtp(
    tmp_path: Path, evaluator: str
) -> None:
    """With free spins drawing from their own table: every base and free screen's stops and
    reveals played live, combined by the renewal of free spins (the fuzzer's brute force),
    equal the exact mixture."""
    from tests.analysis.test_math_fuzz import brute_force_rtp

    model = _model(tmp_path, evaluator, free_spins=True)
    figures = analyze_rtp(model)
    assert figures.free_spins_rtp > 0
    assert brute_force_rtp(model) == figures.rtp


# -- the kernel -----------------------------------------------------------------------------


def replay(model: GameModel, rounds: int, seed: int) -> tuple[int, int]:
    """Replay ``rounds`` kernel rounds through live play: every draw used, identical figures;
    returns (rounds with free spins, reveals)."""
    game = k.KernelGame.build(model)
    results, draws, stats, _floats = game.trace(stream_state(seed), rounds)
    featured = revealed = 0
    for i in range(rounds):
        recorded = game.draws_of(draws[i])
        source = ReplaySource(recorded)
        played = _start(model, source)
        played = core.finish(composition(model), played, source)
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert observed(played) == kernel_figures([int(x) for x in results[i]]), f"round {i}"
        featured += len(played.spins) > 1
        revealed += sum(d.purpose == "mystery" for d in recorded)
    assert stats[k.S_ROUNDS] == rounds
    return featured, revealed


@pytest.mark.parametrize("evaluator", EVALUATORS)
def test_kernel_rounds_replay_through_live_play(tmp_path: Path, evaluator: str) -> None:
    model = _model(tmp_path, evaluator, free_spins=True)
    featured, revealed = replay(model, 3000, 11)
    assert featured > 20 and revealed > 1000


def test_the_simulated_rtp_holds_the_exact_one(tmp_path: Path) -> None:
    """1,000,000 rounds of the title with free spins (their own reveal table): the exact RTP
    inside the simulation's 99% interval."""
    model = _model(tmp_path, "lines", free_spins=True)
    exact = float(analyze_rtp(model).rtp)
    result = simulate(model, 1_000_000, 2026, workers=1)
    low, high = result.interval(Z_99)
    assert low <= exact <= high, (exact, result.rtp, low, high)


# -- a round --------------------------------------------------------------------------------


def test_a_round_records_replays_and_tells_its_reveal(tmp_path: Path) -> None:
    model = _model(tmp_path, "lines", free_spins=True)
    comp = composition(model)
    check = validator()
    seen = set()
    for seed in range(60):
        source = SeededSource(seed)
        played = core.finish(comp, _start(model, source), source)
        for index, spin in enumerate(played.spins):
            record = spin.parts.get("mystery")
            cells = [
                (r, c)
                for r, row in enumerate(spin.landed)
                for c, s in enumerate(row)
                if s == "mystery"
            ]
            if not cells:
                assert record is None
                continue
            assert record.cells == tuple(cells)
            assert {spin.screen[r][c] for r, c in cells} == {record.symbol}
            assert all(s != "mystery" for row in spin.screen for s in row)
            table = {"base": ("bird", "fish", "wild"), "free": ("bird", "wild")}[spin.kind]
            assert record.symbol in table
            seen.add((spin.kind, record.symbol))
            events = [e for e in round_events(comp, played) if e["type"] == "mystery_revealed"]
            assert {
                "type": "mystery_revealed",
                "spin": index,
                "symbol": record.symbol,
                "cells": [list(c) for c in cells],
            } in events
        assert check.is_valid(round_events(comp, played))  # the versioned schema's
        purposes = [d.purpose for d in played.draws]
        landed = sum(any(s == "mystery" for row in s_.landed for s in row) for s_ in played.spins)
        assert purposes.count("mystery") == landed
    assert {s for kind, s in seen if kind == "base"} == {"bird", "fish", "wild"}


def test_the_server_serves_its_rounds_and_their_events(tmp_path: Path) -> None:
    from collections import Counter

    from reelsmith.server.titles import Title
    from tests.mechanics.test_events import check_round, play

    title = Title(_model(tmp_path, "ways", free_spins=True))
    check = validator()
    seen: Counter[str] = Counter()
    for seed in range(40):
        played, _ = play(title, seed, gamble=False)
        seen += check_round(title, played, check)
    assert seen["mystery_revealed"] > 0 and seen["free_spin"] > 0


def test_the_rules_page_says_it_in_both_languages(tmp_path: Path) -> None:
    model = _model(tmp_path, "lines", free_spins=True)
    english = rules_document(model, language="en")["rules"]["mystery"]
    german = rules_document(model, language="de")["rules"]["mystery"]
    assert "Mystery symbols turn into Bird, Fish or Wild." in english
    assert "In free spins, Mystery symbols turn into Bird or Wild." in english
    assert "Mystery symbols never turn into Star." in english
    assert "Mystery-Symbole verwandeln sich in Bird, Fish oder Wild." in german
    assert len(english) == len(german) == 5


# -- the model ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            "bird = 3, fish = 5, wild = 1",
            "bird = 0, fish = 0",
            "mystery.reveal: the weights add up to 0",
        ),
        ("bird = 3, fish = 5", "owl = 3, fish = 5", "mystery.reveal.owl: unknown symbol 'owl'"),
        (
            "bird = 3, fish = 5",
            "mystery = 3, fish = 5",
            "mystery.reveal.mystery: the mystery symbol cannot reveal itself",
        ),
        (
            "bird = 3, fish = 5",
            "star = 3, fish = 5",
            "mystery.reveal.star: a mystery never reveals the scatter",
        ),
        (
            "bird = 3, fish = 5",
            "bird = -1, fish = 5",
            "mystery.reveal.bird: the weight must be a whole number >= 0",
        ),
        ("reveal = {", "colour = 1\nreveal = {", "mystery: unknown key 'colour'"),
        (
            'name = "Mystery"\nrole = "bonus"',
            'name = "Mystery"\nrole = "regular"',
            "mystery.symbol: 'mystery' must have role \"bonus\"",
        ),
        (
            "reveal = {",
            "free_spins_reveal = { wild = 1 }\nreveal = {",
            "mystery.free_spins_reveal: the model has no [free_spins]",
        ),
        (
            "[mystery]",
            "[max_win]\nmultiplier = 100\n\n[mystery]",
            "max_win and mystery: the capped law",
        ),
        (
            "[mystery]",
            "[cascade]\nlimit = 2\nmultipliers = [1, 1]\n\n[mystery]",
            "cascade and mystery: a cascade's refill",
        ),
    ],
)
def test_validate_refuses_a_bad_table_in_one_line_naming_the_key(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    folder = mystery_title(tmp_path / "bad")
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    problems = [p for p in validate_folder(folder) if "states an RTP" not in p]
    assert len(problems) == 1 and says in problems[0], problems


def test_the_terminal_says_what_the_mysteries_became(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = mystery_title(tmp_path / "play")
    result = CliRunner().invoke(
        app, ["play", str(folder), "--seed", "3", "--balance", "50"], input="s\n" * 6 + "q\n"
    )
    assert result.exit_code == 0, result.output
    assert "Mystery symbols revealed" in result.output
