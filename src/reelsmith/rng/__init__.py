"""Random sources: the OS CSPRNG for live play, seeded streams for simulation, recording and replay.

Every draw a round consumes goes through :class:`RandomSource.randbelow`, which returns an
integer uniformly distributed on ``[0, bound)``. Recording wraps any source and keeps each draw
with its purpose; replaying feeds the recorded values back, so a round re-runs exactly.
"""

from reelsmith.rng.source import (
    Draw,
    RandomSource,
    RecordingSource,
    ReplayError,
    ReplaySource,
    SeededSource,
    SystemSource,
    weighted_index,
)

__all__ = [
    "Draw",
    "RandomSource",
    "RecordingSource",
    "ReplayError",
    "ReplaySource",
    "SeededSource",
    "SystemSource",
    "weighted_index",
]
