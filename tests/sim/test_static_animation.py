"""Static animating objects (CPhysicsObj::InitDefaults 0x005139D0).

CPhysicsObj::InitDefaults 0x005139D0 gives a static object HasDefaultAnim / HasDefaultScript
when its Setup has a DefaultAnimation / DefaultScript and registers it with
CPhysics::AddStaticAnimatingObject 0x00509AF0. CPhysics::UseTime 0x00509950 runs
CPhysicsObj::animate_static_object 0x00513DF0 for those after every update_object. Static
objects with defaults are landblock statics (CLandBlock::init_static_objs makes them with
makeObject(did, 0, bDynamic=0)), which CObjectMaint's object table (the table UseTime walks)
never holds: they are not updated twice.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import sim_builders as B

from viewer.dat.records.animation import Animation, AnimationFrame
from viewer.dat.records.common import AnimationFlags, AnimationHookDir
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.hooks import CreateParticleHook
from viewer.sim.state import DEFAULT_STATE
from viewer.sim.state import PhysicsState as PS

ANIM = 0x03000001
SCRIPT = 0x33000001
INFO = 0x32000001
STATIC = DEFAULT_STATE | PS.Static


def _anim(frames=4, hooks=None) -> Animation:
    hooks = hooks or {}
    pfs = tuple(AnimationFrame((RFrame((0.0, 0.1 * k, 0.0)),), tuple(hooks.get(k, ())))
                for k in range(frames))
    flags = AnimationFlags.HasHooks if hooks else AnimationFlags(0)
    return Animation(ANIM, flags, 1, None, pfs)


def _records(*, anim=True, script=True, anim_hooks=None, birthrate=0.0):
    s = B.setup(default_script=SCRIPT if script else 0)
    s = dataclasses.replace(s, default_animation=ANIM if anim else 0)
    recs = {0x02000001: s, ANIM: _anim(hooks=anim_hooks),
            INFO: B.emitter_info(INFO, birthrate=birthrate, lifespan=100.0, max_particles=200),
            SCRIPT: B.script(SCRIPT, (0.0, B.create(INFO)))}
    return recs


def _quat_angle_z(q) -> float:
    return 2.0 * math.atan2(q[3], q[0])


def test_InitDefaults_0x005139D0_static_object_gets_HasDefaultAnim_and_HasDefaultScript():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, state=STATIC)
    assert o.state == STATIC | PS.HasDefaultAnim | PS.HasDefaultScript
    assert w.static_animating == [1] and o.static_animating and not o.dynamic
    assert B.events(w, "state", owner=1)[-1]["state"] == "0x004C0C09"


def test_InitDefaults_0x005139D0_only_the_defaults_the_setup_has():
    w = B.world(_records(script=False))
    o = w.create_object(1, 0x02000001, state=STATIC)
    assert o.state == STATIC | PS.HasDefaultAnim
    w2 = B.world(_records(anim=False))
    o2 = w2.create_object(1, 0x02000001, state=STATIC)
    assert o2.state == STATIC | PS.HasDefaultScript and w2.static_animating == [1]


def test_InitDefaults_0x005139D0_static_without_defaults_is_not_registered():
    w = B.world(_records(anim=False, script=False))
    o = w.create_object(1, 0x02000001, state=STATIC)
    assert o.state == STATIC and w.static_animating == [] and not o.static_animating


def test_InitDefaults_0x005139D0_dynamic_objects_are_never_static_animating():
    # a dynamic object's state lacks Static when InitDefaults runs (makeObject bDynamic=1)
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, state=DEFAULT_STATE)
    assert not o.state & (PS.HasDefaultAnim | PS.HasDefaultScript)
    assert w.static_animating == []


def test_animate_static_object_0x00513DF0_advances_the_default_animation():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, state=STATIC)
    y0 = o.parts[0].frame.origin[1]
    B.run_frames(w, 2)  # two updates at 30 Hz: 2/30 s at 30 fps crosses two frames
    assert o.parts[0].frame.origin[1] != y0
    assert not o.active  # still never active (set_active 0x0050FC40)


def test_animate_static_object_0x00513DF0_grotate_by_omega_without_dt():
    # omega is applied as radians per update, whatever the elapsed time of the update
    for fps, frames in ((30, 3), (15, 3), (60, 6)):
        w = B.world(_records())
        o = w.create_object(1, 0x02000001, state=STATIC, omega=(0.0, 0.0, 0.1))
        B.run_frames(w, frames, fps=fps)
        assert w.updates == 3
        assert math.isclose(_quat_angle_z(o.frame.orientation), 0.3, abs_tol=1e-9)


def test_animate_static_object_0x00513DF0_no_spin_without_HasDefaultAnim():
    w = B.world(_records(anim=False))
    o = w.create_object(1, 0x02000001, state=STATIC, omega=(0.0, 0.0, 0.1))
    q0 = o.frame.orientation
    B.run_frames(w, 3)
    assert o.frame.orientation == q0


def test_animate_static_object_0x00513DF0_runs_scripts_only_with_HasDefaultScript():
    # HasDefaultScript: the Setup DefaultScript (queued by InitDefaults) runs
    w = B.world(_records())
    w.create_object(1, 0x02000001, state=STATIC)
    B.run_frames(w, 1)
    assert B.events(w, "hook", owner=1, type="CreateParticle")
    # HasDefaultAnim only: a script played on it is queued but never updated
    w = B.world(_records(script=False))
    o = w.create_object(1, 0x02000001, state=STATIC)
    w.play_script(o, SCRIPT)
    B.run_frames(w, 5)
    assert not B.events(w, "hook", owner=1)


def test_UseTime_0x00509950_static_animating_object_is_not_also_update_object():
    # a persistent emitter with birthrate 0 emits once per UpdateParticles call: one per
    # update, so a second (update_object) pass would double the count
    w = B.world(_records(anim=False))
    w.viewer_position = (0.0, 0.0, 0.0)
    o = w.create_object(1, 0x02000001, state=STATIC)
    B.run_frames(w, 8)
    (_, em), = o.particle_manager.emitters()
    # update 1 creates it (culled first update), updates 2..8 each emit one
    assert em.total_emitted == 7


def test_animate_static_object_0x00513DF0_elapsed_rules():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, state=STATIC)
    frame_before = o.motion.frame_number
    # below MIN_QUANTUM: nothing runs and update_time is NOT resynced
    w.time = Fraction(1, 60)
    w.timer_now = float(w.time)
    w.animate_static_object(o)
    assert o.update_time == 0 and o.motion.frame_number == frame_before
    # at or below EPS: resync only
    o.update_time = Fraction(1, 60) - Fraction(1, 10000)
    w.animate_static_object(o)
    assert o.update_time == Fraction(1, 60) and o.motion.frame_number == frame_before
    # above 2 s: resync only
    w.time = Fraction(3)
    w.timer_now = 3.0
    w.animate_static_object(o)
    assert o.update_time == 3 and o.motion.frame_number == frame_before
    # otherwise: the animation advances and update_time becomes now
    w.time = Fraction(3) + Fraction(1, 30)
    w.timer_now = float(w.time)
    w.animate_static_object(o)
    assert o.update_time == w.time and o.motion.frame_number > frame_before


def test_animate_static_object_0x00513DF0_hooks_after_particles():
    # an emitter created by an animation hook of a static object gets no update in the
    # call that created it (process_hooks runs after UpdateParticles here)
    hook = CreateParticleHook(AnimationHookDir.Both, INFO, -1, RFrame(), 5)
    w = B.world(_records(script=False, anim_hooks={0: [hook]}))
    o = w.create_object(1, 0x02000001, state=STATIC)
    B.run_frames(w, 1)
    (_, em), = o.particle_manager.emitters()
    assert not em.degraded_out and em.total_emitted == 0  # not updated in that call
    B.run_frames(w, 1, start=2)  # a render pass came between: its first update draws
    assert not em.degraded_out and em.total_emitted == 1


def test_AddStaticAnimatingObject_0x00509AF0_and_remove_keep_retail_list_order():
    w = B.world(_records())
    for i in (1, 2, 3):
        w.create_object(i, 0x02000001, state=STATIC)
    assert w.static_animating == [1, 2, 3]
    w.remove_object(1)  # RemoveStaticAnimatingObject 0x00509760: the last fills the hole
    assert w.static_animating == [3, 2]
    w.add_static_animating_object(w.objects[3])  # re-adding moves it to the end
    assert w.static_animating == [2, 3]


def test_inspect_reports_static_animating():
    from viewer.sim import inspect
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, state=STATIC)
    assert inspect.object_summary(o)["static_animating"] is True


def test_UseTime_0x00509950_order_update_object_then_static_objects_then_tex_velocity():
    w = B.world(_records(anim=False))
    w.create_object(1, 0x02000001, state=STATIC)       # static animating (created first)
    w.create_object(2, 0x02000001, state=DEFAULT_STATE)  # dynamic: update_object
    calls = []
    w.update_tex_velocity = lambda dt: calls.append("tex")
    w.listeners.append(lambda ev: calls.append((ev["event"], ev.get("owner")))
                       if ev["event"] in ("hook", "tick") else None)
    B.run_frames(w, 1)
    assert calls == [("hook", 2), ("hook", 1), "tex", ("tick", None)]


def test_static_object_gets_no_set_description_so_the_setup_table_stays():
    # CLandBlock::init_static_objs makes static objects without a PhysicsDesc: the Setup
    # DefaultPhysicsScriptTable (InitDefaults 0x005139D0) is not replaced
    recs = _records()
    recs[0x02000001] = dataclasses.replace(recs[0x02000001], default_script_table=0x34000001)
    recs[0x34000001] = B.table(0x34000001, {0x76: [(1.0, SCRIPT)]})
    w = B.world(recs)
    o = w.create_object(1, 0x02000001, state=STATIC)
    assert o.table_did == 0x34000001
    d = w.create_object(2, 0x02000001, state=DEFAULT_STATE)
    assert d.table is None  # a dynamic object's PhysicsDesc replaced it (absent)
