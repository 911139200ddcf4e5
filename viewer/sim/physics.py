"""The one free-body integrator every moving object shares (docs/retail-rules.md, Physics).

Retail's ``CPhysicsObj`` keeps velocity, acceleration and omega beside its frame; each
physics quantum ``UpdateObjectInternal`` integrates a candidate frame
(``UpdatePhysicsInternal``), re-aims it along the path (AlignPath) and sweeps the Setup's
collision spheres from the committed frame to the candidate (``CTransition``, in
``viewer/sim/collision.py``). This module holds the body and the integrator as plain values;
the runtime's ``PhysicsObj`` owns one ``PhysicsBody`` and calls
``update_object_internal`` once per quantum. The quantum itself (MIN/MAX_QUANTUM catch-up and
the 2 s drop) is ``viewer/sim/clock.py``'s.

Positions are float64; retail computes in float32, so results agree to float32 precision, not
bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from viewer.sim.frame import EPS, Frame, Vec3, heading_of, vec_add, vec_dot, vec_scale, vec_sub

# -- PhysicsGlobals and CPhysicsObj constants (GPhysics.c) --------------------------------------
GRAVITY = float(np.float32(-9.8))          # PhysicsGlobals::gravity (float -9.8)
MAX_VELOCITY = 50.0                        # UpdatePhysicsInternal / set_velocity clamp
MAX_VELOCITY_SQUARED = MAX_VELOCITY * MAX_VELOCITY
SMALL_VELOCITY = 0.25                      # near-stop threshold (squared 0.0625)
SMALL_VELOCITY_SQUARED = SMALL_VELOCITY * SMALL_VELOCITY
DEFAULT_FRICTION = 0.95
DEFAULT_ELASTICITY = 0.05
MAX_ELASTICITY = 0.1
# PhysicsGlobals::floor_z: the static initialiser computes cos(3437.746770784939) (radians),
# stored as a float: 0.66417414.
FLOOR_Z = float(np.float32(math.cos(3437.746770784939)))
SLEDDING_STEEP_Z = math.cos(0.1745329251994329)   # calc_friction: cos(10 deg)
SLEDDING_STOP_SPEED_SQUARED = 1.5625              # (1.25 m/s)^2
SLEDDING_SLOW_SPEED_SQUARED = 6.25                # (2.5 m/s)^2
SLEDDING_STEEP_FRICTION = 0.2

# -- PhysicsState bits (CPhysicsObj::set_state 0x00514DD0) -----------------------------------
STATIC = 0x1
ETHEREAL = 0x4
REPORT_COLLISIONS = 0x8
IGNORE_COLLISIONS = 0x10
NODRAW = 0x20
MISSILE = 0x40
PUSHABLE = 0x80
ALIGNPATH = 0x100
PATHCLIPPED = 0x200
GRAVITY_PS = 0x400
LIGHTING_ON = 0x800
PARTICLE_EMITTER = 0x1000
HIDDEN = 0x4000
SCRIPTED_COLLISION = 0x8000
HAS_PHYSICS_BSP = 0x10000
INELASTIC = 0x20000
HAS_DEFAULT_ANIM = 0x40000
HAS_DEFAULT_SCRIPT = 0x80000
CLOAKED = 0x100000
REPORT_COLLISIONS_AS_ENVIRONMENT = 0x200000
EDGE_SLIDE = 0x400000
SLEDDING = 0x800000
FROZEN = 0x1000000
DEFAULT_STATE = EDGE_SLIDE | LIGHTING_ON | GRAVITY_PS | REPORT_COLLISIONS  # 0x00400C08

# -- TransientState bits ----------------------------------------------------------------------
CONTACT = 0x1
ON_WALKABLE = 0x2
SLIDING = 0x4
WATER_CONTACT = 0x8
STATIONARY_FALL = 0x10
STATIONARY_STOP = 0x20
STATIONARY_STUCK = 0x40
ACTIVE = 0x80

ZERO: Vec3 = (0.0, 0.0, 0.0)


@dataclass
class PhysicsBody:
    """The physics half of one ``CPhysicsObj``: frame, vectors, state words, contact facts.

    ``spheres`` are the Setup's physics spheres in Setup-local space, ``(center, radius)``,
    unscaled; the transition scales both by ``scale`` (docs/retail-rules.md, Physics).
    """

    frame: Frame = field(default_factory=Frame)
    velocity: Vec3 = ZERO
    acceleration: Vec3 = ZERO
    omega: Vec3 = ZERO
    state: int = DEFAULT_STATE
    transient_state: int = 0
    friction: float = DEFAULT_FRICTION
    elasticity: float = DEFAULT_ELASTICITY
    scale: float = 1.0
    spheres: tuple[tuple[Vec3, float], ...] = ()
    contact_plane: tuple[Vec3, float] = ((0.0, 0.0, 0.0), 0.0)   # (N, d)
    sliding_normal: Vec3 = ZERO
    cached_velocity: Vec3 = ZERO
    has_movement_manager: bool = False
    colliding_with_environment: bool = False
    jumped_this_frame: bool = False
    update_time: float = 0.0
    object_id: int = 0
    target_id: int = 0          # OBJECTINFO::targetID: zero unless a server names one
    has_weenie: bool = False
    is_creature: bool = False
    free_rotate: bool = False   # CPartArray::AllowsFreeHeading -> OBJECTINFO 0x10
    collision_table: dict = field(default_factory=dict)   # object id -> (touched, ethereal)

    # -- state helpers -------------------------------------------------------------------
    def has(self, bits: int) -> bool:
        return bool(self.state & bits)


def sphere_list(spheres: Sequence) -> tuple[tuple[Vec3, float], ...]:
    """Setup spheres (records with ``center``/``radius`` or ``(center, radius)`` pairs) as
    plain tuples."""
    out = []
    for s in spheres:
        if hasattr(s, "center"):
            c, r = s.center, s.radius
        else:
            c, r = s
        out.append(((float(c[0]), float(c[1]), float(c[2])), float(r)))
    return tuple(out)


# -- CPhysicsObj::calc_acceleration 0x00510950 -------------------------------------------------
def calc_acceleration(body: PhysicsBody) -> None:
    if (body.transient_state & CONTACT and body.transient_state & ON_WALKABLE
            and not body.state & SLEDDING):
        body.acceleration = ZERO
        body.omega = ZERO
    elif body.state & GRAVITY_PS:
        body.acceleration = (0.0, 0.0, GRAVITY)
    else:
        body.acceleration = ZERO   # omega is kept


# -- CPhysicsObj::calc_friction 0x0050EE70 -----------------------------------------------------
def calc_friction(body: PhysicsBody, quantum: float, velocity_mag2: float) -> None:
    """Friction on a walkable contact plane; ``velocity_mag2`` is the speed squared measured
    (and clamped) before friction."""
    if not body.transient_state & ON_WALKABLE:
        return
    n = body.contact_plane[0]
    vn = vec_dot(body.velocity, n)
    if vn >= 0.25:   # moving away from the surface
        return
    body.velocity = vec_sub(body.velocity, vec_scale(n, vn))
    if body.state & SLEDDING:
        if velocity_mag2 < SLEDDING_STOP_SPEED_SQUARED:
            f = 1.0
        elif velocity_mag2 < SLEDDING_SLOW_SPEED_SQUARED or n[2] >= SLEDDING_STEEP_Z:
            f = body.friction
        else:
            f = SLEDDING_STEEP_FRICTION
    else:
        f = body.friction
    k = math.pow(1.0 - f, quantum)
    body.velocity = vec_scale(body.velocity, k)


def _clamp_speed(v: Vec3) -> Vec3:
    n = math.sqrt(vec_dot(v, v))
    return vec_scale(v, MAX_VELOCITY / n)


# -- CPhysicsObj::UpdatePhysicsInternal 0x00510700 ---------------------------------------------
def update_physics_internal(body: PhysicsBody, quantum: float, frame: Frame) -> Frame:
    """Integrate one quantum into ``frame`` (the candidate frame) and return it."""
    velocity_mag2 = vec_dot(body.velocity, body.velocity)
    if velocity_mag2 <= 0.0:
        if not body.has_movement_manager and body.transient_state & ON_WALKABLE:
            body.transient_state &= ~ACTIVE
    else:
        if velocity_mag2 > MAX_VELOCITY_SQUARED:   # clamp before friction
            body.velocity = _clamp_speed(body.velocity)
            velocity_mag2 = MAX_VELOCITY_SQUARED
        calc_friction(body, quantum, velocity_mag2)
        # near-stop test on the pre-friction (clamped) speed, not a recomputed one
        if velocity_mag2 - SMALL_VELOCITY_SQUARED < EPS:
            body.velocity = ZERO
        a = body.acceleration
        v = body.velocity
        step = (v[0] * quantum + a[0] * 0.5 * quantum * quantum,
                v[1] * quantum + a[1] * 0.5 * quantum * quantum,
                v[2] * quantum + a[2] * 0.5 * quantum * quantum)
        frame = frame.with_origin(vec_add(frame.origin, step))
    body.velocity = vec_add(body.velocity, vec_scale(body.acceleration, quantum))
    return frame.grotate(vec_scale(body.omega, quantum))


# -- CPhysicsObj::set_velocity 0x005113F0 / set_omega -------------------------------------------
def set_velocity(body: PhysicsBody, v: Vec3, now: float | None = None) -> None:
    """Store ``v`` (clamped to 50 m/s at once) and activate a non-static body; an inactive
    body restarts its clock at ``now`` (Timer::cur_time)."""
    v = (float(v[0]), float(v[1]), float(v[2]))
    if v != body.velocity:
        if vec_dot(v, v) > MAX_VELOCITY_SQUARED:
            v = _clamp_speed(v)
        body.velocity = v
        body.jumped_this_frame = True
    if not body.state & STATIC:
        if not body.transient_state & ACTIVE and now is not None:
            body.update_time = now
        body.transient_state |= ACTIVE


def set_omega(body: PhysicsBody, w: Vec3) -> None:
    """CPhysicsObj::set_omega 0x0050F6D0: stored as given (global axis, rad/s), no clamp."""
    body.omega = (float(w[0]), float(w[1]), float(w[2]))


# -- path alignment inside UpdateObjectInternal 0x005156B0 ---------------------------------------
def align_frame(body: PhysicsBody, old_origin: Vec3, candidate: Frame) -> Frame:
    """AlignPath: the candidate's heading from the full 3D displacement through
    Frame::set_vector_heading (pitch included, no roll); else Sledding with a moving body
    takes the velocity's compass heading (Frame::set_heading)."""
    if body.state & ALIGNPATH:
        diff = vec_sub(candidate.origin, old_origin)
        n = math.sqrt(vec_dot(diff, diff))
        if n > 0.0:
            diff = vec_scale(diff, 1.0 / n)   # Vector3::Normalize
        return candidate.set_vector_heading(diff)
    if body.state & SLEDDING and body.velocity != ZERO:
        return candidate.set_heading(heading_of(body.velocity))
    return candidate


