"""Reference recording and comparison (issue 10): the model, the "Reference" panel and the
timeline lane it adds.

``CompareModel`` (GL-free) holds the loaded ``viewer.compare.reference.ReferenceTrack``, the
view mode and its options, and the difference figures of every frame the viewport has shown
(mean absolute difference and SSIM, ``viewer.compare.metrics``). The viewport composite is
``viewer.compare.views.compose`` on the rendered frame and the reference frame at the same
timeline time, cropped and resized to the view: the same function and inputs as the headless
``vfxviewer compare``, so both show the same picture. The track's settings are the scenario's
``"reference"`` entry ({"path", "offset", "rate", "crop"}).
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from viewer import bounds
from viewer.errors import ScenarioError
from viewer.ui import commands as c
from viewer.ui.widgets import (
    button_width,
    checkbox_width,
    same_line_if_fits,
    text_wrapped,
    text_wrapped_disabled,
    tooltip,
)

MODES = ("off", "side_by_side", "overlay", "wipe", "onion", "difference")
MODE_LABELS = {"off": "Off", "side_by_side": "Side by side", "overlay": "Overlay",
               "wipe": "Wipe", "onion": "Onion skin", "difference": "Difference"}
ONION_DEPTH = 3              # earlier rendered frames ghosted in (as vfxviewer compare)
MEASURE_WIDTH = 256          # figures of wider views are measured at this width (SSIM cost)
PLAYING_SHARE = 0.1          # of one core, at most, the figures worker takes while playing


@dataclass(frozen=True)
class ReferenceLane:
    """What the timeline draws for the reference: the span of timeline time the recording
    covers and the figures measured so far ((t, mad, ssim) ascending in t)."""
    start: float
    end: float
    offset: float
    rate: float
    label: str
    figures: tuple[tuple[float, float, float], ...] = ()


def lane_span(offset: float, rate: float, duration: float) -> tuple[float, float]:
    """Timeline times of the recording's first and last frame (t = (rec_t - offset) / rate)."""
    return (-offset / rate, (duration - offset) / rate)


def drag_offset(offset: float, rate: float, dt: float) -> float:
    """Dragging the lane ``dt`` timeline seconds to the right shows each recording frame
    ``dt`` later: the recording time at t = 0 drops by ``dt * rate``."""
    return offset - dt * rate


