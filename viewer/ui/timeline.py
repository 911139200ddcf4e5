"""Timeline: the tracks the playback clock (``viewer.sim.playback.Playback``) is drawn with.

``TimelineTracks`` is built from the runtime's event log, in the shape of the ``trace``
JSON Lines (docs/cli.md section 5): hook markers per owner and source, emitter lifetime bars
(created, stopped, last particle dead) and CallPES delay windows.

``draw_timeline`` is the ImGui view; it returns commands and holds no state of its own.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field

from viewer.dat.names import hook_type_label_of
from viewer.sim.playback import SPEED_MAX, SPEED_MIN
from viewer.ui import commands as c


# --- tracks ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Marker:
    t: float
    owner: int
    source: int           # PhysicsScript or Animation DID
    index: int            # position in the runtime's hook order
    type: str             # hook type name (CreateParticle, CallPES, ...)


@dataclass
class EmitterBar:
    handle: int
    owner: int
    info: int
    logical_id: int
    part: int
    created: float
    stopped: float | None = None
    finished: float | None = None    # last particle dead / destroyed

    def end(self, duration: float) -> float:
        return self.finished if self.finished is not None else duration


@dataclass(frozen=True)
class PesWindow:
    """A CallPES hook: the called script is played ``delay`` seconds after the hook (the
    runtime rolls the delay in [0, pause]; the ``callpes`` event carries it)."""
    t: float
    owner: int
    pes_id: int
    delay: float

    @property
    def end(self) -> float:
        return self.t + self.delay


@dataclass
class TimelineTracks:
    markers: list[Marker] = field(default_factory=list)
    bars: dict[int, EmitterBar] = field(default_factory=dict)
    pes_windows: list[PesWindow] = field(default_factory=list)
    # (t, action, owner, DID)
    scripts: list[tuple[float, str, int, int]] = field(default_factory=list)
    # (t, owner, state, hidden)
    states: list[tuple[float, int, int, bool]] = field(default_factory=list)
    # the marker lanes and each lane's markers, kept until the markers change (the
    # timeline draws them every frame; hundreds of emitters give thousands of markers)
    _lane_cache: tuple | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def from_events(cls, events) -> TimelineTracks:
        """``events``: trace-shaped dicts in the order they happened."""
        tracks = cls()
        tracks.extend(events)
        return tracks

    def extend(self, events) -> None:
        """Add the events of the next frames simulated (in the order they happened)."""
        markers = self.markers
        first_new = len(markers)
        for ev in events:
            kind = ev.get("event")
            t = float(ev.get("t", 0.0))
            if kind == "hook":
                markers.append(Marker(t, int(ev.get("owner", 0)), _did(ev.get("source")),
                                      int(ev.get("index", -1)), str(ev.get("type", "?"))))
            elif kind == "callpes":
                self.pes_windows.append(PesWindow(t, int(ev.get("owner", 0)),
                                                  _did(ev.get("script")),
                                                  float(ev.get("delay", 0.0))))
            elif kind == "emitter":
                handle = int(ev.get("handle", -1))
                action = ev.get("action")
                if action in ("created", "replaced"):
                    self.bars[handle] = EmitterBar(
                        handle, int(ev.get("owner", 0)), _did(ev.get("info")),
                        int(ev.get("logical_id", 0)), int(ev.get("part", -1)), t)
                elif handle in self.bars:
                    bar = self.bars[handle]
                    if action == "stopped" and bar.stopped is None:
                        bar.stopped = t
                    elif action in ("finished", "destroyed") and bar.finished is None:
                        bar.finished = t
                        if bar.stopped is None:
                            bar.stopped = t
            elif kind == "state":
                self.states.append((t, int(ev.get("owner", 0)), _did(ev.get("state")),
                                    bool(ev.get("hidden"))))
            elif kind == "script":
                self.scripts.append((t, str(ev.get("action")), int(ev.get("owner", 0)),
                                     _did(ev.get("script"))))
        if len(markers) > first_new:   # as one stable sort of them all would order them
            markers[first_new:] = sorted(markers[first_new:], key=lambda m: m.t)
            if first_new and markers[first_new].t < markers[first_new - 1].t:
                markers.sort(key=lambda m: m.t)

    def marker_times(self) -> list[float]:
        return sorted({m.t for m in self.markers})

    def next_marker(self, t: float, direction: int, eps: float = 1e-9) -> float | None:
        """The nearest hook time strictly after (+1) or before (-1) ``t``."""
        times = self.marker_times()
        if direction > 0:
            i = bisect.bisect_right(times, t + eps)
            return times[i] if i < len(times) else None
        i = bisect.bisect_left(times, t - eps)
        return times[i - 1] if i > 0 else None

    def lanes(self) -> list[tuple[int, int]]:
        """(owner, source) pairs with markers, in first-seen order: one row each."""
        return list(self.lane_markers())

    def lane_markers(self) -> dict[tuple[int, int], list[Marker]]:
        """Each lane's markers (in marker order), lanes in first-seen order; rebuilt only
        when the marker list changed (``extend`` appends; the key is its length and last
        marker)."""
        markers = self.markers
        key = (len(markers), id(markers), markers[-1] if markers else None)
        if self._lane_cache is not None and self._lane_cache[0] == key:
            return self._lane_cache[1]
        by_lane: dict[tuple[int, int], list[Marker]] = {}
        for m in markers:
            by_lane.setdefault((m.owner, m.source), []).append(m)
        self._lane_cache = (key, by_lane)
        return by_lane


def _did(value) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return int(value, 16) if value.lower().startswith("0x") else int(value)
    return int(value)


# --- view -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TimelineView:
    """What the timeline panel shows."""
    time: float
    frame: int
    total_frames: int
    fps: float
    playing: bool
    speed: float
    loop: bool
    tracks: TimelineTracks | None = None
    reference: object | None = None     # viewer.ui.compare_panel.ReferenceLane
    sounds: list | None = None          # viewer.sim.mixer.VoiceSpan: the sound lane
    volume: float = 1.0                 # master volume (viewer.audio_out.SoundPlayer)
    muted: bool = False
    # the emitter debugger's counts over time (emitter_plot.draw_counts_plot bound to the
    # emitters shown), drawn above the tracks on the timeline's time axis; None: none
    counts: object | None = None
    # the scenario's events (viewer/ui/events_panel.EventMarks: times, flagged for a nan
    # play, labels on demand), marked on the events lane; None: no lane
    events: object | None = None
    # the loop range's in / out points (seconds; None: the scenario's start / end)
    loop_in: float | None = None
    loop_out: float | None = None

    @property
    def duration(self) -> float:
        return self.total_frames / self.fps if self.fps else 0.0


def transport_commands(*, play_pressed=False, pause_pressed=False, step_back=False,
                       step_fwd=False, prev_hook=False, next_hook=False, restart=False,
                       scrub_to: float | None = None, speed: float | None = None,
                       loop: bool | None = None, view: TimelineView | None = None,
                       volume: float | None = None, muted: bool | None = None,
                       loop_range: tuple | None = None) -> list[c.Command]:
    """Pure mapping from the panel's widget results to commands (tested without GL)."""
    out: list[c.Command] = []
    if restart:
        out.append(c.Restart())
    if play_pressed:
        out.append(c.Play())
    if pause_pressed:
        out.append(c.Pause())
    if step_back:
        out.append(c.Step(-1))
    if step_fwd:
        out.append(c.Step(1))
    if prev_hook:
        out.append(c.JumpHook(-1))
    if next_hook:
        out.append(c.JumpHook(1))
    if scrub_to is not None and (view is None or abs(scrub_to - view.time) > 1e-9):
        out.append(c.Seek(float(scrub_to)))
    if speed is not None and (view is None or speed != view.speed):
        out.append(c.SetSpeed(float(speed)))
    if loop is not None and (view is None or loop != view.loop):
        out.append(c.SetLoop(bool(loop)))
    if volume is not None and (view is None or volume != view.volume):
        out.append(c.SetVolume(float(volume)))
    if muted is not None and (view is None or muted != view.muted):
        out.append(c.SetMute(bool(muted)))
    if loop_range is not None:
        out.append(c.SetLoopRange(*loop_range))
    return out