def origins_equal(a: Vec3, b: Vec3) -> bool:
    """AC1Legacy::Vector3::operator== 0x00509F10: every component within EPS."""
    return all(abs(a[i] - b[i]) <= EPS for i in range(3))


class Transitioner(Protocol):
    """What ``update_object_internal`` needs from the collision world (collision.py)."""

    def transition(self, body: PhysicsBody, old: Frame, new: Frame): ...

    def set_position_internal(self, body: PhysicsBody, result, quantum: float) -> list: ...


@dataclass
class StepResult:
    """What one quantum did: the impacts it reported (``collision.Impact``) and whether the
    transition succeeded."""

    impacts: list = field(default_factory=list)
    transition_ok: bool = True


# -- CPhysicsObj::UpdateObjectInternal 0x005156B0 (the physics part) ---------------------------
def update_object_internal(body: PhysicsBody, quantum: float,
                           world: Transitioner | None = None,
                           root_offset: Frame | None = None) -> StepResult:
    """One physics quantum for an ACTIVE body: integrate, align, sweep, commit.

    ``root_offset`` is the animation root-motion frame (identity for projectiles). Objects
    without Setup spheres never translate through this path (docs/retail-rules.md, Physics).
    """
    if not body.transient_state & ACTIVE:
        return StepResult()
    candidate = body.frame.combine(root_offset) if root_offset is not None else body.frame
    if not body.state & HIDDEN:
        candidate = update_physics_internal(body, quantum, candidate)
    if body.spheres:
        return commit_with_spheres(body, candidate, quantum, world)
    commit_without_spheres(body, candidate)
    return StepResult()


