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


# --- the same permutation for start-time keys, in O(n log n) --------------------------------
#
# ``msvc70_qsort`` with PhysicsScriptData::Sort is quadratic on equal keys: that comparator
# never returns 0, so a partition whose pivot is the smallest key of its range (every entry of
# a run of equal start times) scans the whole range and splits off the pivot alone. The
# permutation depends only on how the keys compare, so ``qsort_order`` replays the very same
# steps (the middle swap, each partition swap, the pivot swap, shortsort) on the keys' ranks
# but finds each scan's stopping point with a min / max tree over the ranks instead of walking
# entry by entry: O(log n) per partition and per swap, and the swaps of all partitions add up
# to O(n log n) (a partition swaps at most as many entries as its smaller side holds).


class _RankTree:
    """Minimum and maximum of the ranks over power-of-two blocks (leaves at ``size + i``)."""

    __slots__ = ("size", "lo", "hi")

    def __init__(self, ranks: list[int]) -> None:
        size = 1
        while size < len(ranks):
            size *= 2
        self.size = size
        # padding: never "at least the pivot" (pivots are >= 0), never "below the pivot"
        self.hi = [-2] * size + ranks + [-2] * (size - len(ranks))
        self.lo = [0] * size + ranks + [1 << 62] * (size - len(ranks))
        hi, lo = self.hi, self.lo
        for i in range(size - 1, 0, -1):
            a, b = 2 * i, 2 * i + 1
            hi[i] = hi[a] if hi[a] >= hi[b] else hi[b]
            lo[i] = lo[a] if lo[a] <= lo[b] else lo[b]

    def set(self, pos: int, rank: int) -> None:
        hi, lo = self.hi, self.lo
        i = pos + self.size
        hi[i] = lo[i] = rank
        i >>= 1
        while i:
            a, b = 2 * i, 2 * i + 1
            h = hi[a] if hi[a] >= hi[b] else hi[b]
            m = lo[a] if lo[a] <= lo[b] else lo[b]
            if hi[i] == h and lo[i] == m:
                return
            hi[i], lo[i] = h, m
            i >>= 1

    def first_at_least(self, start: int, end: int, pivot: int) -> int:
        """The first index in ``start..end`` whose rank is >= ``pivot``, else ``end + 1``."""
        if start > end:
            return end + 1
        hi, size = self.hi, self.size
        i = start + size
        while hi[i] < pivot:
            while i & 1:            # a right child: its right neighbours are an uncle's
                if i == 1:
                    return end + 1
                i >>= 1
            i += 1
        while i < size:
            i = 2 * i if hi[2 * i] >= pivot else 2 * i + 1
        return min(i - size, end + 1)

    def last_below(self, start: int, end: int, pivot: int) -> int:
        """The last index in ``start..end`` whose rank is < ``pivot``, else ``start - 1``."""
        if start > end:
            return start - 1
        lo, size = self.lo, self.size
        i = end + size
        while lo[i] >= pivot:
            while not i & 1:        # a left child: its left neighbours are an uncle's
                i >>= 1
            if i == 1:
                return start - 1
            i -= 1
        while i < size:
            i = 2 * i + 1 if lo[2 * i + 1] < pivot else 2 * i
        return max(i - size, start - 1)


def _ranks(keys) -> list[int]:
    """Each key's place among the distinct keys (0.0 and -0.0 alike), -1 for a NaN."""
    distinct = sorted({k for k in keys if k == k})  # k == k: not a NaN
    place = {k: i for i, k in enumerate(distinct)}
    return [place[k] if k == k else -1 for k in keys]


def _shortsort_ranks(rank: list[int], perm: list[int], lo: int, hi: int) -> None:
    """``_shortsort`` on ranks: ``a >= b`` is false when either is a NaN (rank -1)."""
    while hi > lo:
        mx = lo
        for p in range(lo + 1, hi + 1):
            if rank[p] >= rank[mx] >= 0:
                mx = p
        rank[mx], rank[hi] = rank[hi], rank[mx]
        perm[mx], perm[hi] = perm[hi], perm[mx]
        hi -= 1


