"""The hot compiled functions take their array arguments without reference-count updates
(reelsmith.engine.held): each is compiled afresh from its source and its own LLVM function is
read for calls to numba's reference counting. The same functions written with an early
``return`` (the line rule before) compile to three increments and six decrements."""

from __future__ import annotations

import re

import numpy as np
import pytest
from numba import njit

from reelsmith.engine.lines import line_award
from reelsmith.mechanics.cascade import exact


def own_function(ir: str, name: str) -> str:
    """The body of the function ``name`` defines in an LLVM module (not its wrappers)."""
    for match in re.finditer(r"^define [^\n]*@(\S+)\(.*?^}", ir, re.MULTILINE | re.DOTALL):
        symbol = match.group(1)
        if name in symbol and "cpython" not in symbol and "cfunc" not in symbol:
            return match.group(0)
    raise AssertionError(f"{name} is not defined in the module")


def counted_calls(function, *args) -> int:  # type: ignore[no-untyped-def]
    fresh = njit(cache=False, nogil=True)(function.py_func)
    fresh(*args)
    (ir,) = fresh.inspect_llvm().values()
    body = own_function(ir, function.py_func.__name__)
    return len(re.findall(r"call void @NRT_(?:incref|decref)", body))


def test_the_line_rule_takes_its_arrays_without_reference_counts():
    cells = np.array([0, 1, 1, 2, 3], dtype=np.int8)
    pays = np.zeros((4, 6), dtype=np.int64)
    substitutable = np.ones(4, dtype=np.bool_)
    assert counted_calls(line_award, cells, pays, 0, substitutable, 2, True) == 0


def test_an_early_return_would_bring_them_back():
    """The check itself can fail: the rule's old shape, returning from inside its branches."""

    def early(cells, pays, wild, substitutable):  # type: ignore[no-untyped-def]
        if cells[0] == wild:
            return 0
        if not substitutable[cells[0]]:
            return 1
        return int(pays[cells[0], 1])

    early.py_func = early  # type: ignore[attr-defined]
    cells = np.array([1, 1], dtype=np.int8)
    counted = counted_calls(early, cells, np.ones((2, 3), dtype=np.int64), 0, np.ones(2, np.bool_))
    assert counted > 0


@pytest.mark.parametrize("name", ["_scatter_quiet", "_ways_open"])
def test_the_cascade_enumerations_checks_take_their_arrays_without_reference_counts(name):
    grid = np.zeros((3, 5), dtype=np.int8)
    mask = np.ones(5, dtype=np.bool_)
    if name == "_scatter_quiet":
        args: tuple[object, ...] = (grid, 1, mask, 3)
    else:
        args = (grid, 3, np.array([0, 1], dtype=np.int64), 2, np.ones(3, dtype=np.bool_))
    assert counted_calls(getattr(exact, name), *args) == 0