def loop_range_at(view: TimelineView, which: str) -> tuple:
    """The loop range the In / Out / Clear buttons ask for: ``in`` or ``out`` at the time
    shown (an in after the out, or an out before the in, drops the other), ``clear``."""
    t_in, t_out = view.loop_in, view.loop_out
    if which == "in":
        t_in = view.time
        if t_out is not None and t_out <= t_in:
            t_out = None
    elif which == "out":
        t_out = view.time
        if t_in is not None and t_in >= t_out:
            t_in = None
    else:
        t_in = t_out = None
    return t_in, t_out


def draw_timeline(view: TimelineView | None) -> list[c.Command]:
    from imgui_bundle import imgui

    visible, _ = imgui.begin("Timeline", None, imgui.WindowFlags_.horizontal_scrollbar)
    out: list[c.Command] = []
    try:
        if not visible:
            return out
        if view is None:
            imgui.text_disabled("Nothing loaded: open a DAT and load a Setup or a scenario.")
            return out
        res = {}
        res["restart"] = imgui.button("|<")
        imgui.same_line()
        res["step_back"] = imgui.button("<|")
        imgui.same_line()
        if view.playing:
            res["pause_pressed"] = imgui.button("Pause")
        else:
            res["play_pressed"] = imgui.button("Play ")
        imgui.same_line()
        res["step_fwd"] = imgui.button("|>")
        imgui.same_line()
        res["prev_hook"] = imgui.button("<H")
        imgui.same_line()
        res["next_hook"] = imgui.button("H>")
        imgui.same_line()
        changed, loop = imgui.checkbox("Loop", view.loop)
        if changed:
            res["loop"] = loop
        _draw_loop_range(imgui, view, res)
        imgui.same_line()
        imgui.set_next_item_width(110)
        changed, speed = imgui.slider_float("Speed", view.speed, SPEED_MIN, SPEED_MAX,
                                            "%.2fx", imgui.SliderFlags_.logarithmic)
        if changed:
            res["speed"] = speed
        imgui.same_line()
        _draw_sound_controls(imgui, view, res)
        imgui.same_line()
        imgui.text(f"{view.time:7.3f} s / {view.duration:.3f} s  frame {view.frame}"
                   f"/{view.total_frames} @ {view.fps:g} fps")
        imgui.set_next_item_width(-1)
        changed, t = imgui.slider_float("##scrub", view.time, 0.0, max(view.duration, 1e-6),
                                        "%.3f s")
        if changed:
            res["scrub_to"] = t
        out = transport_commands(view=view, **res)
        if view.reference is not None:   # above the tracks, which take the rest
            out.extend(_draw_reference(imgui, view))
        if view.counts is not None:
            view.counts(view.duration)
        if view.tracks is not None:
            scrub, extra = _draw_tracks(imgui, view)
            if scrub is not None:
                out.append(c.Seek(scrub))
            out.extend(extra)
    finally:
        imgui.end()
    return out


