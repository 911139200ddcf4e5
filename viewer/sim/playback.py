"""The playback clock the timeline drives: frame-exact, scrub by re-simulation. No GL, no
ImGui (the timeline panel only draws it and sends commands).

``Playback`` drives a deterministic runtime one render frame (1/fps s, docs/cli.md section 4)
at a time, frames 0 .. ``last_frame(fps, seconds)`` as ``ScenarioRunner.frames()`` runs
them. Scrubbing never interpolates: going to frame ``n`` restores the newest snapshot at or
before ``n`` (the initial state is always one) and re-simulates forward, so every frame
shown is exactly the frame a straight run would produce. Snapshots are taken every
``snapshot_every`` frames while simulating forward; there are never more than
``MAX_SNAPSHOTS`` of them: past that the spacing doubles and the snapshots off it are
dropped (frame 0 stays), so memory does not grow with the scenario's length. A heavy world
(``snapshot_bytes()``: what one copy moves) spaces its snapshots wider, up to
``MAX_SPACING`` frames, so that a copy moves at most ``SNAPSHOT_BYTES_PER_FRAME`` bytes per
frame it spans: playing the stress scene (a 72 MB particle pool) copied it every half
second, a 70-140 ms stall each time; a scrub then re-simulates a few more frames.

A snapshot records the view its frames were simulated for (``set_view``: the viewer's eye,
which decides the emitters' distance culling), with a label the owner's ``ViewLabels``
makes: the exact default serves only that view; the viewer's labels also serve an eye close
enough that no decision could have come out otherwise. A scrub restores only a snapshot that
serves the current view, or frame 0's (nothing depends on the view before the first frame
is drawn), so after the camera moves a scrub shows what a straight run with that camera
shows; the snapshots it passes are taken again for the new view. ``on_restore`` hands each
world made from a snapshot to the owner, which sets the view now on it.

Nothing is simulated ahead unless asked: ``explore(n)`` runs up to ``n`` frames beyond the
furthest frame simulated so far (``horizon``) on a world of its own, so the world shown
does not move while the event log and the snapshots fill in (the viewer explores a few
frames per drawn frame, after showing the first one at once).

``RunnerHandle`` is the runtime the viewer plays: a ``ScenarioRunner`` stepped through its
``frames()`` generator, behind the ``snapshot()`` / ``restore()`` pair Playback uses.
"""

from __future__ import annotations

import bisect
import copy
import math
from collections.abc import Callable

from viewer.sim.clock import last_frame

SPEED_MIN, SPEED_MAX = 0.1, 4.0


class RunnerHandle:
    """A ScenarioRunner stepped through ``frames()``. ``ScenarioRunner.snapshot()`` copies
    the runtime and shares the database; restoring copies the stored snapshot again so it
    stays pristine for the next scrub."""

    def __init__(self, runner) -> None:
        self.runner = runner
        self._frames = runner.frames()

    def step(self):
        """Run the next render frame; ``(t, world)``."""
        return next(self._frames)

    def snapshot(self):
        return self.runner.snapshot()

    def snapshot_bytes(self) -> int:
        """What one snapshot copies, roughly (the world's particle tables)."""
        return self.runner.world.snapshot_bytes()

    def restore(self, snap) -> None:
        grown = self.runner.world.pool.capacity
        self.runner = snap.snapshot()
        # the run grows its particle pool back to where it was in one step, not by a
        # doubling after another inside the frame that births them (the stress scene's
        # loop restart: nine growths of a 72 MB pool)
        self.runner.world.pool.presize(grown)
        self._frames = self.runner.frames()

    @property
    def world(self):
        return self.runner.world


MAX_SNAPSHOTS = 64
SNAPSHOT_BYTES_PER_FRAME = 1 << 20
MAX_SPACING = 256       # frames: the widest spacing a heavy world's snapshots get
MIXED = "mixed"   # the label of frames simulated partly for one view, partly for another


