"""The projectile harness's collision world and retail's transition sweep (docs/retail-rules.md,
Physics, collision and projectiles).  A ``CollisionWorld`` holds the scenario's ``"world"``
shapes: planes (terrain-like ground, through ``OBJECTINFO::validate_walkable``), boxes (six
BSP-like polygons, through ``BSPTREE::find_collisions``), and target spheres / cylinders (object
shapes, through ``CSphere::intersects_sphere`` / ``CCylSphere::intersects_sphere`` behind
``OBJECTINFO::missile_ignore``). ``CTransition`` sweeps a body's Setup spheres (scaled, with
their Setup-local origin, never a dummy sphere) from the committed frame to the candidate in
``calc_num_steps`` sub-steps with no step cap, adjusting each step's offset through
``adjust_offset`` (CTransition::adjust_offset 0x0050A370, retail form).
``CollisionWorld.set_position_internal`` commits the result and applies retail's collision
response (elastic reflection / inelastic stop).

The world is one outdoor cell: block offsets are zero and the contact-plane cell id is
``WORLD_CELL``. Parts of the retail tree that need terrain cells or BSP walkable searches
(step up, step down, edge slide, landing on a box top) are not ported; where a branch would
enter them the nearest retail outcome is used and the comment says so.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from viewer import bounds
from viewer.errors import ScenarioError
from viewer.sim import physics as ph
from viewer.sim.frame import (
    EPS,
    Frame,
    Vec3,
    quat_normalize,
    vec_add,
    vec_cross,
    vec_dot,
    vec_length,
    vec_scale,
    vec_sub,
)

# TransitionState
INVALID_TS, OK_TS, COLLIDED_TS, ADJUSTED_TS, SLID_TS = 0, 1, 2, 3, 4

# OBJECTINFO state bits (CPhysicsObj::get_object_info 0x00511CC0, OBJECTINFO::init)
OI_CONTACT = 0x1
OI_ON_WALKABLE = 0x2
OI_IS_VIEWER = 0x4
OI_PATH_CLIPPED = 0x8
OI_FREE_ROTATE = 0x10
OI_PERFECT_CLIP = 0x40
OI_EDGE_SLIDE = 0x200

Z_FOR_LANDING = 0.0871557    # z_for_landing (acclient_data.h)
WORLD_CELL = 0xA9B40001      # the harness's one outdoor cell (any nonzero id)

Plane = tuple[Vec3, float]   # (N, d): dot(N, p) + d


def _normalize_check_small(v: Vec3) -> Vec3 | None:
    n = vec_length(v)
    if n < EPS:
        return None
    return (v[0] / n, v[1] / n, v[2] / n)


def _plane_dist(plane: Plane, p: Vec3) -> float:
    return vec_dot(plane[0], p) + plane[1]


def plane_through(normal: Vec3, point: Vec3) -> Plane:
    """Plane::Plane(normal, point) 0x00536A20."""
    return (normal, -vec_dot(point, normal))


# -- Plane::snap_to_plane 0x00509C50 -------------------------------------------------------------
def snap_to_plane(plane: Plane, offset: Vec3) -> Vec3:
    """Re-solve only Z so the offset lies in the plane; X and Y are never written. A plane
    with |N.z| <= EPS leaves the offset unchanged. The d terms of retail's expression
    cancel exactly."""
    n = plane[0]
    if abs(n[2]) <= EPS:
        return offset
    return (offset[0], offset[1], -(offset[0] * n[0] + offset[1] * n[1]) / n[2])


# -- COLLISIONINFO ------------------------------------------------------------------------------
@dataclass
class CollisionInfo:
    contact_plane_valid: bool = False
    contact_plane: Plane = ((0.0, 0.0, 0.0), 0.0)
    contact_plane_cell_id: int = 0
    contact_plane_is_water: bool = False
    last_known_contact_plane_valid: bool = False
    last_known_contact_plane: Plane = ((0.0, 0.0, 0.0), 0.0)
    last_known_contact_plane_cell_id: int = 0
    last_known_contact_plane_is_water: bool = False
    sliding_normal_valid: bool = False
    sliding_normal: Vec3 = (0.0, 0.0, 0.0)
    collision_normal_valid: bool = False
    collision_normal: Vec3 = (0.0, 0.0, 0.0)
    collided_with_environment: bool = False
    collide_objects: list = field(default_factory=list)
    frames_stationary_fall: int = 0
    # not retail: which world shape last set the collision normal (for the trace's impacts)
    hit_shape: Shape | None = None

    def set_contact_plane(self, plane: Plane, is_water: bool) -> None:
        """COLLISIONINFO::set_contact_plane 0x00509D80."""
        self.contact_plane_valid = True
        self.contact_plane = plane
        self.contact_plane_is_water = is_water

    def set_collision_normal(self, normal: Vec3) -> None:
        """COLLISIONINFO::set_collision_normal 0x0050A000 (a small normal becomes zero)."""
        self.collision_normal_valid = True
        self.collision_normal = _normalize_check_small(normal) or (0.0, 0.0, 0.0)

    def set_sliding_normal(self, normal: Vec3) -> None:
        """COLLISIONINFO::set_sliding_normal 0x0050A060: horizontal part, normalised."""
        self.sliding_normal_valid = True
        self.sliding_normal = (_normalize_check_small((normal[0], normal[1], 0.0))
                               or (0.0, 0.0, 0.0))

    def add_object(self, obj: ObjectDesc, ts: int) -> None:
        """COLLISIONINFO::add_object 0x0050D6A0 (kept once per object)."""
        if obj not in self.collide_objects:
            self.collide_objects.append(obj)


# -- OBJECTINFO ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ObjectDesc:
    """What a collision test needs to know about another object: its id, PhysicsState, and
    whether it has a weenie / is a creature (missile_ignore, FindObjCollisions)."""

    id: Any
    state: int = 0
    has_weenie: bool = False
    is_creature: bool = False


@dataclass
class ObjectInfo:
    body: ph.PhysicsBody
    state: int = 0
    target_id: int = 0
    ethereal: bool = False
    step_down: bool = True

    def kill_velocity(self) -> None:
        """OBJECTINFO::kill_velocity 0x0050CFE0."""
        ph.set_velocity(self.body, (0.0, 0.0, 0.0))

    def missile_ignore(self, other: ObjectDesc) -> bool:
        return missile_ignore(self.body.state, self.target_id, other)


def missile_ignore(mover_state: int, target_id: int, other: ObjectDesc) -> bool:
    """OBJECTINFO::missile_ignore 0x0050CEB0."""
    if other.state & ph.MISSILE:
        return True          # other is a missile
    if not mover_state & ph.MISSILE:
        return False         # the mover is not a missile
    if other.id == target_id:
        return False         # the designated target always collides
    if other.state & ph.ETHEREAL and other.has_weenie:
        return True
    if target_id and other.has_weenie and other.is_creature:  # noqa: SIM103 (retail tree)
        return True          # a creature that is not the designated target
    return False


def get_object_info(body: ph.PhysicsBody, tr: CTransition) -> int:
    """CPhysicsObj::get_object_info 0x00511CC0 (non-admin move)."""
    state = 0
    if body.state & ph.EDGE_SLIDE:
        state = OI_EDGE_SLIDE
    if body.transient_state & ph.CONTACT:
        is_water = bool(body.transient_state & ph.WATER_CONTACT)
        # CPhysicsObj::check_contact 0x0050F3E0: moving away from the plane loses contact
        moving_away = vec_dot(body.velocity, body.contact_plane[0]) > EPS
        ci = tr.collision_info
        ci.last_known_contact_plane_valid = True
        ci.last_known_contact_plane = body.contact_plane
        ci.last_known_contact_plane_is_water = is_water
        if not moving_away:
            # CTransition::init_contact_plane 0x0050E850
            ci.last_known_contact_plane_cell_id = WORLD_CELL
            ci.set_contact_plane(body.contact_plane, is_water)
            ci.contact_plane_cell_id = WORLD_CELL
            state |= OI_CONTACT
            if body.transient_state & ph.ON_WALKABLE:
                state |= OI_ON_WALKABLE
        else:
            # CTransition::init_last_known_contact_plane 0x0050E8E0
            ci.contact_plane_cell_id = WORLD_CELL
    if body.transient_state & ph.SLIDING:
        tr.collision_info.set_sliding_normal(body.sliding_normal)   # init_sliding_normal
    if body.free_rotate:
        state |= OI_FREE_ROTATE
    if body.state & ph.MISSILE:
        state |= OI_PATH_CLIPPED    # PathClipped, never PerfectClip (get_object_info 0x00511CC0)
    return state


# -- SPHEREPATH ---------------------------------------------------------------------------------
@dataclass
class Sphere:
    center: Vec3
    radius: float


class SpherePath:
    MAX_SPHERES = 2   # SPHEREPATH::init_sphere keeps at most two

    def __init__(self, spheres: Sequence[tuple[Vec3, float]], scale: float,
                 begin: Frame, end: Frame) -> None:
        # SPHEREPATH::init_sphere 0x0050C670: origin and radius both scaled
        self.local_sphere = [Sphere(vec_scale(c, scale), r * scale)
                             for c, r in list(spheres)[:self.MAX_SPHERES]]
        self.num_sphere = len(self.local_sphere)
        self.begin_pos = begin
        self.end_pos = end
        self.curr_pos = begin
        self.check_pos = begin
        self.global_sphere = [Sphere(s.center, s.radius) for s in self.local_sphere]
        self.global_curr_center = [s.center for s in self.local_sphere]
        self.global_offset: Vec3 = (0.0, 0.0, 0.0)
        self.collide = False
        self.backup_check_pos = begin
        self.step_up_normal: Vec3 = (0.0, 0.0, 0.0)
        self.walkable_allowance = 0.0
        self.walk_interp = 1.0
        self.step_down = False
        self.step_down_amt = 0.0
        self.check_walkable = False
        self.obstruction_ethereal = False
        self.insert_type = 0          # transition
        self.cache_global_curr_center()
        self.cache_global_sphere(None)

    def cache_global_curr_center(self) -> None:
        """SPHEREPATH::cache_global_curr_center 0x0050C740."""
        self.global_curr_center = [self.curr_pos.local_to_global(s.center)
                                   for s in self.local_sphere]

    def cache_global_sphere(self, offset: Vec3 | None = None) -> None:
        """SPHEREPATH::cache_global_sphere 0x0050C810: translate by ``offset``, or rebuild from
        check_pos (rotation included) when there is none."""
        if offset is not None:
            for g in self.global_sphere:
                g.center = vec_add(g.center, offset)
        else:
            self.global_sphere = [Sphere(self.check_pos.local_to_global(s.center), s.radius)
                                  for s in self.local_sphere]

    def add_offset_to_check_pos(self, offset: Vec3) -> None:
        """SPHEREPATH::add_offset_to_check_pos 0x00509D10."""
        self.check_pos = self.check_pos.with_origin(vec_add(self.check_pos.origin, offset))
        self.cache_global_sphere(offset)

    def set_check_pos(self, frame: Frame) -> None:
        """SPHEREPATH::set_check_pos 0x0050A8B0."""
        self.check_pos = frame
        self.cache_global_sphere(None)

    def set_collide(self, normal: Vec3) -> None:
        """SPHEREPATH::set_collide 0x005378A0."""
        self.collide = True
        self.backup_check_pos = self.check_pos
        self.step_up_normal = normal
        self.walk_interp = 1.0

    def restore_check_pos(self) -> None:
        """SPHEREPATH::restore_check_pos 0x0050B100."""
        self.set_check_pos(self.backup_check_pos)


def interpolate_rotation(a: Frame, b: Frame, t: float):
    """Frame::interpolate_rotation 0x0053A0F0: shortest-arc slerp, linear when nearly equal,
    then set_rotate's normalisation."""
    qa, qb = a.orientation, b.orientation
    cosom = sum(qa[i] * qb[i] for i in range(4))
    if cosom < 0.0:
        cosom = -cosom
        qb = tuple(-c for c in qb)
    if 1.0 - cosom > EPS:
        omega = math.acos(min(1.0, cosom))
        sinom = math.sin(omega)
        s0 = math.sin((1.0 - t) * omega) / sinom
        s1 = math.sin(t * omega) / sinom
    else:
        s0, s1 = 1.0 - t, t
    return quat_normalize(tuple(s0 * qa[i] + s1 * qb[i] for i in range(4)))


