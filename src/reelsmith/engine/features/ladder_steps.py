"""The free-spins ladder's and the local pots' transitions, each written once.

Live play (:mod:`reelsmith.engine.ladder`), the compiled kernel
(:mod:`reelsmith.analysis.kernel`) and the exact state machines
(:mod:`reelsmith.analysis.ladder`, :mod:`reelsmith.analysis.ladder_round`) all call these
functions, so the rules cannot drift apart between them: a change here changes every face at
once, and the parity tests check the faces still agree draw for draw.

Each is a numba function of plain integers (no model, no random source): the caller reads the
sizes (spots, levels, spins per level, seeds) from :class:`~reelsmith.engine.ladder.LadderRules`
and makes the draws itself, so the draws keep their order and purposes in the round's record.
"""

from __future__ import annotations

from numba import njit

# ---------------------------------------------------------------------------------------
# The ladder: the collection meter, the unlocked levels, the level played
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def fill_spot(meter: int, spots: int) -> int:
    """A main-game spin with the collecting count of bonus symbols fills one spot; a full
    meter stays full."""
    return min(meter + 1, spots)


@njit(cache=True, nogil=True)
def start_ladder(meter: int, spots: int) -> tuple[int, int]:
    """The free spins start at level 1 with the meter as carried: ``(unlocked, meter)``. A
    full carried meter unlocks level 2 at once and empties."""
    if meter >= spots:
        return 2, meter - spots
    return 1, meter


@njit(cache=True, nogil=True)
def collect(meter: int, unlocked: int, bonus: int, spots: int, levels: int) -> tuple[int, int]:
    """A free spin's ``bonus`` symbols fill the meter: ``(meter, unlocked)``. Each full meter
    unlocks the next level while one is still locked and empties (extra symbols carry over);
    with every level unlocked the meter fills up to full and symbols beyond it are not kept."""
    meter += bonus
    while meter >= spots and unlocked < levels:
        unlocked += 1
        meter -= spots
    return min(meter, spots), unlocked


@njit(cache=True, nogil=True)
def advance(level: int, left: int, unlocked: int, spins_per_level: int) -> tuple[int, int, bool]:
    """After a free spin of ``level`` with ``left`` spins of it still to play (this one
    included): ``(level, left, over)``. After a level's last spin the next level is played if
    it is unlocked; otherwise the free spins are over."""
    left -= 1
    if left > 0:
        return level, left, False
    if unlocked > level:
        return level + 1, spins_per_level, False
    return level, 0, True


# ---------------------------------------------------------------------------------------
# The local must-hit-by pots
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def raise_pot(pot: int, trigger: int) -> tuple[int, bool]:
    """A gem raises its reel's pot by one bet: ``(pot, hit)``, hit when the pot reaches its
    hidden trigger point (then the pot is won at that value and resets)."""
    pot += 1
    return pot, pot >= trigger


@njit(cache=True, nogil=True)
def trigger_point(seed: int, drawn: int) -> int:
    """The trigger point a reset (or a new bet level) draws: ``seed + 1 + drawn`` for
    ``drawn`` uniform on ``0 .. trigger_span - 1``, so from seed + 1 to the pot's last
    trigger point (:attr:`reelsmith.engine.ladder.Jackpot.trigger_span`)."""
    return seed + 1 + drawn
