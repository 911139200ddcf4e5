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
    """Replace the scene with one object of this Setup (and optional table)."""
    setup: int
    table: int | None = None


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


# --- misc -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClearErrors(Command):
    pass


@dataclass(frozen=True)
class TakeScreenshot(Command):
    path: str