def _draw_loop_range(imgui, view: TimelineView, res: dict) -> None:
    """In / Out: the loop range's points at the time shown (markers on the tracks);
    x clears them."""
    for which, label, tip in (("in", "In", "loop from here"), ("out", "Out", "loop to here"),
                              ("clear", "x##loopclear", "loop the whole scenario")):
        if which == "clear" and view.loop_in is None and view.loop_out is None:
            continue
        imgui.same_line()
        if imgui.small_button(label):
            res["loop_range"] = loop_range_at(view, which)
        if imgui.is_item_hovered():
            imgui.set_tooltip(tip)


def _draw_sound_controls(imgui, view: TimelineView, res: dict) -> None:
    """Mute and the master volume (the sounds the playback plays, viewer.audio_out)."""
    changed, muted = imgui.checkbox("Mute", view.muted)
    if changed:
        res["muted"] = muted
    imgui.same_line()
    imgui.set_next_item_width(80)
    changed, volume = imgui.slider_float("Vol", view.volume, 0.0, 1.0, "%.2f")
    if changed:
        res["volume"] = volume


# --- the reference recording's lane and the difference plot (issue 10) ----------------------
REF_ROW_H = 14.0
PLOT_H = 40.0
MAD_COLOUR = (1.0, 0.6, 0.2, 1.0)
SSIM_COLOUR = (0.4, 0.85, 1.0, 1.0)
_ref_drag: dict[str, float] = {}    # UI-only: the offset and mouse x when a lane drag began


