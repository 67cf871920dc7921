"""The compiled PCG64 stream is numpy's, draw for draw."""

from __future__ import annotations

import numpy as np
import pytest

from reelsmith.analysis.pcg64 import bounded_block, raw_block, stream_state
from reelsmith.analysis.simulation import chunk_stream


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, 123456789])
def test_raw_outputs_equal_numpy(seed):
    sequence = np.random.SeedSequence(seed)
    assert np.array_equal(
        raw_block(stream_state(sequence), 5000), np.random.PCG64(sequence).random_raw(5000)
    )


def test_bounded_draws_equal_generator_integers():
    """Lemire's method with numpy's 32-bit buffering: bounds 1, tiny, strip-sized, huge."""
    sequence = np.random.SeedSequence(77)
    bounds = np.random.default_rng(3).integers(1, 120, 50_000)
    bounds[::5] = 53
    bounds[::7] = 1
    bounds[::11] = 2**32 - 5
    bounds[::13] = 3
    generator = np.random.Generator(np.random.PCG64(sequence))
    expected = [int(generator.integers(0, int(b))) for b in bounds]
    assert bounded_block(stream_state(sequence), bounds).tolist() == expected


def test_every_value_in_range_and_roughly_uniform():
    state = stream_state(np.random.SeedSequence(5))
    values = bounded_block(state, np.full(530_000, 53, dtype=np.int64))
    assert values.min() == 0 and values.max() == 52
    counts = np.bincount(values, minlength=53)
    expected = len(values) / 53
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 110  # 52 degrees of freedom: p < 1e-5 above this


def test_chunk_streams_are_spawned_children_whatever_their_number():
    for total in (3, 10):
        children = np.random.SeedSequence(42).spawn(total)
        for index in (0, 2):
            assert np.array_equal(chunk_stream(42, index), stream_state(children[index]))
