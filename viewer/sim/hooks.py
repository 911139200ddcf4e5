"""Hook execution: what each AnimationHook / PhysicsScript hook does to its owner
(CAnimHook.c ``*Hook::Execute``; CPhysicsObj setters).

Every timed setter follows one rule (e.g. CPhysicsObj::SetTranslucency2 0x0050FB40):
``duration >= EPS`` prepends an FPHook tween (evaluated from the next process_hooks);
otherwise the end value is applied at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from viewer.dat.records.common import AnimationHookType as HookType
from viewer.sim.animation.sequence import ANIM_DONE
from viewer.sim.frame import EPS
from viewer.sim.physobj import FPHook, FPHookType, PhysicsObj, to_sim_frame

if TYPE_CHECKING:
    from viewer.sim.world import World

HOOK_NAMES = {t.value: t.name for t in HookType}


def hook_type_of(hook) -> int:
    """The hook's type number (a class attribute on the record hooks, a property on a
    stored NullHook)."""
    return int(hook.hook_type)


def add_fp_hook(world: World, obj: PhysicsObj, fp_type: FPHookType, duration: float,
                start: float, end: float, user: int = 0) -> None:
    """Prepend a tween (process_hooks walks newest first, so the oldest applies last)."""
    obj.fp_hooks.insert(0, FPHook(fp_type, world.physics_time, float(duration), float(start),
                                  float(end), user, world.referrer))


# -- tween channels: what one FPHook value does to its owner ------------------------------
# Each channel is ``apply(obj, part_index, value)``; the timed setters below apply the end
# value through the same function when the duration is below EPS.
Channel = Callable[[PhysicsObj, int, float], None]


def _on_part(apply: Callable[[object, float], None]) -> Channel:
    """A channel for one part (``user_data`` is the part index; a missing part is skipped)."""
    def run(obj: PhysicsObj, part: int, value: float) -> None:
        p = obj.part(part)
        if p is not None:
            apply(p, value)
    return run


def _on_object_and_parts(attr: str) -> Channel:
    """A channel that sets ``attr`` on the object and on every part."""
    def run(obj: PhysicsObj, _part: int, value: float) -> None:
        setattr(obj, attr, value)
        for p in obj.parts:
            setattr(p, attr, value)
    return run


def _set_part_attr(attr: str) -> Callable[[object, float], None]:
    def run(p, value: float) -> None:
        setattr(p, attr, value)
    return run


TWEEN_CHANNELS: dict[FPHookType, Channel] = {
    FPHookType.Scale: lambda obj, _part, v: obj.set_scale_static(v),
    FPHookType.Translucency: lambda obj, _part, v: obj.set_translucency_internal(v),
    FPHookType.PartTranslucency: _on_part(lambda p, v: p.set_translucency(v)),
    FPHookType.Luminosity: _on_object_and_parts("luminosity"),
    FPHookType.Diffusion: _on_object_and_parts("diffuse"),
    FPHookType.PartLuminosity: _on_part(_set_part_attr("luminosity")),
    FPHookType.PartDiffusion: _on_part(_set_part_attr("diffuse")),
}


def process_fp_hook(world: World, obj: PhysicsObj, fp: FPHook, value: float) -> None:
    """CPhysicsObj::process_fp_hook 0x00513600."""
    if fp.hook_type == FPHookType.CallPES:
        if value >= 1.0 and obj.in_cell:
            # CPhysicsObj::CallPESInternal 0x00511AC0: plays when the tween reaches 1, in a cell
            world.play_script_internal(obj, fp.user_data, origin="CallPES", by=fp.by)
        return
    apply = TWEEN_CHANNELS.get(fp.hook_type)
    if apply is not None:
        apply(obj, fp.user_data, value)


def process_hooks(world: World, obj: PhysicsObj) -> None:
    """CPhysicsObj::process_hooks 0x005114E0: tweens newest first (removing finished ones),
    then the animation hooks in queue order."""
    if obj.fp_hooks:
        _process_fp_hooks(world, obj)
    if obj.anim_hooks:
        queued = obj.anim_hooks
        obj.anim_hooks = []
        for hook, source, index in queued:
            execute_hook(world, obj, hook, source, index)


def _process_fp_hooks(world: World, obj: PhysicsObj) -> None:
    for fp in list(obj.fp_hooks):
        value, done = fp.value_at(world.physics_time)
        process_fp_hook(world, obj, fp, value)
        if done and fp in obj.fp_hooks:
            obj.fp_hooks.remove(fp)


# -- timed setters -----------------------------------------------------------------------
def set_timed(world: World, obj: PhysicsObj, channel: FPHookType, start: float, end: float,
              duration: float, part: int = 0) -> None:
    """The one rule of every timed CPhysicsObj setter: SetScale 0x005136A0 (from the
    CURRENT m_scale), SetTranslucency2 0x0050FB40, SetPartTranslucency 0x00511730,
    SetLuminosity 0x00511890, SetPartLuminosity 0x005117E0, SetDiffusion 0x005119E0,
    SetPartDiffusion 0x00511930: ``duration >= EPS`` prepends a tween on ``channel``,
    otherwise the end value is applied at once."""
    if float(duration) >= EPS:
        add_fp_hook(world, obj, channel, duration, start, end, part)
    else:
        TWEEN_CHANNELS[channel](obj, part, float(end))


def call_pes(world: World, obj: PhysicsObj, pes: int, pause: float) -> None:
    """CPhysicsObj::CallPES 0x00511AF0: below EPS plays now (in a cell); otherwise a
    CallPES tween over U(0, pause) is PREPENDED to the object-hook list."""
    if float(pause) >= EPS:
        delay = world.rng.roll_dice(0.0, float(pause))
        add_fp_hook(world, obj, FPHookType.CallPES, delay, 0.0, 1.0, int(pes))
        world.emit({"event": "callpes", "owner": obj.id, "script": int(pes), "delay": delay})
    elif obj.in_cell:
        world.play_script_internal(obj, int(pes), origin="CallPES")


# -- the hook switch: ``<Hook>::Execute`` (CAnimHook.c) per AnimationHookType ------------
Handler = Callable[["World", PhysicsObj, object], None]


def _create_particle(world, obj, hook) -> None:
    """CreateParticleHook / CreateBlockingParticleHook::Execute 0x00526EC0 / 0x00526EF0."""
    world.create_particle_emitter(obj, int(hook.emitter_info_id), int(hook.part_index),
                                  to_sim_frame(hook.offset), int(hook.emitter_id),
                                  blocking=(hook_type_of(hook) == HookType.CreateBlockingParticle))


def _timed_hook(channel: FPHookType, *, part: bool = False, from_current: bool = False
                ) -> Handler:
    """A Transparent/Luminous/Diffuse(Part) or Scale hook: its start, end and time (Scale
    starts from the current m_scale) on ``channel``, for one part when ``part``."""
    def run(world, obj, hook) -> None:
        start = obj.scale if from_current else hook.start
        set_timed(world, obj, channel, start, hook.end, hook.time,
                  int(hook.part_index) if part else 0)
    return run


def _texture_velocity(world, obj, hook) -> None:
    for p in obj.parts:  # CPartArray::SetTextureVelocityInternal: every part's GfxObj
        world.add_gfx_velocity(p.gfxobj_id, float(hook.u_speed), float(hook.v_speed))


def _texture_velocity_part(world, obj, hook) -> None:
    p = obj.part(int(hook.part_index))
    if p is not None:
        world.add_gfx_velocity(p.gfxobj_id, float(hook.u_speed), float(hook.v_speed))


def _replace_object(world, obj, hook) -> None:
    p = obj.part(int(hook.part_index))
    if p is not None:  # AnimPartChange: the part's GfxObj is replaced
        world.taking_up_gfxobj()  # a GfxObj taken up again comes with a fresh mesh
        p.gfxobj_id = int(hook.gfxobj_id)


def _play(world, obj, event: dict, wave: int, volume: float, by: int | None = None) -> None:
    """PlaySoundInternal from the owner's position at play time (viewer.sim.sound).

    A Wave no open DAT holds is traced (``by``: the record naming it) and not heard:
    retail made its SoundBufRef when the hook or table was loaded (SoundManager::CreateSound
    0x00550BF0) whether or not the Wave loaded, so PlaySound finds it, rolls, and
    PlaySoundInternal 0x0054FEC0 still takes the next voice (stopping what that voice
    held) for a buffer SoundBuf::Create 0x00552930 could not fill (DBWave::Get null):
    SoundBuf::Play 0x00552D50 has nothing to play. So ``played`` is false, ``voice`` the
    voice it took, ``gain`` 0."""
    held = world.holds(int(wave), "Wave", by=by)
    event.update(wave=int(wave), volume=float(volume), start=world.timer_now)
    event.update(world.sound.play_internal(obj.frame.origin, world.viewer_position, volume))
    if not held:
        event.update(played=False, gain=0.0)
    world.emit(event)


def _sound(world, obj, hook) -> None:
    # SoundHook::Execute 0x00526A20 -> SoundManager::PlaySound(gid, obj) 0x00550730
    _play(world, obj, {"event": "sound", "owner": obj.id, "type": HookType.Sound.name},
          hook.wave_id, world.sound.effect_volume)  # the Wave: named by the hook's record


def _not_played(world, event: dict) -> None:
    event.update(played=False, start=world.timer_now, gain=0.0, voice=None)
    world.emit(event)


def _sound_table(world, obj, hook) -> None:
    # SoundTableHook::Execute 0x00526AB0 -> SoundManager::PlaySound(type, obj) 0x00550B70
    ev = {"event": "sound", "owner": obj.id, "type": HookType.SoundTable.name,
          "sound_type": int(hook.sound_type), "wave": 0}
    table = world.sound_table(obj)
    chosen = world.sound.get_sound(world.rng, table.get(int(hook.sound_type))
                                   if table is not None else None)
    if chosen is None:
        return _not_played(world, ev)
    index, entry = chosen
    ev.update(entry=index, priority=float(entry.priority),
              probability=float(entry.probability))
    if not world.sound.play_probability(float(entry.probability)):
        ev.update(wave=int(entry.wave_id), volume=float(entry.volume))
        return _not_played(world, ev)
    _play(world, obj, ev, entry.wave_id, entry.volume, by=obj.sound_table_did)


def _sound_tweaked(world, obj, hook) -> None:
    # SoundTweakedHook::Execute 0x00526A80 -> PlaySound(gid, obj, prio, prob, vol)
    # 0x005507A0: one PlayProbability roll; prio is passed but never used
    ev = {"event": "sound", "owner": obj.id, "type": HookType.SoundTweaked.name,
          "wave": int(hook.wave_id), "priority": float(hook.priority),
          "probability": float(hook.probability), "volume": float(hook.volume)}
    if not world.sound.play_probability(float(hook.probability)):
        return _not_played(world, ev)
    _play(world, obj, ev, hook.wave_id, hook.volume)


HOOK_HANDLERS: dict[HookType, Handler] = {
    HookType.Sound: _sound,
    HookType.SoundTable: _sound_table,
    HookType.ReplaceObject: _replace_object,
    HookType.Ethereal: lambda world, obj, hook: world.set_ethereal(obj, bool(hook.ethereal)),
    HookType.TransparentPart: _timed_hook(FPHookType.PartTranslucency, part=True),
    HookType.Luminous: _timed_hook(FPHookType.Luminosity),
    HookType.LuminousPart: _timed_hook(FPHookType.PartLuminosity, part=True),
    HookType.Diffuse: _timed_hook(FPHookType.Diffusion),
    HookType.DiffusePart: _timed_hook(FPHookType.PartDiffusion, part=True),
    HookType.Scale: _timed_hook(FPHookType.Scale, from_current=True),
    HookType.CreateParticle: _create_particle,
    HookType.DestroyParticle:
        lambda world, obj, hook: world.particle_manager(obj).destroy(int(hook.emitter_id)),
    HookType.StopParticle:
        lambda world, obj, hook: world.particle_manager(obj).stop(int(hook.emitter_id)),
    HookType.NoDraw: lambda world, obj, hook: world.set_nodraw(obj, bool(hook.no_draw)),
    HookType.DefaultScript: lambda world, obj, hook: world.play_default_script(obj),
    HookType.DefaultScriptPart:
        lambda world, obj, hook: world.play_default_script_part(obj, int(hook.part_index)),
    HookType.CallPES:
        lambda world, obj, hook: call_pes(world, obj, int(hook.pes_id), float(hook.pause)),
    HookType.Transparent: _timed_hook(FPHookType.Translucency),
    HookType.SoundTweaked: _sound_tweaked,
    # set_omega 0x0050F4F0 (global axes)
    HookType.SetOmega:
        lambda world, obj, hook: setattr(obj, "omega", tuple(float(c) for c in hook.axis)),
    HookType.TextureVelocity: _texture_velocity,
    HookType.TextureVelocityPart: _texture_velocity_part,
    HookType.SetLight: lambda world, obj, hook: world.set_lights(obj, bool(hook.lights_on)),
    HookType.CreateBlockingParticle: _create_particle,
    # NoOp and Attack: no visual effect (no handler). AnimationDone: no record ever holds
    # one (UnPackHook builds none); the runtime's own is handled in execute_hook
}


def execute_hook(world: World, obj: PhysicsObj, hook, source: int, index: int) -> None:
    """``<Hook>::Execute`` (CAnimHook.c) against ``obj``; every execution is traced."""
    if hook is ANIM_DONE:
        # the runtime's own AnimationDone (CSequence's anim_done_hook, a link ended): no
        # record holds it, so no source; its effect (CPartArray::AnimationDone 0x00517D30)
        # was applied when the sequence staged it
        world.emit({"event": "hook", "owner": obj.id, "source": None, "index": -1,
                    "type": HookType.AnimationDone.name})
        return
    t = hook_type_of(hook)
    world.emit({"event": "hook", "owner": obj.id, "source": source, "index": index,
                "type": HOOK_NAMES.get(t, str(t))})
    handler = HOOK_HANDLERS.get(t)
    if handler is not None:
        with world.referring(source):  # the DIDs the hook names are named by its record
            handler(world, obj, hook)