# -- shapes -------------------------------------------------------------------------------------
class Shape:
    """A world shape: ``find_collisions(tr) -> TransitionState``. ``index`` is its position in
    the scenario's ``world`` list (``"world:N"`` in impact events)."""

    index: int = -1
    is_environment = True
    aabb: tuple[float, ...] = ()     # ObjectShape: the broad phase's box; () = always tested

    @property
    def name(self) -> str:
        return f"world:{self.index}"


class PlaneShape(Shape):
    """Terrain-like ground: CLandCell::find_env_collisions -> OBJECTINFO::validate_walkable
    0x0050D010 with the first global sphere. A plane with |N.z| <= EPS cannot be terrain (the
    resolve divides by N.z) and is tested as an unbounded BSP polygon instead."""

    def __init__(self, normal: Vec3, d: float, index: int = -1) -> None:
        n = _normalize_check_small(normal)
        if n is None:
            raise ValueError("plane normal is zero")
        scale = vec_length(normal)
        self.plane: Plane = (n, d / scale)
        self.index = index

    def find_collisions(self, tr: CTransition) -> int:
        if abs(self.plane[0][2]) <= EPS:
            return _env_bsp(tr, self, [(self.plane, None)])
        return validate_walkable(tr, tr.sphere_path.global_sphere[0], self.plane, False, 0.0,
                                 WORLD_CELL, self)


