"""Frame clock and retail time stepping.

Two retail rules decide when objects advance (docs/retail-rules.md, "Frame clock"; where
the notes and the decompile differ on update_object, the decompile is followed):

* ``CPhysics::UseTime`` 0x00509950 updates objects only when at least MIN_QUANTUM (1/30 s)
  of wall time has passed since its last update; otherwise the frame reuses the state.
* ``CPhysicsObj::update_object`` 0x00515D10 steps an object's elapsed time: at or below
  EPS or above 2 s it resyncs and does nothing; up to MAX_QUANTUM (0.2 s) it steps whole;
  above that it steps MAX_QUANTUM pieces while more than MAX_QUANTUM remains, then the
  remainder only if it exceeds MIN_QUANTUM (else it carries to the next update).

Wall time is kept as an exact ``Fraction`` (frame k of an ``fps`` clock is at k/fps), so
"at least 1/30 s" is decided exactly and a 30 fps run updates on every frame, a 60 fps run
on every second frame and a 144 fps run every fifth frame (5/144 s steps), as retail
would on such a clock. Simulation times handed to objects are floats.
"""

from __future__ import annotations

import math
from fractions import Fraction

MIN_QUANTUM = Fraction(1, 30)
MAX_QUANTUM = Fraction(1, 5)
HUGE_QUANTUM = Fraction(2)
EPS = Fraction(2, 10000)  # the client's 0.0002 (0.00019999999 as a float)


def as_time(value) -> Fraction:
    """An exact time from a float, int, str or Fraction (floats through their repr, so
    0.1 means 1/10)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(float(value))) if not isinstance(value, str) else Fraction(value)


class FrameClock:
    """Render-frame times of a fixed-rate clock: frame k is at k / fps seconds."""

    def __init__(self, fps: float) -> None:
        if not fps > 0:
            raise ValueError(f"fps must be positive, not {fps!r}")
        self.fps = as_time(fps)
        self.frame = 0

    @property
    def now(self) -> Fraction:
        return self.frame / self.fps

    def advance(self) -> Fraction:
        self.frame += 1
        return self.now

    def last_frame(self, seconds) -> int:
        """The last frame of a ``seconds`` long run: frames 0 .. k with k / fps <= seconds
        (exact, so a duration between two frame times ends on the earlier one)."""
        return last_frame(self.fps, seconds)


def last_frame(fps, seconds) -> int:
    """``floor(seconds * fps)`` in exact arithmetic (0 for a negative duration)."""
    return max(0, math.floor(as_time(seconds) * as_time(fps)))


class UseTimeGate:
    """CPhysics::UseTime 0x00509950: whether this frame updates objects."""

    def __init__(self, start: Fraction = Fraction(0)) -> None:
        self.last_update = start

    def should_update(self, now: Fraction) -> Fraction | None:
        """The quantum since the last update when objects update now, else None."""
        quantum = now - self.last_update
        if quantum < 0:  # clock went backwards: resync only
            self.last_update = now
            return None
        if quantum >= MIN_QUANTUM:
            self.last_update = now
            return quantum
        return None


def update_object_steps(now: Fraction, update_time: Fraction
                        ) -> tuple[list[tuple[Fraction, Fraction]], Fraction]:
    """CPhysicsObj::update_object 0x00515D10 time stepping.

    Returns ``(steps, new_update_time)`` where each step is ``(physics_time_after, dt)``
    for one UpdateObjectInternal call.
    """
    elapsed = now - update_time
    if elapsed <= EPS or elapsed > HUGE_QUANTUM:
        return [], now  # resync: the time is dropped
    t = update_time
    steps: list[tuple[Fraction, Fraction]] = []
    if elapsed > MAX_QUANTUM:
        while True:
            t += MAX_QUANTUM
            steps.append((t, MAX_QUANTUM))
            elapsed -= MAX_QUANTUM
            if not elapsed > MAX_QUANTUM:
                break
        if elapsed > MIN_QUANTUM:
            t += elapsed
            steps.append((t, elapsed))
        # else the remainder (<= MIN_QUANTUM) carries: update_time stays at t
    else:
        t += elapsed
        steps.append((t, elapsed))
    return steps, t
