"""Long work stepped after each frame with a progress bar and Cancel: Capture to a file,
Find offset (lining a recording up by its picture), the audit of the open DATs, and
opening DATs or a scenario (their directories read in a worker thread while the window
keeps drawing).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import moderngl
import numpy as np

from viewer.compare.align import estimate_offset
from viewer.errors import OutputError, ScenarioError
from viewer.media import FrameWriter
from viewer.render.framebuffer import OffscreenTarget
from viewer.ui import commands as c
from viewer.ui.progress import Job, ThreadJob
from viewer.ui.session import plan_session, read_index
from viewer.wire.replay import replay_events


class LongWork:
    """The queue of long work (``ViewerApp.jobs``): one ``progress.Job`` at a time, stepped
    for ``job_budget`` seconds after each frame (None: run to the end at once, as headless
    runs do)."""

    def __init__(self, app) -> None:
        self.app = app
        self.job: Job | ThreadJob | None = None
        self.job_budget: float | None = None
        self.stepping = False

    def run(self) -> None:
        """Start queued Capture / Find offset work as a progress.Job and step it for
        ``job_budget`` seconds (None: to the end at once, as headless runs do)."""
        exports = self.app.controller.view.export_requests
        self.stepping = True
        try:
            while True:
                if self.job is None:
                    if not exports:
                        return
                    self.job = self._job_for(exports.pop(0))
                job = self.job
                try:
                    if not job.step(self.job_budget):
                        return
                finally:
                    if job.finished:
                        self.job = None
        finally:
            self.stepping = False

    def _job_for(self, cmd) -> Job | ThreadJob:
        if isinstance(cmd, OpenLater):
            return self._open_job(cmd)
        if isinstance(cmd, c.AlignReferenceAuto):
            return Job("Find offset", self._align_steps())
        if isinstance(cmd, c.RunAudit):
            s = self.app.session
            return Job("Audit open DATs", self.app.controller.view.audit.steps(
                None if s is None else s.db.collection))
        return Job(f"Capture to {cmd.path}", self._export_steps(cmd))

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            if isinstance(self.job, Job):
                self.app.wiring.capture_state.last = f"{self.job.label}: cancelled"
            self.job = None

    ALIGN_WIDTH = 96

    def _align_steps(self):
        """Render every frame of the scenario small (re-simulated, the current camera) and
        set the offset ``estimate_offset`` finds. A generator of (frames done, total) for a
        progress.Job; closing it early sets nothing and comes back to the frame shown."""
        s = self.app.session
        cmp = self.app.controller.view.compare
        cmp.require_track()
        if s is None:
            raise ScenarioError("nothing loaded to line the recording up with")
        pb = s.playback
        w, h = self.app.scene_view.viewport.size
        size = (self.ALIGN_WIDTH, max(1, round(self.ALIGN_WIDTH * h / max(w, 1))))
        times, frames = [], []
        with _offscreen(self.app.ctx, size) as target, paused_playback(pb):
            for k in range(pb.total_frames + 1):
                pb.seek_frame(k)
                self.app.scene_view.draw(target)
                times.append(pb.time)
                frames.append(target.read_rgba()[..., :3])
                yield k + 1, pb.total_frames + 2
        offset, _ = estimate_offset(np.asarray(times), frames, cmp.track)
        # an edit of the saved reference entry: on the undo history, like a typed offset
        self.app.controller.apply(c.SetReferenceOffset(offset), "Find offset")
        yield pb.total_frames + 2, pb.total_frames + 2

    def _export_steps(self, cmd: c.ExportCapture):
        """Write the 3D view for every render frame in [start, end], re-simulated
        deterministically (Playback.seek_frame), then come back to the frame shown. A
        generator of (frames done, total) for a progress.Job; closing it early removes the
        half-written file."""
        s = self.app.session
        if s is None:
            raise ScenarioError("nothing loaded to capture")
        pb = s.playback
        cmp = self.app.controller.view.compare
        with_compare = cmd.compare and cmp.track is not None
        first = min(max(math.floor(cmd.start * pb.fps + 1e-9), 0), pb.total_frames)
        end = pb.duration if cmd.end is None else cmd.end
        last = min(max(math.floor(end * pb.fps + 1e-9), first), pb.total_frames)
        size = self.app.scene_view.viewport.size
        if cmd.window:
            size = (int(self.app.display_size[0] * self.app.fb_scale),
                    int(self.app.display_size[1] * self.app.fb_scale))
        transparent = cmd.transparent and not with_compare and not cmd.window
        with _offscreen(self.app.ctx, size) as target, paused_playback(pb):
            try:  # a path under a file, a read-only folder: one line naming it
                writer = FrameWriter(cmd.path, fps=pb.fps, transparent=transparent)
            except OSError as err:
                raise _unwritable(cmd.path, err) from None
            try:
                for k in range(first, last + 1):
                    pb.seek_frame(k)
                    if writer.wants(k == last):   # a .png keeps only the last frame
                        writer.write(self._export_image(cmd, target, k, transparent,
                                                        with_compare))
                    yield k - first + 1, last - first + 1
                if writer.kind == "video":   # the sound of the frames written
                    writer.set_audio(s.sound_track(first / pb.fps, (last - first + 1) / pb.fps),
                                     s.sound.mixer.sample_rate)
                out = writer.close()
            except BaseException as err:
                writer.abort()
                if isinstance(err, OSError):  # a full device, a folder removed meanwhile
                    raise _unwritable(cmd.path, err) from None
                raise
        self.app.wiring.capture_state.last = f"wrote {last - first + 1} frame(s) to {out}"

    def _export_image(self, cmd: c.ExportCapture, target: OffscreenTarget, k: int,
                      transparent: bool, with_compare: bool) -> np.ndarray:
        """Render frame ``k`` (the playback is there) for an export: one whole viewer frame
        (``cmd.window``; ImGui's frame has ended here), or the 3D view, composed with the
        recording when asked."""
        if cmd.window:
            self.app.frame(1e-6, target=target.fbo, framebuffer_scale=self.app.fb_scale)
            return target.read_rgba()
        self.app.scene_view.draw(target, transparent=transparent)
        image = target.read_rgba()
        if with_compare:
            pb, cmp = self.app.session.playback, self.app.controller.view.compare
            cmp.measure(k, pb.time, image)
            image = cmp.compose(image, pb.time, k)
        return image

    def open(self, kind: str, value):
        """Controller hook for commands that replace the session: the scenario is read and
        the DATs found now (a bad path fails here); in the window (``job_budget`` set)
        the DATs' directories are then read in a worker thread with a progress bar and
        Cancel (``open_later``) and the session shown stays until that ends, headless
        the new session is opened at once."""
        plan = plan_session(list(value), None) if kind == "dat" else plan_session(None, value)
        if self.job_budget is not None:
            self.open_later(plan, kind, value)
            return self.app.session
        return self.opened(kind, value, plan.session(plan.open_database()))

    def open_later(self, plan, kind: str, value, db=None, play: bool = True) -> None:
        """Open ``plan``'s DATs (``db``: already open, as at startup) and read their
        directories as long work after this frame (``OpenLater``), then replace the
        session; Cancel leaves the current one (or none) in place."""
        self.app.controller.view.export_requests.append(OpenLater(plan, kind, value, db, play))

    def _open_job(self, req: OpenLater) -> ThreadJob:
        """The worker reads the directories (viewer.dat reports its progress through a
        callback), the frame loop's thread builds the session from them."""
        def work(report):
            def progress(fraction: float, entries: int) -> None:
                report(round(fraction * 1000), 1000, f"{entries} files, {fraction:.0%}")
            if req.db is None:
                return req.plan.open_database(progress)
            read_index(req.db, progress)
            return req.db

        def done(db) -> None:
            self.app.session = self.opened(req.kind, req.value, req.plan.session(db), req.play)

        names = ", ".join(Path(p).name for p in req.plan.paths)
        return ThreadJob(f"Opening {names}: reading the directory", work, on_done=done,
                         discard=lambda db: db.close())

    def opened(self, kind: str, value, session, play: bool = True):
        """A newly opened session becomes the one shown; what opening it noticed (a folder
        lacking members of the retail DAT set) goes to the Errors panel with a notice."""
        context = {"dat": "Open DAT", "scenario": "Load scenario"}.get(kind, "Open")
        for notice in session.take_notices():
            self.app.controller.errors.report(notice, context)
        if kind == "dat":
            for p in value:
                self.app.prompts.recent.add(str(p))
        elif kind == "scenario":
            # as at startup: playing, and the camera frames the scenario's objects
            if play:
                session.playback.play()
            bounds = session.scene_bounds()
            if bounds is not None:
                view = self.app.controller.view
                view.camera = view.camera.framed(*bounds)
            self.app.prompts.recent_dirs.add(str(Path(value).resolve().parent))
        elif play:   # "startup": the command line's DAT and scenario
            session.playback.play()
        self.app.session = session
        return session


@dataclass(frozen=True)
class OpenLater:
    """A queued open (ViewerApp.open_later): run as long work after the frame."""
    plan: object          # viewer.ui.session.SessionPlan
    kind: str             # "dat", "scenario" or "startup"
    value: object
    db: object = None     # the DATs, already open (startup checks them before the window)
    play: bool = True


def capture_events(path) -> list[dict]:
    """The object events of a packet capture (viewer.wire.replay) for lining a recording up
    on a PlayScript."""
    return replay_events(path)["events"]


@contextmanager
def paused_playback(pb) -> Iterator:
    """Pause ``pb`` for a re-simulating walk over its frames (the body seeks where it
    likes), then come back to the frame shown, and to playing if it was."""
    here, playing = pb.frame, pb.playing
    pb.pause()
    try:
        yield pb
    finally:
        pb.seek_frame(here)
        pb.playing = playing


@contextmanager
def _offscreen(ctx: moderngl.Context, size) -> Iterator[OffscreenTarget]:
    """A scratch offscreen target, released on the way out."""
    target = OffscreenTarget(ctx, size)
    try:
        yield target
    finally:
        target.release()


def _unwritable(path, err: OSError) -> OutputError:
    """An export's OSError as the one-line OutputError naming the path (not an
    InternalError in the Errors panel)."""
    up = Path(path).absolute().parent
    while not up.exists() and up != up.parent:
        up = up.parent
    why = f"{up} is not a folder" if not up.is_dir() else (err.strerror or str(err))
    return OutputError(f"cannot write the capture: {why}", file=str(path))