def validate_walkable(tr: CTransition, check_pos: Sphere, plane: Plane, is_water: bool,
                      water_depth: float, cell_id: int, shape: Shape | None = None) -> int:
    """OBJECTINFO::validate_walkable 0x0050D010 (the non-viewer branch)."""
    oi, path, ci = tr.object_info, tr.sphere_path, tr.collision_info
    n = plane[0]
    c = check_pos.center
    dist = (c[0] * n[0] + c[1] * n[1] + (c[2] - check_pos.radius) * n[2] + plane[1]
            + water_depth)
    walkable = n[2] >= ph.FLOOR_Z    # CPhysicsObj::is_valid_walkable 0x0050F530
    if dist >= -EPS:
        if dist > EPS:
            return OK_TS
        if path.step_down or not oi.state & OI_ON_WALKABLE or walkable:
            ci.set_contact_plane(plane, is_water)
            ci.contact_plane_cell_id = cell_id
        if not oi.state & OI_CONTACT and not path.step_down:
            ci.set_collision_normal(n)
            ci.collided_with_environment = True
            ci.hit_shape = shape
        return OK_TS
    if path.check_walkable:
        return COLLIDED_TS
    ts = OK_TS
    z_push = dist / n[2]
    if path.step_down or not oi.state & OI_ON_WALKABLE or walkable:
        ci.set_contact_plane(plane, is_water)
        ci.contact_plane_cell_id = cell_id
        if path.step_down:
            interp = (1.0 - -1.0 / (path.step_down_amt * path.walk_interp) * z_push) \
                * path.walk_interp
            if interp >= path.walk_interp or interp < -0.1:
                return COLLIDED_TS
            path.walk_interp = interp
        path.add_offset_to_check_pos((0.0, 0.0, -z_push))
        ts = ADJUSTED_TS
    if not oi.state & OI_CONTACT and not path.step_down:
        ci.set_collision_normal(n)
        ci.collided_with_environment = True
        ci.hit_shape = shape
    return ts


def polygon_hits_sphere_slow_but_sure(plane: Plane, verts: Sequence[Vec3] | None,
                                      sphere: Sphere) -> bool:
    """CPolygon::polygon_hits_sphere_slow_but_sure 0x00538A10. ``verts`` None is an unbounded
    polygon (the plane itself)."""
    n = plane[0]
    dp = _plane_dist(plane, sphere.center)
    rad = sphere.radius - EPS
    if rad < abs(dp):
        return False
    if verts is None:
        return True
    radsq = rad * rad - dp * dp
    contact = vec_sub(sphere.center, vec_scale(n, dp))
    m = len(verts)
    inside = True
    for i in range(m):
        prev, cur = verts[i - 1], verts[i]
        edge = vec_sub(cur, prev)
        if vec_dot(vec_sub(contact, prev), vec_cross(n, edge)) < 0.0:
            inside = False
            break
    if inside:
        return True
    for i in range(m):
        prev, cur = verts[i - 1], verts[i]
        edge = vec_sub(cur, prev)
        cross = vec_cross(n, edge)   # points into a counter-clockwise polygon
        disp = vec_sub(contact, prev)
        side = vec_dot(disp, cross)
        if side < 0.0:
            # outside this edge: farther than the radius from its line is a miss
            if vec_dot(cross, cross) * radsq < side * side:
                return False
            along = vec_dot(disp, edge)
            if 0.0 <= along <= vec_dot(edge, edge):
                return True
        if vec_dot(disp, disp) <= radsq:
            return True
    return False


def _bsp_find_collisions(tr: CTransition, shape: Shape,
                         polys: Sequence[tuple[Plane, Sequence[Vec3] | None]]) -> int:
    """BSPTREE::find_collisions 0x0053A440 for the transition insert (first sphere)."""
    path, ci, oi = tr.sphere_path, tr.collision_info, tr.object_info
    sphere = path.global_sphere[0]
    movement = vec_sub(sphere.center, path.global_curr_center[0])
    if path.obstruction_ethereal:
        return COLLIDED_TS if any(polygon_hits_sphere_slow_but_sure(p, v, sphere)
                                  for p, v in polys) else OK_TS
    if path.collide:
        return OK_TS   # find_walkable: the harness has no walkable BSP polygons
    hit_poly = None
    hit = False
    for plane, verts in polys:
        # CPolygon::pos_hits_sphere 0x005394F0: a struck polygon is remembered even when the
        # sphere moves away from it, and BSPTREE::find_collisions treats it as a hit
        if polygon_hits_sphere_slow_but_sure(plane, verts, sphere):
            hit_poly = plane
            if vec_dot(plane[0], movement) < 0.0:
                hit = True
                break
    if not hit and hit_poly is None:
        return OK_TS
    normal = hit_poly[0]
    if not oi.state & OI_CONTACT and oi.state & OI_PATH_CLIPPED:
        # BSPTREE::collide_with_pt 0x0053A090 without PerfectClip: normal, Collided
        ci.set_collision_normal(normal)
        ci.hit_shape = shape
        return COLLIDED_TS
    if not oi.state & OI_CONTACT:
        path.set_collide(normal)
        path.walkable_allowance = Z_FOR_LANDING
        ci.hit_shape = shape
        return ADJUSTED_TS
    # In contact: retail tries BSPTREE::step_sphere_up; the harness has no step-up search,
    # so the wall stops the step and the next steps slide along its sliding normal.
    ci.set_collision_normal(normal)
    ci.hit_shape = shape
    return COLLIDED_TS


def _env_bsp(tr: CTransition, shape: Shape, polys) -> int:
    """CEnvCell::find_env_collisions 0x0052C130: a BSP result other than OK marks an
    environment collision unless the mover is in contact."""
    ts = _bsp_find_collisions(tr, shape, polys)
    if ts != OK_TS and not tr.object_info.state & OI_CONTACT:
        tr.collision_info.collided_with_environment = True
    return ts


class BoxShape(Shape):
    """An axis-aligned box as six outward-facing polygons (a BSP-like wall). Faces are
    tested in the order -X, +X, -Y, +Y, -Z, +Z."""

    def __init__(self, lo: Vec3, hi: Vec3, index: int = -1) -> None:
        if any(hi[i] <= lo[i] for i in range(3)):
            raise ValueError("box max must exceed min on every axis")
        self.lo, self.hi, self.index = tuple(lo), tuple(hi), index
        x0, y0, z0 = lo
        x1, y1, z1 = hi
        faces = [
            ((-1.0, 0.0, 0.0), [(x0, y0, z0), (x0, y0, z1), (x0, y1, z1), (x0, y1, z0)]),
            ((1.0, 0.0, 0.0), [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)]),
            ((0.0, -1.0, 0.0), [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)]),
            ((0.0, 1.0, 0.0), [(x0, y1, z0), (x0, y1, z1), (x1, y1, z1), (x1, y1, z0)]),
            ((0.0, 0.0, -1.0), [(x0, y0, z0), (x0, y1, z0), (x1, y1, z0), (x1, y0, z0)]),
            ((0.0, 0.0, 1.0), [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]),
        ]
        polys = []
        for n, v in faces:
            # counter-clockwise seen from the front, as retail's polygons are
            if vec_dot(vec_cross(vec_sub(v[1], v[0]), vec_sub(v[2], v[1])), n) < 0.0:
                v = v[::-1]
            polys.append((plane_through(n, v[0]), v))
        self.polys = polys

    def find_collisions(self, tr: CTransition) -> int:
        return _env_bsp(tr, self, self.polys)


