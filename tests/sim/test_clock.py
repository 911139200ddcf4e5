"""Retail time stepping: CPhysics::UseTime 0x00509950 and CPhysicsObj::update_object
0x00515D10 (docs/retail-rules.md, frame clock: the decompile's catch-up rule is followed)."""

from fractions import Fraction

import pytest

from viewer.sim.clock import MAX_QUANTUM, MIN_QUANTUM, FrameClock, UseTimeGate, update_object_steps


def _update_frames(fps, seconds=1):
    clock = FrameClock(fps)
    gate = UseTimeGate()
    frames = []
    while clock.now <= seconds:
        if gate.should_update(clock.now) is not None:
            frames.append(clock.frame)
        clock.advance()
    return frames


def test_UseTime_0x00509950_30fps_updates_every_frame():
    frames = _update_frames(30)
    assert frames == list(range(1, 31))


def test_UseTime_0x00509950_60fps_updates_every_second_frame():
    frames = _update_frames(60)
    assert frames == list(range(2, 61, 2))


def test_UseTime_0x00509950_144fps_updates_every_fifth_frame_with_5_144_quanta():
    clock = FrameClock(144)
    gate = UseTimeGate()
    quanta = []
    while clock.now <= 1:
        q = gate.should_update(clock.now)
        if q is not None:
            quanta.append((clock.frame, q))
        clock.advance()
    assert [f for f, _ in quanta] == list(range(5, 145, 5))
    assert all(q == Fraction(5, 144) for _, q in quanta)
    assert len(quanta) == 28  # 28.8 Hz: a 144 fps run differs from a 60 fps run


def test_UseTime_0x00509950_below_min_quantum_no_update_remainder_carries():
    gate = UseTimeGate()
    assert gate.should_update(Fraction(1, 60)) is None
    assert gate.should_update(Fraction(1, 40)) is None
    assert gate.should_update(Fraction(1, 30)) == Fraction(1, 30)  # >= MIN_QUANTUM updates


def test_UseTime_0x00509950_clock_backwards_resyncs():
    gate = UseTimeGate(Fraction(1))
    assert gate.should_update(Fraction(1, 2)) is None
    assert gate.should_update(Fraction(1, 2) + MIN_QUANTUM) == MIN_QUANTUM


def test_update_object_0x00515D10_small_elapsed_stepped_whole():
    steps, t = update_object_steps(Fraction(1, 30), Fraction(0))
    assert steps == [(Fraction(1, 30), Fraction(1, 30))]
    assert t == Fraction(1, 30)
    # any elapsed up to MAX_QUANTUM is one step, with no MIN_QUANTUM test (goto LABEL_21)
    steps, _ = update_object_steps(Fraction(1, 100), Fraction(0))
    assert steps == [(Fraction(1, 100), Fraction(1, 100))]
    steps, _ = update_object_steps(MAX_QUANTUM, Fraction(0))
    assert steps == [(MAX_QUANTUM, MAX_QUANTUM)]


def test_update_object_0x00515D10_catch_up_in_max_quantum_steps():
    steps, t = update_object_steps(Fraction(1, 2), Fraction(0))
    assert [dt for _, dt in steps] == [MAX_QUANTUM, MAX_QUANTUM, Fraction(1, 10)]
    assert t == Fraction(1, 2)


def test_update_object_0x00515D10_remainder_at_or_below_min_quantum_carries():
    steps, t = update_object_steps(Fraction(2, 5) + Fraction(1, 30), Fraction(0))
    assert [dt for _, dt in steps] == [MAX_QUANTUM, MAX_QUANTUM]
    assert t == Fraction(2, 5)  # the 1/30 remainder stays for the next update
    steps, t = update_object_steps(Fraction(2, 5) + Fraction(1, 29), Fraction(0))
    assert [dt for _, dt in steps] == [MAX_QUANTUM, MAX_QUANTUM, Fraction(1, 29)]


def test_update_object_0x00515D10_gap_over_two_seconds_dropped():
    steps, t = update_object_steps(Fraction(21, 10), Fraction(0))
    assert steps == [] and t == Fraction(21, 10)
    steps, _ = update_object_steps(Fraction(2), Fraction(0))
    assert len(steps) == 10  # exactly 2 s is still stepped


def test_update_object_0x00515D10_elapsed_at_or_below_eps_resyncs():
    steps, t = update_object_steps(Fraction(1, 10000), Fraction(0))
    assert steps == [] and t == Fraction(1, 10000)


def test_FrameClock_rejects_nonpositive_fps():
    with pytest.raises(ValueError):
        FrameClock(0)


@pytest.mark.parametrize("start", [Fraction(0), Fraction(1, 30), Fraction(7, 60)])
def test_world_steps_from_is_update_object_steps_as_floats_reused_for_a_shared_time(start):
    # CPhysicsObj::update_object 0x00515D10 stepping, kept per (now, update time object)
    from viewer.sim.world import World
    w = World(db=None)
    for now in (start + Fraction(1, 30), start + Fraction(1, 3), start + Fraction(21, 10),
                start + Fraction(1, 10000)):
        w.time = now
        steps, new_time = update_object_steps(now, start)
        want = (float(start), [(float(t), float(dt)) for t, dt in steps], new_time)
        assert w._steps_from(start) == want
        assert w._steps_from(start) == want  # the kept answer
        assert w._steps_from(Fraction(start)) == want  # an equal time, another object
