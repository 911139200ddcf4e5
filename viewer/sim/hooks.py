"""Hook execution: what each AnimationHook / PhysicsScript hook does to its owner
(runtime spec 8.1-8.3; CAnimHook.c ``*Hook::Execute``; CPhysicsObj setters).

Every timed setter follows one rule (e.g. CPhysicsObj::SetTranslucency2 0x0050FB40):
``duration >= EPS`` prepends an FPHook tween (evaluated from the next process_hooks);
otherwise the end value is applied at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from viewer.sim.frame import EPS
from viewer.sim.physobj import FPHook, PhysicsObj, to_sim_frame

if TYPE_CHECKING:
    from viewer.sim.world import World

HOOK_NAMES = {
    0: "NoOp", 1: "Sound", 2: "SoundTable", 3: "Attack", 4: "AnimationDone",
    5: "ReplaceObject", 6: "Ethereal", 7: "TransparentPart", 8: "Luminous",
    9: "LuminousPart", 10: "Diffuse", 11: "DiffusePart", 12: "Scale", 13: "CreateParticle",
    14: "DestroyParticle", 15: "StopParticle", 16: "NoDraw", 17: "DefaultScript",
    18: "DefaultScriptPart", 19: "CallPES", 20: "Transparent", 21: "SoundTweaked",
    22: "SetOmega", 23: "TextureVelocity", 24: "TextureVelocityPart", 25: "SetLight",
    26: "CreateBlockingParticle",
}


def hook_type_of(hook) -> int:
    return int(type(hook).hook_type) if hasattr(type(hook), "hook_type") else int(hook.hook_type)


def add_fp_hook(world: World, obj: PhysicsObj, fp_type: int, duration: float,
                start: float, end: float, user: int = 0) -> None:
    """Prepend a tween (process_hooks walks newest first, so the oldest applies last)."""
    obj.fp_hooks.insert(0, FPHook(fp_type, world.physics_time, float(duration), float(start),
                                  float(end), user))


def process_fp_hook(world: World, obj: PhysicsObj, fp: FPHook, value: float) -> None:
    """CPhysicsObj::process_fp_hook 0x00513600."""
    t = fp.hook_type
    if t == 0:
        obj.set_scale_static(value)
    elif t == 1:
        obj.set_translucency_internal(value)
    elif t == 2:
        p = obj.part(fp.user_data)
        if p is not None:
            p.set_translucency(value)
    elif t == 3:
        obj.luminosity = value
        for p in obj.parts:
            p.luminosity = value
    elif t == 5:
        p = obj.part(fp.user_data)
        if p is not None:
            p.luminosity = value
    elif t == 4:
        obj.diffuse = value
        for p in obj.parts:
            p.diffuse = value
    elif t == 6:
        p = obj.part(fp.user_data)
        if p is not None:
            p.diffuse = value
    elif t == 7 and value >= 1.0 and obj.in_cell:
        # CPhysicsObj::CallPESInternal 0x00511AC0: plays when the tween reaches 1, in a cell
        world.play_script_internal(obj, fp.user_data, origin="CallPES")


def process_hooks(world: World, obj: PhysicsObj) -> None:
    """CPhysicsObj::process_hooks 0x005114E0: tweens newest first (removing finished ones),
    then the animation hooks in queue order."""
    for fp in list(obj.fp_hooks):
        value, done = fp.value_at(world.physics_time)
        process_fp_hook(world, obj, fp, value)
        if done and fp in obj.fp_hooks:
            obj.fp_hooks.remove(fp)
    if obj.anim_hooks:
        queued = obj.anim_hooks
        obj.anim_hooks = []
        for hook, source, index in queued:
            execute_hook(world, obj, hook, source, index)


# -- timed setters -----------------------------------------------------------------------
def _timed(world, obj, fp_type, start, end, duration, user, immediate) -> None:
    if float(duration) >= EPS:
        add_fp_hook(world, obj, fp_type, duration, start, end, user)
    else:
        immediate(float(end))


def set_scale(world, obj: PhysicsObj, end: float, duration: float) -> None:
    """CPhysicsObj::SetScale 0x005136A0: tween from the CURRENT m_scale."""
    _timed(world, obj, 0, obj.scale, end, duration, 0, obj.set_scale_static)


def set_translucency2(world, obj, start, end, duration) -> None:
    """CPhysicsObj::SetTranslucency2 0x0050FB40 (TransparentHook)."""
    _timed(world, obj, 1, start, end, duration, 0, obj.set_translucency_internal)


def set_part_translucency(world, obj, part, start, end, duration) -> None:
    """CPhysicsObj::SetPartTranslucency 0x00511730."""
    def now(v):
        p = obj.part(part)
        if p is not None:
            p.set_translucency(v)
    _timed(world, obj, 2, start, end, duration, part, now)


def set_luminosity(world, obj, start, end, duration) -> None:
    """CPhysicsObj::SetLuminosity 0x00511890."""
    def now(v):
        obj.luminosity = v
        for p in obj.parts:
            p.luminosity = v
    _timed(world, obj, 3, start, end, duration, 0, now)


def set_part_luminosity(world, obj, part, start, end, duration) -> None:
    """CPhysicsObj::SetPartLuminosity 0x005117E0."""
    def now(v):
        p = obj.part(part)
        if p is not None:
            p.luminosity = v
    _timed(world, obj, 5, start, end, duration, part, now)


def set_diffusion(world, obj, start, end, duration) -> None:
    """CPhysicsObj::SetDiffusion 0x005119E0."""
    def now(v):
        obj.diffuse = v
        for p in obj.parts:
            p.diffuse = v
    _timed(world, obj, 4, start, end, duration, 0, now)


def set_part_diffusion(world, obj, part, start, end, duration) -> None:
    """CPhysicsObj::SetPartDiffusion 0x00511930."""
    def now(v):
        p = obj.part(part)
        if p is not None:
            p.diffuse = v
    _timed(world, obj, 6, start, end, duration, part, now)


def call_pes(world: World, obj: PhysicsObj, pes: int, pause: float) -> None:
    """CPhysicsObj::CallPES 0x00511AF0: below EPS plays now (in a cell); otherwise a
    CallPES tween over U(0, pause) is PREPENDED to the object-hook list."""
    if float(pause) >= EPS:
        delay = world.rng.roll_dice(0.0, float(pause))
        add_fp_hook(world, obj, 7, delay, 0.0, 1.0, int(pes))
        world.emit({"event": "callpes", "owner": obj.id, "script": int(pes), "delay": delay})
    elif obj.in_cell:
        world.play_script_internal(obj, int(pes), origin="CallPES")


# -- the hook switch -----------------------------------------------------------------------
def execute_hook(world: World, obj: PhysicsObj, hook, source: int, index: int) -> None:
    """``<Hook>::Execute`` (CAnimHook.c) against ``obj``; every execution is traced."""
    t = hook_type_of(hook)
    world.emit({"event": "hook", "owner": obj.id, "source": source, "index": index,
                "type": HOOK_NAMES.get(t, str(t))})
    if t == 13 or t == 26:  # CreateParticle / CreateBlockingParticle 0x00526EC0 / 0x00526EF0
        world.create_particle_emitter(obj, int(hook.emitter_info_id), int(hook.part_index),
                                      to_sim_frame(hook.offset), int(hook.emitter_id),
                                      blocking=(t == 26))
    elif t == 14:
        world.particle_manager(obj).destroy(int(hook.emitter_id))
    elif t == 15:
        world.particle_manager(obj).stop(int(hook.emitter_id))
    elif t == 20:
        set_translucency2(world, obj, hook.start, hook.end, hook.time)
    elif t == 7:
        set_part_translucency(world, obj, int(hook.part_index), hook.start, hook.end, hook.time)
    elif t == 8:
        set_luminosity(world, obj, hook.start, hook.end, hook.time)
    elif t == 9:
        set_part_luminosity(world, obj, int(hook.part_index), hook.start, hook.end, hook.time)
    elif t == 10:
        set_diffusion(world, obj, hook.start, hook.end, hook.time)
    elif t == 11:
        set_part_diffusion(world, obj, int(hook.part_index), hook.start, hook.end, hook.time)
    elif t == 12:
        set_scale(world, obj, hook.end, hook.time)
    elif t == 22:
        obj.omega = tuple(float(c) for c in hook.axis)  # set_omega 0x0050F4F0 (global axes)
    elif t == 23:
        for p in obj.parts:  # CPartArray::SetTextureVelocityInternal: every part's GfxObj
            world.add_gfx_velocity(p.gfxobj_id, float(hook.u_speed), float(hook.v_speed))
    elif t == 24:
        p = obj.part(int(hook.part_index))
        if p is not None:
            world.add_gfx_velocity(p.gfxobj_id, float(hook.u_speed), float(hook.v_speed))
    elif t == 25:
        world.set_lights(obj, bool(hook.lights_on))
    elif t == 16:
        world.set_nodraw(obj, bool(hook.no_draw))
    elif t == 6:
        world.set_ethereal(obj, bool(hook.ethereal))
    elif t == 19:
        call_pes(world, obj, int(hook.pes_id), float(hook.pause))
    elif t == 17:
        world.play_default_script(obj)
    elif t == 18:
        world.play_default_script_part(obj, int(hook.part_index))
    elif t in (1, 2, 21):
        ev = {"event": "sound", "owner": obj.id, "type": HOOK_NAMES[t]}
        if t == 1:
            ev["wave"] = int(hook.wave_id)
        elif t == 2:
            ev["sound_type"] = int(hook.sound_type)
        else:
            ev.update(wave=int(hook.wave_id), priority=float(hook.priority),
                      probability=float(hook.probability), volume=float(hook.volume))
        world.emit(ev)
    elif t == 5:
        p = obj.part(int(hook.part_index))
        if p is not None:  # AnimPartChange: the part's GfxObj is replaced
            p.gfxobj_id = int(hook.gfxobj_id)
    elif t == 4:
        world.animation_done(obj)
    # NoOp (0) and Attack (3): no visual effect
