"""World: the whole deterministic retail runtime, headless and seeded.

One ``World`` holds the objects, the seeded random source, the pooled particles and the
event sink. Drive it with ``tick(now)`` once per render frame (``now`` an exact Fraction of
seconds).

THE FRAME ORDER (written here only; tests/sim/test_world_order.py checks it). One render
frame k at wall time now = k / fps, as ``ScenarioRunner.frames()`` steps it for trace,
render, compare and the viewer's playback:

* ``ScenarioRunner.step_frame``: frame 0 creates the scenario objects; then every scenario
  event due at or before ``now`` is applied (time order, file order for equal times); then
  the projectile harness delivers the server messages due (impact answer, delete); only
  then ``World.tick(now)``:
* ``CPhysics::UseTime`` 0x00509950 updates objects only when >= MIN_QUANTUM has passed;
* each object then runs ``CPhysicsObj::update_object`` 0x00515D10 (catch-up quanta), whose
  ``UpdateObjectInternal`` 0x005156B0 runs, in retail order:
    UpdatePositionInternal 0x00512C30:
        advance animation / root motion            # [animation]  (skipped when Hidden)
        physics integration                        # [physics]    (skipped when Hidden)
        process_hooks: FPHook tweens, then queued animation hooks (process_hooks 0x005114E0: before
        the new root is committed, so hook-created emitters see the PREVIOUS pose)
    commit: [collision] sweep when the Setup has spheres, then set_frame 0x00514090:
        publish part poses, compose children (each child's particles and scripts with
        it, UpdateChild 0x00512D50), refresh emitter/light frames
    ParticleManager::UpdateParticles
    ScriptManager::UpdateScripts
* then ``CPhysicsObj::animate_static_object`` 0x00513DF0 for each static animating object
  (Static when InitDefaults 0x005139D0 ran, with a DefaultAnimation / DefaultScript): a
  scenario object whose initial state has Static is created static, as the client makes
  landblock statics; those are not in the object table, so they skip update_object;
* after all objects: UpdateTexVelocity, then the ``tick`` event;
* every frame ends with ``render_pass()``: the viewer distance (CYpt) of each emitter,
  which retail refreshes only when a frame is drawn (CPhysicsObj::UpdateViewerDistance
  0x00510B30), and the particle pool's ``dirty.end_tick()`` (our bookkeeping, no retail
  step: it seals the slots born, killed or re-stamped this frame, which the GPU particle
  pass uploads);
* then, outside the sim, the renderer draws the world and the viewer draws its ImGui
  panels (which read the world and only send commands).

Events for ``vfxviewer trace`` go through one sink, ``world.emit(dict)``.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from viewer.dat import records as R
from viewer.errors import ScenarioError, ViewerError
from viewer.sim import collision, physics
from viewer.sim import hooks as hooks_mod
from viewer.sim.clock import (
    EPS,
    HUGE_QUANTUM,
    MIN_QUANTUM,
    UseTimeGate,
    update_object_steps,
)
from viewer.sim.frame import IDENTITY, Frame
from viewer.sim.particles import (
    DEFAULT_DEGRADE_DISTANCE,
    F_CYPT,
    F_DEGRADE,
    ParticleEmitter,
    ParticleManager,
    ParticlePool,
    max_degrade_distance,
    parent_frame_for,
)
from viewer.sim.physobj import ChildLink, LightState, PhysicsObj, to_sim_frame
from viewer.sim.rng import RetailRandom
from viewer.sim.script_manager import ScriptManager
from viewer.sim.script_table import get_script
from viewer.sim.sound import SoundManager, frame_heading
from viewer.sim.state import PhysicsState, TransientState, state_hex

# the field that tells a record of each kind apart (wrong-type DIDs are caught early)
_SHAPE = {"Setup": "parts", "PhysicsScript": "script_data",
          "PhysicsScriptTable": "entries", "ParticleEmitterInfo": "particle_type",
          "SoundTable": "root", "Animation": "part_frames", "MotionTable": "cycles",
          "GfxObj": "vertex_array", "GfxObjDegradeInfo": "degrades"}
#: the record types a DID's top byte names (``holds`` tells a wrong-typed DID from its DID)
_RECORD_TYPES = frozenset(cls.__name__ for cls in R.RECORD_CLASSES.values())
PS_UNHIDE = 0x75
PS_HIDDEN = 0x76
# the bits the per-tick object update tests, as ints (a test against an IntFlag member
# builds a new enum value each time)
_FROZEN = int(PhysicsState.Frozen)
_STATIC = int(PhysicsState.Static)
_PARTICLE_EMITTER = int(PhysicsState.ParticleEmitter)
_HIDDEN = int(PhysicsState.Hidden)
_ACTIVE = int(TransientState.Active)
_ON_WALKABLE = int(TransientState.OnWalkable)
GRAVITY = physics.GRAVITY  # PhysicsGlobals::gravity, the float -9.8 (one constant)
MAX_VELOCITY = 50.0


class World:
    def __init__(self, db, seed: int = 0, *, viewer_position=(0.0, 0.0, 0.0)) -> None:
        self.db = db
        self.seed = seed
        self.rng = RetailRandom(seed)
        self.sound = SoundManager(seed)  # the voice ring and the C runtime's rand()
        self.pool = ParticlePool()
        self.objects: dict[int, PhysicsObj] = {}
        # CPhysics::static_animating_objects: ids, in the list's own order
        self.static_animating: list[int] = []
        self.time = Fraction(0)          # Timer.cur_time (exact)
        self.timer_now = 0.0             # Timer.cur_time as a float
        self.physics_time = 0.0          # PhysicsTimer.curr_time
        self.gate = UseTimeGate(Fraction(0))
        self._steps_cache = None  # World._steps_from
        self.viewer_position = tuple(float(c) for c in viewer_position)
        # how far every viewer-dependent decision so far was from flipping (render_pass)
        self._cull_margin = math.inf
        self.texture_velocity: dict[int, list[float]] = {}  # gfxobj -> [du, dv, u, v]
        # each GfxObj's constructed mesh: the UV offset CGfxObj::TexVelocity 0x005341D0 last
        # wrote (m_vUVDelta; m_bUseUVAnimation is set with it): one per GfxObj, shared by
        # every part and particle drawing that GfxObj, kept after its entry is removed
        self.gfx_uv_delta: dict[int, tuple[float, float]] = {}
        # every event, in order: the runtime's own listeners first (the projectile harness:
        # copied with the world, so a snapshot's harness hears its own world), then the
        # observers outside the runtime (trace's printer, render's capture: shared by every
        # snapshot, never copied)
        self.listeners: list[Callable[[dict], None]] = []
        self.observers: list[Callable[[dict], None]] = []
        # the record whose data names the DIDs being followed now (a hook's script or
        # Animation while it executes, a Setup while its defaults are installed): the
        # ``by`` of a ``missing`` event (see referring)
        self.referrer: int | None = None
        self.events: list[dict] | None = None  # set to [] to record
        self.next_handle = 1
        self.updates = 0
        # [physics] the scenario "world" shapes plus every other object's Setup spheres
        self._shape_index = collision.ObjectShapeIndex()   # the objects' collision shapes
        self.collision = collision.CollisionWorld(
            object_source=self._collision_objects, clock=self._physics_clock)
        self.last_quantum = 0.0

    # bound methods (not closures) so a deepcopy of the world stays self-consistent
    def _collision_objects(self, body):
        self._shape_index.refresh(self.objects.values())
        return self._shape_index.without(body)

    def _physics_clock(self) -> float:
        return self.physics_time

    def run_script_hook(self, obj: PhysicsObj, hook, did: int, index: int) -> None:
        hooks_mod.execute_hook(self, obj, hook, did, index)

    def snapshot(self) -> World:
        """An independent copy of the whole runtime state (the database and the observers
        are shared, not copied); continuing it gives the same run as continuing this."""
        return copy.deepcopy(self, self.snapshot_memo())

    def snapshot_bytes(self) -> int:
        """What a snapshot copies, roughly: the particle pool's tables (the rest of a world
        is small beside a busy pool)."""
        return self.pool.nbytes()

    def snapshot_memo(self) -> dict:
        """What a snapshot shares instead of copying (a deepcopy memo): the database, the
        observers and the records the database decoded (every world made from it already
        shares those; nothing changes a record). The listeners are copied: each is a bound
        method of a part of the runtime (the projectile harness), rebound to that part's
        copy (a shared list left a restored world's impacts to the harness of the run it
        was copied from: no server answer after a seek, the window disagreeing with trace)."""
        memo = {id(self.db): self.db, id(self.observers): self.observers}
        cached = getattr(self.db, "cached_records", None)
        if cached is not None:
            for record in cached():
                memo[id(record)] = record
        return memo

    def __deepcopy__(self, memo) -> World:
        """A deep copy that does not follow parent / child links object to object (a chain
        of hundreds of parents would exhaust Python's recursion): each object is copied
        without them, then the copies are linked the same way."""
        links = {oid: (o.parent, o.children) for oid, o in self.objects.items()}
        for o in self.objects.values():
            o.parent, o.children = None, []
        try:
            new = type(self).__new__(type(self))
            memo[id(self)] = new
            for key, value in self.__dict__.items():
                setattr(new, key, copy.deepcopy(value, memo))
        finally:
            for oid, (parent, children) in links.items():
                o = self.objects[oid]
                o.parent, o.children = parent, children
        for oid, (parent, children) in links.items():
            o = new.objects[oid]
            o.parent = new.objects.get(parent.id) if parent is not None else None
            o.children = [ChildLink(new.objects[link.child.id], link.part_index,
                                    copy.deepcopy(link.frame, memo)) for link in children]
        return new

    # -- events ------------------------------------------------------------------------------
    def emit(self, event: dict) -> None:
        if self.pool._queue:  # the queued particle updates came first
            self.pool.flush()
        ev = {"t": self.timer_now}
        ev.update(event)
        if self.events is not None:
            self.events.append(ev)
        for fn in self.listeners:
            fn(ev)
        for fn in self.observers:
            fn(ev)

    # -- database ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def referring(self, did: int | None):
        """While the body runs, the DIDs followed are named by record ``did``."""
        before, self.referrer = self.referrer, did
        try:
            yield
        finally:
            self.referrer = before

    def missing(self, what: str, did: int, by: int | None = None, **extra) -> None:
        """One ``missing`` event: record ``did`` (a ``what``), named by record ``by`` (the
        current referrer when not given), is in no open DAT; the caller skips the effect
        the way retail skips it (DBObj::Get returns null)."""
        self.emit({"event": "missing", "what": what, "did": int(did),
                   "by": self.referrer if by is None else int(by), **extra})

    def holds(self, did: int, what: str, *, by: int | None = None) -> bool:
        """Whether an open DAT holds ``did`` (read from the directory: nothing decoded);
        a ``missing`` event when none does."""
        try:
            there = did in self.db
        except TypeError:  # a database without a directory to ask: load it
            try:
                self.db.get(did)
                there = True
            except (ViewerError, KeyError, LookupError):
                there = False
        if not there:
            self.missing(what, did, by)
            return False
        found = R.type_name(did)     # a record's type is its DID's top byte
        if what in _RECORD_TYPES and found != what:
            self.missing(what, did, by, found=found)   # e.g. a PhysicsScript as a Wave
            return False
        return True

    def _get(self, did: int, what: str, *, user: bool = False, by: int | None = None):
        """A record; a DID named directly by the user is an input error, a DID referenced
        from DAT data that is absent (or of the wrong type) is traced and skipped (retail's
        DBObj::Get -> null). ``by``: the record that named it (default: ``referrer``)."""
        try:
            record = self.db.get(did)
        except (ViewerError, KeyError, LookupError) as err:
            if user:
                if isinstance(err, ViewerError) and err.offset is not None:
                    # a record that failed to decode: keep where (DAT file, DID, offset)
                    raise ScenarioError(f"{what}: {err.message}").located(
                        file=err.file, did=did if err.did is None else err.did,
                        offset=err.offset) from err
                if isinstance(err, ViewerError):  # absent: the scenario (or the command
                    # line) named it; say which DAT lacks it, the caller names the field
                    lacks = (f"not found in {err.file}" if err.file and err.did == did
                             else err.message)
                    raise ScenarioError(f"{what}: {lacks}", did=did) from err
                raise ScenarioError(f"{what}: no such DID", did=did) from err
            self.missing(what, did, by)
            return None
        attr = _SHAPE.get(what)
        if attr is not None and not hasattr(record, attr):
            if user:   # "DID X is a Y, not a Z"
                raise ScenarioError(R.wrong_type(did, type(record), what).message, did=did)
            self.missing(what, did, by, found=type(record).__name__)
            return None
        return record

    # -- objects ---------------------------------------------------------------------------------
    def create_object(self, obj_id: int, setup_did: int, *, position=(0.0, 0.0, 0.0),
                      heading_deg: float = 0.0, velocity=(0.0, 0.0, 0.0), omega=None,
                      state: int | None = None, table: int | None = None,
                      from_desc: bool = True, default_script_type: int = 0,
                      default_script_intensity: float = 0.0, scale: float | None = None,
                      translucency: float | None = None) -> PhysicsObj:
        """Create and place an object the way CreateObject does: InitDefaults 0x005139D0
        (Setup DefaultScript played at once, default tables), then set_description
        0x00514F40 when ``from_desc`` (the network PeTable replaces the Setup's even when
        absent or zero), set_state with side effects, scale, translucency, velocity."""
        if obj_id in self.objects:
            raise ScenarioError(f"object id {obj_id} already exists")
        setup = self._get(setup_did, "Setup", user=True)
        self.taking_up_gfxobj()
        obj = PhysicsObj(obj_id, setup, setup_did)
        obj.update_time = self.time
        obj.transient_state |= TransientState.Active  # within the viewer's range
        self.objects[obj_id] = obj
        self.emit({"event": "object", "action": "created", "owner": obj_id,
                   "setup": setup_did})
        self._check_parts(obj)
        obj.frame = Frame.from_heading(tuple(float(c) for c in position), float(heading_deg))
        self._set_frame(obj, obj.frame)
        if state is not None and state & PhysicsState.Static:
            # created static, the way CLandBlock::init_static_objs makes its objects
            # (makeObject(did, 0, bDynamic=0) -> InitObjectBegin 0x0050FF80 sets Static
            # before InitDefaults): the scenario state is the object's state from the start
            obj.dynamic = False
            self.set_state(obj, int(state))
        if obj.has(PhysicsState.Lighting):
            self._init_lights(obj)
        self._init_defaults(obj)
        self._set_description(obj, table=table, state=state, from_desc=from_desc,
                              scale=scale, translucency=translucency)
        self.set_velocity(obj, velocity)
        if omega is not None:
            obj.omega = tuple(float(c) for c in omega)
        obj.default_script_type = int(default_script_type)
        obj.default_script_intensity = float(default_script_intensity)
        self._calc_acceleration(obj)
        self._set_frame(obj, obj.frame)
        return obj

    def _init_defaults(self, obj: PhysicsObj) -> None:
        """CPhysicsObj::InitDefaults 0x005139D0: the Setup's DefaultScript played at once,
        its motion, sound and script tables; a static object with a DefaultAnimation /
        DefaultScript gets HasDefaultAnim / HasDefaultScript and is registered with
        CPhysics::AddStaticAnimatingObject 0x00509AF0."""
        setup = obj.setup
        by = obj.setup_did  # the Setup names each of these
        if getattr(setup, "default_script", 0):
            self.play_script_internal(obj, int(setup.default_script), origin="DefaultScript",
                                      by=by)
        self._attach_motion(obj)  # [animation]
        if getattr(setup, "default_sound_table", 0):
            obj.sound_table_did = int(setup.default_sound_table)
        if getattr(setup, "default_script_table", 0):
            self._install_table(obj, int(setup.default_script_table), by=by)
        if not obj.state & PhysicsState.Static:
            return
        before = obj.state
        if getattr(setup, "default_animation", 0):
            obj.state |= PhysicsState.HasDefaultAnim
        if getattr(setup, "default_script", 0):
            obj.state |= PhysicsState.HasDefaultScript
        if obj.state & (PhysicsState.HasDefaultAnim | PhysicsState.HasDefaultScript):
            self.add_static_animating_object(obj)
        self._trace_state(obj, before)

    def _set_description(self, obj: PhysicsObj, *, table: int | None, state: int | None,
                         from_desc: bool, scale: float | None,
                         translucency: float | None) -> None:
        """CPhysicsObj::set_description 0x00514F40: the network PeTable replaces the
        Setup's even when absent or zero (a static object made from landblock data gets no
        description: its Setup table stays unless the scenario names one), then the
        state with side effects, scale and translucency."""
        if from_desc and obj.dynamic:
            obj.table = None
            obj.table_did = 0
        if table:
            self._install_table(obj, int(table), user=True)
        if state is not None and obj.dynamic:
            self.set_state(obj, int(state))
        if obj.state & PhysicsState.Static:  # set_active 0x0050FC40: never active
            obj.transient_state &= ~TransientState.Active
        if scale is not None:
            obj.set_scale_static(float(scale))
        if translucency is not None:  # set_description: also the clamp floor
            obj.translucency_original = float(translucency)
            obj.set_translucency_internal(float(translucency))

    def _install_table(self, obj: PhysicsObj, did: int, *, user: bool = False,
                       by: int | None = None) -> None:
        table = self._get(did, "PhysicsScriptTable", user=user, by=by)
        obj.table = table
        obj.table_did = did if table is not None else 0

    def sound_table(self, obj: PhysicsObj):
        """The owner's SoundTable (CPhysicsObj::sound_table, from Setup.default_sound_table
        in InitDefaults 0x005139D0), or None (an absent one is traced, named by the
        Setup, each time a sound needs it)."""
        if not obj.sound_table_did:
            return None
        return self._get(obj.sound_table_did, "SoundTable", by=obj.setup_did)

    def _attach_motion(self, obj: PhysicsObj) -> None:
        """[animation] Install the Setup's motion table / DefaultAnimation controller as
        ``obj.motion`` (advance(dt), part_frames(), do_motion(cmd)); objects with neither
        hold the Setup placement pose."""
        setup = obj.setup
        if not (getattr(setup, "default_animation", 0)
                or getattr(setup, "default_motion_table", 0)):
            return
        from viewer.sim.animation.controller import MotionController
        obj.motion = MotionController(setup, functools.partial(self._load_motion_record, obj),
                                      missing_ok=True)

    def _load_motion_record(self, obj: PhysicsObj, did: int):
        """[animation] Absent Animation / MotionTable: traced, then skipped (the Setup names
        its motion table and default animation, the motion table every other Animation).
        A bound method, not a closure, so a copied world's controllers load through the
        copy."""
        setup = obj.setup
        if did >> 24 != 0x03:
            return self._get(did, "MotionTable", by=obj.setup_did)
        table = int(getattr(setup, "default_motion_table", 0) or 0)
        by = (obj.setup_did if did == int(getattr(setup, "default_animation", 0) or 0)
              or not table else table)
        return self._get(did, "Animation", by=by)

    def _check_parts(self, obj: PhysicsObj) -> None:
        """A Setup part whose GfxObj no open DAT holds: traced, named by the Setup, once
        when the object is made. (Retail's CPhysicsPart::SetPart 0x0050E700 fails, so
        CPartArray::InitParts 0x00517F40 and the whole part array fail and no object is
        made; the viewer keeps the object for the scenario's events and draws no such
        part.)"""
        for gid in dict.fromkeys(int(g) for g in getattr(obj.setup, "parts", ()) if g):
            self.holds(gid, "GfxObj", by=obj.setup_did)

    def add_static_animating_object(self, obj: PhysicsObj) -> None:
        """CPhysics::AddStaticAnimatingObject 0x00509AF0: an object already listed is
        first taken out (its slot gets the last entry), then it is appended."""
        self._remove_static_animating(obj)
        self.static_animating.append(obj.id)
        obj.static_animating = True

    def _remove_static_animating(self, obj: PhysicsObj) -> None:
        """CPhysics::RemoveStaticAnimatingObject 0x00509760: the last entry fills the
        hole (the list is not kept in order)."""
        lst = self.static_animating
        if obj.id in lst:
            i = lst.index(obj.id)
            lst[i] = lst[-1]
            lst.pop()
        obj.static_animating = False

    def gfxobjs_in_use(self) -> set[int]:
        """The GfxObj DIDs something holds: the parts of every object in the world and the
        particles of every live emitter."""
        used = {int(p.gfxobj_id) for obj in self.objects.values() for p in obj.parts}
        used.update(int(self.pool.row_gfx[em.row]) for em in self.pool.row_emitter
                    if em is not None)
        return used

    def remove_object(self, obj_id: int) -> None:
        """Logical teardown: queues, emitters, particles, lights and hooks go with it."""
        obj = self.objects.pop(obj_id, None)
        if obj is None:
            return
        self._remove_static_animating(obj)
        if obj.particle_manager is not None:
            obj.particle_manager.destroy_all()
            obj.particle_manager = None
        if obj.script_manager is not None:
            obj.script_manager.clear()
            obj.script_manager = None
        obj.fp_hooks.clear()
        obj.anim_hooks.clear()
        obj.lights = None
        for link in list(obj.children):
            link.child.parent = None
        obj.children.clear()
        if obj.parent is not None:
            obj.parent.children = [c for c in obj.parent.children if c.child is not obj]
            obj.parent = None
        self.emit({"event": "object", "action": "destroyed", "owner": obj_id})

    def attach_child(self, child: PhysicsObj, parent: PhysicsObj, part_index: int,
                     frame: Frame | None = None, *, holding: bool = False) -> bool:
        """CPhysicsObj::set_parent 0x00515B50 / add_child 0x0050F8F0: the child follows the
        parent's part. add_child refuses the object itself and a part index that is
        neither -1 nor below the parent's part count (returns False, nothing changes);
        set_parent then leaves any old parent. A parent that is already the child's
        descendant would make retail's child walk loop forever: refused with a
        ScenarioError. ``holding``: the holding-location form (set_parent(obj, where)),
        which also gives the child NoDraw when the parent is Hidden."""
        if child is parent or not (part_index == -1 or 0 <= part_index < parent.num_parts):
            return False
        # a child without children of its own cannot be above its parent: the walk up is
        # needed only then, so a scenario attaching a chain top down stays linear
        up = parent if child.children else None
        while up is not None:  # iterative: a chain of any depth
            if up is child:
                raise ScenarioError(f"object {child.id}: parent {parent.id} is its own "
                                    f"descendant (a parent cycle)")
            up = up.parent
        frame = frame if frame is not None else Frame()
        if child.parent is not None:  # CPhysicsObj::unset_parent
            old = child.parent
            old.children = [c for c in old.children if c.child is not child]
        child.parent = parent
        parent.children.append(ChildLink(child, int(part_index), frame))
        self._update_child(parent, parent.children[-1])
        if holding and parent.state & PhysicsState.Hidden:  # set_parent(obj, where)
            child.state |= PhysicsState.NoDraw
            for p in child.parts:
                p.hidden = True
        return True

    # -- state ------------------------------------------------------------------------------------
    def set_state(self, obj: PhysicsObj, new_state: int) -> None:
        """CPhysicsObj::set_state 0x00514DD0: Lighting, then NoDraw, then Hidden."""
        before = obj.state
        changed = (new_state ^ obj.state) & 0xFFFFFFFF
        obj.state = new_state & 0xFFFFFFFF
        if changed & PhysicsState.Lighting:
            self.set_lights(obj, bool(new_state & PhysicsState.Lighting), trace=False)
        if changed & PhysicsState.NoDraw:
            self.set_nodraw(obj, bool(obj.state & PhysicsState.NoDraw), trace=False)
        if changed & PhysicsState.Hidden:
            self.set_hidden(obj, bool(obj.state & PhysicsState.Hidden), trace=False)
        # no calc_acceleration here: retail recalculates it in SetPositionInternal
        # 0x00515330 (every committed sweep), set_on_walkable and leave_world, so a new
        # Gravity bit takes effect after the next committed step
        self._trace_state(obj, before, force=True)

    def _trace_state(self, obj: PhysicsObj, before: int, force: bool = False) -> None:
        if force or obj.state != before:
            self.emit({"event": "state", "owner": obj.id, "state": state_hex(obj.state),
                       "hidden": obj.hidden})

    def set_hidden(self, obj: PhysicsObj, hidden: bool, *, trace: bool = True) -> None:
        """CPhysicsObj::set_hidden 0x00514C60."""
        before = obj.state
        if hidden:
            obj.state |= PhysicsState.Hidden
            if obj.table is not None:
                did = self.resolve(obj, PS_HIDDEN, 1.0)
                self.play_script_internal(obj, did, origin="Hidden", by=obj.table_did)
            for link in obj.children:
                link.child.state |= PhysicsState.NoDraw
                for p in link.child.parts:
                    p.hidden = True
            if obj.state & PhysicsState.ReportCollisions:
                obj.state &= ~PhysicsState.ReportCollisions
            obj.state |= PhysicsState.IgnoreCollisions
        else:
            obj.state &= ~PhysicsState.Hidden
            if obj.table is not None:
                did = self.resolve(obj, PS_UNHIDE, 1.0)
                self.play_script_internal(obj, did, origin="UnHide", by=obj.table_did)
            for link in obj.children:  # unconditionally, as retail does
                link.child.state &= ~PhysicsState.NoDraw
                for p in link.child.parts:
                    p.hidden = False
            obj.state &= ~PhysicsState.IgnoreCollisions
            if not obj.state & PhysicsState.ReportCollisions:
                obj.state |= PhysicsState.ReportCollisions
        if trace:
            self._trace_state(obj, before)

    def set_nodraw(self, obj: PhysicsObj, nodraw: bool, *, trace: bool = True) -> None:
        """CPhysicsObj::set_nodraw 0x0050FCA0: the bit and every own part's hidden bit
        (attached emitters are not touched)."""
        before = obj.state
        if nodraw:
            obj.state |= PhysicsState.NoDraw
        else:
            obj.state &= ~PhysicsState.NoDraw
        for p in obj.parts:
            p.hidden = bool(nodraw)
        if trace:
            self._trace_state(obj, before)

    def set_ethereal(self, obj: PhysicsObj, ethereal: bool) -> None:
        """CPhysicsObj::set_ethereal 0x00511C40: a collision flag only."""
        before = obj.state
        if ethereal:
            obj.state |= PhysicsState.Ethereal
        else:
            obj.state &= ~PhysicsState.Ethereal
        self._trace_state(obj, before)

    def set_lights(self, obj: PhysicsObj, on: bool, *, trace: bool = True) -> None:
        """CPhysicsObj::set_lights 0x0050FCF0 and set_state's Lighting branch: one
        create/destroy state (CPartArray::InitLights 0x00518C00 / DestroyLights 0x005191B0)."""
        before = obj.state
        if on:
            obj.state |= PhysicsState.Lighting
            self._init_lights(obj)
        else:
            obj.state &= ~PhysicsState.Lighting
            obj.lights = None
        if trace:
            self._trace_state(obj, before)
        self.emit({"event": "lights", "owner": obj.id, "on": bool(on),
                   "count": len(obj.lights or ())})

    def _init_lights(self, obj: PhysicsObj) -> None:
        lights = getattr(obj.setup, "lights", ()) or ()
        obj.lights = [LightState(i, li, to_sim_frame(li.offset)) for i, li in enumerate(lights)]
        self._update_lights(obj)

    def _update_lights(self, obj: PhysicsObj) -> None:
        if obj.lights:
            for light in obj.lights:
                light.world = obj.frame.combine(light.local)  # object frame, no scale

    def set_velocity(self, obj: PhysicsObj, v) -> None:
        """CPhysicsObj::set_velocity 0x005113F0: clamp to 50 and activate."""
        v = tuple(float(c) for c in v)
        n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        if n2 > MAX_VELOCITY * MAX_VELOCITY:
            n = math.sqrt(n2)
            v = (v[0] / n * MAX_VELOCITY, v[1] / n * MAX_VELOCITY, v[2] / n * MAX_VELOCITY)
        obj.velocity = v
        self._set_active(obj)

    def _set_active(self, obj: PhysicsObj) -> None:
        """CPhysicsObj::set_active 0x0050FC40: Static objects never activate; activating
        an inactive object stamps update_time (so that call resyncs)."""
        if obj.state & _STATIC:
            return
        ts = obj.transient_state
        if not ts & _ACTIVE:
            obj.update_time = self.time
            obj.transient_state = ts | _ACTIVE

    def _calc_acceleration(self, obj: PhysicsObj) -> None:
        """CPhysicsObj::calc_acceleration 0x00510950."""
        ts = obj.transient_state
        if (ts & TransientState.Contact and ts & TransientState.OnWalkable
                and not obj.state & PhysicsState.Sledding):
            obj.acceleration = (0.0, 0.0, 0.0)
            obj.omega = (0.0, 0.0, 0.0)
        elif obj.state & PhysicsState.Gravity:
            obj.acceleration = (0.0, 0.0, GRAVITY)
        else:
            obj.acceleration = (0.0, 0.0, 0.0)

    # -- scripts --------------------------------------------------------------------------------
    def script_manager(self, obj: PhysicsObj) -> ScriptManager:
        if obj.script_manager is None:
            obj.script_manager = ScriptManager(
                obj.id, functools.partial(self.run_script_hook, obj), self.emit)
        return obj.script_manager

    def play_script_internal(self, obj: PhysicsObj, did: int, *, origin: str | None = None,
                             user: bool = False, by: int | None = None) -> bool:
        """CPhysicsObj::play_script_internal 0x00510CA0: DID 0 does nothing; a script no
        DAT holds is traced and nothing is queued (ScriptManager::AddScript 0x0051B3A0:
        DBObj::Get null, returns 0). ``by``: the record that named it."""
        if not did:
            return False
        script = self._get(int(did), "PhysicsScript", user=user, by=by)
        if script is None:
            return False
        self.script_manager(obj).add_script(script, int(did), self.timer_now)
        return True

    def play_script(self, obj: PhysicsObj, did: int, *, user: bool = True) -> bool:
        """CPhysicsObj::play_script 0x00510D30: needs a cell (else succeeds doing nothing)."""
        if not obj.in_cell:
            return True
        return self.play_script_internal(obj, did, user=user)

    def resolve(self, obj: PhysicsObj, script_type: int, intensity: float) -> int:
        did = get_script(obj.table, script_type, intensity)
        self.emit({"event": "resolve", "owner": obj.id,
                   "table": obj.table_did if obj.table is not None else None,
                   "type": int(script_type), "intensity": float(intensity),
                   "script": did or None})
        return did

    def play_typed(self, obj: PhysicsObj, script_type: int, intensity: float) -> bool:
        """CPhysicsObj::play_script(type, mod) 0x00513260 (the F755 path)."""
        if not obj.in_cell:
            return True
        if obj.table is None:
            self.resolve(obj, script_type, intensity)
            return False
        did = self.resolve(obj, script_type, intensity)
        return self.play_script_internal(obj, did, by=obj.table_did)

    def play_default_script(self, obj: PhysicsObj) -> bool:
        """CPhysicsObj::play_default_script 0x005132B0: the owner's default type/intensity."""
        if not obj.in_cell:
            return True
        if obj.table is None:
            return False
        did = self.resolve(obj, obj.default_script_type, obj.default_script_intensity)
        return self.play_script_internal(obj, did, by=obj.table_did)

    def play_default_script_part(self, obj: PhysicsObj, part_index: int) -> bool:
        """CPhysicsObj::play_default_script(part) 0x00513300: the child attached at that
        part plays ITS default through ITS table."""
        for link in obj.children:
            if link.part_index == part_index:
                child = link.child
                if not child.in_cell:
                    return True
                if child.table is None:
                    return False
                did = self.resolve(child, child.default_script_type,
                                   child.default_script_intensity)
                return self.play_script_internal(child, did, by=child.table_did)
        return False

    # -- particles ------------------------------------------------------------------------------
    def particle_manager(self, obj: PhysicsObj) -> ParticleManager:
        if obj.particle_manager is None:
            obj.particle_manager = ParticleManager(obj.id, self.emit)
        return obj.particle_manager

    def create_particle_emitter(self, obj: PhysicsObj, info_did: int, part_index: int,
                                offset: Frame, emitter_id: int, *, blocking: bool = False) -> int:
        """ParticleManager::CreateParticleEmitter 0x0051B6C0 and
        CreateBlockingParticleEmitter 0x0051B8A0."""
        pm = self.particle_manager(obj)
        ev = {"owner": obj.id, "logical_id": emitter_id, "info": info_did, "part": part_index}
        if blocking and emitter_id != 0:
            live = pm.find(emitter_id)
            if live is not None:
                self.emit({"event": "emitter", "action": "blocked", **ev, "handle": live.handle})
                return 0
        pm.replace_existing(emitter_id)
        self.taking_up_gfxobj()
        # ParticleEmitter::SetInfo(DID) 0x0051D3C0: DBObj::Get null -> no emitter
        info = self._get(info_did, "ParticleEmitterInfo")
        reason = None
        if info is None:
            reason = "missing ParticleEmitterInfo"
        elif not int(getattr(info, "hw_gfxobj_id", 0)):
            reason = "hw_gfxobj_id is 0"  # ParticleEmitter::SetInfo 0x0051CE90
        elif not self.holds(int(info.hw_gfxobj_id), "GfxObj", by=info_did):
            # SetInfo 0x0051CE90: CPhysicsPart::makePhysicsPart 0x0050E760 fails for the
            # particles' GfxObj -> SetInfo returns 0, CreateParticleEmitter 0x0051B6C0 too
            reason = "missing GfxObj"
        elif not (part_index == -1 or 0 <= part_index < obj.num_parts):
            reason = "part index out of range"  # add_child 0x0050F8F0
        if reason is not None:
            # its own event kind: the contract's emitter actions all name a live instance
            self.emit({"event": "emitter_failed", **ev, "reason": reason})
            return 0
        degrade = self._degrade_distance(int(info.hw_gfxobj_id), info_did)
        handle = self.next_handle
        self.next_handle += 1
        em = ParticleEmitter(self.pool, info, info_did, obj.id, part_index, offset, emitter_id,
                             handle, self.timer_now, degrade)
        # SetParenting -> set_parent -> UpdateChild: placed at once when the owner is in a cell
        em.set_parent_frame(parent_frame_for(part_index, obj.frame, obj.part_frames()))
        logical = pm.add(emitter_id, em)
        self.emit({"event": "emitter", "action": "created", "owner": obj.id,
                   "logical_id": logical, "info": info_did, "part": part_index,
                   "handle": handle})
        em.init_end(self.rng, self.physics_time, self.timer_now)
        return logical

    def _degrade_distance(self, gfxobj_did: int, info_did: int) -> float:
        """CPhysicsPart::GetMaxDegradeDistance 0x0050D510 of the particles' GfxObj (held:
        checked before); a degrade table no DAT holds is traced and gives the default."""
        gfx = self._get(gfxobj_did, "GfxObj", by=info_did)
        degrade = int(getattr(gfx, "did_degrade", 0) or 0)
        if gfx is None or (degrade and not self.holds(degrade, "GfxObjDegradeInfo",
                                                      by=gfxobj_did)):
            return DEFAULT_DEGRADE_DISTANCE
        return max_degrade_distance(self.db, gfxobj_did)

    # -- texture velocity -----------------------------------------------------------------------
    def add_gfx_velocity(self, gfxobj_id: int, du: float, dv: float) -> None:
        """CPhysics::AddGfxVelocity 0x00509B60: one entry per GfxObj, world-wide. An entry
        found takes the new speeds, or is removed by (0, 0) (the mesh keeps the offset
        last written to it: the texture stays where it was). No entry: one is made, at
        offset (0, 0), whatever the speeds (so (0, 0) makes a still entry, which writes
        (0, 0) to the mesh at the next UpdateTexVelocity)."""
        entry = self.texture_velocity.get(gfxobj_id)
        if entry is None:
            self.texture_velocity[gfxobj_id] = [du, dv, 0.0, 0.0]
        elif du != 0.0 or dv != 0.0:
            entry[0], entry[1] = du, dv
        else:
            del self.texture_velocity[gfxobj_id]

    def update_tex_velocity(self, dt: float) -> None:
        """CPhysics::UpdateTexVelocity 0x00509820: an accumulated offset >= 1 steps back
        by 1 (negative speeds never wrap), then CGfxObj::TexVelocity 0x005341D0 writes it
        to the GfxObj's mesh. A GfxObj that nothing uses any more (no part of a live
        object, no live emitter's particles: DBOCache::GetIfUsing 0x00416CF0 finds no
        link but the cache's) loses its entry, speed and offset: an object made with it
        later starts still, at [0, 0]. With no entry nothing is walked: a stopped
        velocity's mesh offset of a GfxObj let go is dropped when something next takes a
        GfxObj up (``taking_up_gfxobj``), the only time its loss can be seen."""
        if not self.texture_velocity:
            return
        used = self.release_unused_meshes()
        for gid in [g for g in self.texture_velocity if g not in used]:
            del self.texture_velocity[gid]
        for gid, entry in self.texture_velocity.items():
            su, sv = entry[0] * dt, entry[1] * dt
            if entry[2] >= 1.0:
                su -= 1.0
            if entry[3] >= 1.0:
                sv -= 1.0
            entry[2] += su
            entry[3] += sv
            self.gfx_uv_delta[gid] = (entry[2], entry[3])  # CGfxObj::TexVelocity

    def taking_up_gfxobj(self) -> None:
        """Before an object, an emitter or a part swap takes a GfxObj up: the meshes of the
        GfxObjs let go since are freed first (``release_unused_meshes``)."""
        if self.gfx_uv_delta:
            self.release_unused_meshes()

    def release_unused_meshes(self) -> set[int]:
        """A GfxObj whose last user let it go is freed (DBOCache::Release 0x00416D50 ->
        FreeObject 0x00416700 unloads it) and its mesh is built anew when next loaded: the
        UV offset its old mesh kept is gone. Run before anything takes a GfxObj up again
        (a new object, a new emitter, a part swap) and at each UpdateTexVelocity with an
        entry. Returns the GfxObjs in use."""
        used = self.gfxobjs_in_use()
        for gid in [g for g in self.gfx_uv_delta if g not in used]:
            del self.gfx_uv_delta[gid]
        return used

    # -- motion ---------------------------------------------------------------------------------
    def do_motion(self, obj: PhysicsObj, command: int, speed: float = 1.0) -> bool:
        """[animation] Hand a full 32-bit motion command to the object's motion controller
        (CPartArray::DoInterpretedMotion 0x00518750 -> MotionTableManager::PerformMovement)."""
        if obj.motion is None:
            self.emit({"event": "motion", "owner": obj.id, "command": int(command),
                       "applied": False})
            return False
        result = obj.motion.do_motion(int(command), float(speed))
        self.emit({"event": "motion", "owner": obj.id, "command": int(command),
                   "applied": bool(result) if result is not None else True})
        return True

    # -- the tick ------------------------------------------------------------------------------
    def tick(self, now) -> bool:
        """One render frame at wall time ``now``: CPhysics::UseTime 0x00509950, then the
        render pass. Returns whether objects were updated."""
        now = Fraction(now)
        self.time = now
        self.timer_now = float(now)
        quantum = self.gate.should_update(now)
        updated = quantum is not None
        if updated:
            # the particle managers' compiled updates of these loops run as one call
            # (ParticlePool.defer: queued, run before anything could tell them apart)
            pool = self.pool
            pool.defer = True
            try:
                for obj in list(self.objects.values()):
                    # static animating objects are landblock statics: not in the
                    # CObjectMaint object table this loop walks, so they never pass through
                    # update_object (no double update; they are animated only below)
                    if obj.id in self.objects and not obj.static_animating:
                        self.update_object(obj)
                self.physics_time = self.timer_now
                for obj_id in list(self.static_animating):
                    obj = self.objects.get(obj_id)
                    if obj is not None:
                        self.animate_static_object(obj)
            finally:
                pool.defer = False
            pool.flush()
            self.update_tex_velocity(float(quantum))
            self.updates += 1
            self.last_quantum = float(quantum)
            self.emit({"event": "tick", "particles": self.pool.live_count,
                       "emitters": self.pool.emitter_count})
        self.render_pass()
        self.pool.dirty.end_tick()
        return updated

    def set_viewer(self, eye, forward=None) -> None:
        """Where the viewer (the drawing camera's eye) stands for the frame being drawn:
        every drawing path (``render``, the window, ``screenshot``) calls this with its
        camera after each simulated frame, so the emitter distances (CYpt) and the next
        updates' distance culling come from the camera actually drawing. It is also the
        sound listener (SoundManager::SetPlayerPosition 0x005503C0 gets the viewer's frame);
        ``forward`` (where it looks) gives the listener's heading for the pan."""
        self.viewer_position = tuple(float(c) for c in eye)
        if forward is not None:
            self.sound.listener_heading = frame_heading(forward)
        self.render_pass()

    def render_pass(self) -> None:
        """The viewer distance (CYpt) of every emitter object, as a drawn frame refreshes
        it (CPhysicsObj::UpdateViewerDistance 0x00510B30): one numpy pass over the pool's
        emitter rows (a free row's value is never read; a new emitter starts at FLT_MAX)."""
        pool = self.pool
        n = len(pool.row_emitter)
        if n:
            d = pool.row_origin[:n] - np.asarray(self.viewer_position, dtype=np.float64)
            cypt = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1] + d[:, 2] * d[:, 2])
            pool.ef[:n, F_CYPT] = cypt
            live = pool.row_live[:n]
            gap = np.abs(cypt[live] - pool.ef[:n, F_DEGRADE][live])
            gap = gap[gap == gap]  # a NaN distance never lowered the margin
            if gap.size:
                self._cull_margin = min(self._cull_margin, float(gap.min()))

    @property
    def viewer_margin(self) -> float:
        """How far the viewer could have stood from where it did, every frame so far, and
        every decision the viewer's position makes would still have come out the same: the
        least distance between an emitter's viewer distance and its degrade distance (the
        culling of ShouldDrawParticles 0x0050FE60, from the CYpt each frame gives) and
        between a sound's distance and the distance at which it falls below VOL_MIN (the
        voice ring of PlaySoundInternal 0x00550170 turns only for a played sound). A run
        from the same start with every viewer position within this distance of the one
        used is the same run (a viewer distance moves no more than the viewer does)."""
        return min(self._cull_margin, self.sound.margin)

    def animate_static_object(self, obj: PhysicsObj) -> None:
        """CPhysicsObj::animate_static_object 0x00513DF0, run by CPhysics::UseTime after
        every update_object: PhysicsTimer = Timer; an elapsed time at or below EPS resyncs,
        one below MIN_QUANTUM waits (no resync), one above 2 s resyncs; otherwise the
        default animation advances without root motion, the frame turns by omega NOT
        multiplied by the elapsed time (a retail quirk: omega is radians per update),
        parts and children are re-posed, then scripts (HasDefaultScript only), particles
        and the hooks run, in that order."""
        if not obj.in_cell:
            return
        self.physics_time = self.timer_now  # PhysicsTimer::curr_time = Timer::cur_time
        elapsed = self.time - obj.update_time
        if elapsed <= EPS:
            obj.update_time = self.time
            return
        if elapsed < MIN_QUANTUM:
            return
        if elapsed > HUGE_QUANTUM:
            obj.update_time = self.time
            return
        if obj.setup is not None:  # the part array
            if obj.state & PhysicsState.HasDefaultAnim:
                if obj.motion is not None:  # CPartArray::Update(quantum, NULL): no root motion
                    _, fired = obj.motion.advance(float(elapsed), scale=obj.scale,
                                                  root_motion=False)
                    obj.anim_hooks.extend(fired)
                obj.frame = obj.frame.grotate(obj.omega)  # Frame::grotate, no dt
                self._set_frame(obj, obj.frame)  # UpdatePartsInternal, UpdateChildrenInternal
            if obj.state & PhysicsState.HasDefaultScript and obj.script_manager is not None:
                obj.script_manager.update_scripts(self.timer_now)
            if obj.particle_manager is not None:
                obj.particle_manager.update_particles(self.rng, self.physics_time,
                                                      self.timer_now)
            hooks_mod.process_hooks(self, obj)
        if obj.id in self.objects:
            obj.update_time = self.time

    def update_object(self, obj: PhysicsObj) -> None:
        """CPhysicsObj::update_object 0x00515D10."""
        if obj.parent is not None or not obj.in_cell or obj.state & _FROZEN:
            obj.transient_state &= ~_ACTIVE
            return
        self._set_active(obj)  # inside the 96 m player range: the viewer is the player
        start, steps, new_time = self._steps_from(obj.update_time)
        self.physics_time = start
        for t, dt in steps:
            self.physics_time = t
            self.update_object_internal(obj, dt)
            if obj.id not in self.objects:
                return
        obj.update_time = new_time

    def _steps_from(self, update_time: Fraction) -> tuple[float, list, Fraction]:
        """update_object_steps(now, update_time) with its times as floats: (the update time,
        [(physics time after, dt)], the new update time). The objects of a scene mostly
        share one update time (each update gives them the same new one), so the last answer
        is kept for the same ``now`` and the same update time object (an exact function
        of the two: the same answer)."""
        cached = self._steps_cache
        if cached is not None and cached[0] is self.time and cached[1] is update_time:
            return cached[2]
        steps, new_time = update_object_steps(self.time, update_time)
        answer = (float(update_time), [(float(t), float(dt)) for t, dt in steps], new_time)
        self._steps_cache = (self.time, update_time, answer)
        return answer

    def update_object_internal(self, obj: PhysicsObj, dt: float) -> None:
        """CPhysicsObj::UpdateObjectInternal 0x005156B0."""
        if obj.transient_state & _ACTIVE and obj.in_cell:
            new_frame = self.update_position_internal(obj, dt)
            if obj.num_spheres:
                self._commit_with_spheres(obj, new_frame, dt)  # [physics] [collision]
            else:
                # no spheres: no transition; the frame is committed with the OLD origin
                if (obj.transient_state & _ON_WALKABLE
                        and not obj.has_movement_manager):
                    obj.transient_state &= ~_ACTIVE
                self._set_frame(obj, Frame(obj.frame.origin, new_frame.orientation))
                obj.cached_velocity = (0.0, 0.0, 0.0)
        if obj.particle_manager is not None:
            obj.particle_manager.update_particles(self.rng, self.physics_time, self.timer_now)
        if obj.script_manager is not None:
            obj.script_manager.update_scripts(self.timer_now)

    def update_position_internal(self, obj: PhysicsObj, dt: float) -> Frame:
        """CPhysicsObj::UpdatePositionInternal 0x00512C30: Hidden skips the animation and
        the body integration, but timed hooks are still processed (a narrow tick)."""
        offset = IDENTITY
        if not obj.state & _HIDDEN:
            # root origin times m_scale when ON_WALKABLE, else zeroed (rotation kept)
            offset = self._advance_animation(obj, dt)  # [animation]
        new_frame = obj.frame.combine(offset)
        if not obj.state & _HIDDEN:
            new_frame = self._update_physics(obj, dt, new_frame)  # [physics]
        hooks_mod.process_hooks(self, obj)
        return new_frame

    def _advance_animation(self, obj: PhysicsObj, dt: float) -> Frame:
        """[animation] CPartArray::Update 0x00517DB0: advance the sequence, queue its hooks (run by
        process_hooks this tick), return the root-motion offset (object-local)."""
        if obj.motion is None:
            return IDENTITY
        root, fired = obj.motion.advance(
            dt, on_walkable=bool(obj.transient_state & _ON_WALKABLE), scale=obj.scale)
        for hook, anim_did, index in fired:
            obj.anim_hooks.append((hook, anim_did, index))
        return root if root is not None else IDENTITY

    def _update_physics(self, obj: PhysicsObj, dt: float, frame: Frame) -> Frame:
        """[physics] CPhysicsObj::UpdatePhysicsInternal 0x00510700 (viewer/sim/physics.py)."""
        return physics.update_physics_internal(obj, dt, frame)

    def _commit_with_spheres(self, obj: PhysicsObj, new_frame: Frame, dt: float) -> None:
        """[physics] [collision] UpdateObjectInternal's sphere branch: AlignPath, the
        transition sweep through ``self.collision``, SetPositionInternal and the collision
        response; impacts and the state bits a missile loses on impact are traced."""
        before = obj.state
        result = physics.commit_with_spheres(obj, new_frame, dt, self.collision)
        self._set_frame(obj, obj.frame)
        for imp in result.impacts:
            self.emit({"event": "impact", "owner": obj.id, "other": imp.other,
                       "point": list(imp.point), "normal": list(imp.normal)})
        self._trace_state(obj, before)

    # -- poses ----------------------------------------------------------------------------------
    def _local_part_frames(self, obj: PhysicsObj) -> list[Frame] | None:
        """[animation] The animation-driven local part frames, else the Setup placement."""
        if obj.motion is not None:
            frames = obj.motion.part_frames()
            if frames is not None:
                return frames
        return obj.placement_frames

    def _set_frame(self, obj: PhysicsObj, frame: Frame) -> None:
        """CPhysicsObj::set_frame 0x00514090: UpdateParts (CPartArray::SetFrame) unless the
        object is a particle emitter, then every child (UpdateChildrenInternal -> UpdateChild
        0x00512D50, which set_frames the child: the same walk one level down), then the
        object's emitters and lights.

        Retail recurses; this walks the child tree with an explicit stack in the same order
        (a child's whole subtree, then its particles and scripts, before the next sibling),
        so a chain of any depth is placed without Python recursion."""
        self._set_own_frame(obj, frame)
        if not obj.children:  # the walk below, for a node without children
            self._finish_set_frame(obj, frame)
            return
        stack = [(obj, frame, iter(obj.children))]
        while stack:
            node, node_frame, links = stack[-1]
            link = next(links, None)
            if link is not None:  # UpdateChild: place the child, then walk its children
                child_frame = self._place_child(node, link)
                stack.append((link.child, child_frame, iter(link.child.children)))
                continue
            stack.pop()
            self._finish_set_frame(node, node_frame)
            if stack:  # the rest of the parent's UpdateChild for this child
                self._child_particles_and_scripts(node)

    def _place_child(self, parent: PhysicsObj, link: ChildLink) -> Frame:
        """UpdateChild 0x00512D50's head: the child's frame on the parent's part (or root),
        then set_frame's head for the child. Returns that frame."""
        frame = parent_frame_for(link.part_index, parent.frame,
                                 parent.part_frames()).combine(link.frame)
        self._set_own_frame(link.child, frame)
        return frame

    def _set_own_frame(self, obj: PhysicsObj, frame: Frame) -> None:
        """set_frame's head: the root frame and the part poses."""
        obj.frame = frame
        if not obj.state & _PARTICLE_EMITTER:
            local = self._local_part_frames(obj)
            if local:
                s = (obj.scale, obj.scale, obj.scale)
                # CPartArray::UpdateParts 0x005190F0: parts beyond the pose keep their frame
                for i in range(min(len(obj.parts), len(local))):
                    obj.parts[i].frame = frame.combine_scaled(local[i], s)

    def _finish_set_frame(self, obj: PhysicsObj, frame: Frame) -> None:
        """set_frame's tail, after the children: emitter anchors and lights."""
        if obj.particle_manager is not None:
            obj.particle_manager.set_parent_frames(frame, obj.part_frames())
        self._update_lights(obj)

    def _child_particles_and_scripts(self, child: PhysicsObj) -> None:
        """UpdateChild 0x00512D50's tail: the child's particles, then its scripts."""
        if child.particle_manager is not None:
            child.particle_manager.update_particles(self.rng, self.physics_time, self.timer_now)
        if child.script_manager is not None:
            child.script_manager.update_scripts(self.timer_now)

    def _update_child(self, obj: PhysicsObj, link: ChildLink) -> None:
        """CPhysicsObj::UpdateChild 0x00512D50: frame, then the child's particles and
        scripts."""
        base = parent_frame_for(link.part_index, obj.frame, obj.part_frames())
        self._set_frame(link.child, base.combine(link.frame))
        self._child_particles_and_scripts(link.child)