def figure_polylines(figures, duration: float, x0: float, width: float, y0: float,
                     height: float):
    """Screen points of the difference plot: MAD scaled to its largest value, and
    1 - SSIM on a 0..1 scale; both grow upwards from ``y0 + height``. ``figures`` are
    (t, mad, ssim) ascending in t."""
    dur = max(duration, 1e-6)
    mad_max = max((f[1] for f in figures), default=0.0)
    mad_max = mad_max if mad_max > 0 else 1.0
    mad, dis = [], []
    for t, m, s in figures:
        x = x0 + min(max(t / dur, 0.0), 1.0) * width
        mad.append((x, y0 + height - height * (m / mad_max)))
        dis.append((x, y0 + height - height * min(max(1.0 - s, 0.0), 1.0)))
    return mad, dis, mad_max


def _draw_reference(imgui, view: TimelineView) -> list[c.Command]:
    """The recording as a bar over the span of timeline it covers (drag it to change the
    offset) and the per-frame MAD / 1 - SSIM plot of the frames measured so far."""
    from viewer.ui.compare_panel import drag_offset

    lane = view.reference
    out: list[c.Command] = []
    dur = max(view.duration, 1e-6)
    label_w = 150.0
    origin = imgui.get_cursor_screen_pos()
    width = max(imgui.get_content_region_avail().x - label_w, 10.0)
    dl = imgui.get_window_draw_list()

    def x_of(t):
        return origin.x + label_w + min(max(t / dur, 0.0), 1.0) * width

    def col(rgba):
        return imgui.get_color_u32(imgui.ImVec4(*rgba))

    y = origin.y
    dl.add_text(imgui.ImVec2(origin.x, y), col((0.85, 0.85, 0.85, 1)),
                f"ref {lane.label[:16]}")
    if lane.end > 0 and lane.start < dur:
        dl.add_rect_filled(imgui.ImVec2(x_of(lane.start), y + 2),
                           imgui.ImVec2(max(x_of(lane.end), x_of(lane.start) + 2),
                                        y + REF_ROW_H - 2),
                           col((0.75, 0.55, 0.95, 0.9)))
    y += REF_ROW_H
    dl.add_text(imgui.ImVec2(origin.x, y), col(MAD_COLOUR), "MAD")
    dl.add_text(imgui.ImVec2(origin.x, y + 14), col(SSIM_COLOUR), "1 - SSIM")
    dl.add_rect(imgui.ImVec2(origin.x + label_w, y), imgui.ImVec2(origin.x + label_w + width,
                                                                  y + PLOT_H),
                col((0.4, 0.4, 0.4, 1.0)))
    mad, dis, mad_max = figure_polylines(lane.figures, dur, origin.x + label_w, width, y,
                                         PLOT_H)
    for points, rgba in ((mad, MAD_COLOUR), (dis, SSIM_COLOUR)):
        for (xa, ya), (xb, yb) in itertools.pairwise(points):
            dl.add_line(imgui.ImVec2(xa, ya), imgui.ImVec2(xb, yb), col(rgba), 1.5)
        if len(points) == 1:
            dl.add_circle_filled(imgui.ImVec2(*points[0]), 2.0, col(rgba))
    if mad:
        dl.add_text(imgui.ImVec2(origin.x + 70, y), col((0.6, 0.6, 0.6, 1)), f"{mad_max:.1f}")
    y += PLOT_H
    xp = x_of(view.time)
    dl.add_line(imgui.ImVec2(xp, origin.y), imgui.ImVec2(xp, y), col((1.0, 1.0, 1.0, 0.9)), 1.5)
    imgui.invisible_button("##ref_lane", imgui.ImVec2(label_w + width, REF_ROW_H))
    mouse = imgui.get_io().mouse_pos
    if imgui.is_item_activated():
        _ref_drag.update(offset=lane.offset, x=mouse.x)
    if imgui.is_item_active() and "x" in _ref_drag:
        dt = (mouse.x - _ref_drag["x"]) / width * dur
        new = drag_offset(_ref_drag["offset"], lane.rate, dt)
        if abs(new - lane.offset) > 1e-9:
            out.append(c.SetReferenceOffset(new))
    elif imgui.is_item_hovered():
        imgui.set_tooltip(f"recording {lane.label}: offset {lane.offset:.4f} s, rate "
                          f"{lane.rate:g}; covers {lane.start:.3f} .. {lane.end:.3f} s "
                          "(drag to move)")
    if imgui.is_item_deactivated():
        _ref_drag.clear()
    imgui.invisible_button("##ref_plot", imgui.ImVec2(label_w + width, PLOT_H))
    if imgui.is_item_hovered() and lane.figures:
        t_mouse = min(max((mouse.x - origin.x - label_w) / width, 0.0), 1.0) * dur
        near = min(lane.figures, key=lambda f: abs(f[0] - t_mouse))
        imgui.set_tooltip(f"{near[0]:.3f} s  MAD {near[1]:.2f}  SSIM {near[2]:.4f}")
    if imgui.is_item_active():
        t_mouse = min(max((mouse.x - origin.x - label_w) / width, 0.0), 1.0) * dur
        if abs(t_mouse - view.time) >= 0.5 / max(view.fps, 1):
            out.append(c.Seek(t_mouse))
    return out