class ObjectShape(Shape):
    """A target shape that is an object (a sphere or cylinder with an ObjectDesc).

    ``aabb`` (min x, y, z, max x, y, z) bounds every place the mover's first sphere center
    can be, less the mover's radius, for ``intersects`` to report a collision: outside it
    ``find_collisions`` returns OK and changes nothing, which is what lets the transition's
    broad phase skip the shape."""

    is_environment = False

    def __init__(self, desc: ObjectDesc, index: int) -> None:
        self.desc = desc
        self.index = index

    @property
    def name(self) -> str:
        return self.desc.id if isinstance(self.desc.id, str) else str(self.desc.id)

    def find_collisions(self, tr: CTransition) -> int:
        """CPhysicsObj::FindObjCollisions 0x0050F050 for one object."""
        desc, oi, path, ci = self.desc, tr.object_info, tr.sphere_path, tr.collision_info
        if desc.state & ph.ETHEREAL and desc.state & ph.IGNORE_COLLISIONS:
            return OK_TS
        ethereal = bool(desc.state & ph.ETHEREAL or oi.ethereal and not desc.state & ph.STATIC)
        if ethereal and path.step_down:
            return OK_TS
        path.obstruction_ethereal = ethereal
        is_creature = bool(desc.state & ph.MISSILE or desc.has_weenie and desc.is_creature)
        if oi.missile_ignore(desc):
            path.obstruction_ethereal = False
            return OK_TS
        ts = self.intersects(tr, is_creature)
        if ts != OK_TS and not path.step_down:
            if desc.state & ph.STATIC:
                if not oi.state & OI_CONTACT:
                    ci.collided_with_environment = True
                    ci.hit_shape = self
            elif ethereal or is_creature and oi.state & OI_IGNORE_CREATURES:
                ts = OK_TS
                ci.collision_normal_valid = False
                ci.add_object(desc, OK_TS)
            else:
                ci.add_object(desc, ts)
                ci.hit_shape = self
        path.obstruction_ethereal = False
        return ts


OI_IGNORE_CREATURES = 0x400


class SphereShape(ObjectShape):
    def __init__(self, center: Vec3, radius: float, desc: ObjectDesc, index: int) -> None:
        super().__init__(desc, index)
        self.sphere = Sphere(tuple(center), float(radius))
        r = self.sphere.radius
        self.aabb = tuple(c - r for c in self.sphere.center) + tuple(
            c + r for c in self.sphere.center)

    def intersects(self, tr: CTransition, is_creature: bool) -> int:
        """CSphere::intersects_sphere 0x00537A80 (first sphere)."""
        path, ci, oi = tr.sphere_path, tr.collision_info, tr.object_info
        me = path.global_sphere[0]
        disp = vec_sub(me.center, self.sphere.center)
        radsum = self.sphere.radius + me.radius - EPS
        collides = vec_dot(disp, disp) <= radsum * radsum   # CSphere::collides_with_sphere
        if path.obstruction_ethereal or path.insert_type == 1:
            return COLLIDED_TS if collides else OK_TS
        if path.collide:
            return COLLIDED_TS if collides else OK_TS
        if not collides:
            return OK_TS
        curr = path.global_curr_center[0]
        normal = _normalize_check_small(vec_sub(curr, self.sphere.center))
        if oi.state & (OI_CONTACT | OI_ON_WALKABLE):
            # retail: step_sphere_up / slide_sphere; the harness stops the step instead
            if normal is not None:
                ci.set_collision_normal(normal)
            return COLLIDED_TS
        if oi.state & OI_PATH_CLIPPED:
            # CSphere::collide_with_point 0x00537230 without PerfectClip
            if normal is not None:
                ci.set_collision_normal(normal)
            return COLLIDED_TS
        # CSphere::land_on_sphere 0x005379A0
        if normal is None:
            return COLLIDED_TS
        path.set_collide(normal)
        path.walkable_allowance = Z_FOR_LANDING
        return ADJUSTED_TS


class CylinderShape(ObjectShape):
    def __init__(self, low_point: Vec3, radius: float, height: float, desc: ObjectDesc,
                 index: int) -> None:
        super().__init__(desc, index)
        self.low_pt, self.radius, self.height = tuple(low_point), float(radius), float(height)
        (x, y, z), r = self.low_pt, self.radius
        self.aabb = (x - r, y - r, z, x + r, y + r, z + self.height)

    def _collides(self, sphere: Sphere, disp: Vec3, radsum: float) -> bool:
        """CCylSphere::collides_with_sphere 0x0053A8A0."""
        return (radsum * radsum >= disp[0] * disp[0] + disp[1] * disp[1]
                and sphere.radius - EPS + self.height * 0.5
                >= abs(self.height * 0.5 - disp[2]))

    def normal_of_collision(self, tr: CTransition, sphere: Sphere, disp: Vec3,
                            radsum: float) -> Vec3:
        """CCylSphere::normal_of_collision 0x0053AB70 (from where the sphere was)."""
        old = vec_sub(tr.sphere_path.global_curr_center[0], self.low_pt)
        if radsum * radsum < old[0] * old[0] + old[1] * old[1]:
            return (old[0], old[1], 0.0)
        return (0.0, 0.0, 1.0) if disp[2] - old[2] <= 0.0 else (0.0, 0.0, -1.0)

    def intersects(self, tr: CTransition, is_creature: bool) -> int:
        """CCylSphere::intersects_sphere 0x0053B540 (first sphere)."""
        path, ci, oi = tr.sphere_path, tr.collision_info, tr.object_info
        me = path.global_sphere[0]
        disp = vec_sub(me.center, self.low_pt)
        radsum = self.radius - EPS + me.radius
        collides = self._collides(me, disp, radsum)
        if path.obstruction_ethereal or path.insert_type == 1 or path.collide:
            return COLLIDED_TS if collides else OK_TS
        if not collides:
            return OK_TS
        normal = _normalize_check_small(self.normal_of_collision(tr, me, disp, radsum))
        if normal is None:
            return COLLIDED_TS
        if oi.state & (OI_CONTACT | OI_ON_WALKABLE) or oi.state & OI_PATH_CLIPPED:
            # collide_with_point without PerfectClip (contact: step_sphere_up, not ported)
            ci.set_collision_normal(normal)
            return COLLIDED_TS
        # land_on_cylinder 0x0053B4D0
        path.set_collide(normal)
        path.walkable_allowance = Z_FOR_LANDING
        return ADJUSTED_TS


# -- broad phase ---------------------------------------------------------------------------------
class _BroadPhase:
    """Which of a transition's shapes the mover's first sphere can touch where it is now.
    ``shapes[offset:]`` are object shapes with boxes ``lo`` / ``hi`` (``ObjectShape.aabb``):
    one whose box the sphere's box misses cannot collide (its narrow test would return OK
    with no side effect), so it is skipped. The shapes before ``offset`` (the environment)
    are always tested, and everything is tested in the transition's order, so results and
    impact order are those of testing every shape."""

    MIN_OBJECTS = 8
    MARGIN = 1e-3      # metres: far above float rounding in the narrow tests

    __slots__ = ("always", "hi", "lo", "offset")

    def __init__(self, offset: int, boxes: np.ndarray) -> None:
        self.offset = offset
        self.always = list(range(offset))
        self.lo, self.hi = boxes[:, :3], boxes[:, 3:]

    def near(self, shapes: Sequence[Shape], sphere: Sphere) -> list[Shape]:
        r = sphere.radius + self.MARGIN
        c = sphere.center
        qlo = np.array((c[0] - r, c[1] - r, c[2] - r))
        qhi = np.array((c[0] + r, c[1] + r, c[2] + r))
        with np.errstate(invalid="ignore"):
            hit = ((self.lo <= qhi) & (self.hi >= qlo)).all(axis=1)
        keep = self.always + (np.flatnonzero(hit) + self.offset).tolist()
        return [shapes[i] for i in keep]


