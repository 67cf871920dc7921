"""Sticky wilds in free spins (``[sticky_wilds]``): every stop combination of the base spin and
of every free spin from every state the feature reaches, played through live play, gives the
exact RTP (the Markov chain over the stuck cells); the kernel's rounds replay through live play
draw for draw; a simulation holds the exact RTP inside its 99.9% interval; a round records,
tells and clears its stuck wilds; the rules page says it in both languages; and ``validate``
refuses bad tables and combinations in one line naming the key."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import analyze_rtp, total_coins
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import simulate
from reelsmith.engine import round as core
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.events import round_events
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.free_spins.live import FREE_SPINS
from reelsmith.mechanics.sticky import rules as sticky_rules_module
from reelsmith.mechanics.sticky.exact import without_sticky
from reelsmith.mechanics.sticky.live import Stuck
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource, SeededSource
from reelsmith.rules_page import rules_document
from tests.mechanics.replaying import replayed
from tests.mechanics.sticky_title import sticky_title
from tests.mechanics.test_chain_kernel import kernel_figures, observed
from tests.mechanics.test_events import validator
from tests.mechanics.test_expanding import Z_999, _start


def _model(tmp_path: Path) -> GameModel:
    return load_model(sticky_title(tmp_path / "sticky"))


def _sources(model: GameModel, reel_set: str) -> list[tuple[Fraction, list[Draw]]]:
    """Every stop combination of ``reel_set`` as the draws of a screen, each equally likely."""
    lengths = [int(n) for n in model.variant().reel_sets[reel_set].lengths]
    combos = list(itertools.product(*(range(n) for n in lengths)))
    p = Fraction(1, len(combos))
    return [
        (p, [Draw("reel_stop", n, s) for n, s in zip(lengths, stops, strict=True)])
        for stops in combos
    ]


def brute_force_rtp(model: GameModel) -> tuple[Fraction, int]:
    """The RTP of every base stop combination and, from every state a feature reaches (the
    round as live play leaves it: its stuck cells, spins left and awarded), every free stop
    combination played live; and the number of those states."""
    comp = composition(model)
    free = mechanics(model).free_spins
    assert free is not None
    free_draws = _sources(model, free.reel_set)
    seen: dict[object, Fraction] = {}

    def feature(round_: core.Round) -> Fraction:
        if round_.phase != FREE_SPINS:
            return Fraction(0)
        spins = round_.part("free_spins")
        key = (round_.part("sticky"), spins.awarded, spins.remaining)
        if key not in seen:
            total = Fraction(0)
            for p, draws in free_draws:
                after = core.act(comp, round_, "free_spin", ReplaySource(draws))
                total += p * (after.spins[-1].win_coins + feature(after))
            seen[key] = total
        return seen[key]

    mean = Fraction(0)
    for p, draws in _sources(model, "base"):
        played = _start(model, ReplaySource(draws))
        mean += p * (played.spins[0].win_coins + feature(played))
    return mean / total_coins(model), len(seen)


# -- exact against brute force ----------------------------------------------------------


def test_every_stop_combination_of_every_state_played_live_gives_the_exact_rtp(
    tmp_path: Path,
) -> None:
    model = _model(tmp_path)
    expected, states = brute_force_rtp(model)
    exact = analyze_rtp(model)
    print(f"brute force {expected} = {float(expected):.9f} over {states} feature states")
    print(f"exact       {exact.rtp} = {float(exact.rtp):.9f}")
    assert exact.rtp == expected
    assert states > 16  # the chain met many sets of stuck cells
    # the stuck wilds are worth something: the model without them returns less
    assert analyze_rtp(without_sticky(model)).rtp < exact.rtp


def test_without_retriggers_the_chain_still_equals_brute_force(tmp_path: Path) -> None:
    """No retrigger and no cap: the spins left alone bound the chain."""
    folder = sticky_title(
        tmp_path / "plain",
        replace=(
            'retrigger = "table"\nretrigger_spins = { 2 = 1 }\nmax_spins = 5',
            'retrigger = "none"',
        ),
    )
    model = load_model(folder)
    expected, _states = brute_force_rtp(model)
    assert analyze_rtp(model).rtp == expected


# -- the kernel -----------------------------------------------------------------------------


def test_kernel_rounds_replay_through_live_play(tmp_path: Path) -> None:
    model = _model(tmp_path)
    game = k.KernelGame.build(model)
    rounds = 3000
    results, draws, stats, _floats = game.trace(stream_state(11), rounds)
    featured = stuck = 0
    for i in range(rounds):
        recorded = game.draws_of(draws[i])
        source = ReplaySource(recorded)
        played = core.finish(composition(model), _start(model, source), source)
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert observed(played) == kernel_figures([int(x) for x in results[i]]), f"round {i}"
        featured += len(played.spins) > 1
        stuck += sum(bool(s.parts["sticky"].shown) for s in played.spins if "sticky" in s.parts)
    assert stats[k.S_ROUNDS] == rounds
    assert featured > 200 and stuck > 200


def test_the_simulated_rtp_holds_the_exact_one(tmp_path: Path) -> None:
    """200,000 rounds: the exact RTP inside the simulation's 99.9% interval."""
    model = _model(tmp_path)
    exact = float(analyze_rtp(model).rtp)
    result = simulate(model, 200_000, 2026, workers=1)
    low, high = result.interval(Z_999)
    print(f"exact {exact:.6f}, simulated {result.rtp:.6f}, 99.9% interval [{low:.6f}, {high:.6f}]")
    assert low <= exact <= high, (exact, result.rtp, low, high)


