"""PhysicsScript hook order: retail's qsort (PhysicsScript::UnPack 0x005218B0 -> _qsort with
PhysicsScriptData::Sort 0x00521600, MSVC 7.0 CRT), equal start times included. Expected
orders below are worked by hand from the CRT algorithm (shortsort up to 8 elements,
middle-element partition above)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.dat.records.crt_qsort import msvc70_qsort
from viewer.dat.records.hooks import SoundHook
from viewer.dat.records.physics_script import (
    PhysicsScript,
    PhysicsScriptData,
    physics_script_data_sort,
    runtime_order,
)


def entries(times):
    # Sound hooks tell entries apart by their wave id (the stored index)
    return [PhysicsScriptData(float(t), SoundHook(direction=1, wave_id=0x0A000000 + i))
            for i, t in enumerate(times)]


def order(script_or_entries):
    return [d.hook.wave_id - 0x0A000000 for d in script_or_entries]


def test_PhysicsScriptData_Sort_0x00521600_never_returns_zero():
    a, b = entries([1.0, 1.0])
    assert physics_script_data_sort(a, b) == 1 and physics_script_data_sort(b, a) == 1
    lo, hi = entries([0.0, 1.0])
    assert physics_script_data_sort(lo, hi) == -1 and physics_script_data_sort(hi, lo) == 1


def test_shortsort_reverses_equal_times_moved_by_a_swap():
    # stored: A@1, B@0, A'@1, C@0 -> C@0, B@0, A@1, A'@1 (B and C swap places)
    assert order(runtime_order(entries([1, 0, 1, 0]))) == [3, 1, 0, 2]


def test_shortsort_keeps_all_equal_small_script_in_stored_order():
    assert order(runtime_order(entries([0.5] * 8))) == list(range(8))


def test_partition_of_nine_equal_times_moves_the_middle_entry_first():
    # size 9 > CUTOFF: the middle entry (4) is swapped to the front and stays there
    assert order(runtime_order(entries([0.0] * 9))) == [4, 1, 2, 3, 0, 5, 6, 7, 8]


def test_script_length_is_the_last_sorted_start_time():
    s = PhysicsScript.from_hooks(0x33000001, entries([2.0, 0.5, 3.0, 3.0]))
    assert s.length == 3.0
    assert order(s.stored_script_data) == [0, 1, 2, 3]  # encode writes the stored order


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0]), max_size=40))
def test_runtime_order_is_sorted_and_a_permutation(times):
    got = runtime_order(entries(times))
    assert [d.start_time for d in got] == sorted(times)
    assert sorted(order(got)) == list(range(len(times)))


def test_qsort_sorts_distinct_keys_like_sorted():
    rng = random.Random(5)
    for n in (0, 1, 2, 8, 9, 30, 200):
        xs = [rng.random() for _ in range(n)]
        ys = list(xs)
        msvc70_qsort(ys, lambda a, b: 1 if a >= b else -1)
        assert ys == sorted(xs)