class ViewLabels:
    """How a world's frames are labelled with the view they were simulated for, and which
    snapshot serves which view. This default is exact: a snapshot serves only the view it
    was simulated for throughout; a world whose view changed serves none (``MIXED``)."""

    def pure(self, view):
        """The label of frames simulated for ``view`` alone."""
        return view

    def moved(self, label, view):
        """The label of a world with ``label`` that simulates on for ``view``."""
        return label if label == self.pure(view) else MIXED

    def fits(self, label, snapshot, view) -> bool:
        """Whether ``snapshot`` (with ``label``) is the state a run for ``view`` reaches."""
        return label == self.pure(view)


class Playback:
    """Frame-exact playback of a runtime made by ``make_world()`` and advanced by
    ``advance(world)`` (one render frame; returns that frame's events, trace-shaped dicts).

    A world may provide ``snapshot()`` / ``restore(snap)``; otherwise snapshots are deep
    copies. ``on_events(frame, events)`` sees every simulated frame's events (the session
    collects the event log from it during the first pass).
    """

    def __init__(self, make_world: Callable[[], object], advance: Callable[[object], list],
                 fps: float, seconds: float, *, snapshot_every: int = 15,
                 on_events: Callable[[int, list], None] | None = None,
                 on_restore: Callable[[object], None] | None = None,
                 view_labels: ViewLabels | None = None) -> None:
        if not (fps > 0 and math.isfinite(fps)):
            raise ValueError(f"fps must be positive, got {fps}")
        self.make_world = make_world
        self._advance = advance
        self.fps = float(fps)
        self.total_frames = last_frame(fps, seconds)  # ScenarioRunner.frames()' last frame
        self.snapshot_every = max(1, int(snapshot_every))
        self.on_events = on_events
        # called with each world made from a snapshot (a scrub, explore(), prepass()), so
        # what the snapshot holds of the viewer (the eye it was simulated for) is replaced
        # by the view now
        self.on_restore = on_restore
        self.playing = False
        self.speed = 1.0
        self.loop = False
        # the loop range (frames; None: the scenario's start / end): looping plays from
        # loop_in to loop_out, then again from loop_in (a view setting, never simulated)
        self.loop_in: int | None = None
        self.loop_out: int | None = None
        self._accum = 0.0
        self.frames_simulated = 0     # work counter (bench and tests)
        self.view = None              # what frames are simulated for now (set_view)
        self.labels = view_labels or ViewLabels()
        self.world = make_world()
        self.frame = 0
        self._world_view = self.labels.pure(None)   # the label of the shown world's frames
        self.horizon = 0              # the furthest frame simulated so far
        self._explorer = None         # [world, frame, view]: explore()'s own runtime
        self._snapshots: dict[int, object] = {}
        self._snap_view: dict[int, object] = {}     # the view each snapshot was simulated for
        self._snap_frames: list[int] = []
        self._store(0)

    def set_view(self, view) -> None:
        """Frames are simulated for ``view`` from now on (the owner's viewer eye). A world
        past frame 0 that ran for another view goes on with a label of both."""
        if view == self.view:
            return
        self.view = view
        pure = self.labels.pure(view)
        self._world_view = pure if self.frame == 0 else self.labels.moved(self._world_view,
                                                                          view)
        if self._explorer is not None:
            ex = self._explorer
            ex[2] = pure if ex[1] == 0 else self.labels.moved(ex[2], view)

    # -- snapshots -------------------------------------------------------------------------
    def _copy_out(self, world):
        snap = getattr(world, "snapshot", None)
        return snap() if callable(snap) else copy.deepcopy(world)

    def _copy_in(self, frame: int):
        """The shown world from the snapshot of ``frame`` (which stays untouched)."""
        snap = self._snapshots[frame]
        self.frame = frame
        self._world_view = self._label(frame)
        world = self.world
        if callable(getattr(world, "snapshot", None)) and callable(getattr(world, "restore", None)):
            world.restore(snap)
        else:
            world = copy.deepcopy(snap)
        return self._restored(world)

    def _restored(self, world):
        if self.on_restore is not None:
            self.on_restore(world)
        return world

    def _store(self, frame: int, world=None, view=None) -> None:
        """Snapshot ``frame`` (on the spacing) of the shown world, or of ``world`` whose
        frames ran for ``view``; one of the current view replaces one of another."""
        if world is None:
            world, view = self.world, self._world_view
        if frame == 0:
            view = self.labels.pure(self.view)     # nothing has been culled yet
        elif frame % self.snapshot_every == 0:
            self._space_for(world)             # weighed only where a copy would be made
        if frame % self.snapshot_every:
            return
        if frame in self._snapshots and self._fits(frame):
            return                    # it serves the current view: keep it
        if frame not in self._snapshots:
            bisect.insort(self._snap_frames, frame)
        self._snapshots[frame] = self._copy_out(world)
        self._snap_view[frame] = view
        while len(self._snap_frames) > MAX_SNAPSHOTS:   # thin out: double the spacing
            self._double_spacing()

    def _double_spacing(self) -> None:
        """Twice the spacing; the snapshots off it are dropped (frame 0 stays)."""
        self.snapshot_every *= 2
        keep = [f for f in self._snap_frames if f % self.snapshot_every == 0]
        for f in self._snap_frames:
            if f % self.snapshot_every:
                del self._snapshots[f], self._snap_view[f]
        self._snap_frames = keep

    def _space_for(self, world) -> None:
        """Widen the spacing until a copy of ``world`` moves at most
        SNAPSHOT_BYTES_PER_FRAME per frame it spans (MAX_SPACING at most)."""
        weigh = getattr(world, "snapshot_bytes", None)
        if not callable(weigh):
            return
        size = weigh()
        while (size > SNAPSHOT_BYTES_PER_FRAME * self.snapshot_every
               and 2 * self.snapshot_every <= MAX_SPACING):
            self._double_spacing()

    def _label(self, frame: int):
        """The label of the snapshot of ``frame`` (frame 0: the current view's)."""
        return self.labels.pure(self.view) if frame == 0 else self._snap_view[frame]

    def _fits(self, frame: int) -> bool:
        return frame == 0 or self.labels.fits(self._snap_view[frame], self._snapshots[frame],
                                               self.view)

    def _usable(self, n: int) -> int:
        """The newest snapshot frame at or before ``n`` that serves the current view
        (frame 0 always: nothing depends on the view before the first frame)."""
        i = bisect.bisect_right(self._snap_frames, n) - 1
        while not self._fits(self._snap_frames[i]):
            i -= 1
        return self._snap_frames[i]

    @property
    def snapshot_frames(self) -> list[int]:
        return list(self._snap_frames)

    def invalidate(self) -> None:
        """The scenario changed: drop every snapshot, rebuild the world, return to the
        current frame by re-simulating."""
        target = self.frame
        self._snapshots.clear()
        self._snap_view.clear()
        self._snap_frames.clear()
        self.world = self.make_world()
        self.frame = 0
        self._world_view = self.labels.pure(self.view)
        self.horizon = 0
        self._explorer = None
        self._store(0)
        self.seek_frame(target)

    # -- stepping --------------------------------------------------------------------------
    def _step_one(self) -> None:
        events = self._advance(self.world) or []
        self.frame += 1
        self.frames_simulated += 1
        self.horizon = max(self.horizon, self.frame)
        if self.on_events is not None:
            self.on_events(self.frame, events)
        self._store(self.frame)

    @property
    def explored(self) -> bool:
        """Every frame has been simulated once (the event log is complete)."""
        return self.horizon >= self.total_frames

    def explore(self, max_frames: int) -> int:
        """Simulate up to ``max_frames`` frames towards the end beyond ``horizon`` without
        moving the world shown (a runtime of its own, started from the newest snapshot at
        or before the horizon), reporting their events and storing snapshots. Returns the
        frames simulated. While the world shown plays at the horizon it explores nothing
        (that world is extending the horizon itself)."""
        done = 0
        while done < max_frames and self.horizon < self.total_frames:
            behind = self._explorer is None or self._explorer[1] < self.horizon
            if behind and self.playing and self.frame == self.horizon:
                break          # the world shown is simulating the frontier itself
            start = self._snap_frames[bisect.bisect_right(self._snap_frames,
                                                          self.horizon) - 1]
            if self._explorer is None or self._explorer[1] < start:   # from the newest
                self._explorer = [self._fresh(self._snapshots[start]), start,
                                  self._label(start)]
            world = self._explorer[0]
            events = self._advance(world) or []
            self._explorer[1] += 1
            frame = self._explorer[1]
            done += 1
            self.frames_simulated += 1
            self.horizon = max(self.horizon, frame)
            if self.on_events is not None:
                self.on_events(frame, events)
            self._store(frame, world, self._explorer[2])
        return done

    def _fresh(self, snap):
        """A runtime of its own from a snapshot (the snapshot stays untouched)."""
        if callable(getattr(self.world, "restore", None)):
            world = self.make_world()
            world.restore(snap)
            return self._restored(world)
        return self._restored(copy.deepcopy(snap))

    def seek_frame(self, n: int) -> None:
        n = min(max(int(n), 0), self.total_frames)
        if n == self.frame:
            return
        best = self._usable(n)             # frame 0 is always there
        if n < self.frame or best > self.frame:
            self.world = self._copy_in(best)
        while self.frame < n:
            self._step_one()

    @property
    def time(self) -> float:
        return self.frame / self.fps

    @property
    def duration(self) -> float:
        return self.total_frames / self.fps

    def seek(self, t: float) -> None:
        """Go to the render frame at or just before ``t`` seconds (NaN: stay)."""
        if math.isnan(t):
            return
        self.seek_frame(math.floor(min(max(t, 0.0), self.duration) * self.fps + 1e-9))

    def step(self, frames: int) -> None:
        self.playing = False
        self._accum = 0.0
        self.seek_frame(self.frame + frames)

    def set_speed(self, speed: float) -> None:
        if math.isnan(speed):
            return
        self.speed = min(max(float(speed), SPEED_MIN), SPEED_MAX)

    def play(self) -> None:
        if self.frame >= self.total_frames and not self.loop:
            self.seek_frame(0)
        self.playing = True

    def pause(self) -> None:
        self.playing = False
        self._accum = 0.0

    def set_loop_range(self, t_in: float | None, t_out: float | None) -> None:
        """The loop range's in and out points (seconds, rounded to frames; None: the
        scenario's start / end); an out at or before the in is refused (ValueError)."""
        def frame_of(t):
            if t is None:
                return None
            if not math.isfinite(t):
                raise ValueError(f"a loop point must be a finite time, not {t!r}")
            return min(max(round(float(t) * self.fps), 0), self.total_frames)
        f_in, f_out = frame_of(t_in), frame_of(t_out)
        if f_in is not None and f_out is not None and f_out <= f_in:
            raise ValueError(f"the loop's out ({t_out:g} s) must come after its in "
                             f"({t_in:g} s)")
        self.loop_in, self.loop_out = f_in, f_out

    def tick(self, real_dt: float, max_frames: int = 240) -> int:
        """Advance by ``real_dt`` wall seconds times the speed; returns frames advanced.
        At the end it stops, or wraps to the start when looping (to the loop range's in
        once past its out)."""
        if not self.playing or real_dt <= 0 or not math.isfinite(real_dt):
            return 0
        self._accum += real_dt * self.speed * self.fps
        n = min(int(self._accum), max_frames)
        self._accum -= n
        advanced = 0
        end = self.loop_out if self.loop and self.loop_out is not None else self.total_frames
        for _ in range(n):
            if self.frame >= end:
                if not self.loop:
                    self.pause()
                    break
                self.seek_frame(self.loop_in or 0)
                continue
            self._step_one()
            advanced += 1
        if self.frame >= self.total_frames and not self.loop:
            self.pause()
        return advanced

    def prepass(self) -> None:
        """Simulate the whole duration once (collecting events and snapshots), then go
        back to where we were."""
        here = self.frame
        last = self._snap_frames[-1]
        if last > self.frame:
            self.world = self._copy_in(last)
        while self.frame < self.total_frames:
            self._step_one()
        self.seek_frame(here)