class ObjectShapeIndex:
    """The live objects' collision shapes and their boxes, kept between transitions: an
    object's shapes are remade only when its frame, Setup, spheres or parent is another
    object or its state, scale, has_weenie or is_creature changed (in a tick of many
    movers that is the one that just moved), so a transition costs a comparison per
    object, not a rebuild of every shape."""

    def __init__(self) -> None:
        self._objs: list = []
        self._sig: list[tuple] = []
        self._spans: list[tuple[int, int]] = []
        self._slot: dict[int, int] = {}        # id(object) -> position
        self.shapes: list[Shape] = []
        self.boxes = np.empty((0, 6))

    def __deepcopy__(self, memo) -> ObjectShapeIndex:
        return ObjectShapeIndex()   # a copied world's objects are new objects: rebuild

    _signature = operator.attrgetter("frame", "setup", "state", "scale", "spheres", "parent",
                                     "has_weenie", "is_creature")

    def refresh(self, objects) -> None:
        objs = list(objects)
        sig = list(map(self._signature, objs))
        if len(objs) == len(self._objs) and all(map(operator.is_, objs, self._objs)):
            changed = list(itertools.compress(range(len(sig)), map(operator.ne, sig, self._sig)))
            if not changed:
                return
            remade = [_object_shapes_of(objs[i]) for i in changed]
            if all(len(m) == self._spans[i][1] - self._spans[i][0]
                   for i, m in zip(changed, remade, strict=True)):
                for i, shapes in zip(changed, remade, strict=True):
                    lo, hi = self._spans[i]
                    self.shapes[lo:hi] = shapes
                    if shapes:
                        self.boxes[lo:hi] = [s.aabb for s in shapes]
                self._sig = sig
                return
        self._objs, self._sig = objs, sig
        self.shapes, self._spans, self._slot = [], [], {}
        for i, obj in enumerate(objs):
            start = len(self.shapes)
            self.shapes += _object_shapes_of(obj)
            self._spans.append((start, len(self.shapes)))
            self._slot[id(obj)] = i
        self.boxes = np.array([s.aabb for s in self.shapes], np.float64).reshape(-1, 6)

    def without(self, mover) -> tuple[list[Shape], np.ndarray]:
        """Every shape but the mover's, in object order, and their boxes."""
        i = self._slot.get(id(mover))
        if i is None:
            return self.shapes, self.boxes
        lo, hi = self._spans[i]
        if lo == hi:
            return self.shapes, self.boxes
        return (self.shapes[:lo] + self.shapes[hi:],
                np.concatenate((self.boxes[:lo], self.boxes[hi:])))


# -- CTransition --------------------------------------------------------------------------------
@dataclass
class AdjustOptions:
    """CTransition::adjust_offset 0x0050A370: retail compares and divides the bare radius in
    the safety push-out (the default here); ``radius_times_nz`` restores the withheld
    alternative that uses radius * N.z at both sites."""
    radius_times_nz: bool = False


