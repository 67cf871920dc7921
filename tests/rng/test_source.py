"""The RNG interface: CSPRNG for live play, seeded streams, recording, replay, weighted picks."""

from __future__ import annotations

import secrets
from collections import Counter

import pytest

from reelsmith.rng import (
    Draw,
    RecordingSource,
    ReplayError,
    ReplaySource,
    SeededSource,
    SystemSource,
    weighted_index,
)
from tests.conftest import ScriptedSource


def test_live_source_draws_from_secrets(monkeypatch):
    calls = []

    def fake_randbelow(n):
        calls.append(n)
        return n - 1

    monkeypatch.setattr(secrets, "randbelow", fake_randbelow)
    assert SystemSource().randbelow(54, "reel_stop") == 53
    assert calls == [54]


def test_live_source_is_uniform_on_a_small_range():
    """Chi-square over 60,000 draws below 6 (5 degrees of freedom, 99.9% critical 20.52)."""
    source = SystemSource()
    n, bound = 60_000, 6
    counts = Counter(source.randbelow(bound, "test") for _ in range(n))
    assert set(counts) == set(range(bound))
    expected = n / bound
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(bound))
    assert chi2 < 20.52


@pytest.mark.parametrize("bad", [0, -3, 2.5, "7"])
def test_bounds_must_be_positive_integers(bad):
    for source in (SystemSource(), SeededSource(1)):
        with pytest.raises(ValueError, match="positive integer bound"):
            source.randbelow(bad, "test")


def test_seeded_streams_are_reproducible_and_distinct():
    a = [SeededSource(42).randbelow(1000, "x") for _ in range(1)]
    first = SeededSource(42)
    second = SeededSource(42)
    other = SeededSource(43)
    xs = [first.randbelow(1000, "x") for _ in range(50)]
    assert xs == [second.randbelow(1000, "x") for _ in range(50)]
    assert xs != [other.randbelow(1000, "x") for _ in range(50)]
    assert a[0] == xs[0]


def test_recording_keeps_every_draw_in_order():
    recorder = RecordingSource(SeededSource(7))
    values = [
        recorder.randbelow(b, p)
        for b, p in ((54, "reel_stop"), (100, "egg_reveal"), (52, "gamble_card"))
    ]
    assert [(d.purpose, d.bound, d.value) for d in recorder.draws] == [
        ("reel_stop", 54, values[0]),
        ("egg_reveal", 100, values[1]),
        ("gamble_card", 52, values[2]),
    ]


def test_replay_returns_recorded_values_and_checks_them():
    draws = [Draw("reel_stop", 54, 10), Draw("gamble_card", 52, 3)]
    replay = ReplaySource(draws)
    assert replay.randbelow(54, "reel_stop") == 10
    with pytest.raises(
        ReplayError, match="recorded gamble_card below 52, but the round asked for reel_stop"
    ):
        replay.randbelow(54, "reel_stop")
    replay = ReplaySource(draws[:1])
    replay.randbelow(54, "reel_stop")
    with pytest.raises(ReplayError, match="only 1 were recorded"):
        replay.randbelow(52, "gamble_card")


def test_draw_json_rejects_values_out_of_range():
    assert Draw.from_json(["reel_stop", 54, 53]) == Draw("reel_stop", 54, 53)
    with pytest.raises(ValueError, match="outside"):
        Draw.from_json(["reel_stop", 54, 54])
    with pytest.raises(ValueError, match="purpose, bound, value"):
        Draw.from_json(["reel_stop", 54])


def test_weighted_index_maps_each_draw_exactly():
    weights = [3, 0, 5, 2]
    picks = [weighted_index(ScriptedSource([v]), weights, "w") for v in range(10)]
    assert picks == [0, 0, 0, 2, 2, 2, 2, 2, 3, 3]  # index 1 (weight 0) never chosen


def test_weighted_index_rejects_empty_weights():
    with pytest.raises(ValueError, match="positive"):
        weighted_index(SeededSource(1), [0, 0], "w")
