"""Seeded totals of the generic kernel, pinned: a change to the kernel's speed (its tables, its
loop, its draws) must leave every statistic of every round it plays exactly as it was.

The figures were recorded from the kernel before its tables and loop were reworked for speed:
200,000 rounds from chunk 3 of seed 1414 on each model the parity tests use (three converted
slotopol games, Days of the Tsar and small models of reelsmith's own), plus NetEnt Spellcast
(a wild on every reel doubling the wins it completes) and Aurora Fox. Every integer slot
(``S_*``) and both sums of squares (``F_*``) must match, with the tables the kernel chooses
and without them.
"""

from __future__ import annotations

import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import load_game
from tests.catalogue.slotopol import CORPUS, convert
from tests.catalogue.test_kernel_parity import MODELS, _make

ROUNDS = 200_000
SEED, CHUNK = 1414, 3

#: (int statistics, float statistics) per model, as the kernel played them before the rework.
PINNED: dict[str, tuple[list[int], list[float]]] = {
    "igt-cleopatra": (
        [
            200000,
            3404171,
            2024738,
            606060,
            773373,
            79552,
            79552,
            1213,
            19800,
            107,
            0,
            8809,
            60,
            120448,
            47603,
            16889,
            9772,
            2555,
            1476,
            971,
            240,
            46,
            0,
        ],
        [1526746271.0, 410101400.0],
    ),
    "ct-discobabylon": (
        [
            200000,
            1571515,
            1145735,
            51900,
            373880,
            51800,
            51800,
            985,
            15930,
            77,
            0,
            10005,
            45,
            148200,
            37645,
            6787,
            3207,
            1735,
            573,
            1467,
            264,
            115,
            7,
        ],
        [1209440975.0, 710175975.0],
    ),
    "agt-aladdin": (
        [
            200000,
            17513110,
            16686770,
            153800,
            672540,
            113083,
            113083,
            769,
            8060,
            37,
            0,
            16825,
            30,
            86917,
            77422,
            15580,
            12762,
            4420,
            2012,
            767,
            108,
            12,
            0,
        ],
        [21514367150.0, 20115838300.0],
    ),
    "days-of-the-tsar": (
        [
            200000,
            4788064,
            2691795,
            786600,
            1309669,
            86236,
            86236,
            1225,
            30695,
            7659,
            0,
            12624,
            63,
            113764,
            48984,
            21484,
            11314,
            1948,
            1193,
            862,
            355,
            95,
            1,
        ],
        [3470844210.0, 686899345.0],
    ),
    "comet": (
        [
            200000,
            13461997,
            4598029,
            1223040,
            7640928,
            111468,
            111466,
            3722,
            73080,
            41373,
            1165,
            7911,
            30,
            88534,
            57887,
            23542,
            18213,
            6799,
            1711,
            1043,
            1409,
            862,
            0,
        ],
        [22797818391.0, 809332587.0],
    ),
    "grid3x1": (
        [
            200000,
            1045554,
            894133,
            4363,
            147058,
            98425,
            98425,
            3859,
            16031,
            328,
            0,
            365,
            8,
            101575,
            247,
            22059,
            14046,
            46486,
            4987,
            8496,
            1765,
            339,
            0,
        ],
        [39130492.0, 25501164.0],
    ),
    "grid7x8": (
        [
            200000,
            127163666,
            25095884,
            4799800,
            97267982,
            200000,
            200000,
            48716,
            325207,
            79285,
            0,
            10360,
            27,
            0,
            1693,
            18375,
            108223,
            22113,
            1105,
            25417,
            20265,
            2809,
            0,
        ],
        [281316991906.0, 5683219786.0],
    ),
    "netent-spellcast": (
        [
            200000,
            3362484,
            2073608,
            593800,
            695076,
            86306,
            86306,
            1081,
            17550,
            89,
            0,
            10684,
            60,
            113694,
            53633,
            17613,
            10188,
            2325,
            1387,
            865,
            251,
            43,
            1,
        ],
        [1542160270.0, 523058062.0],
    ),
    "aurora-fox": (
        [
            200000,
            3838949,
            3060001,
            266480,
            512468,
            94937,
            94937,
            783,
            8315,
            31,
            0,
            4481,
            30,
            105063,
            59813,
            16070,
            12418,
            3771,
            2002,
            640,
            199,
            24,
            0,
        ],
        [1098433657.0, 438216145.0],
    ),
}


@pytest.fixture(scope="module")
def pinned_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[GameModel, str]]:
    root = tmp_path_factory.mktemp("pinned-models")
    found = {name: _make(name, root) for name in MODELS}
    convert(CORPUS / "netent-spellcast.json", root / "netent-spellcast")
    spellcast = load_model(root / "netent-spellcast")
    found["netent-spellcast"] = spellcast, spellcast.default_variant
    aurora = load_game("aurora-fox")
    found["aurora-fox"] = aurora, aurora.default_variant
    return found


def _recorded_slots(stats: list[int]) -> list[int]:
    """The slots the figures were recorded with: every one before ``S_BASE_PLUGIN``, the slot
    added since for a plug-in's part of the base spins, which a model without one leaves 0."""
    assert len(stats) == k.N_INT_STATS and stats[k.S_BASE_PLUGIN] == stats[k.S_CAP_HITS] == 0
    return stats[: k.S_BASE_PLUGIN]


def test_every_model_is_pinned() -> None:
    assert set(PINNED) == {*MODELS, "netent-spellcast", "aurora-fox"}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_seeded_totals_are_unchanged(
    name: str, pinned_models: dict[str, tuple[GameModel, str]]
) -> None:
    model, variant_id = pinned_models[name]
    game = k.KernelGame.build(model, variant_id)
    stats, floats, _batches = game.run(chunk_stream(SEED, CHUNK), ROUNDS)
    assert (_recorded_slots(stats), floats) == PINNED[name]


@pytest.mark.parametrize("name", ["days-of-the-tsar", "comet", "agt-aladdin"])
def test_seeded_totals_without_tables(
    name: str, pinned_models: dict[str, tuple[GameModel, str]]
) -> None:
    """The kernel with no prefix tables (the benchmark's baseline) plays the same rounds."""
    model, variant_id = pinned_models[name]
    game = k.KernelGame.build(model, variant_id, depth=0)
    stats, floats, _batches = game.run(chunk_stream(SEED, CHUNK), ROUNDS)
    assert (_recorded_slots(stats), floats) == PINNED[name]