class CTransition:
    def __init__(self, body: ph.PhysicsBody, begin: Frame, end: Frame,
                 shapes: Sequence[Shape] = (), options: AdjustOptions | None = None,
                 object_boxes: np.ndarray | None = None) -> None:
        """``object_boxes``: the boxes of the last ``len(object_boxes)`` shapes, all object
        shapes, for the broad phase (``_BroadPhase``)."""
        self.collision_info = CollisionInfo()
        self.sphere_path = SpherePath(body.spheres, body.scale, begin, end)
        self.object_info = ObjectInfo(body)
        self.object_info.state = get_object_info(body, self)
        # OBJECTINFO::init 0x0050CF30
        self.object_info.target_id = body.target_id
        self.object_info.ethereal = bool(body.state & ph.ETHEREAL)
        self.object_info.step_down = not body.state & ph.MISSILE
        self.shapes = list(shapes)
        self._broad = None
        if object_boxes is not None and len(object_boxes) >= _BroadPhase.MIN_OBJECTS:
            self._broad = _BroadPhase(len(self.shapes) - len(object_boxes), object_boxes)
        self.options = options or AdjustOptions()
        ts = body.transient_state   # CPhysicsObj::transition 0x00512DC0
        if ts & ph.STATIONARY_STUCK:
            self.collision_info.frames_stationary_fall = 3
        elif ts & ph.STATIONARY_STOP:
            self.collision_info.frames_stationary_fall = 2
        elif ts & ph.STATIONARY_FALL:
            self.collision_info.frames_stationary_fall = 1

    # CTransition::calc_num_steps 0x0050A0B0 (not a viewer)
    def calc_num_steps(self) -> tuple[Vec3, Vec3, int]:
        path = self.sphere_path
        offset = vec_sub(path.end_pos.origin, path.begin_pos.origin)
        dist = vec_length(offset)
        q = dist / path.local_sphere[0].radius
        if q > 1.0:
            n = math.ceil(q)
            return offset, vec_scale(offset, 1.0 / n), int(n)
        if offset != (0.0, 0.0, 0.0):
            return offset, offset, 1
        return offset, (0.0, 0.0, 0.0), 0

    # CTransition::adjust_offset 0x0050A370 (retail form)
    def adjust_offset(self, offset: Vec3) -> Vec3:
        ci, path = self.collision_info, self.sphere_path
        result = offset
        check_slide = False
        if ci.sliding_normal_valid:
            if vec_dot(result, ci.sliding_normal) < 0.0:
                check_slide = True
            else:
                ci.sliding_normal_valid = False
        if ci.contact_plane_valid:
            n = ci.contact_plane[0]
            collision_angle = vec_dot(result, n)
            if check_slide:
                # crease slide: along cross(N, sliding_normal)
                crease = _normalize_check_small(vec_cross(n, ci.sliding_normal))
                if crease is None:
                    result = (0.0, 0.0, 0.0)
                else:
                    result = vec_scale(crease, vec_dot(crease, result))
            elif collision_angle <= 0.0:
                result = vec_sub(result, vec_scale(n, collision_angle))   # into the plane
            else:
                result = snap_to_plane(ci.contact_plane, result)          # away from it
            # safety push-out (0x0050A571); block offset is zero in the one-cell world
            if not ci.contact_plane_is_water and ci.contact_plane_cell_id != 0:
                g = path.global_sphere[0]
                dist = vec_dot(g.center, n) + ci.contact_plane[1]
                rad = g.radius * n[2] if self.options.radius_times_nz else g.radius
                if dist < rad - EPS:
                    # a vertical plane divides by zero: retail's x87 gives inf, no push
                    z_dist = (rad - dist) / n[2] if n[2] != 0.0 else math.inf
                    if g.radius > abs(z_dist):
                        path.add_offset_to_check_pos((0.0, 0.0, z_dist))
        elif check_slide:
            result = vec_sub(result, vec_scale(ci.sliding_normal,
                                               vec_dot(result, ci.sliding_normal)))
        return result

    def insert_into_cell(self, attempts: int) -> int:
        """CTransition::insert_into_cell 0x00509E70 over the world's one cell."""
        ts = OK_TS
        for _ in range(attempts):
            ts = self.find_collisions()
            if ts in (OK_TS, COLLIDED_TS):
                return ts
            if ts == SLID_TS:
                self.collision_info.contact_plane_valid = False
                self.collision_info.contact_plane_is_water = False
        return ts

    def find_collisions(self) -> int:
        """The cell's find_collisions: environment shapes, then objects; the first result
        other than OK ends the search (CLandCell::find_collisions 0x00532D60). Only shapes
        the broad phase cannot rule out are tested, in the same order."""
        shapes = self.shapes if self._broad is None else self._broad.near(
            self.shapes, self.sphere_path.global_sphere[0])
        for shape in shapes:
            ts = shape.find_collisions(self)
            if ts != OK_TS:
                return ts
        return OK_TS

    # CTransition::transitional_insert 0x0050B6F0
    def transitional_insert(self, attempts: int) -> int:
        path, ci = self.sphere_path, self.collision_info
        ts = INVALID_TS
        for _ in range(attempts):
            ts = self.insert_into_cell(attempts)
            if ts == COLLIDED_TS:
                return ts
            if ts == OK_TS:
                if path.collide:
                    path.collide = False
                    # retail: a valid contact plane tries check_walkable (a step-down search
                    # the harness does not have); it is treated as failing
                    path.restore_check_pos()
                    ci.contact_plane_valid = False
                    ci.contact_plane_is_water = False
                    if ci.last_known_contact_plane_valid:
                        self.object_info.kill_velocity()
                        ci.last_known_contact_plane_valid = False
                        return COLLIDED_TS
                    ci.set_collision_normal(path.step_up_normal)
                    return COLLIDED_TS
                # contact objects that lose the plane would step down; not ported
                return OK_TS
        return ts

    # CTransition::validate_transition 0x0050AA70
    def validate_transition(self, ts: int) -> int:
        path, ci, oi = self.sphere_path, self.collision_info, self.object_info
        redo = True
        moved = not (path.check_pos.origin == path.curr_pos.origin
                     and path.check_pos.orientation == path.curr_pos.orientation)
        if ts == OK_TS:
            redo = moved
            path.curr_pos = path.check_pos
            path.cache_global_curr_center()
            path.check_pos = path.curr_pos
            path.cache_global_sphere(None)
        else:
            redo = False
            if COLLIDED_TS <= ts <= SLID_TS:
                if ci.last_known_contact_plane_valid:
                    oi.kill_velocity()
                    plane = ci.last_known_contact_plane
                    c = path.global_curr_center[0]
                    if path.global_sphere[0].radius + EPS > abs(_plane_dist(plane, c)):
                        ci.set_contact_plane(plane, ci.last_known_contact_plane_is_water)
                        ci.contact_plane_cell_id = ci.last_known_contact_plane_cell_id
                        if oi.state & OI_ON_WALKABLE:
                            redo = True
                if not ci.collision_normal_valid:
                    ci.set_collision_normal((0.0, 0.0, 1.0))
                path.set_check_pos(path.curr_pos)
                ts = OK_TS
        if ci.collision_normal_valid:
            ci.set_sliding_normal(ci.collision_normal)
        if not oi.state & OI_IS_VIEWER and oi.body.state & ph.GRAVITY_PS:
            if redo:
                ci.frames_stationary_fall = 0
            elif ci.frames_stationary_fall == 0:
                ci.frames_stationary_fall = 1
            elif ci.frames_stationary_fall == 1:
                ci.frames_stationary_fall = 2
            else:
                ci.frames_stationary_fall = 3
                g = path.global_sphere[0]
                plane = ((0.0, 0.0, 1.0), g.radius - g.center[2])
                ci.set_contact_plane(plane, False)
                ci.contact_plane_cell_id = WORLD_CELL
                if not oi.state & OI_CONTACT:
                    ci.set_collision_normal(plane[0])
                    ci.collided_with_environment = True
        ci.last_known_contact_plane_valid = ci.contact_plane_valid
        if ci.contact_plane_valid:
            ci.last_known_contact_plane = ci.contact_plane
            ci.last_known_contact_plane_cell_id = ci.contact_plane_cell_id
            ci.last_known_contact_plane_is_water = ci.contact_plane_is_water
            oi.state |= OI_CONTACT
            if ci.contact_plane[0][2] >= ph.FLOOR_Z:
                oi.state |= OI_ON_WALKABLE
            else:
                oi.state &= ~OI_ON_WALKABLE
        else:
            oi.state &= ~(OI_CONTACT | OI_ON_WALKABLE)
        return ts

    # CTransition::find_transitional_position 0x0050BDF0
    def find_transitional_position(self) -> bool:
        path, ci, oi = self.sphere_path, self.collision_info, self.object_info
        ts = OK_TS
        _offset, per_step, num_steps = self.calc_num_steps()
        free = bool(oi.state & OI_FREE_ROTATE)
        if free:
            path.curr_pos = Frame(path.curr_pos.origin, path.end_pos.orientation)
        path.set_check_pos(path.curr_pos)
        self.steps_taken = 0
        if num_steps <= 0:
            if not free:
                path.curr_pos = Frame(path.curr_pos.origin, path.end_pos.orientation)
            path.set_check_pos(path.curr_pos)
            return True
        for step in range(num_steps):
            path.global_offset = self.adjust_offset(per_step)
            if (not oi.state & OI_IS_VIEWER
                    and vec_dot(path.global_offset, path.global_offset) < EPS * EPS):
                return step != 0 and ts == OK_TS
            if not free:
                q = interpolate_rotation(path.begin_pos, path.end_pos,
                                         (step + 1) / num_steps)
                path.check_pos = Frame(path.check_pos.origin, q)
            ci.sliding_normal_valid = False
            ci.contact_plane_valid = False
            ci.contact_plane_is_water = False
            path.check_pos = path.check_pos.with_origin(
                vec_add(path.check_pos.origin, path.global_offset))
            path.cache_global_sphere(path.global_offset)
            ts = self.validate_transition(self.transitional_insert(3))
            self.steps_taken = step + 1
            if ci.frames_stationary_fall:
                break
            if ci.collision_normal_valid and oi.state & OI_PATH_CLIPPED:
                break
        return ts == OK_TS


# -- Impact (trace) -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Impact:
    """One reported collision: ``other`` is ``"world:N"`` or an object id; ``point`` is the
    sphere's surface point along the collision normal at the committed position."""

    other: Any
    point: Vec3
    normal: Vec3
    environment: bool


