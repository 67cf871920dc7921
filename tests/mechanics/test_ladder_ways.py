"""The free-spins ladder and its local pots on a ways game
(:mod:`tests.mechanics.ladder_ways_title`): the spin law against every stop combination and
every gem outcome played through live play (the pots' reveal, the ways' pay), the exact RTP of
the two routes and of the brute-force spin laws, the kernel's rounds replayed through live
play, a simulation inside its interval, the rules page in English and German, and what
validate refuses."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis import ladder as compact
from reelsmith.analysis import ladder_window
from reelsmith.analysis.ladder_exact import analyze_full
from reelsmith.analysis.ladder_spin import spin_figures
from reelsmith.analysis.simulation import simulate
from reelsmith.engine.ladder import WILD_REEL, ladder_rules
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics.pots.live import reveal_gems
from reelsmith.mechanics.ways.live import way_wins
from reelsmith.mechanics.ways.rules import ways_rules
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource
from reelsmith.rules_page import rules_document
from tests.mechanics.ladder_ways_title import MODEL, ladder_ways
from tests.mechanics.test_ways_kernel import Z_999

#: The title's exact RTP (the full analysis), as its variant states it.
RTP = 2.1481248172


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> GameModel:
    return load_model(ladder_ways(tmp_path_factory.mktemp("t") / "ladder_ways"))


def _gem_outcomes(model: GameModel, reel: int) -> list[tuple[Fraction, str]]:
    """A gem's outcomes on ``reel`` under the pots' long-run law: the jackpot spin with
    probability ``q = 2 / (K + 1)``, else each reveal by its weight."""
    rules = ladder_rules(model)
    reveal = rules.gem_reveal(model.variant())
    q = Fraction(2, rules.jackpots[reel].trigger_span + 1)
    total = sum(reveal.weights)
    return [(q, "jackpot")] + [
        ((1 - q) * Fraction(w, total), o)
        for o, w in zip(reveal.outcomes, reveal.weights, strict=True)
    ]


def _played(
    model: GameModel, grid: np.ndarray, outcomes: tuple[str, ...]
) -> tuple[np.ndarray, int]:
    """The screen ``grid`` through the live pots' reveal, each gem forced to its outcome (a pot
    one bet below its trigger point hits; any other reveals by the recorded draw), and the
    jackpots it won in bets."""
    rules = ladder_rules(model)
    reveal = rules.gem_reveal(model.variant())
    pots, triggers, draws = [], [], []
    gems = iter(outcomes)
    for reel, jackpot in enumerate(rules.jackpots):
        outcome = next(gems) if rules.gem in grid[:, reel] else None
        if outcome == "jackpot":
            pots.append(jackpot.last_trigger - 1)
            triggers.append(jackpot.last_trigger)
            draws.append(Draw(f"jackpot_trigger_{jackpot.name}", jackpot.trigger_span, 0))
            continue
        pots.append(jackpot.seed)
        triggers.append(jackpot.last_trigger)
        if outcome is not None:
            at = reveal.outcomes.index(outcome)
            draws.append(Draw("gem_reveal", sum(reveal.weights), sum(reveal.weights[:at])))
    state = BetState(tuple(pots), tuple(triggers), 0, (rules.version,) * model.reels)
    source = ReplaySource(draws)
    revealed, events, _after = reveal_gems(rules, model.variant(), grid, state, source)
    assert source.remaining == 0
    return revealed, sum(e.jackpot_bets for e in events)


def brute_force(model: GameModel, reel_set_name: str) -> dict[str, list[Fraction]]:
    """Every stop combination of the reel set and every outcome of its gems, played through
    live play: per bonus count its probability and expected pay in bets, per reel the
    probability a gem lands and hits (exact fractions)."""
    rules = ladder_rules(model)
    reel_set = model.variant().reel_sets[reel_set_name]
    ways = ways_rules(model)
    reels, rows = model.reels, model.rows
    top = reels + 1
    out = {
        "probability": [Fraction(0)] * top,
        "line": [Fraction(0)] * top,
        "gem": [Fraction(0)] * reels,
        "hit": [Fraction(0)] * reels,
        "jackpot": [Fraction(0)],
    }
    cycle = math.prod(int(n) for n in reel_set.lengths)
    for stops in itertools.product(*(range(int(n)) for n in reel_set.lengths)):
        grid = np.array(
            [[reel_set.padded[r, stops[r] + row] for r in range(reels)] for row in range(rows)],
            dtype=np.int8,
        )
        bonus = int((grid == rules.bonus).sum())
        gem_reels = [r for r in range(reels) if rules.gem in grid[:, r]]
        for r in gem_reels:
            out["gem"][r] += Fraction(1, cycle)
        laws = [_gem_outcomes(model, r) for r in gem_reels]
        for combo in itertools.product(*laws):
            p = Fraction(1, cycle) * math.prod((c[0] for c in combo), start=Fraction(1))
            outcomes = tuple(c[1] for c in combo)
            revealed, jackpot_bets = _played(model, grid, outcomes)
            wins = way_wins(model, ways, revealed, 1, model.line_pays, ways.weights)
            out["probability"][bonus] += p
            out["line"][bonus] += p * Fraction(wins.coins, ways.cost)
            out["jackpot"][0] += p * jackpot_bets
            for r, outcome in zip(gem_reels, outcomes, strict=True):
                if outcome == "jackpot":
                    out["hit"][r] += p
    return out


@pytest.fixture(scope="module")
def brute(model: GameModel) -> dict[str, dict[str, list[Fraction]]]:
    rules = ladder_rules(model)
    return {name: brute_force(model, name) for name in ("base", rules.free_reel_set)}


@pytest.mark.parametrize("name", ["base", "free_spins"])
def test_the_spin_law_is_every_screen_played_through_live_play(
    model: GameModel, brute: dict[str, dict[str, list[Fraction]]], name: str
) -> None:
    """Per bonus count, the screen's probability and expected pay; per reel, a gem's landing
    and hitting: the full analysis' figures (every revealed screen paid by the ways rule) and
    the ways' own law on the revealed columns (exact) are live play's, screen by screen."""
    rules = ladder_rules(model)
    variant = model.variant()
    reveal = dict(zip(*(lambda r: (r.outcomes, r.weights))(rules.gem_reveal(variant)), strict=True))
    found = brute[name]
    assert sum(found["probability"]) == 1
    exact = ladder_window.mean_pay(rules, variant.reel_sets[name], reveal, model.line_pays)
    assert exact == sum(found["line"])  # exact fractions
    figures = spin_figures(rules, variant.reel_sets[name], reveal, name=name)
    assert figures.probability.tolist() == pytest.approx(
        [float(x) for x in found["probability"]], abs=1e-12
    )
    assert figures.line.tolist() == pytest.approx([float(x) for x in found["line"]], abs=1e-12)
    assert figures.gem.sum(axis=1).tolist() == pytest.approx(
        [float(x) for x in found["gem"]], abs=1e-12
    )
    assert figures.hit.sum(axis=1).tolist() == pytest.approx(
        [float(x) for x in found["hit"]], abs=1e-12
    )
    means = [j.seed + (j.trigger_span + 1) / 2 for j in rules.jackpots]
    # the pot a hit wins is its trigger point, uniform over the points: the brute force forced
    # the largest; the analysis' mean over the points times the hit probability
    assert float(figures.jackpot.sum()) == pytest.approx(
        sum(m * float(h) for m, h in zip(means, found["hit"], strict=True)), abs=1e-13
    )
    assert float(found["jackpot"][0]) == pytest.approx(
        sum(j.last_trigger * float(h) for j, h in zip(rules.jackpots, found["hit"], strict=True)),
        abs=1e-12,
    )


def test_the_exact_rtp_is_the_brute_force_spin_laws_through_the_ladder(
    model: GameModel, brute: dict[str, dict[str, list[Fraction]]]
) -> None:
    """The RTP from the brute-force spin laws (the bonus law, the pay, the gems), through the
    ladder's meter chain and the pots' renewal law, is the full analysis' and the compact
    route's, and the figure the variant states."""
    rules = ladder_rules(model)
    base, free = brute["base"], brute[rules.free_reel_set]
    base_bonus = np.array([float(x) for x in base["probability"]])
    free_bonus = np.array([float(x) for x in free["probability"]])
    chain = compact.free_spins_chain(rules, free_bonus)
    pi = compact.meter_stationary(rules, base_bonus, chain)
    p_trigger = float(base_bonus[rules.trigger_count :].sum())
    spins = float(pi @ chain.spins)
    free_line = float(sum(free["line"]))
    rtp = float(sum(base["line"])) + p_trigger * free_line * float(pi @ chain.multiplier_sum)
    for reel, jackpot in enumerate(rules.jackpots):
        gems = float(base["gem"][reel]) + p_trigger * spins * float(free["gem"][reel])
        rtp += gems * (1 + jackpot.seed * 2 / (jackpot.trigger_span + 1))
    full = analyze_full(model)
    print(
        f"exact RTP {full.rtp!r}; compact route {compact.analyze(model).rtp!r}; brute force {rtp!r}"
    )
    assert full.rtp == pytest.approx(rtp, abs=1e-12)
    assert compact.analyze(model).rtp == pytest.approx(full.rtp, abs=1e-12)
    assert round(full.rtp, 10) == RTP


