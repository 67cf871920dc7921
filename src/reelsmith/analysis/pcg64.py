"""numpy's PCG64 stream and its unbiased bounded integers, inside numba.

The simulator draws several bounded integers per spin; calling numpy for each would cost more
than the spin. This module runs the same generator in compiled code: PCG64 (XSL-RR 128/64,
the 128-bit LCG ``state = state * M + inc`` with ``rotr(hi ^ lo, hi >> 58)`` output), its
32-bit outputs (each 64-bit output gives its low half, then its high half, as numpy's
``next_uint32`` does) and Lemire's multiply-and-reject method for ``[0, bound)``, exactly as
``numpy.random.Generator.integers(0, bound)`` does for bounds below 2^32. The state is the
``bit_generator.state`` of a numpy ``PCG64`` packed in six uint64 words, so a stream can start
from any ``SeedSequence`` and a test checks the values against numpy's own draw for draw.

No draw is ``random % bound``: Lemire's method rejects the ``2^32 mod bound`` low products that
would bias the result, so every value is equally likely.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

MASK64 = (1 << 64) - 1
_M32 = np.uint64(0xFFFFFFFF)
_MUL_HI = np.uint64(2549297995355413924)
_MUL_LO = np.uint64(4865540595714422341)
_S32 = np.uint64(32)
_S58 = np.uint64(58)
_S63 = np.uint64(63)

# state words
STATE_HI, STATE_LO, INC_HI, INC_LO, HAS_UINT32, UINTEGER = range(6)


def pack_state(bit_generator: np.random.PCG64) -> npt.NDArray[np.uint64]:
    """The six-word state of a numpy ``PCG64`` (its next draw is the packed stream's next)."""
    state = bit_generator.state
    s, inc = int(state["state"]["state"]), int(state["state"]["inc"])
    return np.array(
        [
            s >> 64,
            s & MASK64,
            inc >> 64,
            inc & MASK64,
            int(state["has_uint32"]),
            int(state["uinteger"]),
        ],
        dtype=np.uint64,
    )


def stream_state(seed_sequence: np.random.SeedSequence) -> npt.NDArray[np.uint64]:
    """The packed state of ``PCG64(seed_sequence)``."""
    return pack_state(np.random.PCG64(seed_sequence))


@intrinsic
def _mulhi(typingctx: Any, a: Any, b: Any) -> Any:
    """High 64 bits of the 128-bit product ``a * b`` of two uint64: one 128-bit multiply in
    the compiled code (a single ``mul`` on x86-64), not four 32-bit products."""
    signature = types.uint64(types.uint64, types.uint64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return signature, codegen


#: The six state words held as values (``Stream``), so that a loop drawing many numbers keeps
#: them in registers: an array written at every draw makes each draw wait on memory.
Stream = tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]


@njit(cache=True, nogil=True, inline="always")
def load_stream(state: npt.NDArray[np.uint64]) -> Stream:
    """The packed state's six words as a :data:`Stream`."""
    return (state[0], state[1], state[2], state[3], state[4], state[5])


@njit(cache=True, nogil=True, inline="always")
def store_stream(stream: Stream, state: npt.NDArray[np.uint64]) -> None:
    """Write ``stream`` back into the packed state (its next draw is the stream's next); the
    increment never changes, so only the other four words are written."""
    state[STATE_HI] = stream[STATE_HI]
    state[STATE_LO] = stream[STATE_LO]
    state[HAS_UINT32] = stream[HAS_UINT32]
    state[UINTEGER] = stream[UINTEGER]


@njit(cache=True, nogil=True, inline="always")
def stream_uint64(stream: Stream) -> tuple[Stream, np.uint64]:
    """Advance the LCG and return the XSL-RR output of the new state."""
    s_hi, s_lo, inc_hi, inc_lo, has_uint32, uinteger = stream
    lo = s_lo * _MUL_LO
    hi = _mulhi(s_lo, _MUL_LO) + s_lo * _MUL_HI + s_hi * _MUL_LO  # type: ignore[call-arg]
    new_lo = lo + inc_lo
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    new_hi = hi + inc_hi + carry
    rot = new_hi >> _S58
    x = new_hi ^ new_lo
    out: np.uint64 = (x >> rot) | (x << ((np.uint64(64) - rot) & _S63))
    return (new_hi, new_lo, inc_hi, inc_lo, has_uint32, uinteger), out


@njit(cache=True, nogil=True, inline="always")
def stream_uint32(stream: Stream) -> tuple[Stream, np.uint64]:
    """numpy's ``next_uint32`` for PCG64: the low half of a 64-bit output, then its high half."""
    s_hi, s_lo, inc_hi, inc_lo, has_uint32, uinteger = stream
    if has_uint32 != 0:
        return (s_hi, s_lo, inc_hi, inc_lo, np.uint64(0), uinteger), uinteger
    (s_hi, s_lo, inc_hi, inc_lo, _, _), value = stream_uint64(stream)
    return (s_hi, s_lo, inc_hi, inc_lo, np.uint64(1), value >> _S32), value & _M32


@njit(cache=True, nogil=True, inline="always")
def stream_bounded(stream: Stream, bound: int) -> tuple[Stream, int]:
    """A uniform integer in ``[0, bound)`` for ``1 <= bound < 2^32``: Lemire's method, the same
    draws as ``Generator.integers(0, bound)``."""
    if bound == 1:
        return stream, 0
    n = np.uint64(bound)
    stream, value = stream_uint32(stream)
    m = value * n
    leftover = m & _M32
    if leftover < n:
        threshold = (_M32 - (n - np.uint64(1))) % n
        while leftover < threshold:
            stream, value = stream_uint32(stream)
            m = value * n
            leftover = m & _M32
    return stream, int(np.int64(m >> _S32))  # int64 like the 0 above, not a float64 union


@njit(cache=True, nogil=True)
def next_uint64(state: npt.NDArray[np.uint64]) -> np.uint64:
    """:func:`stream_uint64` on the packed state."""
    stream, value = stream_uint64(load_stream(state))
    store_stream(stream, state)
    return value


@njit(cache=True, nogil=True)
def next_uint32(state: npt.NDArray[np.uint64]) -> np.uint64:
    """:func:`stream_uint32` on the packed state."""
    stream, value = stream_uint32(load_stream(state))
    store_stream(stream, state)
    return value


@njit(cache=True, nogil=True)
def bounded(state: npt.NDArray[np.uint64], bound: int) -> int:
    """:func:`stream_bounded` on the packed state."""
    stream, value = stream_bounded(load_stream(state), bound)
    store_stream(stream, state)
    return value


@njit(cache=True)
def raw_block(state: npt.NDArray[np.uint64], n: int) -> npt.NDArray[np.uint64]:
    """``n`` raw 64-bit outputs (for tests against ``PCG64.random_raw``)."""
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = next_uint64(state)
    return out


@njit(cache=True)
def bounded_block(
    state: npt.NDArray[np.uint64], bounds: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """One bounded draw per entry of ``bounds`` (for tests against ``Generator.integers``)."""
    out = np.empty(bounds.shape[0], dtype=np.int64)
    for i in range(bounds.shape[0]):
        out[i] = bounded(state, bounds[i])
    return out