# -- the world ----------------------------------------------------------------------------------
class CollisionWorld:
    """The scenario's world shapes, plus (through ``object_source``) the other live objects
    whose Setups have spheres."""

    def __init__(self, shapes: Sequence[Shape] = (), options: AdjustOptions | None = None,
                 object_source=None, clock=None):
        self.shapes = list(shapes)
        self.options = options or AdjustOptions()
        self.object_source = object_source
        self.clock = clock   # PhysicsTimer::curr_time, for the collision table

    def describe(self) -> list[dict]:
        """The world shapes as plain data for panels and overlays (read only)."""
        out = []
        for s in self.shapes:
            if isinstance(s, PlaneShape):
                d = {"kind": "plane", "normal": list(s.plane[0]), "d": s.plane[1]}
            elif isinstance(s, BoxShape):
                d = {"kind": "box", "min": list(s.lo), "max": list(s.hi)}
            elif isinstance(s, SphereShape):
                d = {"kind": "sphere", "center": list(s.sphere.center),
                     "radius": s.sphere.radius}
            else:
                d = {"kind": "cylinder", "low_point": list(s.low_pt), "radius": s.radius,
                     "height": s.height}
            d["name"] = s.name
            out.append(d)
        return out

    def transition(self, body: ph.PhysicsBody, old: Frame, new: Frame,
                   extra: Sequence[Shape] = ()) -> CTransition | None:
        """CPhysicsObj::transition 0x00512DC0: the sweep, or None when it fails."""
        if not body.spheres:
            return None
        shapes = sorted(list(self.shapes) + list(extra), key=lambda s: not s.is_environment)
        boxes = None
        if self.object_source is not None:   # object shapes: never environment, so last
            objects = self.object_source(body)
            if isinstance(objects, tuple):   # (shapes, their boxes): ObjectShapeIndex
                objects, boxes = objects
            shapes += objects
        tr = CTransition(body, old, new, shapes, self.options, boxes)
        return tr if tr.find_transitional_position() else None

    # CPhysicsObj::SetPositionInternal(CTransition*) 0x00514C90 + handle_all_collisions
    def set_position_internal(self, body: ph.PhysicsBody, tr: CTransition,
                              quantum: float) -> list[Impact]:
        ci, path = tr.collision_info, tr.sphere_path
        body._physics_clock = getattr(body, "_physics_clock", 0.0) + quantum
        prev_on_walkable = bool(body.transient_state & ph.ON_WALKABLE)
        prev_contact = bool(body.transient_state & ph.CONTACT)
        body.frame = path.curr_pos
        body.contact_plane = ci.contact_plane
        if ci.contact_plane_valid:
            body.transient_state |= ph.CONTACT
        else:
            body.transient_state &= ~ph.CONTACT
        ph.calc_acceleration(body)
        if ci.contact_plane_is_water:
            body.transient_state |= ph.WATER_CONTACT
        else:
            body.transient_state &= ~ph.WATER_CONTACT
        if body.transient_state & ph.CONTACT:
            # CPhysicsObj::set_on_walkable 0x00511250
            if body.contact_plane[0][2] < ph.FLOOR_Z:
                body.transient_state &= ~ph.ON_WALKABLE
            else:
                body.transient_state |= ph.ON_WALKABLE
        else:
            body.transient_state &= ~ph.ON_WALKABLE
        ph.calc_acceleration(body)
        body.sliding_normal = ci.sliding_normal
        if ci.sliding_normal_valid:
            body.transient_state |= ph.SLIDING
        else:
            body.transient_state &= ~ph.SLIDING
        return self.handle_all_collisions(body, tr, prev_contact, prev_on_walkable)

    # CPhysicsObj::handle_all_collisions 0x00514780
    def handle_all_collisions(self, body: ph.PhysicsBody, tr: CTransition, prev_contact: bool,
                              prev_on_walkable: bool) -> list[Impact]:
        ci = tr.collision_info
        apply_bounce = (not prev_on_walkable or not body.transient_state & ph.ON_WALKABLE
                        or bool(body.state & ph.SLEDDING))
        now = self._now(body, tr)
        table = _collision_table(body)
        impacts = self._track_object_collisions(body, tr, table, now)
        _report_collision_end(table, now)
        if body.colliding_with_environment:
            body.colliding_with_environment = ci.collided_with_environment
        elif ci.collided_with_environment or (not prev_on_walkable
                                              and body.transient_state & ph.ON_WALKABLE):
            impacts += self._report_environment(body, tr, None)
        f = ci.frames_stationary_fall
        if f <= 1:
            if apply_bounce and ci.collision_normal_valid:
                _bounce(body, ci.collision_normal)
        else:
            body.velocity = (0.0, 0.0, 0.0)
        _set_stationary(body, f)
        return impacts

    def _track_object_collisions(self, body: ph.PhysicsBody, tr: CTransition, table: dict,
                                 now: float) -> list[Impact]:
        """handle_all_collisions' walk of the objects hit this step."""
        impacts: list[Impact] = []
        for obj in tr.collision_info.collide_objects:
            # CPhysicsObj::track_object_collision 0x00513DD0: an object already in the
            # collision table is only touched again; a new one is reported
            if obj.state & ph.STATIC:
                impacts += self._report_environment(body, tr, obj.id)
                continue
            known = obj.id in table
            table[obj.id] = (now, bool(obj.state & ph.ETHEREAL))
            if known:
                continue
            # CPhysicsObj::report_object_collision 0x00513060
            if obj.state & ph.REPORT_COLLISIONS_AS_ENVIRONMENT:
                impacts += self._report_environment(body, tr, obj.id)
            elif not obj.state & ph.IGNORE_COLLISIONS:
                impacts.append(self._impact(tr, obj.id, False))
                if body.state & ph.MISSILE:
                    body.state &= ~(ph.MISSILE | ph.ALIGNPATH | ph.PATHCLIPPED)
        return impacts

    def _now(self, body, tr: CTransition) -> float:
        """PhysicsTimer::curr_time: the world's clock when it has one, else the body's own
        running total of quanta."""
        if self.clock is not None:
            return float(self.clock())
        return getattr(body, "_physics_clock", 0.0)

    def _report_environment(self, body: ph.PhysicsBody, tr: CTransition,
                            other_id) -> list[Impact]:
        """CPhysicsObj::report_environment_collision 0x00512FC0: once per contact; a missile
        stops being one (Missile, AlignPath, PathClipped cleared)."""
        if body.colliding_with_environment:
            return []
        body.colliding_with_environment = True
        if body.state & ph.MISSILE:
            body.state &= ~(ph.MISSILE | ph.ALIGNPATH | ph.PATHCLIPPED)
        shape = tr.collision_info.hit_shape
        other = other_id if other_id is not None else (shape.name if shape else "world")
        return [self._impact(tr, other, True)]

    @staticmethod
    def _impact(tr: CTransition, other, environment: bool) -> Impact:
        ci, path = tr.collision_info, tr.sphere_path
        n = ci.collision_normal if ci.collision_normal_valid else (
            ci.contact_plane[0] if ci.contact_plane_valid else (0.0, 0.0, 0.0))
        g = Sphere(path.curr_pos.local_to_global(path.local_sphere[0].center),
                   path.local_sphere[0].radius)
        point = vec_sub(g.center, vec_scale(n, g.radius))
        return Impact(other, point, n, environment)


EMPTY_WORLD = CollisionWorld()


def _report_collision_end(table: dict, now: float) -> None:
    """CPhysicsObj::report_collision_end 0x00513FD0: untouched for a second (ethereal: at
    once) ends the record."""
    for oid, (touched, ethereal) in list(table.items()):
        if now - touched > 1.0 or ethereal and now - touched > 0.0:
            del table[oid]


def _bounce(body: ph.PhysicsBody, normal) -> None:
    """handle_all_collisions' bounce off the collision normal: Inelastic stops dead,
    otherwise the inward velocity is reflected scaled by (elasticity + 1)."""
    if body.state & ph.INELASTIC:
        body.velocity = (0.0, 0.0, 0.0)
        return
    vn = vec_dot(body.velocity, normal)
    if vn < 0.0:
        k = -(vn * (body.elasticity + 1.0))
        body.velocity = vec_add(body.velocity, vec_scale(normal, k))