# -- a round --------------------------------------------------------------------------------


def test_a_round_sticks_its_wilds_records_replays_and_clears_them(tmp_path: Path) -> None:
    model = _model(tmp_path)
    comp = composition(model)
    check = validator()
    wild, star = model.wild, model.scatter
    seen_shown = seen_landed = 0
    for seed in range(120):
        source = SeededSource(seed)
        played = core.finish(comp, _start(model, source), source)
        events = round_events(comp, played)
        assert check.is_valid(events)
        assert "sticky" not in played.spins[0].parts  # a base spin's wilds do not stick
        assert core.round_json(comp, played)["sticky_wilds"] == []  # cleared at the end
        stuck: set[tuple[int, int]] = set()
        for index, spin in enumerate(played.spins[1:], start=1):
            grid = spin.grid  # as landed
            screen = np.array([[model.symbol_index(s) for s in row] for row in spin.screen])
            for row, reel in itertools.product(range(model.rows), range(model.reels)):
                if (row, reel) in stuck and grid[row, reel] != star:
                    assert screen[row, reel] == wild
                else:
                    assert screen[row, reel] == grid[row, reel]
            landed = {
                (int(r), int(c)) for r, c in zip(*np.nonzero(grid == wild), strict=True) if c > 0
            }
            record = spin.parts.get("sticky")
            if not stuck | landed:
                assert record is None
                continue
            assert isinstance(record, Stuck)
            assert set(record.landed) == landed - stuck
            stuck |= landed
            assert set(record.cells) == stuck
            seen_shown += bool(record.shown)
            seen_landed += bool(record.landed)
            assert {
                "type": "wilds_stuck",
                "spin": index,
                "symbol": "wild",
                "shown": [list(c) for c in record.shown],
                "landed": [list(c) for c in record.landed],
                "cells": [list(c) for c in record.cells],
            } in events
        replay = replayed(comp, played)
        assert core.round_json(comp, replay) == core.round_json(comp, played)
    assert seen_shown > 5 and seen_landed > 5


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
    assert seen["wilds_stuck"] > 0


