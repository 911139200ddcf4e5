"""The one place where panel commands change anything.

``Controller.apply(command)`` updates the view state (camera, bookmarks, selection,
inspector intensity) and forwards timeline / scenario commands to the session (the runtime
adapter, ``viewer/ui/session.py``). Every ``ViewerError`` raised while applying goes to the
error log; the viewer keeps running. GL-free, so it is tested directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from viewer.render.camera import Bookmarks, Camera, preset, retail_camera
from viewer.ui import commands as c
from viewer.ui.audit_panel import AuditModel
from viewer.ui.compare_panel import CompareModel
from viewer.ui.emitter_filter import EmitterFilter
from viewer.ui.error_panel import ErrorLog
from viewer.ui.view_options import ViewOptions


@dataclass
class ViewState:
    camera: Camera = field(default_factory=Camera)
    bookmarks: Bookmarks = field(default_factory=Bookmarks)
    selection: tuple[str, object] | None = None     # (kind, key)
    intensity: float = 0.5                           # script table inspector
    screenshot_requests: list[str] = field(default_factory=list)
    export_requests: list = field(default_factory=list)   # long work for the app to run
    compare: CompareModel = field(default_factory=CompareModel)
    audit: AuditModel = field(default_factory=AuditModel)
    emitter_filter: EmitterFilter = field(default_factory=EmitterFilter)   # solo / mute
    options: ViewOptions = field(default_factory=ViewOptions)   # follow, grid, axes, bg


class Controller:
    def __init__(self, view: ViewState | None = None, session=None,
                 errors: ErrorLog | None = None) -> None:
        self.view = view or ViewState()
        self.session = session
        self.errors = errors if errors is not None else ErrorLog()   # (an empty log is falsy)
        # opener(kind, value) -> session: "dat" (paths) or "scenario" (path); set by the app
        self.opener = None
        # capture_reader(path) -> replayed capture events (viewer.wire.replay); set by the app
        self.capture_reader = None
        # before_replacing(command) -> bool: asked before Open DAT / Load scenario replace
        # the session; False holds the command back (the app asks about unsaved changes
        # and applies it again once told to). None: always go on
        self.before_replacing = None
        # the app runs the audit as long work (progress, Cancel); alone it runs at once
        self.audit_later = False
        self._reference_session = None
        self.applied = 0         # commands applied so far (one more before each)
        self._reference_scenario = None
        self._reference_generation = -1

    def apply_all(self, commands, context: str = "") -> None:
        for command in commands:
            self.apply(command, context)

    def apply(self, command: c.Command, context: str = "") -> bool:
        """Apply one command; returns False (and logs) when it failed."""
        self.applied += 1        # anything a command changes is drawn anew (the app's view)
        try:
            self._apply(command)
        except Exception as err:  # noqa: BLE001 - the viewer keeps running on any failure
            self.errors.report(err, context or type(command).__name__)
            return False
        try:
            self.sync_reference()
        except Exception as err:  # noqa: BLE001 - a scenario's recording that fails to load
            self.errors.report(err, "reference")
        return True

    def sync_reference(self) -> None:
        """Keep the reference track and the scenario's ``"reference"`` entry together: a
        newly opened session's entry loads the track (a session without one keeps the
        track shown, unsaved until the next change of it, an undoable edit like any other:
        opening never marks a scenario modified); a scenario the session swaps in (undo,
        redo, a Setup loaded, which carries the entry over) puts the track as its entry
        says, none included; afterwards changes to the track are written back to the entry, so Save
        scenario keeps path, offset, rate and crop. An entry that failed to load stays as
        it was (and is tried once)."""
        s, cmp = self.session, self.view.compare
        if s is None or s.scenario is None:
            return
        swapped = s is self._reference_session and s.scenario is not self._reference_scenario
        if s is not self._reference_session or swapped:
            self._reference_session = s
            self._reference_scenario = s.scenario
            entry = s.scenario.extra.get("reference")
            if (entry or swapped) and cmp.settings_json() != entry:
                self._reference_generation = cmp.generation
                base = s.scenario.path.parent if s.scenario.path is not None else None
                try:
                    cmp.follow_entry(entry, base)
                finally:
                    self._reference_generation = cmp.generation
                return
        if (cmp.generation == self._reference_generation
                and s.scenario is self._reference_scenario):
            return
        self._reference_generation = cmp.generation
        self._reference_scenario = s.scenario
        settings = cmp.settings_json()
        if settings is None:
            s.scenario.extra.pop("reference", None)
        else:
            s.scenario.extra["reference"] = settings

    # ------------------------------------------------------------------------------------
    def _apply(self, cmd: c.Command) -> None:
        """The camera, the compare / reference track and the view's own state first; any
        other command is the session's (timeline, scenario edits). A change of the
        recording the scenario saves (path, offset, rate, crop) is a scenario edit: it goes
        on the session's undo history and sets the modified mark."""
        if (isinstance(cmd, (c.OpenDat, c.LoadScenario)) and self.before_replacing is not None
                and not self.before_replacing(cmd)):
            return
        label = REFERENCE_EDITS.get(type(cmd))
        if label is not None and self.session is not None:
            def edit():
                self._apply_reference(cmd)
                self.sync_reference()   # the scenario's entry takes the change now
            self.session.record_setting(label, edit, coalesce=isinstance(cmd, COALESCING))
            return
        for handled in (self._apply_camera, self._apply_reference, self._apply_view):
            if handled(cmd):
                return
        if self.session is None:
            raise _no_session(cmd)
        try:
            self.session.apply(cmd)
        finally:
            for notice in self.session.take_notices():
                self.errors.report(notice, type(cmd).__name__)
        if isinstance(cmd, c.LoadSetup):
            # a loaded Setup is framed and followed: with no floor it may fall at once
            self.view.options.follow = True
            bounds = self.session.bounds_of("object", self.session.selected_object)
            if bounds is not None:
                self.view.camera = self.view.camera.framed(*bounds)

    def _apply_camera(self, cmd: c.Command) -> bool:
        v = self.view
        match cmd:
            case c.CameraOrbit(dx, dy):
                v.camera = v.camera.orbit(dx, dy)
            case c.CameraPan(dx, dy, h):
                v.camera = v.camera.pan(dx, dy, h)
            case c.CameraZoom(steps):
                v.camera = v.camera.zoom(steps)
            case c.CameraFly(f, r, u):
                v.camera = v.camera.fly(f, r, u)
            case c.CameraPreset(name):
                v.camera = preset(v.camera, name)
            case c.CameraBookmark(name, save):
                if save:
                    v.bookmarks.save(name, v.camera)
                elif (cam := v.bookmarks.get(name)) is not None:
                    v.camera = cam
            case c.CameraFrameSelected():
                bounds = self._selection_bounds()
                if bounds is not None:
                    v.camera = v.camera.framed(*bounds)
            case c.CameraRetail(obj, in_head):
                v.camera = self._retail_camera(obj, in_head)
            case c.CameraFollow(on):
                v.options.follow = bool(on)
                self.follow_selection()
            case c.CameraFrameAll():
                bounds = None if self.session is None else self.session.scene_bounds()
                if bounds is not None:
                    v.camera = v.camera.framed(*bounds)
            case c.CameraReset():
                v.camera = Camera()
            case c.SetViewLayer(layer, on):
                v.options.set_layer(layer, on)
            case c.SetBackground(name):
                v.options.set_background(name)
            case _:
                return False
        return True

    def _apply_reference(self, cmd: c.Command) -> bool:
        cmp = self.view.compare
        match cmd:
            case c.LoadReference(path, fps):
                cmp.load(str(Path(path).expanduser().resolve()), fps)
            case c.ClearReference():
                cmp.clear()
            case c.SetReferenceOffset(offset):
                cmp.set_offset(offset)
            case c.SetReferenceRate(rate):
                cmp.set_rate(rate)
            case c.SetReferenceCrop(crop):
                cmp.set_crop(crop)
            case c.StepReference(frames):
                cmp.step(frames)
            case c.SetCompareMode(mode):
                cmp.set_mode(mode)
            case c.SetCompareOpacity(opacity):
                cmp.set_opacity(opacity)
            case c.SetWipeSplit(split):
                cmp.set_split(split)
            case c.AlignReferenceOnEvent(capture_t, scenario_t):
                cmp.align_on_event(capture_t, scenario_t)
            case c.AlignReferenceAudio():
                cmp.require_track()
                if self.session is None:
                    raise _no_session(cmd)
                cmp.set_offset(self.session.audio_offset(cmp.track.path, cmp.track.rate))
            case c.LoadCapture(path):
                if self.capture_reader is None:
                    raise _no_session(cmd)
                cmp.set_capture(path, self.capture_reader(path))
            case _:
                return False
        return True

    def _apply_view(self, cmd: c.Command) -> bool:
        v = self.view
        match cmd:
            case c.Select(kind, key):
                v.selection = (kind, key)
                if self.session is not None:
                    self.session.apply(cmd)
            case c.SetIntensity(value):
                v.intensity = float(value)
            case c.ToggleSolo(kind, key):
                v.emitter_filter.toggle_solo(kind, key)
            case c.ToggleMute(kind, key):
                v.emitter_filter.toggle_mute(kind, key)
            case c.ClearErrors():
                self.errors.clear()
            case c.ReportProblem(message):
                from viewer.errors import ScenarioError
                raise ScenarioError(message)
            case c.TakeScreenshot(path):
                v.screenshot_requests.append(path)
            case c.RunAudit() if self.audit_later:
                v.audit.open = True
                v.export_requests.append(cmd)   # the app steps v.audit.steps(...)
            case c.RunAudit():
                v.audit.run(None if self.session is None else self.session.db.collection)
            case c.ExportCapture() | c.AlignReferenceAuto():
                v.export_requests.append(cmd)   # GL work: the app runs it after the frame
            case c.OpenDat(paths) if self.opener is not None:
                self.session = self.opener("dat", tuple(paths))
            case c.LoadScenario(path) if self.opener is not None:
                self.session = self.opener("scenario", path)
            case _:
                return False
        return True

    def follow_selection(self) -> None:
        """Camera > Follow: the camera's target on the selected object's centre (its
        selection sphere's), every frame; orbit and zoom keep working around it."""
        s = self.session
        if not self.view.options.follow or s is None or s.selected_object is None:
            return
        bounds = s.bounds_of("object", s.selected_object)
        if bounds is None:
            return
        centre = tuple(float(x) for x in bounds[0])
        if centre != tuple(self.view.camera.target):
            self.view.camera = replace(self.view.camera, target=centre)

    def _retail_camera(self, obj_id, in_head: bool) -> Camera:
        """retail_camera behind ``obj_id`` (the selected object, else the first)."""
        s = self.session
        if s is None:
            raise _no_session(c.CameraRetail())
        if obj_id is None:
            obj_id = s.selected_object
        origin, forward = s.object_frame(obj_id)
        return retail_camera(origin, forward, in_head=in_head)

    def _selection_bounds(self):
        if self.session is None or self.view.selection is None:
            return None
        return self.session.bounds_of(*self.view.selection)


# commands that change the scenario's "reference" entry, and their undo labels
REFERENCE_EDITS = {
    c.LoadReference: "load reference", c.ClearReference: "clear reference",
    c.SetReferenceOffset: "reference offset", c.StepReference: "reference offset",
    c.SetReferenceRate: "reference rate", c.SetReferenceCrop: "reference crop",
    c.AlignReferenceOnEvent: "line up reference", c.AlignReferenceAudio: "line up reference",
    c.SetCompareMode: "comparison view",
}
# sent every frame while a widget is dragged (or per key typed into the crop fields): one
# undo step per drag or typed crop
COALESCING = (c.SetReferenceOffset, c.SetReferenceRate, c.SetReferenceCrop)


def _no_session(cmd) -> Exception:
    from viewer.errors import ScenarioError
    return ScenarioError(f"nothing loaded to apply {type(cmd).__name__} to")


def finite_or_text(x: float) -> str:
    """nan / inf / -inf spelled as the contract does; other floats with 4 decimals."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.4f}"


__all__ = ["Controller", "ViewState", "finite_or_text"]