def aspect_crop(width: int, height: int, aspect: float) -> tuple[int, int, int, int]:
    """The largest centred rectangle of a ``width`` x ``height`` recording with the view's
    ``aspect`` (w / h): the crop that shows the recording unstretched in the viewport."""
    if not (math.isfinite(aspect) and aspect > 0):
        return (0, 0, width, height)
    if width / height > aspect:
        w = max(1, min(width, round(height * aspect)))
        return ((width - w) // 2, 0, w, height)
    h = max(1, min(height, round(width / aspect)))
    return (0, (height - h) // 2, width, h)


def _finite(x: float, what: str) -> float:
    x = float(x)
    if not math.isfinite(x):
        raise ScenarioError(f"{what} must be a finite number, not {x!r}")
    return x


def _entry_mode(entry: dict) -> str | None:
    """A ``"reference"`` entry's view mode (None when it names none)."""
    mode = entry.get("mode")
    if mode is not None and mode not in MODES:
        raise ScenarioError(f"reference.mode: {mode!r} is no comparison view "
                            f"({', '.join(MODES)})")
    return mode


def _bounded(x, what: str, bound) -> float:
    """A number inside its documented range (viewer/bounds.py), as ``vfxviewer compare``'s
    options take it."""
    x = float(x)
    problem = bound.problem(x)
    if problem is not None:
        raise ScenarioError(f"{what}: {problem}")
    return x


@dataclass
class CompareModel:
    track: object | None = None          # viewer.compare.reference.ReferenceTrack
    mode: str = "off"
    opacity: float = 0.5
    split: float = 0.5
    fps: float | None = None             # frame rate of an image-folder recording
    source: str | None = None            # the recording's path as opened (absolute)
    figures: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    capture_path: str | None = None
    capture_events: list[tuple[float, str]] = field(default_factory=list)   # (t, label)
    generation: int = 0                  # bumps when what the figures depend on changes
    _rendered: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _figure_view: dict = field(default_factory=dict, repr=False)   # frame -> its view
    # measure_later: frame -> (generation, t, Future, view) in the one worker thread
    _jobs: dict = field(default_factory=dict, repr=False)
    _worker: object | None = field(default=None, repr=False)
    _rest_until: float = field(default=0.0, repr=False)   # perf_counter (wants_measure)
    # measure_after: (frame, t, generation, fetch) of a view still being read back
    _reading: tuple | None = field(default=None, repr=False)
    # reference_soon: reference_key -> Future in a reader thread of its own
    _ahead: dict = field(default_factory=dict, repr=False)
    _reader: object | None = field(default=None, repr=False)

    # -- the track --------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.track is not None and self.mode != "off"

    def load(self, path: str, fps: float | None = None, *, offset: float = 0.0,
             rate: float = 1.0, crop=None) -> None:
        from viewer.compare.reference import Crop, ReferenceTrack
        if isinstance(crop, (list, tuple)):
            crop = Crop.from_json(crop)
        rate = _bounded(rate, "rate", bounds.REFERENCE_RATE)
        if fps is not None:
            fps = _bounded(fps, "fps", bounds.REFERENCE_FPS)
        self.track = ReferenceTrack.load(
            path, fps=fps, offset=_bounded(offset, "offset", bounds.REFERENCE_OFFSET),
            rate=rate, crop=crop)
        self.fps = fps
        self.source = str(path)
        if self.mode == "off":
            self.mode = "side_by_side"
        self._changed()

    def load_entry(self, entry: dict, base: Path | None = None) -> None:
        """A scenario's ``"reference"`` entry; a relative path is relative to the scenario."""
        if not isinstance(entry, dict) or not entry.get("path"):
            raise ScenarioError("the scenario's \"reference\" entry needs a \"path\"")
        path = Path(str(entry["path"]))
        if not path.is_absolute() and base is not None:
            path = base / path
        fps = entry.get("fps")
        mode = _entry_mode(entry)
        self.load(str(path), None if fps is None else float(fps),
                  offset=float(entry.get("offset", 0.0)), rate=float(entry.get("rate", 1.0)),
                  crop=entry.get("crop"))
        self.track.path = str(entry["path"])   # saved back as written
        if mode is not None:                   # the view it was saved with, Off included
            self.mode = mode

    def follow_entry(self, entry: dict | None, base: Path | None = None) -> None:
        """Put the track as a scenario's ``"reference"`` entry says (None: no recording),
        say after an undo: the same recording keeps its frames and takes the entry's
        offset, rate and crop; another is loaded."""
        if entry is None:
            self.clear()
            return
        track = self.track
        if (track is not None and isinstance(entry, dict) and entry.get("path") == track.path
                and entry.get("fps") == self.fps):
            self.set_offset(float(entry.get("offset", 0.0)))
            self.set_rate(float(entry.get("rate", 1.0)))
            self.set_crop(entry.get("crop"))
            mode = _entry_mode(entry)
            if mode is not None:
                self.set_mode(mode)
            return
        self.load_entry(entry, base)

    def clear(self) -> None:
        self.track = None
        self.source = None
        self.mode = "off"
        self._changed()

    def settings_json(self) -> dict | None:
        """The scenario's ``"reference"`` entry: path, offset, rate, crop, an image
        folder's fps and the view mode (Off included: a reopened scenario shows what was
        saved)."""
        if self.track is None:
            return None
        out = self.track.settings_json()
        if self.fps is not None:
            out["fps"] = self.fps
        out["mode"] = self.mode
        return out

    def require_track(self):
        """The loaded recording; a ScenarioError when there is none."""
        if self.track is None:
            raise ScenarioError("no reference recording loaded")
        return self.track

    def set_offset(self, offset: float) -> None:
        self.require_track().offset = _bounded(offset, "offset", bounds.REFERENCE_OFFSET)
        self._changed()

    def set_rate(self, rate: float) -> None:
        rate = _bounded(rate, "rate", bounds.REFERENCE_RATE)
        self.require_track().rate = rate
        self._changed()

    def set_crop(self, crop) -> None:
        from viewer.compare.reference import Crop
        track = self.require_track()
        if crop is None:
            track.crop = None
        else:
            x, y, w, h = (int(v) for v in crop)
            if w <= 0 or h <= 0:
                raise ScenarioError(f"crop width and height must be positive, not {crop!r}")
            new = Crop(x, y, w, h)
            new.apply(track.frames[0])   # raises MediaError when it misses the recording
            track.crop = new
        self._changed()

    def frame_step(self) -> float:
        """The recording's frame interval (seconds)."""
        times = self.require_track().times
        return float(np.median(np.diff(times))) if len(times) > 1 else 1 / 30

    def step(self, frames: int) -> None:
        """One recording frame later (+1) or earlier (-1) against the timeline."""
        self.set_offset(self.require_track().offset + int(frames) * self.frame_step())

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ScenarioError(f"unknown comparison view {mode!r} ({', '.join(MODES)})")
        if mode != "off":
            self.require_track()
        if mode != self.mode:
            self.mode = mode
            self.generation += 1    # the scenario's entry takes it (Controller.sync_reference)

    def set_opacity(self, opacity: float) -> None:
        self.opacity = min(max(_finite(opacity, "opacity"), 0.0), 1.0)

    def set_split(self, split: float) -> None:
        self.split = min(max(_finite(split, "split"), 0.0), 1.0)

    def align_on_event(self, capture_t: float, scenario_t: float) -> None:
        from viewer.compare.align import offset_from_event
        track = self.require_track()
        self.set_offset(offset_from_event(_finite(capture_t, "capture time"),
                                          _finite(scenario_t, "scenario time"), track.rate))

    def _changed(self) -> None:
        self.generation += 1
        self.figures.clear()
        self._figure_view.clear()
        self._rendered.clear()

    # -- capture events ---------------------------------------------------------------------
    def set_capture(self, path: str, events: list[dict]) -> None:
        """The PlayScript events (``play`` / ``play_script``) of a replayed capture."""
        out = []
        for ev in events:
            if "play" in ev:
                label = f"object 0x{int(ev['object']):08X} play {ev['play']} @ {ev['intensity']}"
            elif "play_script" in ev:
                label = f"object 0x{int(ev['object']):08X} script {ev['play_script']}"
            else:
                continue
            out.append((float(ev["t"]), label))
        self.capture_path = str(path)
        self.capture_events = out

    # -- frames -----------------------------------------------------------------------------
    def reference_at(self, t: float, size: tuple[int, int]) -> np.ndarray | None:
        """The recording's frame at timeline time ``t`` cropped and resized to ``size``."""
        if self.track is None:
            return None
        return self.track.frame_at(t, size=size)

    def compose(self, rendered: np.ndarray, t: float, frame: int | None = None,
                mode: str | None = None) -> np.ndarray:
        """The comparison view of ``rendered`` (HxWx3|4) at timeline time ``t``: exactly
        ``vfxviewer compare``'s frame (a missing reference frame is black). ``frame``:
        its render-frame number (onion skin ghosts the frames before it)."""
        from viewer.compare.views import compose
        mode = mode or self.mode
        rgb = np.ascontiguousarray(rendered[..., :3])
        ref = self.reference_at(t, (rgb.shape[1], rgb.shape[0]))
        if ref is None:
            ref = np.zeros_like(rgb)
        opts: dict = {}
        if mode == "overlay":
            opts["opacity"] = self.opacity
        elif mode == "wipe":
            opts["split"] = self.split
        elif mode == "onion":
            opts["previous"] = self.previous(frame)
        if frame is not None:
            self.remember(frame, rgb)
        return compose(mode, rgb, ref, **opts)

    def remember(self, frame: int, rgb: np.ndarray) -> None:
        self._rendered[frame] = rgb
        for old in [f for f in self._rendered if f < frame - ONION_DEPTH or f > frame]:
            del self._rendered[old]

    def previous(self, frame: int | None) -> list[np.ndarray]:
        """The rendered frames just before ``frame`` that the view has seen, newest first
        (stopping at the first gap: scrubbing never ghosts unrelated frames)."""
        out = []
        if frame is None:
            return out
        for k in range(1, ONION_DEPTH + 1):
            img = self._rendered.get(frame - k)
            if img is None:
                break
            out.append(img)
        return out

    def measure(self, frame: int, t: float, rendered: np.ndarray, view=None):
        """(mad, ssim) of ``rendered`` against the reference at ``t``, cached per frame
        and ``view`` (what the image was drawn with: the app's camera, size, settings);
        None before / without the recording. Views wider than MEASURE_WIDTH are measured
        at that width (both images resized alike)."""
        if self.track is None:
            return None
        self.collect()
        if self.measured(frame, view):
            return self.figures[frame][1:]
        ref = self.reference_at(t, _measure_size(rendered))
        if ref is None:
            return None
        fig = _figures(rendered, ref)
        self._keep(frame, (float(t), fig["mad"], fig["ssim"]), view)
        return fig["mad"], fig["ssim"]

    def measured(self, frame: int, view=None) -> bool:
        """``frame`` has figures, measured on its image as drawn with ``view``."""
        return frame in self.figures and self._figure_view.get(frame) == view

    def _keep(self, frame: int, figures: tuple, view) -> None:
        self.figures[frame] = figures
        self._figure_view[frame] = view

    def wants_measure(self, frame: int, playing: bool = False, view=None) -> bool:
        """Whether ``frame`` has no figures yet for its image as drawn with ``view`` (a
        camera move or a resize while paused measures the shown frame again), nor a job
        measuring it. While ``playing``
        one frame is measured at a time, and after each the worker rests so that it takes
        at most PLAYING_SHARE of one core: a frame shown meanwhile is left out (measured
        when shown again: the next loop, a step back, pausing on it), so the figures cost
        the frame little however fast frames come. Paused or stepping, every frame shown
        is measured."""
        self.collect()
        if self.track is None or self.measured(frame, view) or frame in self._jobs:
            return False
        return not (playing and (self.measuring or time.perf_counter() < self._rest_until))

    @property
    def measuring(self) -> bool:
        """A frame is being read back or measured (after ``collect``: unfinished jobs)."""
        return self._reading is not None or any(not job[2].done()
                                                for job in self._jobs.values())

    def measure_after(self, frame: int, t: float, fetch, view=None) -> None:
        """``measure_later`` of a view still being read back
        (``viewer.render.framebuffer.PixelReadback``): ``fetch()`` gives the image at the
        next ``collect`` (on the thread that calls it: the GL one), measured as ``frame``'s;
        dropped when the settings change meanwhile."""
        self._take_reading()
        self._reading = (frame, float(t), self.generation, fetch, view)

    def _take_reading(self) -> None:
        if self._reading is None:
            return
        frame, t, gen, fetch, view = self._reading
        self._reading = None
        rendered = fetch()
        if gen == self.generation:
            self.measure_later(frame, t, rendered, view)

    def forget_reading(self) -> None:
        """Drop a read-back not fetched yet (its buffer is going away)."""
        self._reading = None

    def measure_later(self, frame: int, t: float, rendered: np.ndarray, view=None) -> None:
        """``measure`` in a worker thread, so the viewer frame never waits on SSIM: the
        figures land in ``figures`` at a later ``collect``. The worker also reads and
        resizes the reference frame (ReferenceTrack decodes one frame at a time, whichever
        thread asks)."""
        if self.track is None:
            return
        self.collect()
        if self.measured(frame, view) or frame in self._jobs:
            return
        if self._worker is None:
            from concurrent.futures import ThreadPoolExecutor
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="figures",
                                              initializer=_yield_to_the_frame)
        self._jobs[frame] = (self.generation, float(t),
                             self._worker.submit(_measure_job, self.track, float(t), rendered),
                             view)

    def collect(self, wait: bool = False) -> None:
        """Move finished worker figures into ``figures`` (all of them with ``wait``);
        figures measured before a settings change, or before the recording starts, are
        dropped. A read-back handed to ``measure_after`` is fetched and started first."""
        self._take_reading()
        for frame, (gen, t, job, view) in list(self._jobs.items()):
            if not (wait or job.done()):
                continue
            del self._jobs[frame]
            fig, cpu, ended = job.result()
            self._rest_until = max(self._rest_until, ended + cpu * (1 / PLAYING_SHARE - 1))
            if fig is not None and gen == self.generation:
                self._keep(frame, (t, fig["mad"], fig["ssim"]), view)

    def reference_key(self, t: float, size: tuple[int, int]):
        """What the reference frame at ``t`` and ``size`` depends on (None: no track)."""
        if self.track is None:
            return None
        return (self.track.index_at(t), tuple(size), self.generation)

    def reference_soon(self, t: float, size: tuple[int, int], then=None) -> None:
        """Start reading the reference frame at ``t`` (``reference_at``, then ``then`` of
        it when given) in a worker thread: the frame a playing viewer shows next, ready
        when ``reference_ready`` asks with the same ``then``."""
        key = self.reference_key(t, size)
        if key is None or key in self._ahead:
            return
        if self._reader is None:
            from concurrent.futures import ThreadPoolExecutor
            self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reference")
        for old in [k for k, job in self._ahead.items() if job.done()]:
            del self._ahead[old]    # read ahead for a frame that was never shown
        self._ahead[key] = self._reader.submit(_read_reference, self.track, float(t),
                                               tuple(size), then)

    def reference_ready(self, t: float, size: tuple[int, int], then=None):
        """``reference_at`` (and ``then`` of it): what ``reference_soon`` read for this
        frame (waiting for the worker if it is still at it), else read now."""
        job = self._ahead.pop(self.reference_key(t, size), None)
        if job is not None:
            return job.result()
        return _read_reference(self.track, float(t), tuple(size), then)

    def lane(self) -> ReferenceLane | None:
        track = self.track
        if track is None:
            return None
        self.collect()
        start, end = lane_span(track.offset, track.rate, track.duration)
        figs = tuple(self.figures[f] for f in sorted(self.figures))
        return ReferenceLane(start, end, track.offset, track.rate,
                             Path(track.path).name or track.path, figs)


WORKER_NICE = 10   # the figures worker's niceness above the viewer's (Linux)


def _yield_to_the_frame() -> None:
    """The figures worker runs at a lower priority than the frame (the UI thread and the
    GL driver's threads): on a machine with few cores SSIM then takes the time the frame
    leaves over instead of stretching it. Linux sets the niceness of one thread by its
    id; elsewhere the worker keeps the process's priority. It also imports what measuring
    needs, so that the first measure's CPU time (which sizes the rest after it) is the
    measure's own."""
    from viewer.compare import metrics
    metrics.ssim(np.zeros((8, 8, 3), np.uint8), np.zeros((8, 8, 3), np.uint8))
    if not sys.platform.startswith("linux"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + WORKER_NICE)
    except OSError:
        pass


def _measure_size(rendered: np.ndarray) -> tuple[int, int]:
    """(w, h) the figures are measured at: the view, or MEASURE_WIDTH wide if wider."""
    h, w = rendered.shape[:2]
    if w > MEASURE_WIDTH:
        return MEASURE_WIDTH, max(1, round(h * MEASURE_WIDTH / w))
    return w, h


def _read_reference(track, t: float, size, then):
    ref = None if track is None else track.frame_at(t, size=size)
    return ref if then is None else then(ref, size)


def _measure_job(track, t: float, rendered: np.ndarray) -> tuple[dict | None, float, float]:
    """The worker's measure: the reference frame at the measure size, then the figures
    (None before the recording starts); with the worker's CPU seconds it took and the
    clock when it ended (what the rest after it is sized by)."""
    cpu = time.thread_time()
    ref = track.frame_at(t, size=_measure_size(rendered))
    fig = None if ref is None else _figures(rendered, ref)
    return fig, time.thread_time() - cpu, time.perf_counter()


def _figures(rendered: np.ndarray, ref: np.ndarray) -> dict[str, float]:
    """MAD and SSIM of ``rendered`` (resized to the reference's size) against ``ref``."""
    from viewer.compare.metrics import frame_figures
    from viewer.compare.reference import resize
    rgb = np.ascontiguousarray(rendered[..., :3])
    if (rgb.shape[1], rgb.shape[0]) != (ref.shape[1], ref.shape[0]):
        rgb = resize(rgb, (ref.shape[1], ref.shape[0]))
    return frame_figures(rgb, ref)


# --- the panel -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReferencePanelView:
    path: str | None
    frames: int
    duration: float
    size: tuple[int, int] | None
    offset: float
    rate: float
    crop: tuple[int, int, int, int] | None
    mode: str
    opacity: float
    split: float
    time: float
    current: tuple[float, float] | None        # (mad, ssim) at the shown frame
    mad_series: tuple[float, ...] = ()
    ssim_series: tuple[float, ...] = ()
    capture_path: str | None = None
    capture_events: tuple[tuple[float, str], ...] = ()
    scenario_events: tuple[tuple[float, str], ...] = ()
    view_aspect: float = 0.0                   # the 3D view's width / height
    source: str | None = None                  # the recording's path as opened


def panel_view(model: CompareModel, time: float, frame: int | None,
               scenario_events=(), view_aspect: float = 0.0,
               view=None) -> ReferencePanelView:
    """What the panel shows; the shown frame's figures only when measured on its image
    as drawn now (``view``: see ``CompareModel.measure``)."""
    track = model.track
    current = None
    if track is not None and frame is not None and model.measured(frame, view):
        current = model.figures[frame][1:]
    figs = [model.figures[f] for f in sorted(model.figures)]
    return ReferencePanelView(
        path=None if track is None else track.path,
        frames=0 if track is None else len(track.frames),
        duration=0.0 if track is None else track.duration,
        size=None if track is None else track.size,
        offset=0.0 if track is None else track.offset,
        rate=1.0 if track is None else track.rate,
        crop=None if track is None or track.crop is None else tuple(track.crop.to_json()),
        mode=model.mode, opacity=model.opacity, split=model.split, time=time,
        current=current, mad_series=tuple(f[1] for f in figs),
        ssim_series=tuple(f[2] for f in figs), capture_path=model.capture_path,
        capture_events=tuple(model.capture_events), scenario_events=tuple(scenario_events),
        view_aspect=float(view_aspect), source=model.source)


def scenario_play_events(scenario) -> list[tuple[float, str]]:
    """(t, label) of the scenario's script events (play_script / play / launch)."""
    out = []
    for ev in scenario.events:
        if ev.kind in ("play_script", "play", "launch"):
            what = f"0x{ev.value:08X}" if ev.kind == "play_script" else ev.kind
            if ev.kind == "play":
                what = f"play {ev.value} @ {ev.intensity:g}"
            out.append((float(ev.t), f"object {ev.object} {what}"))
    return sorted(out)


@dataclass
class ReferencePanelState:
    """UI-only state: text boxes and picks."""
    path: str = ""
    fps: float = 30.0
    capture_path: str = ""
    capture_pick: int = 0
    scenario_pick: int = 0
    crop: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    crop_on: bool = False
    seen_crop: object = "unset"  # the track's crop when the fields were last synced
    seen_source: object = "unset"   # the recording shown when the path field was synced
    capture_start: float = 0.0   # recording time at which the capture's first packet came


def line_up_command(view: ReferencePanelView, state: ReferencePanelState):
    """Line the picked capture event up on the picked scenario event; the capture's times
    count from its first packet, which the recording shows at ``capture_start``."""
    capture_t = view.capture_events[state.capture_pick][0] + float(state.capture_start)
    return c.AlignReferenceOnEvent(capture_t, view.scenario_events[state.scenario_pick][0])


def sync_crop_fields(state: ReferencePanelState, view: ReferencePanelView) -> None:
    """When the track's crop changed elsewhere (loaded, set by a command), the fields
    show it; otherwise they keep what is being typed."""
    if view.crop != state.seen_crop:
        state.seen_crop = view.crop
        state.crop_on = view.crop is not None
        if view.crop is not None:
            state.crop = list(view.crop)


def crop_command(state: ReferencePanelState, view: ReferencePanelView):
    """The crop command the crop widgets ask for, or None when nothing changed."""
    want = tuple(int(v) for v in state.crop) if state.crop_on else None
    if want == view.crop:
        return None
    if want is not None and (want[2] <= 0 or want[3] <= 0):
        return None          # still being typed: wait for a usable rectangle
    return c.SetReferenceCrop(want)


def draw_reference_panel(view: ReferencePanelView, state: ReferencePanelState) -> list:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Reference", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        if view.source != state.seen_source:   # opened elsewhere (a scenario): shown here
            state.seen_source = view.source
            if view.source is not None:
                state.path = view.source
        _draw_load_row(imgui, state, out)
        if view.path is None:
            text_wrapped_disabled(
                imgui, "No recording: a video (MP4, WebM, AVI...) or an image folder.")
            return out
        same_line_if_fits(imgui, button_width(imgui, "Clear"))
        if imgui.button("Clear"):
            out.append(c.ClearReference())
        w, h = view.size
        text_wrapped(imgui, f"{view.path}: {view.frames} frames, {view.duration:.3f} s, "
                           f"{w}x{h}")
        _draw_time_mapping(imgui, view, out)
        _draw_crop(imgui, view, state, out)
        _draw_view_mode(imgui, view, out)
        _draw_figures(imgui, view)
        _draw_capture_alignment(imgui, view, state, out)
    finally:
        imgui.end()
    return out


def _draw_load_row(imgui, state: ReferencePanelState, out: list) -> None:
    imgui.set_next_item_width(-200)
    _, state.path = imgui.input_text("##refpath", state.path)
    imgui.same_line()
    imgui.set_next_item_width(60)
    _, state.fps = imgui.input_float("fps##ref", state.fps, 0, 0, "%.3g")
    imgui.same_line()
    if imgui.button("Load") and state.path.strip():
        out.append(c.LoadReference(state.path.strip(), state.fps if state.fps > 0 else None))


def _draw_time_mapping(imgui, view: ReferencePanelView, out: list) -> None:
    """Offset (drag, one recording frame back / on), rate, Find offset."""
    imgui.set_next_item_width(120)
    changed, offset = imgui.drag_float("offset (s)", view.offset, 0.005, 0.0, 0.0, "%.4f")
    if changed:
        out.append(c.SetReferenceOffset(offset))
    same_line_if_fits(imgui, button_width(imgui, "-1 frame"))
    if imgui.button("-1 frame"):
        out.append(c.StepReference(-1))
    same_line_if_fits(imgui, button_width(imgui, "+1 frame"))
    if imgui.button("+1 frame"):
        out.append(c.StepReference(1))
    imgui.set_next_item_width(120)
    changed, rate = imgui.drag_float("rate", view.rate, 0.001, 0.01, 100.0, "%.4f")
    if changed and rate > 0:
        out.append(c.SetReferenceRate(rate))
    same_line_if_fits(imgui, button_width(imgui, "Find offset"))
    if imgui.button("Find offset"):
        out.append(c.AlignReferenceAuto())
    same_line_if_fits(imgui, button_width(imgui, "by sound"))
    if imgui.button("by sound"):
        out.append(c.AlignReferenceAudio())
    shown = f"recording t = {view.offset + view.time * view.rate:.3f} s"
    same_line_if_fits(imgui, imgui.calc_text_size(shown).x)
    imgui.text_disabled(shown)


def _draw_crop(imgui, view: ReferencePanelView, state: ReferencePanelState,
               out: list) -> None:
    """The crop rectangle of the recording (what the viewport's camera frames)."""
    w, h = view.size
    sync_crop_fields(state, view)
    _, state.crop_on = imgui.checkbox("crop", state.crop_on)
    if view.view_aspect > 0:
        same_line_if_fits(imgui, button_width(imgui, "to the view's aspect", small=True))
        if imgui.small_button("to the view's aspect"):
            state.crop_on = True
            state.crop = list(aspect_crop(w, h, view.view_aspect))
    if state.crop_on:
        same_line_if_fits(imgui, 200)
        imgui.set_next_item_width(-1)
        _, state.crop = imgui.input_int4("##crop", state.crop)
    cmd = crop_command(state, view)
    if cmd is not None:
        out.append(cmd)


def _draw_view_mode(imgui, view: ReferencePanelView, out: list) -> None:
    """The comparison mode, and the overlay's opacity or the wipe's split."""
    for i, mode in enumerate(MODES):
        if i % 3:
            same_line_if_fits(imgui, checkbox_width(imgui, MODE_LABELS[mode]))
        if imgui.radio_button(MODE_LABELS[mode], view.mode == mode) and view.mode != mode:
            out.append(c.SetCompareMode(mode))
    if view.mode == "overlay":
        imgui.set_next_item_width(160)
        changed, o = imgui.slider_float("opacity", view.opacity, 0.0, 1.0)
        if changed:
            out.append(c.SetCompareOpacity(o))
    elif view.mode == "wipe":
        imgui.set_next_item_width(160)
        changed, s = imgui.slider_float("split", view.split, 0.0, 1.0)
        if changed:
            out.append(c.SetWipeSplit(s))


def _draw_figures(imgui, view: ReferencePanelView) -> None:
    if view.current is not None:
        text_wrapped(imgui, f"MAD {view.current[0]:.2f}   SSIM {view.current[1]:.4f}")
    else:
        text_wrapped_disabled(imgui, "MAD / SSIM: shown once the frame is drawn with a "
                                     "reference")
    if len(view.mad_series) > 1:
        imgui.plot_lines("MAD", np.asarray(view.mad_series, np.float32),
                         graph_size=imgui.ImVec2(-40, 40))


def _draw_capture_alignment(imgui, view, state, out) -> None:
    imgui.separator()
    text_wrapped(imgui, "Line up on a PlayScript event of a capture")
    imgui.set_next_item_width(-110)
    _, state.capture_path = imgui.input_text("##cappath", state.capture_path)
    imgui.same_line()
    if imgui.button("Load capture") and state.capture_path.strip():
        out.append(c.LoadCapture(state.capture_path.strip()))
    if not view.capture_events or not view.scenario_events:
        if view.capture_path is not None and not view.capture_events:
            text_wrapped_disabled(imgui, "the capture has no PlayScript events")
        return
    labels = [f"{t:.3f} s {s}" for t, s in view.capture_events]
    state.capture_pick = min(state.capture_pick, len(labels) - 1)
    imgui.set_next_item_width(-60)
    _, state.capture_pick = imgui.combo("capture", state.capture_pick, labels)
    labels = [f"{t:.3f} s {s}" for t, s in view.scenario_events]
    state.scenario_pick = min(state.scenario_pick, len(labels) - 1)
    imgui.set_next_item_width(-60)
    _, state.scenario_pick = imgui.combo("scenario", state.scenario_pick, labels)
    imgui.set_next_item_width(100)
    _, state.capture_start = imgui.input_float("starts at##capture_start",
                                               state.capture_start, 0, 0, "%.3f")
    tooltip(imgui, "where the capture starts in the recording (s)")
    if imgui.button("Line up"):
        out.append(line_up_command(view, state))
