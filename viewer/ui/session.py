"""The session: what the viewer has loaded and the runtime adapter the panels talk to.

A ``Session`` holds the asset database, the scenario (docs/cli.md section 4) and a
``Playback`` of ``viewer.sim.scenario.ScenarioRunner`` (frame 0 is the state after the
runner's first frame, t = 0). Loading shows frame 0 at once: it simulates at most
``LOAD_FRAMES`` frames ahead (all of a short scenario; fewer in a heavy one: it stops
once the frames simulated held ``LOAD_PARTICLE_FRAMES`` live particles summed over them),
and each ``tick`` explores up to
``EXPLORE_PER_TICK`` more (``Playback.explore``: the world shown does not move) within
``EXPLORE_SHARE`` of the viewer's frame time on average (a frame that costs more is paid
back by the next ticks exploring nothing, so a heavy scene paused is never slower than
playing), so the event log the timeline draws and the snapshots scrubbing restores fill
in as the viewer runs; seeking, playing or jumping to a hook simulates what it needs on
demand. Memory stays bounded (Playback's snapshot cap) however long the scenario. Panel
edits (play a script, a typed effect, a state, a motion) become scenario events at the
current time; the playback then re-simulates from the start so what is shown is what a
straight run of the saved scenario shows.

``Session.apply(command)`` is called by ``Controller`` only. No GL here.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from fractions import Fraction
from pathlib import Path

from viewer.audio_out import SoundPlayer, shared_sink
from viewer.dat.jsonable import json_float  # NaN / infinities spelled as the contract does
from viewer.errors import DatError, OutputError, ScenarioError, ViewerError, format_did
from viewer.sim import inspect
from viewer.sim.playback import Playback, RunnerHandle, ViewLabels
from viewer.ui import commands as c
from viewer.ui.history import History
from viewer.ui.timeline import TimelineTracks, TimelineView

DEFAULT_SECONDS = 5.0
#: Frames simulated ahead when a scenario is loaded (the rest: on demand and per tick).
LOAD_FRAMES = 300
#: The live particles summed over the frames simulated ahead at load at most (counted,
#: never timed: what a load simulates does not depend on the machine): a heavy scene (the
#: 100k-particle stress scene) opens after a few frames instead of seconds of simulation
#: and snapshot copies; the rest fills in per tick.
LOAD_PARTICLE_FRAMES = 2_000_000
#: Frames explored ahead per viewer frame at most (Session.tick).
EXPLORE_PER_TICK = 8
#: The share of the viewer's frame time exploring may take on average, and the most
#: unspent time it may save up (seconds).
EXPLORE_SHARE = 0.2
EXPLORE_SAVED_MAX = 0.05
PS_LAUNCH = 0x04   # PlayScript.Launch
_SERIALS = itertools.count(1)


class EyeLabels(ViewLabels):
    """Snapshots labelled with the viewer's eye: ``(eye, spread)``, every eye the frames
    were simulated for lies within ``spread`` metres of ``eye``. A snapshot serves another
    eye when that eye, with the spread, stays inside the snapshot's ``viewer_margin`` (no
    culling or sound decision of its history could have come out otherwise), so an orbit
    of a few metres keeps the snapshots and only an eye near a cull edge re-simulates."""

    def pure(self, view):
        return (view, 0.0)

    def moved(self, label, view):
        eye, spread = label
        if eye is None or view is None:
            return (eye, math.inf)
        return (eye, max(spread, math.dist(eye, view)))

    def fits(self, label, snapshot, view) -> bool:
        eye, spread = label
        if label == self.pure(view):
            return True
        if eye is None or view is None:
            return False
        return math.dist(eye, view) + spread < snapshot.world.viewer_margin - 1e-6


class Session:
    def __init__(self, db, scenario, *, dat_paths=(), snapshot_every: int = 15,
                 prepass: bool = True) -> None:
        self.db = db
        self.scenario = scenario
        self.dat_paths = [str(p) for p in dat_paths]
        self.snapshot_every = snapshot_every
        self.selected_object: int | None = scenario.objects[0].id if scenario.objects else None
        self.play_script_type: int = PS_LAUNCH   # the table inspector's type
        self.generation = 0                  # bumps whenever the scenario changes
        self.serial = next(_SERIALS)         # this session among every one opened (never reused)
        self.history = History()             # undo / redo of edits; the modified mark
        self._marks_memo: tuple = (None, None)   # (scenario key, the Timeline's EventMarks)
        self._tables_of: tuple = (None, ())      # (db, its 0x34 DIDs): the table chooser's
        self.file = scenario.path            # where Save writes without asking (or None)
        self.notices: list[ViewerError] = []  # said to the user, not failures (the Controller)
        # what is heard: the shared audio device (the window opens it) or a silent sink
        self.sound = SoundPlayer(db, shared_sink())
        # the drawing camera's eye and view direction (set_viewer): every simulated frame
        # takes its emitter distances and its sound listener from them, as ``render``
        # does; None until a view draws
        self.viewer_eye: tuple[float, float, float] | None = None
        self.viewer_forward: tuple[float, float, float] | None = None
        self._sound_error_shown: str | None = None
        # each absent record (what, did, by) the runtime met, said once in Errors
        self._missing_said: set[tuple] = set()
        # exploring ahead: seconds of the viewer's time left to spend on it, and the clock
        # that measures an explored frame (tests replace it)
        self.explore_credit = 0.0
        self.clock = time.perf_counter
        self._build(prepass)

    # -- building -------------------------------------------------------------------------
    def _make(self) -> RunnerHandle:
        from viewer.sim.scenario import ScenarioRunner

        runner = ScenarioRunner(self.scenario, self.db)
        runner.world.events = []
        handle = RunnerHandle(runner)
        handle.step()             # frame 0, t = 0: objects created, t=0 events applied
        self._view_from_camera(runner.world)
        self._frame0_events = runner.world.events
        runner.world.events = []
        return handle

    def _advance(self, handle: RunnerHandle) -> list:
        world = handle.world
        world.events = []
        handle.step()
        self._view_from_camera(world)
        events, world.events = world.events, []
        self._live_advanced = int(inspect.particle_pool(world).live_count)
        return events

    def _view_from_camera(self, world) -> None:
        """After each simulated frame, as ``render`` does: the viewer stands at the camera
        and looks where it looks (the sound listener's heading). Also for a world made
        from a snapshot: the snapshot holds the eye of the time it was simulated, and
        every frame simulated from it (a scrub after an orbit) takes the view now."""
        if self.viewer_eye is not None:
            world.set_viewer(self.viewer_eye, self.viewer_forward)

    def set_viewer(self, eye, forward=None) -> None:
        """The view draws from ``eye`` looking along ``forward`` now. The first eye a view
        gives replaces the default viewer position for the whole run (re-simulated to the
        current frame, so every frame culls as ``render`` with that camera would); a later
        move applies to the frame shown and to every frame simulated from then on (also
        from a snapshot taken before the move)."""
        eye = tuple(float(c) for c in eye)
        forward = None if forward is None else tuple(float(c) for c in forward)
        if eye == self.viewer_eye and forward == self.viewer_forward:
            return
        first = self.viewer_eye is None
        self.viewer_eye, self.viewer_forward = eye, forward
        self.playback.set_view(eye)      # snapshots are kept per eye (the culling's input)
        if first:
            self.playback.invalidate()
        self.world.set_viewer(eye, forward)

    def _record(self, frame: int, events: list) -> None:
        """A simulated frame's events: frames reach the log in order, the first time each
        is simulated (a frame is simulated first only right after the previous one)."""
        self.sound.record(frame, events)
        for ev in events:
            if ev.get("event") == "missing":
                self._say_missing(ev)
        if frame == self._logged + 1:
            self._logged = frame
            self._events.extend(events)
            self.tracks.extend(events)

    def _build(self, prepass: bool) -> None:
        self._events: list[dict] = []
        self._logged = -1
        self.sound.reset()
        self.tracks = TimelineTracks()
        self.playback = Playback(self._make, self._advance, self.scenario.fps,
                                 self.scenario.seconds, snapshot_every=self.snapshot_every,
                                 on_events=self._record,
                                 on_restore=lambda handle: self._view_from_camera(handle.world),
                                 view_labels=EyeLabels())
        self.playback.set_view(self.viewer_eye)
        self._record(0, self._frame0_events)
        self.playback.loop = bool(self.scenario.extra.get("loop", False))
        if prepass:
            self._load_ahead()
        self.generation += 1

    def _load_ahead(self) -> None:
        """Simulate up to ``LOAD_FRAMES`` frames ahead, stopping once they held
        ``LOAD_PARTICLE_FRAMES`` live particles summed over them."""
        held = 0
        for _ in range(LOAD_FRAMES):
            if not self.playback.explore(1):
                return
            held += self._live_advanced
            if held >= LOAD_PARTICLE_FRAMES:
                return

    def rebuild(self) -> None:
        """The scenario changed: re-simulate it and come back to the same time."""
        frame = self.playback.frame
        playing, speed, loop = self.playback.playing, self.playback.speed, self.playback.loop
        loop_range = self.playback.loop_in, self.playback.loop_out
        self._build(True)
        self.playback.seek_frame(frame)
        self.playback.speed, self.playback.loop = speed, loop
        self.playback.loop_in, self.playback.loop_out = loop_range
        self.playback.playing = playing

    # -- reading --------------------------------------------------------------------------
    @property
    def world(self):
        return self.playback.world.world

    def events(self) -> list[dict]:
        """The event log of every frame simulated so far, in order (panels read it every
        frame: it grows as frames are simulated, never rebuilt)."""
        return self._events

    def stats(self) -> dict:
        t = inspect.totals(self.world)
        return {"time": self.playback.time, "frame": self.playback.frame,
                "particles": int(t["particles"]), "emitters": int(t["emitters"]),
                "updates": int(t["updates"]), "rng_draws": int(t["rng_draws"])}

    def timeline_view(self) -> TimelineView:
        pb = self.playback
        return TimelineView(pb.time, pb.frame, pb.total_frames, pb.fps, pb.playing, pb.speed,
                            pb.loop, self.tracks, sounds=self.sound.spans(),
                            volume=self.sound.volume, muted=self.sound.muted,
                            events=self._event_marks(),
                            loop_in=None if pb.loop_in is None else pb.loop_in / pb.fps,
                            loop_out=None if pb.loop_out is None else pb.loop_out / pb.fps)

    def _event_marks(self):
        """The Timeline's events lane, built again only when the scenario changed."""
        from viewer.ui.events_panel import timeline_marks

        key = (self.generation, id(self.scenario))
        if self._marks_memo[0] != key:
            self._marks_memo = (key, timeline_marks(self.scenario))
        return self._marks_memo[1]

    def bounds_of(self, kind: str, key):
        w = self.world
        if kind == "object":
            bounds = inspect.object_bounds(w, key)
            return None if bounds is None else (bounds[0], max(bounds[1], 0.5))
        if kind == "emitter":
            for em in inspect.live_emitters(w):
                if em.handle == key:
                    return em.origin, 1.0
        return None

    def scene_bounds(self):
        """(centre, radius) of a sphere around every live object (their selection
        spheres), or None when the scene is empty: what Load scenario frames."""
        import numpy as np

        spheres = [b for b in (inspect.object_bounds(self.world, o)
                               for o in inspect.owners(self.world)) if b is not None]
        if not spheres:
            return None
        pts = np.array([c for c, _ in spheres], np.float64)
        centre = (pts.min(axis=0) + pts.max(axis=0)) / 2.0
        radius = max(float(np.linalg.norm(p - centre)) + r for p, (_, r) in zip(pts, spheres))
        return tuple(float(v) for v in centre), max(radius, 0.5)

    def object_frame(self, obj_id):
        """(origin, forward) of a live object: its position and its frame's +Y (the way
        it faces) in world space."""
        placed = inspect.object_facing(self.world, obj_id)
        if placed is None:
            raise ScenarioError(f"no object {obj_id} in the world now")
        return placed

    def next_object_id(self) -> int:
        """An id no scenario object or create event uses yet."""
        used = {o.id for o in self.scenario.objects}
        used |= {e.object for e in self.scenario.events}
        return max(used, default=0) + 1

    def sound_track(self, t0: float, seconds: float):
        """The mixed sound (stereo, 48 kHz) of ``seconds`` from sim time ``t0``, of every
        frame simulated so far (a Capture's track)."""
        return self.sound.mixer.mix(self.sound.events(), t0, seconds)

    def audio_offset(self, recording_path: str, rate: float = 1.0) -> float:
        """``compare --align audio`` for the viewer: the whole scenario simulated, its sound
        track against the recording's sound."""
        from viewer.compare.align import align_audio
        pb = self.playback
        pb.prepass()
        return align_audio(recording_path, self.sound_track(0.0, pb.duration),
                           self.sound.mixer.sample_rate, rate=rate)

    def tick(self, dt: float) -> None:
        pb = self.playback
        advanced = pb.tick(dt)
        self.sound.update(pb.frame, pb.fps, playing=pb.playing, speed=pb.speed,
                          advanced=advanced)
        self._explore(dt)
        err = self.sound.error
        if err is not None and str(err) != self._sound_error_shown:
            self._sound_error_shown = str(err)   # once: the Errors panel names the Wave
            raise err

    def _explore(self, dt: float) -> None:
        """Explore frames ahead one at a time while this tick's share of time lasts
        (``EXPLORE_SHARE`` of ``dt``, plus what earlier ticks saved or minus what they
        overspent: one explored frame of a heavy scene, or a snapshot copy, can take longer
        than a whole viewer frame)."""
        pb = self.playback
        if pb.explored:
            return
        dt = dt if math.isfinite(dt) and dt > 0 else 0.0
        self.explore_credit = min(self.explore_credit + EXPLORE_SHARE * dt, EXPLORE_SAVED_MAX)
        for _ in range(EXPLORE_PER_TICK):
            if self.explore_credit <= 0.0:
                return
            t0 = self.clock()
            if not pb.explore(1):
                return
            self.explore_credit -= self.clock() - t0

    def _next_marker(self, direction: int) -> float | None:
        """The next hook time from now; forwards, frames not simulated yet are explored
        until one appears or the scenario ends."""
        pb = self.playback
        t = self.tracks.next_marker(pb.time, direction)
        while t is None and direction > 0 and not pb.explored:
            pb.explore(LOAD_FRAMES)
            t = self.tracks.next_marker(pb.time, direction)
        return t

    # -- edits ----------------------------------------------------------------------------
    def _now_t(self) -> float:
        """The current frame's time as a float that the runner applies at this frame
        (never a frame late through float rounding)."""
        from viewer.sim.clock import as_time

        exact = Fraction(self.playback.frame) / as_time(self.scenario.fps)
        t = float(exact)
        while as_time(t) > exact:
            t = math.nextafter(t, -math.inf)
        return t

    def add_event(self, raw: dict, *more: dict) -> None:
        """Append events at the current time (in this order) and re-simulate; a scenario
        that then fails to build is put back as it was."""
        from viewer.sim.scenario import Scenario

        t = self._now_t()
        events = Scenario.from_json({"events": [{"t": t, **r} for r in (raw, *more)]}).events
        before = list(self.scenario.events)
        self.scenario.events.extend(events)
        try:
            self.rebuild()
        except ViewerError:
            self.scenario.events[:] = before
            self.rebuild()
            raise

    def launch(self, cmd: c.LaunchProjectile) -> None:
        """A ``launch`` event (viewer/sim/projectile.py) at the current time, after a
        ``create`` event when the command names a Setup."""
        spec: dict = {}
        if cmd.velocity is not None:
            spec["velocity"] = [float(v) for v in cmd.velocity]
        if cmd.target is not None:
            spec["target"] = [float(v) for v in cmd.target]
            spec["speed"] = float(cmd.speed)
        if cmd.origin is not None:
            spec["from"] = [float(v) for v in cmd.origin]
        spec["intensity"] = json_float(float(cmd.intensity), f64=True)
        events = []
        if cmd.preset is not None:       # the preset launch creates its own projectile
            spec["preset"] = cmd.preset
        elif cmd.setup is not None:
            obj = {"id": cmd.object, "setup": f"0x{cmd.setup:08X}",
                   "position": [float(v) for v in (cmd.origin or (0.0, 0.0, 0.0))]}
            if cmd.table:
                obj["table"] = f"0x{cmd.table:08X}"
            events.append({"object": cmd.object, "create": obj})
        elif cmd.object not in inspect.owners(self.world) and cmd.object not in {
                o.id for o in self.scenario.objects}:
            raise ScenarioError(f"no object {cmd.object} to launch: give a Setup to create")
        events.append({"object": cmd.object, "launch": spec})
        self.add_event(*events)

    def _check_table_has(self, obj_id: int, script_type: int) -> None:
        """A typed effect the object's table lacks plays nothing in retail (the event is
        kept, as retail would do nothing with it): say so instead of staying silent."""
        from viewer.dat.records.common import PlayScript

        table = inspect.script_table(self.world, obj_id)
        keys = set() if table is None else {int(k) for k, _ in table.entries}
        if int(script_type) in keys:
            return
        try:
            name = PlayScript(int(script_type)).name
        except ValueError:
            name = f"type 0x{int(script_type):X}"
        where = ("has no PhysicsScriptTable (the Object panel's Set table gives it one)"
                 if table is None
                 else f"'s PhysicsScriptTable has no {name} entry")
        self.notices.append(ScenarioError(
            f"object {obj_id}{' ' if table is None else ''}{where}: the effect plays nothing "
            f"(the event is kept; retail does the same)",
            did=None if table is None else getattr(table, "did", None)))

    def _say_missing(self, ev: dict) -> None:
        """An absent record (the runtime's ``missing`` event) becomes one notice for the
        Errors panel, the first time this session meets it (every re-simulation of the
        same frames meets it again)."""
        key = (ev.get("what"), ev.get("did"), ev.get("by"))
        if key in self._missing_said:
            return
        self._missing_said.add(key)
        by = ev.get("by")
        named = f", named by {format_did(int(by))}," if by else ""
        self.notices.append(DatError(
            f"{ev.get('what')}{named} is in no open DAT: skipped as retail skips it "
            f"(first needed at {float(ev.get('t', 0.0)):.3f} s)", did=int(ev.get("did", 0))))

    def take_notices(self) -> list[ViewerError]:
        out, self.notices = self.notices, []
        return out

    def _require_object(self, obj_id: int) -> None:
        if obj_id not in {o.id for o in self.scenario.objects}:
            raise ScenarioError(f"no object {obj_id} in the scenario")

    def scenario_to_save(self):
        """The scenario as played: when the DATs in use are not the scenario's own (a DAT
        opened on the command line or from the asset browser), they are written instead,
        as absolute paths, so the saved file opens what was on screen."""
        import copy
        import os
        in_use = [os.path.abspath(p) for p in self.dat_paths]
        own = [os.path.abspath(p) for p in self.scenario.dat_paths()]
        if not in_use or in_use == own:
            return self.scenario
        sc = copy.copy(self.scenario)
        sc.dat = in_use
        return sc

    def load_setup(self, setup: int, table: int | None, *, static: bool = False) -> None:
        """The scene replaced by one object of ``setup``: created as the server creates
        objects (its table ``table``, none when None: set_description 0x00514F40), or with
        ``static`` as landblock data (the Static state bit, as the default scenario's
        lantern: the Setup's table kept, it does not fall)."""
        import copy

        from viewer.sim.scenario import Scenario

        obj = {"id": 1, "setup": f"0x{setup:08X}"}
        if table:
            obj["table"] = f"0x{table:08X}"
        if static:
            obj["state"] = f"0x{STATIC_LOAD_STATE:08X}"
        sc = Scenario.from_json({"dat": list(self.scenario.dat), "seed": self.scenario.seed,
                                 "fps": self.scenario.fps,
                                 "seconds": max(self.scenario.seconds, DEFAULT_SECONDS),
                                 "objects": [obj], "events": []})
        sc.path = self.scenario.path
        old = self.scenario
        if "reference" in old.extra:   # the recording compared stays with the new scene
            sc.extra["reference"] = copy.deepcopy(old.extra["reference"])
        if "loop" in old.extra:        # and so does the scenario's loop
            sc.extra["loop"] = old.extra["loop"]
        loop = self.playback.loop      # the Timeline's Loop as the user left it
        self.scenario = sc
        try:
            self._build(True)
        except ViewerError as err:
            self.scenario = old
            self._build(True)
            # the Setup (or table) asked for, not the scenario file that was open nor its
            # objects[0]: "DID 0x02000999: load Setup 0x02000999: Setup: not found in ..."
            message = err.message.split(": ", 1)[1] if err.message.startswith(
                "objects[0].") else err.message
            raise type(err)(f"load Setup 0x{setup:08X}: {message}", did=err.did,
                            offset=err.offset) from err
        finally:
            self.playback.loop = loop
        self.selected_object = 1

    def set_object_table(self, obj_id: int, table: int | None, setup_default: bool) -> None:
        """An ``objects`` entry's PhysicsScriptTable (viewer/ui/table_chooser.py): a 0x34
        DID, none (``"table": null``), or the Setup's own (``"desc": false``); re-simulated,
        put back as it was when that fails."""
        entry = next((o for o in self.scenario.objects if o.id == obj_id), None)
        if entry is None:
            if obj_id not in inspect.owners(self.world):
                raise ScenarioError(f"no object {obj_id} in the scenario")
            raise ScenarioError(f"object {obj_id} is made by a create event: its table is "
                                f"that event's")
        if table is not None and (int(table) >> 24) != 0x34:
            raise ScenarioError(f"{format_did(int(table))} is not a PhysicsScriptTable "
                                f"(0x34...)", did=int(table))
        before = (entry.table, entry.table_given, dict(entry.extra))
        entry.table = None if table is None else int(table)
        entry.table_given = table is not None or not setup_default or entry.preset is not None
        entry.extra.pop("desc", None)
        if setup_default:
            entry.extra["desc"] = False
        try:
            self.rebuild()
        except ViewerError:
            entry.table, entry.table_given, entry.extra = before
            self.rebuild()
            raise

    def table_choice(self, obj_id: int | None):
        """The Object panel's table chooser for ``obj_id`` (None: no such object)."""
        from viewer.ui.table_chooser import NONE, TableChoice, choice_of

        entry = next((o for o in self.scenario.objects if o.id == obj_id), None)
        if entry is not None:
            if self._tables_of[0] is not self.db:   # listed once per DAT set
                self._tables_of = (self.db, tuple(self.db.dids(0x34)))
            return choice_of(entry, self._setup_table(entry.setup), self._tables_of[1])
        if obj_id in inspect.owners(self.world):   # made by a create event: not edited here
            return TableChoice(obj_id, 0, NONE, 0, False, False, ())
        return None

    def _setup_table(self, setup: int) -> int:
        """A Setup's DefaultPhysicsScriptTable (0 when it has none or cannot be read)."""
        try:
            return int(getattr(self.db.setup(setup), "default_script_table", 0) or 0)
        except ViewerError:
            return 0

    @property
    def modified(self) -> bool:
        """The scenario has edits that were not saved."""
        return self.history.modified

    def _recorded(self, label: str, edit) -> None:
        """Run ``edit`` (which changes the scenario) and record the state before it for
        undo; an edit that raises leaves no history entry (it put the scenario back)."""
        import copy

        before, selected = copy.deepcopy(self.scenario), self.selected_object
        edit()
        self.history.push(before, selected, label)

    def record_setting(self, label: str, edit, *, coalesce: bool = False) -> None:
        """Run ``edit``, which may change what the scenario saves beside its events (the
        ``"reference"`` entry: path, offset, rate, crop); when it did, the state before
        goes on the undo history (the modified mark follows). Nothing is re-simulated:
        these settings do not touch the simulation. ``coalesce``: a drag's edits are one
        undo step (History.push)."""
        import copy

        before, selected = copy.deepcopy(self.scenario), self.selected_object
        edit()
        if self.scenario.extra != before.extra:
            self.history.push(before, selected, label, coalesce=coalesce)

    def _restore(self, state) -> None:
        """Show a state of the history (undo / redo): its scenario, re-simulated, at the
        same frame; a state that differs only in what the simulation never reads (the
        reference recording's settings) keeps the playback as it is."""
        same_run = _simulated(state.scenario) == _simulated(self.scenario)
        self.scenario = state.scenario
        if state.selected_object is not None:
            self.selected_object = state.selected_object
        if not same_run:
            self.rebuild()

    def undo(self) -> bool:
        """Back to the state before the last edit (the history hands over its copy)."""
        state = self.history.undo(self.scenario, self.selected_object)
        if state is not None:
            self._restore(state)
        return state is not None

    def redo(self) -> bool:
        state = self.history.redo(self.scenario, self.selected_object)
        if state is not None:
            self._restore(state)
        return state is not None

    def apply(self, cmd: c.Command) -> None:
        if self._apply_transport(cmd):
            return
        if isinstance(cmd, EDITS):
            self._recorded(edit_label(cmd), lambda: self._apply_edit(cmd))
            return
        match cmd:
            case c.LoadSetup(setup, table, static):
                self._recorded(f"load Setup 0x{setup:08X}{' (static)' if static else ''}",
                               lambda: self.load_setup(setup, table, static=static))
            case c.SetObjectTable(obj_id, table, setup_default):
                self._recorded(f"table of object {obj_id}",
                               lambda: self.set_object_table(obj_id, table, setup_default))
            case c.Undo():
                self.undo()
            case c.Redo():
                self.redo()
            case c.SaveScenario(path):
                from viewer.ui.save_target import shipped
                if shipped(path):   # never into the shipped library, whoever asks
                    raise OutputError("cannot write the scenario: the viewer's own files "
                                      "are read-only (save it elsewhere)", file=str(path))
                self.scenario_to_save().save(path)
                self.history.mark_saved()
                self.file = Path(path)
            case c.Select("object", key):
                self.selected_object = int(key)
            case c.Select("play_script", key):
                self.play_script_type = int(key)
            case c.Select():
                pass
            case _:
                raise ScenarioError(f"the session cannot apply {type(cmd).__name__}")

    def _apply_transport(self, cmd: c.Command) -> bool:
        """Play / pause / step / seek / speed / loop / restart / jump to a hook; False for
        any other command."""
        pb = self.playback
        match cmd:
            case c.Play():
                pb.play()
            case c.Pause():
                pb.pause()
            case c.TogglePlay():
                pb.pause() if pb.playing else pb.play()
            case c.Step(frames):
                pb.step(frames)
            case c.Seek(t):
                pb.pause()
                pb.seek(t)
            case c.SetSpeed(speed):
                pb.set_speed(speed)
            case c.SetLoop(loop):
                pb.loop = bool(loop)
            case c.SetLoopRange(t_in, t_out):
                try:
                    pb.set_loop_range(t_in, t_out)
                except ValueError as err:
                    raise ScenarioError(str(err)) from None
            case c.SetVolume(volume):
                self.sound.set_volume(volume)
            case c.SetMute(muted):
                self.sound.muted = bool(muted)
            case c.Restart():
                pb.pause()
                pb.seek_frame(0)
            case c.JumpHook(direction):
                t = self._next_marker(direction)
                if t is not None:
                    pb.pause()
                    pb.seek(t)
            case _:
                return False
        # a transport change plays nothing itself; playing resumes from this frame
        self.sound.update(pb.frame, pb.fps, playing=False)
        return True

    def _apply_edit(self, cmd: c.Command) -> bool:
        """An edit of a live object, as a scenario event at the current time; False for
        any other command."""
        match cmd:
            case c.PlayScript(obj, script):
                self._require_object(obj)
                self.add_event({"object": obj, "play_script": f"0x{script:08X}"})
            case c.PlayTyped(obj, play, intensity):
                self._require_object(obj)
                self.add_event({"object": obj, "play": play,
                                "intensity": json_float(float(intensity), f64=True)})
                self._check_table_has(obj, self.scenario.events[-1].value)
            case c.SetState(obj, state):
                self._require_object(obj)
                self.add_event({"object": obj, "set_state": f"0x{state & 0xFFFFFFFF:08X}"})
            case c.PlayMotion(obj, motion):
                self._require_object(obj)
                self.add_event({"object": obj, "motion": f"0x{motion:08X}"})
            case c.LaunchProjectile():
                self.launch(cmd)
            case c.EditEvent(index, raw):
                self.edit_event(index, raw)
            case c.DeleteEvent(index):
                self.edit_event(index, None)
            case _:
                return False
        return True

    def edit_event(self, index: int, raw: dict | None) -> None:
        """Replace event ``index`` with ``raw`` (None: delete it) and re-simulate; a
        malformed event (named as ``events[i]...``) or a scenario that then fails to build
        puts everything back as it was."""
        from viewer.sim.scenario import Scenario

        events = self.scenario.events
        if not 0 <= int(index) < len(events):
            raise ScenarioError(f"no event {index} in the scenario ({len(events)} events)")
        if raw is not None and not isinstance(raw, dict):
            raise ScenarioError(f"events[{index}]: an event is a JSON object, not {raw!r}")
        before = list(events)
        if raw is None:
            del events[int(index)]
        else:
            shown = [e.to_json() for e in before]
            shown[int(index)] = dict(raw)
            parsed = Scenario.from_json({"events": shown}).events   # checked as a file is
            events[int(index)] = parsed[int(index)]
        try:
            self.rebuild()
        except ViewerError:
            events[:] = before
            self.rebuild()
            raise


def _simulated(scenario) -> dict:
    """What of a scenario the simulation reads: all of it but the ``"reference"`` entry
    (the recording a comparison shows)."""
    out = scenario.to_json()
    out.pop("reference", None)
    return out


#: a Setup loaded "as a static object": the default scenario's lantern's state (the state
#: CPhysicsObj::CPhysicsObj 0x005123F0 starts with, 0x00400C08, with Static 0x1)
STATIC_LOAD_STATE = 0x00400C09

EDITS = (c.PlayScript, c.PlayTyped, c.SetState, c.PlayMotion, c.LaunchProjectile,
         c.EditEvent, c.DeleteEvent)


def edit_label(cmd: c.Command) -> str:
    """A short name of an edit for the Edit menu ("Undo play_script")."""
    return {c.PlayScript: "play script", c.PlayTyped: "play effect",
            c.SetState: "set state", c.PlayMotion: "motion",
            c.LaunchProjectile: "launch", c.EditEvent: "edit event",
            c.DeleteEvent: "delete event"}.get(type(cmd), type(cmd).__name__)


# --- opening -------------------------------------------------------------------------------
def open_database(paths):
    from viewer.dat.database import AssetDatabase

    paths = [str(p) for p in paths]
    _check_dat_paths(paths)
    return AssetDatabase(paths if len(paths) > 1 else paths[0])


def _check_dat_paths(paths) -> None:
    """Each DAT path names a file or a folder (the retail DAT set in it); a named pipe or a
    device is refused as opening it would be (``viewer.inputs.open_input``), before the
    worker that opens them starts."""
    from viewer.inputs import refuse_non_file
    for p in paths:
        if not os.path.exists(p):
            raise ScenarioError("DAT file or folder not found", file=p)
        refuse_non_file(p, ScenarioError, "DAT")


class SessionPlan:
    """What opening needs, checked first (the scenario read, the DAT paths found): the
    DATs are opened with ``open_database`` (in a worker thread in the window: reading
    their directories takes seconds for a retail portal.dat) and the session is built
    from them with ``session`` (in the frame loop's thread)."""

    def __init__(self, scenario, paths: list[str], builtin: bool) -> None:
        self.scenario = scenario
        self.paths = paths
        self.builtin = builtin

    def open_database(self, progress=None):
        """The DATs, opened; with ``progress(fraction, entries)`` their whole directories
        are read now too (an exception from it stops the reading and closes them)."""
        db = open_database(self.paths)
        if progress is not None:
            read_index(db, progress)
        return db

    def session(self, db, **kwargs) -> Session:
        session = Session(db, self.scenario, dat_paths=self.paths, **kwargs)
        # a folder opened as a DAT set: which retail members it held and which it lacked
        if db.dat_set is not None:
            session.notices += [f.notice() for f in db.dat_set.incomplete()]
        if self.builtin:
            session.file = None   # Save asks for a path: never over the shipped scenario
        return session


def read_index(db, progress) -> None:
    """``db.read_index(progress)``, closing the DATs when it stops early."""
    try:
        db.read_index(progress)
    except BaseException:
        db.close()
        raise


def plan_session(dat=None, scenario=None) -> SessionPlan:
    """The plan for ``dat`` and/or ``scenario`` (the command-line DAT overrides the
    scenario's); with neither, the synthetic default scenario that ships with the viewer
    (a ResourceError naming the missing file when the install lacks it)."""
    from viewer.resources import asset_path
    from viewer.sim.scenario import Scenario
    from viewer.synthetic import DEFAULT_SCENARIO, SYNTHETIC_DAT

    builtin = scenario is None and dat is None
    if builtin:
        asset_path(SYNTHETIC_DAT.name)
        scenario = asset_path(DEFAULT_SCENARIO.name)
    sc = Scenario.load(scenario) if scenario is not None else Scenario(seconds=DEFAULT_SECONDS)
    if dat is None:
        paths = [str(p) for p in sc.dat_paths()]
    else:   # one path, or several (client_portal.dat plus client_highres.dat)
        paths = [str(p) for p in dat] if isinstance(dat, (list, tuple)) else [str(dat)]
    if not paths:
        raise ScenarioError("no DAT given and the scenario lists none",
                            file=None if scenario is None else str(scenario))
    _check_dat_paths(paths)
    return SessionPlan(sc, paths, builtin)


def open_session(dat=None, scenario=None, **kwargs) -> Session:
    """A session for ``dat`` and/or ``scenario`` at once (``plan_session``)."""
    plan = plan_session(dat, scenario)
    return plan.session(plan.open_database(), **kwargs)