def test_kernel_rounds_replay_through_live_play(model: GameModel) -> None:
    """The kernel's rounds, fed draw by draw to live play carrying the same pots, trigger
    points and meter: the same wins, bonus counts, free spins and state after each round."""
    from tests.analysis.test_ladder_parity import replay_and_compare

    compared, triggered, free_spins, jackpots = replay_and_compare(model, "main", 3, 4_000)
    print(f"replayed {compared} rounds: {triggered} triggered, {free_spins} free, {jackpots} pots")
    assert compared == 4_000 and triggered > 50 and free_spins > 8 * triggered and jackpots > 500


def test_a_simulation_holds_the_exact_rtp_inside_its_interval(model: GameModel) -> None:
    result = simulate(model, 400_000, 31)
    found = result.interval(Z_999)
    assert found is not None
    low, high = found
    print(f"simulated 400,000 rounds: 99.9% interval {low!r} - {high!r}; exact {RTP}")
    assert low <= RTP <= high
    # the exact figures ``reelsmith simulate`` prints beside the simulated ones
    assert compact.exact_beside_simulation(model, result.variant)["rtp"] == RTP


def test_validate_accepts_it_and_checks_its_stated_rtp(tmp_path: Path) -> None:
    folder = ladder_ways(tmp_path / "t")
    assert validate_folder(folder) == []
    wrong = ladder_ways(tmp_path / "wrong", rtp="2.20")
    assert any("RTP" in problem for problem in validate_folder(wrong))


