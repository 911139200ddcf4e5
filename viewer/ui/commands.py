"""Commands: what panels ask for. Panels return lists of these; ``viewer/ui/controller.py``
applies them in one place (the Open3D settings / apply pattern). Plain frozen data, so tests
can compare them and panels stay free of side effects."""

from __future__ import annotations

from dataclasses import dataclass


class Command:
    """Base of every command (for isinstance checks and typing)."""


# --- timeline ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play(Command):
    pass


@dataclass(frozen=True)
class Pause(Command):
    pass


@dataclass(frozen=True)
class TogglePlay(Command):
    pass


@dataclass(frozen=True)
class Step(Command):
    """Step whole render frames (+1 forward, -1 back)."""
    frames: int = 1


@dataclass(frozen=True)
class Seek(Command):
    """Go to simulation time ``t`` (seconds) by deterministic re-simulation."""
    t: float


@dataclass(frozen=True)
class SetSpeed(Command):
    speed: float


@dataclass(frozen=True)
class SetLoop(Command):
    loop: bool


@dataclass(frozen=True)
class SetVolume(Command):
    """The viewer's master volume, 0..1."""
    volume: float


@dataclass(frozen=True)
class SetMute(Command):
    muted: bool


@dataclass(frozen=True)
class JumpHook(Command):
    """Go to the previous (-1) or next (+1) hook marker."""
    direction: int


@dataclass(frozen=True)
class Restart(Command):
    pass


# --- scenario / assets -----------------------------------------------------------------------
@dataclass(frozen=True)
class OpenDat(Command):
    paths: tuple[str, ...]


@dataclass(frozen=True)
class LoadScenario(Command):
    path: str


@dataclass(frozen=True)
class SaveScenario(Command):
    path: str


@dataclass(frozen=True)
class LoadSetup(Command):
    """Replace the scene with one object of this Setup (and optional table); ``static``:
    as landblock data (the Static state bit: its Setup's table kept, it does not fall)."""
    setup: int
    table: int | None = None
    static: bool = False


@dataclass(frozen=True)
class SetObjectTable(Command):
    """A scenario object's PhysicsScriptTable (an undoable edit, saved as its ``"table"``
    / ``"desc"``): ``table`` a 0x34 DID, or None: none, or with ``setup_default`` the
    Setup's own (``"desc": false``; viewer/ui/table_chooser.py)."""
    object: int
    table: int | None = None
    setup_default: bool = False


@dataclass(frozen=True)
class PlayScript(Command):
    """Add a ``play_script`` event at the current time on ``object``."""
    object: int
    script: int


@dataclass(frozen=True)
class PlayTyped(Command):
    """Add a ``play`` event (typed effect through the object's PhysicsScriptTable)."""
    object: int
    play: str | int
    intensity: float


@dataclass(frozen=True)
class SetState(Command):
    """Add a ``set_state`` event (PhysicsState bits) at the current time."""
    object: int
    state: int


@dataclass(frozen=True)
class PlayMotion(Command):
    object: int
    motion: int


@dataclass(frozen=True)
class Undo(Command):
    """Put the scenario back as it was before the last edit (a Setup load included)."""


@dataclass(frozen=True)
class Redo(Command):
    """Apply again the edit the last Undo took back."""


# --- selection / inspection ------------------------------------------------------------------
@dataclass(frozen=True)
class Select(Command):
    """What the inspectors show: ``kind`` is object / emitter / particle / asset."""
    kind: str
    key: object


@dataclass(frozen=True)
class SetIntensity(Command):
    """The script table inspector's intensity (a float; nan and inf allowed)."""
    intensity: float


@dataclass(frozen=True)
class ToggleSolo(Command):
    """Draw only this emitter's (or object's) particles, or stop soloing it: a view
    setting (viewer/ui/emitter_filter.py), never a scenario edit."""
    kind: str     # "emitter" (key: handle) or "object" (key: id)
    key: int


@dataclass(frozen=True)
class ToggleMute(Command):
    """Hide this emitter's (or object's) particles, or show them again: a view setting."""
    kind: str
    key: int


# --- camera ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CameraOrbit(Command):
    dx: float
    dy: float


@dataclass(frozen=True)
class CameraPan(Command):
    dx: float
    dy: float
    viewport_h: float


@dataclass(frozen=True)
class CameraZoom(Command):
    steps: float


@dataclass(frozen=True)
class CameraFly(Command):
    forward: float
    right: float
    up: float


@dataclass(frozen=True)
class CameraPreset(Command):
    name: str


@dataclass(frozen=True)
class CameraFrameSelected(Command):
    pass


@dataclass(frozen=True)
class CameraBookmark(Command):
    """``save`` the current camera under ``name``, or go to it."""
    name: str
    save: bool = False


@dataclass(frozen=True)
class CameraFollow(Command):
    """Keep the selected object at the centre of the view (a view setting)."""
    on: bool = True


@dataclass(frozen=True)
class CameraFrameAll(Command):
    """Frame every live object."""


@dataclass(frozen=True)
class CameraReset(Command):
    """The camera the viewer starts with."""


@dataclass(frozen=True)
class SetViewLayer(Command):
    """Show or hide a layer of the 3D view that is no part of the scene: ``layer`` is
    "grid" or "axes" (view settings; never drawn into a comparison)."""
    layer: str
    on: bool