#: ranges up to this size are sorted by ``_qsort_ranks_direct`` (walking entry by entry
#: costs at most SMALL**2 / 2 steps there, less than the tree's descents)
SMALL = 48


def _qsort_ranks_direct(rank: list[int], perm: list[int], lo0: int, hi0: int) -> None:
    """``msvc70_qsort`` of ``lo0..hi0`` itself, on ranks: Sort says 1 (``a >= b``) when
    ``rank[b] >= 0 and rank[a] >= rank[b]``."""
    stack = [(lo0, hi0)]
    while stack:
        lo, hi = stack.pop()
        size = hi - lo + 1
        if size <= CUTOFF:
            _shortsort_ranks(rank, perm, lo, hi)
            continue
        mid = lo + size // 2
        rank[mid], rank[lo] = rank[lo], rank[mid]
        perm[mid], perm[lo] = perm[lo], perm[mid]
        p = rank[lo]
        loguy, higuy = lo, hi + 1
        while True:
            loguy += 1
            while loguy <= hi and not (p >= 0 and rank[loguy] >= p):
                loguy += 1
            higuy -= 1
            while higuy > lo and p >= 0 and rank[higuy] >= p:
                higuy -= 1
            if higuy < loguy:
                break
            rank[loguy], rank[higuy] = rank[higuy], rank[loguy]
            perm[loguy], perm[higuy] = perm[higuy], perm[loguy]
        rank[lo], rank[higuy] = rank[higuy], rank[lo]
        perm[lo], perm[higuy] = perm[higuy], perm[lo]
        if lo + 1 < higuy:
            stack.append((lo, higuy - 1))
        if loguy < hi:
            stack.append((loguy, hi))


def qsort_order(keys, *, small: int = SMALL) -> list[int]:
    """The indices of ``keys`` (floats) in the order ``msvc70_qsort`` leaves entries whose
    comparator is PhysicsScriptData::Sort 0x00521600 (1 when ``a >= b``, else -1) on those
    keys: the same permutation, equal keys and NaNs included, in O(n log n). Ranges of up to
    ``small`` entries are walked directly (tests pass CUTOFF to use the tree throughout)."""
    n = len(keys)
    rank = _ranks(keys)
    perm = list(range(n))
    if n < 2:
        return perm
    if -1 not in rank and len(set(rank)) == n:
        # distinct keys: whatever the algorithm, a sorted result is unique
        perm.sort(key=rank.__getitem__)
        return perm
    tree = _RankTree(rank)

    def swap(i: int, j: int) -> None:
        ri, rj = rank[i], rank[j]
        perm[i], perm[j] = perm[j], perm[i]
        if ri != rj:
            rank[i], rank[j] = rj, ri
            tree.set(i, rj)
            tree.set(j, ri)

    stack = [(0, n - 1)]
    while stack:
        lo, hi = stack.pop()
        size = hi - lo + 1
        if size <= max(small, CUTOFF):  # the tree is never asked about this range again
            _qsort_ranks_direct(rank, perm, lo, hi)
            continue
        swap(lo, lo + size // 2)
        pivot = rank[lo]
        if pivot < 0:               # a NaN pivot: every comparison says "below"
            higuy = loguy = hi
            loguy += 1
        else:
            loguy, higuy = lo, hi + 1
            while True:
                loguy = tree.first_at_least(loguy + 1, hi, pivot)
                higuy = tree.last_below(lo + 1, higuy - 1, pivot)
                if higuy < loguy:
                    break
                swap(loguy, higuy)
        swap(lo, higuy)
        if lo + 1 < higuy:
            stack.append((lo, higuy - 1))
        if loguy < hi:
            stack.append((loguy, hi))
    return perm