_HOOK_COLOURS = {
    "CreateParticle": (1.0, 0.75, 0.2, 1.0), "DestroyParticle": (1.0, 0.35, 0.3, 1.0),
    "StopParticle": (0.95, 0.5, 0.25, 1.0), "CallPES": (0.5, 0.8, 1.0, 1.0),
}
_DEFAULT_HOOK_COLOUR = (0.8, 0.8, 0.8, 1.0)


def track_rows(tracks: TimelineTracks, events=None) -> list[tuple[str, object]]:
    """The rows the track area draws, top to bottom: ("events", marks) when the scenario
    has events, ("lane", (owner, source)) per marker lane, ("bar", EmitterBar) per
    emitter, then ("pes", None) when there are windows."""
    rows: list[tuple[str, object]] = [("events", events)] if events else []
    rows += [("lane", lane) for lane in tracks.lanes()]
    rows += [("bar", bar) for bar in tracks.bars.values()]
    if tracks.pes_windows:
        rows.append(("pes", None))
    if tracks.states:
        rows.append(("state", None))
    return rows


def hit_test(tracks: TimelineTracks, row: tuple[str, object], t: float, tolerance: float
             ) -> tuple[str, list[c.Command]]:
    """What is under the mouse in one row at time ``t`` (``tolerance`` seconds): the
    tooltip text and the commands a click gives (an emitter bar selects its emitter)."""
    kind, key = row
    if kind == "events":
        return "\n".join(key.label(i) for i in key.near(t, tolerance)), []
    if kind == "lane":
        near = [m for m in tracks.markers if (m.owner, m.source) == key
                and abs(m.t - t) <= tolerance]
        if not near:
            return "", []
        lines = [f"{m.t:.3f} s  {hook_type_label_of(m.type)} (hook {m.index} of "
                 f"0x{m.source:08X}, owner {m.owner})"
                 for m in sorted(near, key=lambda m: (abs(m.t - t), m.index))[:6]]
        return "\n".join(lines), []
    if kind == "bar":
        bar = key
        end = "alive" if bar.finished is None else f"last particle dead {bar.finished:.3f} s"
        stop = "" if bar.stopped is None else f", stopped {bar.stopped:.3f} s"
        from viewer.ui.emitters_panel import emitter_id_label
        text = (f"emitter {bar.handle} (id {emitter_id_label(bar.logical_id)}) "
                f"0x{bar.info:08X} owner "
                f"{bar.owner} part {bar.part}: created {bar.created:.3f} s{stop}, {end}")
        return text, [c.Select("emitter", bar.handle)]
    if kind == "pes":
        near = [w for w in tracks.pes_windows if w.t - tolerance <= t <= w.end + tolerance]
        return "\n".join(f"CallPES 0x{w.pes_id:08X} (owner {w.owner}): hook {w.t:.3f} s, "
                         f"plays at {w.end:.3f} s" for w in near), []
    if kind == "state":
        near = [s for s in tracks.states if abs(s[0] - t) <= tolerance]
        return "\n".join(f"{st[0]:.3f} s  owner {st[1]} state 0x{st[2]:08X}"
                         f"{' (hidden)' if st[3] else ''}" for st in near[:6]), []
    return "", []