def test_the_rules_page_says_it_in_both_languages(tmp_path: Path) -> None:
    model = _model(tmp_path)
    english = rules_document(model, language="en")["rules"]["sticky"]
    german = rules_document(model, language="de")["rules"]["sticky"]
    assert any("every Wild that lands stays in its position" in line for line in english)
    assert "Only Wild symbols landing on reels 2 and 3 stay." in english
    assert any("Retriggered free spins keep the sticky wilds" in line for line in english)
    assert any(line.startswith("When Star lands on a sticky wild's position") for line in english)
    assert any("cleared when the free spins end" in line for line in english)
    assert any("bleibt jedes Wild" in line for line in german)
    assert "Nur Wild-Symbole, die auf den Walzen 2 und 3 landen, bleiben stehen." in german
    assert len(english) == len(german) == 5


def test_the_terminal_says_the_stuck_wilds(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = sticky_title(tmp_path / "play")
    result = CliRunner().invoke(
        app, ["play", str(folder), "--seed", "5", "--balance", "50"], input="s\n" * 30 + "q\n"
    )
    assert result.exit_code == 0, result.output
    assert "Sticky Wild:" in result.output


# -- the model ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("reels = [2, 3]", "reels = [0, 3]", "sticky_wilds.reels must be a list of reels from 1"),
        ("reels = [2, 3]", "colour = 1", "sticky_wilds: unknown key 'colour'"),
        (
            'role = "wild"',
            'role = "regular"',
            "sticky needs wild (a wild that substitutes on paylines",
        ),
        (
            "max_spins = 5\n",
            "",
            "sticky_wilds: free_spins.retrigger without free_spins.max_spins",
        ),
        (
            'retrigger = "table"\nretrigger_spins = { 2 = 1 }\nmax_spins = 5',
            'retrigger = "none"\nmultipliers = { 2 = 2 }',
            "sticky_wilds: free_spins.multipliers: sticky wilds are not played with",
        ),
        (
            "[sticky_wilds]",
            "[max_win]\nmultiplier = 100\n\n[sticky_wilds]",
            "max_win and sticky: the capped law",
        ),
        (
            "[sticky_wilds]",
            "[cascade]\nlimit = 2\nmultipliers = [1, 1]\n\n[sticky_wilds]",
            "cascade and sticky: a cascade's fall",
        ),
        (
            "[sticky_wilds]",
            "[expanding]\nsymbols = { bird = 1 }\n\n[sticky_wilds]",
            "expanding and sticky: the expanding symbol's mixture",
        ),
    ],
)
def test_validate_refuses_a_bad_table_in_one_line_naming_the_key(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    folder = sticky_title(tmp_path / "bad", replace=(old, new))
    problems = [p for p in validate_folder(folder) if "states an RTP" not in p]
    assert len(problems) == 1 and says in problems[0], problems


def test_a_state_beyond_the_exact_limit_is_one_line_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The title's wild lands on 4 positions; with every reel sticking on 6. Under a limit of
    5 validate says so in one line naming the key (the limit itself is 10)."""
    monkeypatch.setattr(sticky_rules_module, "EXACT_LIMIT", 5)
    folder = sticky_title(tmp_path / "wide", replace=("reels = [2, 3]", ""))
    problems = [p for p in validate_folder(folder) if "states an RTP" not in p]
    assert len(problems) == 1, problems
    assert "sticky_wilds: the free spins' wild can land on 6 window positions" in problems[0]
    assert "at most 5" in problems[0] and "beyond the exact limit" in problems[0]


def test_ways_are_refused_with_the_reason(tmp_path: Path) -> None:
    folder = sticky_title(
        tmp_path / "ways", replace=("[line_pays]", "[ways]\ncost = 4\n\n[ways_pays]")
    )
    problems = validate_folder(folder)
    assert any("sticky and ways: the sticky wilds' exact chain is written" in p for p in problems)


def test_without_free_spins_it_is_refused(tmp_path: Path) -> None:
    folder = sticky_title(tmp_path / "bad", replace=("[free_spins]", "[free_spins_off]"))
    text = (folder / "model.toml").read_text(encoding="utf-8")
    start = text.index("[free_spins_off]")
    end = text.index("[sticky_wilds]")
    (folder / "model.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    problems = [p for p in validate_folder(folder) if "states an RTP" not in p]
    assert any("sticky needs free_spins" in p for p in problems), problems