def _set_stationary(body: ph.PhysicsBody, frames_stationary_fall: int) -> None:
    """handle_all_collisions' stationary bits from the transition's frames_stationary_fall:
    0 or 3 clears them, 1 sets StationaryFall, 2 StationaryStop."""
    f = frames_stationary_fall
    if f == 0 or f == 3:
        body.transient_state &= ~(ph.STATIONARY_FALL | ph.STATIONARY_STOP
                                  | ph.STATIONARY_STUCK)
    elif f == 1:
        body.transient_state |= ph.STATIONARY_FALL
    elif f == 2:
        body.transient_state |= ph.STATIONARY_STOP


def _collision_table(body) -> dict:
    """CPhysicsObj::collision_table: object id -> (touched time, ethereal)."""
    table = getattr(body, "collision_table", None)
    if table is None:
        table = {}
        body.collision_table = table
    return table


def object_shapes(objects, mover) -> list[Shape]:
    """Every other top-level object's Setup spheres, scaled and placed by its frame, as
    collision targets (the mover's own shadow is skipped)."""
    out: list[Shape] = []
    for obj in objects:
        if obj is not mover:
            out += _object_shapes_of(obj)
    return out


def _object_shapes_of(obj) -> list[Shape]:
    """One object's collision shapes (none when it is a child or hidden)."""
    if getattr(obj, "parent", None) is not None:
        return []
    state = int(obj.state)
    if state & ph.HIDDEN:
        return []   # set_hidden takes the object out of its cell: nothing to hit
    desc = ObjectDesc(obj.id, state, bool(getattr(obj, "has_weenie", False)),
                      bool(getattr(obj, "is_creature", False)))
    frame, scale = obj.frame, obj.scale
    # CPhysicsObj::FindObjCollisions 0x0050F050: cylinder spheres when the Setup has
    # any, else its spheres; both scaled and placed by the object's position
    cyls = getattr(getattr(obj, "setup", None), "cylspheres", ()) or ()
    if cyls:
        return [CylinderShape(frame.local_to_global(vec_scale(tuple(cyl.low_point), scale)),
                              cyl.radius * scale, cyl.height * scale, desc, -1)
                for cyl in cyls]
    return [SphereShape(frame.local_to_global(vec_scale(c, scale)), r * scale, desc, -1)
            for c, r in getattr(obj, "spheres", ())]


# -- scenario "world" -----------------------------------------------------------------------------
def _vec(value, what: str, file) -> Vec3:
    """Three finite numbers in the position range (viewer/bounds.py POSITION): NaN would
    make every impact and pose "nan", an integer beyond the float range no float at all."""
    if (not isinstance(value, (list, tuple)) or len(value) != 3
            or not all(bounds.POSITION.contains(c) for c in value)):
        raise ScenarioError(f"world: {what} must be a list of three finite numbers within "
                            f"{bounds.POSITION.span()}, not {value!r}", file=file)
    return (float(value[0]), float(value[1]), float(value[2]))


def _num(value, what: str, file) -> float:
    if not bounds.POSITION.contains(value):
        raise ScenarioError(f"world: {what} must be a finite number within "
                            f"{bounds.POSITION.span()}, not {value!r}", file=file)
    return float(value)


def _desc(entry: dict, index: int, file) -> ObjectDesc:
    state = entry.get("state", 0)
    if isinstance(state, str):
        try:
            state = bounds.int_text(state)
        except ValueError:
            raise ScenarioError(f"world[{index}]: bad state {state!r}", file=file) from None
    if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= 0xFFFFFFFF:
        raise ScenarioError(f"world[{index}]: bad state {state!r} (a u32)", file=file)
    oid = entry.get("id", f"world:{index}")
    if isinstance(oid, bool) or not isinstance(oid, (int, str)):  # named in impact lines
        raise ScenarioError(f"world[{index}].id: expected an integer or a name, got "
                            f"{oid!r}", file=file)
    flags = []
    for key in ("weenie", "creature"):  # "false" is text, not false
        value = entry.get(key, False)
        if not (isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))):
            raise ScenarioError(f"world[{index}].{key}: expected true or false, got "
                                f"{value!r}", file=file)
        flags.append(bool(value))
    return ObjectDesc(oid, state, *flags)


_DESC_KEYS = {"state", "id", "weenie", "creature"}
#: each shape's keys (docs/cli.md section 4); any other is an error naming it
SHAPE_KEYS = {"plane": {"normal", "d"}, "box": {"min", "max"},
              "sphere": {"center", "radius"} | _DESC_KEYS,
              "cylinder": {"radius", "height", "low_point", "base"} | _DESC_KEYS}


def world_from_scenario(entries, file=None, options: AdjustOptions | None = None
                        ) -> CollisionWorld:
    """Build the collision world from a scenario's ``"world"`` list (docs/cli.md section 4)."""
    if entries is None:
        return CollisionWorld(options=options)
    if not isinstance(entries, list):
        raise ScenarioError("world must be a list of shapes", file=file)
    shapes: list[Shape] = []
    for i, item in enumerate(entries):
        if not isinstance(item, dict) or len(item) != 1:
            raise ScenarioError(f"world[{i}] must be an object with one shape key", file=file)
        kind, body = next(iter(item.items()))
        if not isinstance(body, dict):
            raise ScenarioError(f"world[{i}].{kind} must be an object", file=file)
        unknown = [k for k in body if k not in SHAPE_KEYS.get(kind, body)]
        if unknown:
            raise ScenarioError(f"world[{i}].{kind}.{unknown[0]}: unknown key (a {kind} "
                                f"takes {', '.join(sorted(SHAPE_KEYS[kind]))})", file=file)
        try:
            if kind == "plane":
                shapes.append(PlaneShape(_vec(body.get("normal"), "plane normal", file),
                                         _num(body.get("d", 0.0), "plane d", file), i))
            elif kind == "box":
                shapes.append(BoxShape(_vec(body.get("min"), "box min", file),
                                       _vec(body.get("max"), "box max", file), i))
            elif kind == "sphere":
                r = _num(body.get("radius"), "sphere radius", file)
                if r <= 0:
                    raise ValueError("sphere radius must be positive")
                shapes.append(SphereShape(_vec(body.get("center"), "sphere center", file), r,
                                          _desc(body, i, file), i))
            elif kind == "cylinder":
                r = _num(body.get("radius"), "cylinder radius", file)
                h = _num(body.get("height"), "cylinder height", file)
                if r <= 0 or h <= 0:
                    raise ValueError("cylinder radius and height must be positive")
                if "low_point" in body and "base" in body:  # two names of one point
                    raise ValueError("cylinder: give low_point or base, not both")
                low = body.get("low_point", body.get("base"))
                shapes.append(CylinderShape(_vec(low, "cylinder low_point", file), r, h,
                                            _desc(body, i, file), i))
            else:
                raise ScenarioError(f"world[{i}]: unknown shape {kind!r}", file=file)
        except ValueError as exc:
            raise ScenarioError(f"world[{i}]: {exc}", file=file) from None
        except ScenarioError as exc:  # _vec / _num: name the entry
            if not exc.message.startswith("world: "):
                raise
            raise ScenarioError(f"world[{i}]: {exc.message[7:]}", file=file) from None
    return CollisionWorld(shapes, options)