@dataclass(frozen=True)
class SetBackground(Command):
    """The 3D view's background colour by name (viewer/ui/view_options.py BACKGROUNDS)."""
    name: str


# --- misc -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClearErrors(Command):
    pass


@dataclass(frozen=True)
class ReportProblem(Command):
    """What a panel could not make into a command (a typed name or number that is none):
    the Controller lists it in the Errors panel, with a notice, instead of silence."""
    message: str


@dataclass(frozen=True)
class TakeScreenshot(Command):
    path: str


# --- reference recording / comparison (issue 10) ---------------------------------------------
@dataclass(frozen=True)
class LoadReference(Command):
    """Load a recording (video file or image folder) as the reference track. ``fps``: the
    frame rate of an image folder (30 when not given)."""
    path: str
    fps: float | None = None


@dataclass(frozen=True)
class ClearReference(Command):
    pass


@dataclass(frozen=True)
class SetReferenceOffset(Command):
    """Recording seconds at timeline t = 0."""
    offset: float


@dataclass(frozen=True)
class SetReferenceRate(Command):
    """Recording seconds per timeline second (> 0)."""
    rate: float


@dataclass(frozen=True)
class SetReferenceCrop(Command):
    """``(x, y, w, h)`` of the recording that the viewport's camera frames; None: all."""
    crop: tuple[int, int, int, int] | None


@dataclass(frozen=True)
class StepReference(Command):
    """Move the recording by whole frames of its own against the timeline (the offset
    changes by one recording frame per step)."""
    frames: int = 1


@dataclass(frozen=True)
class SetCompareMode(Command):
    """off / side_by_side / overlay / wipe / onion / difference."""
    mode: str


@dataclass(frozen=True)
class SetCompareOpacity(Command):
    opacity: float


@dataclass(frozen=True)
class SetWipeSplit(Command):
    split: float


@dataclass(frozen=True)
class LoadCapture(Command):
    """A packet capture whose PlayScript events can line the recording up."""
    path: str


@dataclass(frozen=True)
class AlignReferenceOnEvent(Command):
    """Line the recording up on one event seen in both: its time in the capture (recording
    seconds) and the same event's time in the scenario."""
    capture_t: float
    scenario_t: float


@dataclass(frozen=True)
class AlignReferenceAuto(Command):
    """Find the offset that best lines the recording up with the 3D view: every frame is
    re-simulated and rendered small, then ``viewer.compare.align.estimate_offset``."""


@dataclass(frozen=True)
class AlignReferenceAudio(Command):
    """Find the offset by sound: the recording's audio cross-correlated with the
    scenario's sound track (``viewer.compare.align.align_audio``)."""


# --- capture of the viewer itself ---------------------------------------------------------------
@dataclass(frozen=True)
class ExportCapture(Command):
    """Write the 3D view over ``[start, end]`` seconds (re-simulated deterministically) to
    ``path``: .png (one frame: ``start``), a folder (PNG sequence), .gif or .mp4.
    ``transparent`` keeps alpha where nothing is drawn (PNG, GIF); ``compare`` writes the
    comparison view instead of the plain rendering when a reference is shown; ``window``
    writes the whole viewer (3D view and panels) instead."""
    path: str
    start: float = 0.0
    end: float | None = None
    transparent: bool = False
    compare: bool = False
    window: bool = False


# --- projectiles (issue 11) ---------------------------------------------------------------------
@dataclass(frozen=True)
class LaunchProjectile(Command):
    """Append a ``launch`` scenario event at the current time (viewer/sim/projectile.py):
    ``object`` flies from ``origin`` with ``velocity``, or at ``target`` with ``speed``; its
    table's Launch script plays at ``intensity``. With ``setup`` the object is first created
    (a ``create`` event at the same time) from that Setup and ``table``."""
    object: int
    origin: tuple[float, float, float] | None = None
    velocity: tuple[float, float, float] | None = None
    target: tuple[float, float, float] | None = None
    speed: float = 20.0
    intensity: float = 1.0
    setup: int | None = None
    table: int | None = None
    preset: str | None = None     # a named projectile (viewer.sim.presets): created by launch


@dataclass(frozen=True)
class RunAudit(Command):
    """Check the open DATs against the retail facts (``vfxviewer audit``) and show the
    Audit window."""


@dataclass(frozen=True)
class CameraRetail(Command):
    """The retail client's default chase camera behind ``object`` (the selected one when
    None), with retail's field of view; ``in_head``: first person."""
    object: int | None = None
    in_head: bool = False


# --- the Events panel and the loop range (issue 28) ---------------------------------------------
@dataclass(frozen=True)
class EditEvent(Command):
    """Replace scenario event ``index`` with ``raw`` (its JSON, as the scenario file holds
    it); an undoable scenario edit."""
    index: int
    raw: dict


@dataclass(frozen=True)
class DeleteEvent(Command):
    """Remove scenario event ``index``; an undoable scenario edit."""
    index: int


@dataclass(frozen=True)
class SetLoopRange(Command):
    """Loop between ``t_in`` and ``t_out`` seconds while looping (None: the whole
    scenario); a view setting of the playback, not saved."""
    t_in: float | None = None
    t_out: float | None = None