def test_validate_refuses_drawn_wild_weights(tmp_path: Path) -> None:
    model = MODEL.replace(
        "min_run = 2\n", 'min_run = 2\n\n[ways.free_spins_wild_weights]\n"2" = { 1 = 1, 2 = 1 }\n'
    )
    problems = validate_folder(ladder_ways(tmp_path / "t", model=model))
    assert any("ladder and ways.free_spins_wild_weights" in p for p in problems), problems


@pytest.mark.parametrize(
    ("language", "sentences"),
    [
        (
            "en",
            [
                "“Ladder Ways” is a 3 columns and 3 rows slot machine with 27 ways to win.",
                "A combination pays once for every way it forms",
                "Way pays are in line bets: the bet divided by 20, for each way.",
                "The pots are teal, blue and red, above reels 1 to 3.",
            ],
        ),
        (
            "de",
            [
                "„Ladder Ways“ ist ein Spielautomat mit 3 Walzen, 3 Reihen und 27 Gewinnwegen.",
                "Gewinnwege zahlen in Linieneinsätzen: dem Einsatz geteilt durch 20, je Gewinnweg.",
                "Die Jackpots sind türkis, blau und rot, über den Walzen 1 bis 3.",
            ],
        ),
    ],
)
def test_the_rules_page_renders(model: GameModel, language: str, sentences: list[str]) -> None:
    page = rules_document(model, language=language)
    text = json.dumps(page["rules"], ensure_ascii=False)
    for sentence in sentences:
        assert sentence in text, sentence
    assert "payline" not in text.lower() and "gewinnlinie" not in text.lower()
    assert WILD_REEL not in text
