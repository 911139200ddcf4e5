"""PhysicsObj: one simulated object (retail CPhysicsObj plus its CPartArray state).

Holds only state; the behaviour that needs the world (scripts, emitters, the RNG, the event
sink) lives in ``world.py`` and ``hooks.py``. Everything here is what the renderer and the
panels read (through ``viewer.sim.inspect``): state bits, the root frame, the published
part poses as world frames, object scale, translucency / luminosity / diffuse per part,
lights, hidden / nodraw, children.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction

from viewer.sim.frame import Frame
from viewer.sim.physics import sphere_list
from viewer.sim.state import DEFAULT_STATE, PhysicsState, TransientState

_HIDDEN = int(PhysicsState.Hidden)
_NODRAW = int(PhysicsState.NoDraw)
_ACTIVE = int(TransientState.Active)


def to_sim_frame(f) -> Frame:
    """A record Frame (or any object with origin/orientation) as a sim Frame."""
    if f is None:
        return Frame()
    if isinstance(f, Frame):
        return f
    return Frame(tuple(float(c) for c in f.origin), tuple(float(c) for c in f.orientation))


@dataclass
class PartState:
    """One CPhysicsPart: its GfxObj, its world frame (rigid, object scale on origins only),
    its drawable scale and its material channels."""

    index: int
    gfxobj_id: int
    frame: Frame = field(default_factory=Frame)
    default_scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gfxobj_scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    translucency: float = 0.0
    luminosity: float = 0.0
    diffuse: float = 1.0
    hidden: bool = False  # draw_state bit 0 (NoDraw or translucency == 1)
    # an ObjDesc's private surfaces, shiftPal, original palette (viewer.sim.objdesc.PartLook);
    # None: the GfxObj's own surfaces as loaded
    objdesc: object | None = None

    def set_translucency(self, t: float) -> None:
        """CPhysicsPart::SetTranslucency 0x0050E670: exactly 1.0 hides the part; any other
        value clears the hidden bit."""
        self.translucency = float(t)
        self.hidden = (float(t) == 1.0)


@dataclass
class LightState:
    """A live Setup light (LIGHTINFO): its local frame and its world frame now."""

    index: int
    info: object  # LightInfo record
    local: Frame
    world: Frame = field(default_factory=Frame)


@dataclass
class ChildLink:
    """CHILDLIST entry: the child, the parent part it hangs from, the holding frame."""

    child: PhysicsObj
    part_index: int
    frame: Frame


class FPHookType(enum.IntEnum):
    """The channel an FPHook drives (CPhysicsObj::process_fp_hook 0x00513600's switch)."""

    Scale = 0
    Translucency = 1
    PartTranslucency = 2
    Luminosity = 3
    Diffusion = 4
    PartLuminosity = 5
    PartDiffusion = 6
    CallPES = 7


@dataclass
class FPHook:
    """FPHook 0x0051BA50: a float tween applied each process_hooks until it reaches 1."""

    hook_type: FPHookType | int
    time_created: float
    interpolation_time: float
    start_value: float
    end_value: float
    user_data: int = 0
    by: int | None = None  # CallPES: the record whose hook named the script

    def value_at(self, physics_time: float) -> tuple[float, bool]:
        """FPHook::Execute 0x0051BAA0: (current value, finished)."""
        e = physics_time - self.time_created
        if e > 0.0:
            f = e / self.interpolation_time if e < self.interpolation_time else 1.0
        else:
            f = 0.0
        return (self.end_value - self.start_value) * f + self.start_value, f == 1.0


FP_NAMES = {t.value: t.name for t in FPHookType}


class PhysicsObj:
    """The retail CPhysicsObj state the viewer needs."""

    def __init__(self, obj_id: int, setup, setup_did: int) -> None:
        self.id = obj_id
        self.setup = setup
        self.setup_did = setup_did
        self.state = DEFAULT_STATE  # CPhysicsObj::CPhysicsObj 0x005123F0
        self.transient_state = 0
        self.frame = Frame()
        self.velocity = (0.0, 0.0, 0.0)
        self.acceleration = (0.0, 0.0, 0.0)
        self.omega = (0.0, 0.0, 0.0)
        self.scale = 1.0  # m_scale
        self.translucency = 0.0
        self.translucency_original = 0.0
        self.luminosity = 0.0
        self.diffuse = 1.0
        self.table = None
        self.table_did = 0
        self.sound_table_did = 0
        self.default_script_type = 0
        self.default_script_intensity = 0.0
        self.script_manager = None
        self.particle_manager = None
        self.fp_hooks: list[FPHook] = []  # newest first
        self.anim_hooks: list[tuple[object, int, int]] = []  # (hook, animation DID, index)
        self.lights: list[LightState] | None = None
        self.children: list[ChildLink] = []
        self.parent: PhysicsObj | None = None
        self.motion = None  # [animation] the motion controller, when there is one
        self.update_time = Fraction(0)
        self.in_cell = True
        # CPhysicsObj::InitObjectBegin 0x0050FF80 bDynamic: False for objects created static
        # (CLandBlock::init_static_objs 0x00530A40 makeObject(did, 0, 0)); those are not in the
        # CObjectMaint object table that CPhysics::UseTime walks
        self.dynamic = True
        # in CPhysics::static_animating_objects (InitDefaults 0x005139D0 registered it)
        self.static_animating = False
        self.cached_velocity = (0.0, 0.0, 0.0)
        # [physics] contact and collision facts used by viewer/sim/physics.py, collision.py
        self.friction = 0.95
        self.elasticity = 0.05
        self.contact_plane = ((0.0, 0.0, 0.0), 0.0)
        self.sliding_normal = (0.0, 0.0, 0.0)
        self.colliding_with_environment = False
        self.jumped_this_frame = False
        self.target_id = 0
        self.has_weenie = False
        self.is_creature = False
        self.free_rotate = False
        self.spheres = sphere_list(getattr(setup, "spheres", ()) or ())
        self.placement_frames: list[Frame] | None = None
        self.parts: list[PartState] = []
        self.pals: list | None = None  # CPartArray::pals (viewer.sim.objdesc.set_palette)
        if setup is not None:
            scales = getattr(setup, "default_scale", None)
            for i, gid in enumerate(getattr(setup, "parts", ())):
                ds = tuple(float(c) for c in scales[i]) if scales else (1.0, 1.0, 1.0)
                self.parts.append(PartState(i, int(gid), default_scale=ds, gfxobj_scale=ds))
            self.placement_frames = _placement_frames(setup)

    # -- state bits ------------------------------------------------------------------------
    # Both words are kept as plain ints whatever is assigned (``obj.state |= PhysicsState.X``
    # gives an IntFlag): a test of an IntFlag builds a new enum value each time (~1 us),
    # an int one costs nothing. The value is the same either way.
    @property
    def state(self) -> int:
        return self._state

    @state.setter
    def state(self, value: int) -> None:
        self._state = int(value)

    @property
    def transient_state(self) -> int:
        return self._transient_state

    @transient_state.setter
    def transient_state(self, value: int) -> None:
        self._transient_state = int(value)

    def has(self, bit: int) -> bool:
        return bool(self._state & bit)

    @property
    def hidden(self) -> bool:
        return bool(self._state & _HIDDEN)

    @property
    def nodraw(self) -> bool:
        return bool(self._state & _NODRAW)

    @property
    def active(self) -> bool:
        return bool(self._transient_state & _ACTIVE)

    @property
    def has_movement_manager(self) -> bool:
        """CPhysicsObj::SetMotionTableID 0x00512780 makes a MovementManager only for a
        motion table; a Setup DefaultAnimation alone plays through the sequence without one."""
        return self.motion is not None and getattr(self.motion, "manager", None) is not None

    @property
    def num_parts(self) -> int:
        return len(self.parts)

    @property
    def num_spheres(self) -> int:
        return len(getattr(self.setup, "spheres", ()) or ())

    def part_frames(self) -> list[Frame]:
        return [p.frame for p in self.parts]

    def set_scale_static(self, s: float) -> None:
        """CPhysicsObj::SetScaleStatic 0x00511BB0 -> SetScaleInternal: drawable scale of
        each part = DefaultScale (x) (s, s, s); part frame origins scale at the next pose."""
        self.scale = float(s)
        for p in self.parts:
            d = p.default_scale
            p.gfxobj_scale = (d[0] * self.scale, d[1] * self.scale, d[2] * self.scale)

    def set_translucency_internal(self, t: float) -> None:
        """CPhysicsObj::SetTranslucencyInternal 0x0050F940: clamped up to the original."""
        t = max(t, self.translucency_original)
        self.translucency = float(t)
        for p in self.parts:
            p.set_translucency(t)

    def part(self, index: int) -> PartState | None:
        """``*Part`` setters: an index >= num_parts (including -1) is a silent no-op."""
        if 0 <= index < len(self.parts):
            return self.parts[index]
        return None


def _placement_frames(setup) -> list[Frame] | None:
    """Placement 0x65 (Resting), else 0 (Default), else none."""
    getter = getattr(setup, "placement_frame", None)
    af = None
    if getter is not None:
        af = getter(0x65) or getter(0)
    else:
        for key, frame in getattr(setup, "placement_frames", ()):
            if int(key) == 0x65:
                af = frame
                break
        if af is None:
            for key, frame in getattr(setup, "placement_frames", ()):
                if int(key) == 0:
                    af = frame
                    break
    if af is None:
        return None
    return [to_sim_frame(f) for f in af.frames]