@dataclass
class _TrackCanvas:
    """Where the track rows are drawn: a label column, then time across ``width``; rows
    outside ``top``..``bottom`` (the child window's visible span, screen y) are skipped,
    which looks the same (the window clips them) and keeps hundreds of emitter rows cheap."""

    imgui: object
    dl: object
    origin: object
    width: float
    dur: float
    top: float = float("-inf")
    bottom: float = float("inf")
    label_w: float = 150.0
    row_h: float = 14.0

    def x_of(self, t: float) -> float:
        return self.origin.x + self.label_w + min(max(t / self.dur, 0.0), 1.0) * self.width

    def col(self, rgba) -> int:
        return self.imgui.get_color_u32(self.imgui.ImVec4(*rgba))

    def label(self, y: float, text: str) -> None:
        self.dl.add_text(self.imgui.ImVec2(self.origin.x, y), self.col((0.85, 0.85, 0.85, 1)),
                         text)

    def rect(self, x0: float, y0: float, x1: float, y1: float, rgba) -> None:
        self.dl.add_rect_filled(self.imgui.ImVec2(x0, y0), self.imgui.ImVec2(x1, y1),
                                self.col(rgba))

    def visible(self, y: float, n: int) -> range:
        """The indices of ``n`` rows starting at ``y`` that overlap the visible span."""
        return visible_rows(y, n, self.row_h, self.top, self.bottom)