def commit_without_spheres(body, candidate: Frame) -> None:
    """No spheres, no transition: the OLD origin with the new rotation."""
    if not body.has_movement_manager and body.transient_state & ON_WALKABLE:
        body.transient_state &= ~ACTIVE
    body.frame = candidate.with_origin(body.frame.origin)
    body.cached_velocity = ZERO


def commit_with_spheres(body, candidate: Frame, quantum: float,
                        world: Transitioner | None = None) -> StepResult:
    """UpdateObjectInternal's sphere branch: an unmoved origin commits the rotation only;
    otherwise AlignPath / Sledding heading, the transition, and SetPositionInternal on
    success (the caller republishes parts from ``body.frame``)."""
    result = StepResult()
    old = body.frame
    if origins_equal(candidate.origin, old.origin):
        body.frame = candidate.with_origin(old.origin)
        body.cached_velocity = ZERO
        return result
    candidate = align_frame(body, old.origin, candidate)
    if world is None:
        from viewer.sim.collision import EMPTY_WORLD  # empty space: nothing to hit
        world = EMPTY_WORLD
    tr = world.transition(body, old, candidate)
    if tr is not None:
        body.cached_velocity = vec_scale(vec_sub(tr.sphere_path.curr_pos.origin, old.origin),
                                         1.0 / quantum)
        result.impacts = world.set_position_internal(body, tr, quantum)
    else:
        # transition failed: new rotation, old origin, nothing else committed
        body.frame = candidate.with_origin(old.origin)
        body.cached_velocity = ZERO
        result.transition_ok = False
    return result
