"""The qsort retail's PhysicsScript::UnPack calls (0x005218B0 -> ``_qsort``).

The client links the MSVC 7.0 C runtime statically (the decompile's ``_runtime`` module);
its qsort is the classic VC6/VC7 one: arrays of up to CUTOFF = 8 elements go through
``shortsort`` (repeatedly move the last-found maximum to the end), larger ones are
partitioned around the middle element swapped to the front, smaller side first. It is not
stable, and PhysicsScriptData::Sort (0x00521600) never returns 0 (``a >= b`` gives 1), so
hooks with equal start times come out in an order that depends on both. Reproducing the
algorithm reproduces retail's runtime hook order exactly, equal times included.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import TypeVar

T = TypeVar("T")
CUTOFF = 8


def _shortsort(a: MutableSequence, lo: int, hi: int, comp: Callable) -> None:
    while hi > lo:
        mx = lo
        for p in range(lo + 1, hi + 1):
            if comp(a[p], a[mx]) > 0:
                mx = p
        a[mx], a[hi] = a[hi], a[mx]
        hi -= 1


def msvc70_qsort(a: MutableSequence[T], comp: Callable[[T, T], int]) -> None:
    """Sorts ``a`` in place exactly as the MSVC 7.0 CRT qsort does."""
    num = len(a)
    if num < 2:
        return
    stack: list[tuple[int, int]] = []
    lo, hi = 0, num - 1
    while True:
        size = hi - lo + 1
        if size <= CUTOFF:
            _shortsort(a, lo, hi, comp)
        else:
            mid = lo + size // 2
            a[mid], a[lo] = a[lo], a[mid]
            loguy, higuy = lo, hi + 1
            while True:
                loguy += 1
                while loguy <= hi and comp(a[loguy], a[lo]) <= 0:
                    loguy += 1
                higuy -= 1
                while higuy > lo and comp(a[higuy], a[lo]) >= 0:
                    higuy -= 1
                if higuy < loguy:
                    break
                a[loguy], a[higuy] = a[higuy], a[loguy]
            a[lo], a[higuy] = a[higuy], a[lo]
            if higuy - 1 - lo >= hi - loguy:
                if lo + 1 < higuy:
                    stack.append((lo, higuy - 1))
                if loguy < hi:
                    lo = loguy
                    continue
            else:
                if loguy < hi:
                    stack.append((loguy, hi))
                if lo + 1 < higuy:
                    hi = higuy - 1
                    continue
        if not stack:
            return
        lo, hi = stack.pop()