def visible_rows(y: float, n: int, row_h: float, top: float, bottom: float) -> range:
    """Rows ``k`` of ``n`` (row ``k`` spans ``y + k * row_h`` .. ``+ row_h``) that overlap
    the span ``top``..``bottom``."""
    if n <= 0 or bottom <= y or top >= y + n * row_h:
        return range(0)
    first = 0 if top <= y else int((top - y) // row_h)
    last = n if bottom == float("inf") else int(-(-(bottom - y) // row_h))
    return range(max(first, 0), min(last, n))


def _draw_tracks(imgui, view: TimelineView) -> tuple[float | None, list[c.Command]]:
    """Marker lanes (one per owner and script), emitter bars, CallPES windows and the
    playhead. Clicking in the track area scrubs there (and selects a clicked emitter bar);
    hovering names what is under the mouse."""
    tracks = view.tracks
    lanes = tracks.lane_markers()
    avail = imgui.get_content_region_avail()
    rows = len(lanes) + len(tracks.bars) + (1 if tracks.pes_windows else 0) + \
        (1 if tracks.states else 0) + (1 if view.sounds else 0) + (1 if view.events else 0)
    height = max(_TrackCanvas.row_h * max(rows, 1) + 6, 24.0)
    imgui.begin_child("tracks", imgui.ImVec2(0, min(height, max(avail.y, 24.0))))
    try:
        top = imgui.get_window_pos().y
        cv = _TrackCanvas(imgui, imgui.get_window_draw_list(), imgui.get_cursor_screen_pos(),
                          max(imgui.get_content_region_avail().x - _TrackCanvas.label_w, 10.0),
                          max(view.duration, 1e-6), top, top + imgui.get_window_height())
        y = _draw_event_lane(cv, view.events, cv.origin.y)
        y = _draw_marker_lanes(cv, lanes, y)
        y = _draw_emitter_bars(cv, tracks.bars, y)
        y = _draw_pes_and_states(cv, tracks, y)
        y = _draw_sound_lane(cv, view.sounds or (), y)
        _draw_loop_marks(cv, view, y)
        xp = cv.x_of(view.time)
        cv.dl.add_line(imgui.ImVec2(xp, cv.origin.y), imgui.ImVec2(xp, y),
                       cv.col((1.0, 1.0, 1.0, 0.9)), 1.5)
        return _track_mouse(cv, view, y)
    finally:
        imgui.end_child()


EVENT_COLOUR = (0.95, 0.95, 0.95, 1.0)
FLAGGED_EVENT_COLOUR = (1.0, 0.6, 0.3, 1.0)   # a nan play: retail plays nothing for it
LOOP_IN_COLOUR = (0.4, 1.0, 0.5, 1.0)
LOOP_OUT_COLOUR = (1.0, 0.4, 0.4, 1.0)


def _draw_event_lane(cv: _TrackCanvas, events, y: float) -> float:
    """One row: a diamond per scenario event (orange for a non-finite intensity), one per
    pixel column and kind (a million events draw as many diamonds as fit)."""
    if not events:
        return y
    cv.label(y, "events")
    ImVec2 = cv.imgui.ImVec2
    mid = y + cv.row_h / 2
    x0 = cv.origin.x + cv.label_w
    for column, flagged in events.columns(cv.width, cv.dur):
        x = x0 + column
        col = cv.col(FLAGGED_EVENT_COLOUR if flagged else EVENT_COLOUR)
        cv.dl.add_quad_filled(ImVec2(x, mid - 5), ImVec2(x + 4, mid), ImVec2(x, mid + 5),
                              ImVec2(x - 4, mid), col)
    return y + cv.row_h


def _draw_loop_marks(cv: _TrackCanvas, view: TimelineView, bottom: float) -> None:
    """The loop range: its in (green) and out (red) lines over every row, the span
    outside it dimmed."""
    ImVec2 = cv.imgui.ImVec2
    top = cv.origin.y
    for t, col, outside in ((view.loop_in, LOOP_IN_COLOUR, 0.0),
                            (view.loop_out, LOOP_OUT_COLOUR, cv.dur)):
        if t is None:
            continue
        x = cv.x_of(t)
        xo = cv.x_of(outside)
        cv.rect(min(x, xo), top, max(x, xo), bottom, (0.0, 0.0, 0.0, 0.35))
        cv.dl.add_line(ImVec2(x, top), ImVec2(x, bottom), cv.col(col), 2.0)


def _draw_marker_lanes(cv: _TrackCanvas, lanes: dict, y: float) -> float:
    """One row per (owner, script): a tick per hook, coloured by hook type. ``lanes``:
    ``TimelineTracks.lane_markers()``."""
    keys = list(lanes)
    ImVec2 = cv.imgui.ImVec2
    for k in cv.visible(y, len(keys)):
        owner, source = keys[k]
        yk = y + k * cv.row_h
        cv.label(yk, f"{owner}: 0x{source:08X}")
        for m in lanes[keys[k]]:
            x = cv.x_of(m.t)
            cv.dl.add_line(ImVec2(x, yk + 1), ImVec2(x, yk + cv.row_h - 1),
                           cv.col(_HOOK_COLOURS.get(m.type, _DEFAULT_HOOK_COLOUR)), 2.0)
    return y + len(keys) * cv.row_h


def _draw_emitter_bars(cv: _TrackCanvas, bars: dict, y: float) -> float:
    """One row per emitter: created to stopped, then stopped to its last particle dead."""
    rows = cv.visible(y, len(bars))
    if rows:
        shown = list(itertools.islice(bars.values(), rows.start, rows.stop))
        for k, bar in zip(rows, shown):
            yk = y + k * cv.row_h
            cv.label(yk, f"em {bar.handle} 0x{bar.info:08X}")
            x0 = cv.x_of(bar.created)
            x1 = cv.x_of(bar.stopped if bar.stopped is not None else cv.dur)
            x2 = cv.x_of(bar.end(cv.dur))
            cv.rect(x0, yk + 2, max(x1, x0 + 1), yk + cv.row_h - 2, (0.3, 0.7, 0.35, 1))
            if x2 > x1:
                cv.rect(x1, yk + 4, x2, yk + cv.row_h - 4, (0.3, 0.5, 0.35, 0.8))
    return y + len(bars) * cv.row_h


def _draw_pes_and_states(cv: _TrackCanvas, tracks, y: float) -> float:
    """The CallPES delay windows row and the set_state row (Hidden in pink)."""
    if tracks.pes_windows:
        cv.label(y, "CallPES")
        for w in tracks.pes_windows:
            cv.rect(cv.x_of(w.t), y + 3, max(cv.x_of(w.end), cv.x_of(w.t) + 2),
                    y + cv.row_h - 3, (0.5, 0.8, 1.0, 0.6))
        y += cv.row_h
    if tracks.states:
        cv.label(y, "set_state")
        for t_state, _, _, hidden in tracks.states:
            x = cv.x_of(t_state)
            cv.rect(x - 2, y + 3, x + 2, y + cv.row_h - 3,
                    (1.0, 0.5, 0.9, 1.0) if hidden else (0.8, 0.8, 1.0, 1.0))
        y += cv.row_h
    return y


def _draw_sound_lane(cv: _TrackCanvas, spans, y: float) -> float:
    """One row: each sound as heard, from its start to its end (or its cut)."""
    if not spans:
        return y
    cv.label(y, "sound")
    for s in spans:
        x0 = cv.x_of(s.start)
        cv.rect(x0, y + 3, max(cv.x_of(s.end), x0 + 2), y + cv.row_h - 3,
                (1.0, 0.85, 0.3, 0.35 + 0.6 * min(s.gain, 1.0)))
    return y + cv.row_h


def _track_mouse(cv: _TrackCanvas, view: TimelineView,
                 y: float) -> tuple[float | None, list[c.Command]]:
    """The track area's button: a tooltip and click commands for what is under the mouse,
    and the scrub time while pressed (None when it is the frame shown)."""
    imgui, tracks, dur = cv.imgui, view.tracks, cv.dur
    extra: list[c.Command] = []
    imgui.invisible_button("##track_area",
                           imgui.ImVec2(cv.label_w + cv.width, max(y - cv.origin.y, 1)))
    mouse = imgui.get_io().mouse_pos
    t_mouse = min(max((mouse.x - cv.origin.x - cv.label_w) / cv.width, 0.0), 1.0) * dur
    if imgui.is_item_hovered():
        rows = track_rows(tracks, view.events)
        index = int((mouse.y - cv.origin.y) // cv.row_h)
        if 0 <= index < len(rows) and mouse.x >= cv.origin.x + cv.label_w:
            text, clicks = hit_test(tracks, rows[index], t_mouse, 4.0 * dur / cv.width)
            if text:
                imgui.set_tooltip(text)
            if imgui.is_item_clicked():
                extra.extend(clicks)
    scrub = None
    if imgui.is_item_active():
        scrub = t_mouse
        if abs(scrub - view.time) < 0.5 / max(view.fps, 1):
            scrub = None
    return scrub, extra
