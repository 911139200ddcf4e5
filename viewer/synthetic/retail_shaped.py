"""Synthetic records at retail DIDs: the projectile stand-ins and a "retail-shaped" DAT.

``standin_records(lib)``: the named projectiles of ``viewer.dat.retail_facts`` (Arrow ...
Tusker Fist) at their retail DIDs, built from the synthetic library's own content: one
sphere per Setup with the audited origin and radius, the projectile tables with their
entries in retail's stored order, every script of their chains (copies of the synthetic
launch / explode / collision scripts under the retail DIDs) and Tusker Fist's DefaultScript
(Scale, CreateParticle on part 0, SoundTable, all at time 0). ``generate.py`` adds them to
the synthetic library so the presets and the projectile scenario work without retail files.

``retail_shaped_records(variant)``: the stand-ins plus everything else ``vfxviewer audit``
checks (the recall MotionTable / Animation / emitter, the sixteen Hidden / UnHide tables, the
fifteen CreateBlocking scripts), nothing more, so the audit passes every structural check
on it; its record identities (length + SHA-256) cannot match retail and FAIL. Each
``VARIANTS`` entry breaks one fact. ``write_retail_shaped_dat(path, variant)`` writes one
with our DAT writer (tests build them in a temporary folder; nothing is committed).
"""

from __future__ import annotations

import functools
import os
from dataclasses import replace

from viewer import synthetic as S
from viewer.dat import retail_facts as F
from viewer.dat.records import (
    Animation,
    AnimationFlags,
    AnimationFrame,
    AnimationHookDir,
    AnimData,
    MotionData,
    MotionDataFlags,
    MotionTable,
    PhysicsScript,
    PhysicsScriptData,
    PhysicsScriptTable,
    PhysicsScriptTableData,
    PlayScript,
    ScriptAndModData,
    Setup,
    Sphere,
    encode,
)
from viewer.dat.records import hooks as H
from viewer.dat.records.common import Frame

BOTH = AnimationHookDir.Both
FORWARD = AnimationHookDir.Forward
P = PlayScript
ZERO = Frame()

#: retail script DID -> the synthetic script whose hooks it carries.
SCRIPT_SOURCES: dict[int, int] = {
    0x33000719: S.PES_ARROW_CREATE, 0x33000233: S.PES_ARROW_DESTROY,
    0x33000302: S.PES_ARROW_DISAPPEAR,
    0x33000109: S.PES_COLLISION_FLASH,
    0x3300011B: S.PES_LAUNCH_SMALL, 0x3300011C: S.PES_LAUNCH_TRAIL,
    0x3300011D: S.PES_LAUNCH_LARGE,
    0x3300011E: S.PES_EXPLODE_SMALL, 0x3300012B: S.PES_EXPLODE_MEDIUM,
    0x33000120: S.PES_EXPLODE,
    0x330008BF: S.PES_LAUNCH_SMALL, 0x33000119: S.PES_EXPLODE_MEDIUM,     # frost
    0x330008C0: S.PES_LAUNCH_LARGE, 0x3300013E: S.PES_EXPLODE,            # lightning
    0x330008C2: S.PES_LAUNCH_TRAIL, 0x33000132: S.PES_EXPLODE_SMALL,      # acid
}
#: retail Setup DID -> the synthetic Setup whose parts (mesh) it shows.
SETUP_SOURCES: dict[str, int] = {"Arrow": S.SETUP_ARROW, "Quarrel": S.SETUP_ARROW}
TUSKER = F.DEFAULT_SCRIPTS[0]


def _pes(did: int, entries) -> PhysicsScript:
    return PhysicsScript.from_hooks(did, [PhysicsScriptData(float(t), h) for t, h in entries])


def _copy_script(src: PhysicsScript, did: int) -> PhysicsScript:
    return PhysicsScript.from_hooks(did, src.stored_script_data)


def _table(did: int, entries) -> PhysicsScriptTable:
    return PhysicsScriptTable(did, tuple(
        (key, PhysicsScriptTableData(tuple(ScriptAndModData(float(m), s) for m, s in pairs)))
        for key, pairs in entries))


def standin_records(lib: dict[int, object]) -> dict[int, object]:
    """The projectile stand-ins, DID -> record, from the synthetic library's records."""
    out: dict[int, object] = {}
    for p in F.PROJECTILES:
        src: Setup = lib[SETUP_SOURCES.get(p.name, S.SETUP_BOLT)]
        out[p.setup] = replace(
            src, id=p.setup, cylspheres=(), spheres=(Sphere(p.sphere_origin, p.sphere_radius),),
            default_script=TUSKER.script if p.setup == TUSKER.setup else 0,
            default_script_table=0)
    for t in F.PROJECTILE_TABLES:
        out[t.did] = _table(t.did, t.entries)
    for did, src in SCRIPT_SOURCES.items():
        out[did] = _copy_script(lib[src], did)
    out[TUSKER.emitter] = replace(lib[S.EMIT_BOLT_CORE], id=TUSKER.emitter)
    out[TUSKER.script] = _pes(TUSKER.script, [
        (0.0, H.ScaleHook(BOTH, 1.0, 0.0)),
        (0.0, H.CreateParticleHook(BOTH, TUSKER.emitter, TUSKER.part, ZERO, 1)),
        (0.0, H.SoundTableHook(BOTH, S.SOUND_TYPE_LAUNCH))])
    return out


# --------------------------------------------------------------------------------------------
# The retail-shaped DAT
# --------------------------------------------------------------------------------------------

RECALL_FRAMES = 120          # the recall Animation: frames 0..119 (sounds up to frame 116)
HIDDEN_SOURCES = {0x3300032F: S.PES_UNHIDE, 0x33000331: S.PES_HIDDEN,
                  0x330002E0: S.PES_UNHIDE, 0x330002F3: S.PES_HIDDEN}
#: A filler Animation (another creature's recall animation number) that holds no hooks.
OTHER_ANIMATION = 0x03000C34


def _recall_animation(emitter_frame: int = F.RECALL.emitter_frame,
                      sound_frames=F.RECALL.sound_frames, extra: dict | None = None):
    rc = F.RECALL
    frames = []
    for k in range(RECALL_FRAMES):
        hooks: list = []
        if k == emitter_frame:
            hooks.append(H.CreateParticleHook(BOTH, rc.emitter, rc.emitter_part, ZERO,
                                              rc.emitter_logical_id))
        if k in sound_frames:
            hooks.append(H.SoundTweakedHook(FORWARD, S.WAVE_CHIME, 1.0, 0.9, 0.8))
        hooks.extend((extra or {}).get(k, ()))
        frames.append(AnimationFrame((ZERO,), tuple(hooks)))
    return Animation(rc.animation, AnimationFlags.HasHooks, 1, None, tuple(frames))


def _recall_motion_table(framerate: float = F.RECALL.framerate) -> MotionTable:
    rc = F.RECALL
    ready = S.MOTION_READY
    key = ((rc.style << 16) | (ready & 0xFFFFFF)) & 0xFFFFFFFF
    md = MotionData(0, MotionDataFlags(0), (AnimData(rc.animation, 0, -1, framerate),),
                    None, None)
    idle = MotionData(0, MotionDataFlags(0), (AnimData(OTHER_ANIMATION, 0, -1, 10.0),),
                      None, None)
    return MotionTable(rc.motion_table, rc.style, ((rc.style, ready),), ((key, idle),), (),
                       ((key, ((rc.command, md),)),))


def _blocking_script(did: int) -> PhysicsScript:
    # one CreateBlockingParticle hook: 8 + 8 + 8 + 40 = 64 bytes, the size retail's has
    return _pes(did, [(0.0, H.CreateBlockingParticleHook(BOTH, S.EMIT_BLOCKING, -1, ZERO, 7))])


@functools.lru_cache(maxsize=1)
def _library_records() -> dict[int, object]:
    from viewer.synthetic.generate import build_library  # generate imports this module
    return {a.did: a.record for a in build_library().assets}


def _emitters_of(records: dict[int, object]) -> set[int]:
    out = set()
    for rec in records.values():
        hooks = ()
        if isinstance(rec, PhysicsScript):
            hooks = [e.hook for e in rec.stored_script_data]
        elif isinstance(rec, Animation):
            hooks = [h for f in rec.part_frames for h in f.hooks]
        for h in hooks:
            if isinstance(h, (H.CreateParticleHook, H.CreateBlockingParticleHook)):
                out.add(h.emitter_info_id)
    return out


def retail_shaped_records(variant: str | None = None) -> dict[int, object]:
    """Every record the audit looks at, as retail shapes it (``variant``: one fact broken)."""
    lib = dict(_library_records())
    recs: dict[int, object] = dict(standin_records(lib))
    recs[F.RECALL.motion_table] = _recall_motion_table()
    recs[F.RECALL.animation] = _recall_animation()
    recs[OTHER_ANIMATION] = Animation(OTHER_ANIMATION, AnimationFlags(0), 1, None,
                                      (AnimationFrame((ZERO,)),))
    recs[F.RECALL.emitter] = replace(lib[S.EMIT_RECALL], id=F.RECALL.emitter)
    for did, (unhide, hidden) in F.HIDDEN_UNHIDE_PAIRS.items():
        recs[did] = _table(did, ((P.Create, ((1.0, 0x33000719),)), (P.UnHide, ((1.0, unhide),)),
                                 (P.Hidden, ((1.0, hidden),))))
    for did, src in HIDDEN_SOURCES.items():
        recs[did] = _copy_script(lib[src], did)
    for did in F.CREATE_BLOCKING_SCRIPTS:
        recs[did] = _blocking_script(did)
    if variant is not None:
        VARIANTS[variant][1](recs)
    for e in _emitters_of(recs):
        if e not in recs and e in lib:
            recs[e] = lib[e]
    return recs


def retail_shaped_bytes(variant: str | None = None) -> dict[int, bytes]:
    """DID -> record bytes; a variant may replace bytes directly (raw-layout breaks)."""
    recs = retail_shaped_records(variant)
    out = {did: rec if isinstance(rec, bytes) else encode(rec) for did, rec in recs.items()}
    return out


def write_retail_shaped_dat(path: str | os.PathLike, variant: str | None = None) -> int:
    from viewer.dat.writer import write_dat
    return write_dat(path, retail_shaped_bytes(variant), date=0, iteration=1,
                     version_string=b"ac-vfx-viewer retail-shaped test DAT (no retail data)")


# --------------------------------------------------------------------------------------------
# Variants: each breaks one fact; the value names the audit checks that must then fail.
# --------------------------------------------------------------------------------------------

def _second_sphere(recs):
    p = F.PROJECTILES_BY_NAME["Force Bolt"]
    s = recs[p.setup]
    recs[p.setup] = replace(s, spheres=s.spheres + (Sphere((0.0, 0.0, 0.0), 0.05),))


def _moved_radius(recs):
    p = F.PROJECTILES_BY_NAME["Lightning Bolt"]
    recs[p.setup] = replace(recs[p.setup], spheres=(Sphere((0.0, 0.0, 0.0), 0.10),))


def _moved_frame16_hook(recs):
    recs[F.RECALL.animation] = _recall_animation(emitter_frame=17)


def _moved_sound(recs):
    recs[F.RECALL.animation] = _recall_animation(sound_frames=(16, 46, 76, 117))


def _recall_callpes(recs):
    recs[F.RECALL.animation] = _recall_animation(
        extra={30: (H.CallPESHook(BOTH, 0x33000109, 0.0),)})


def _recall_framerate(recs):
    recs[F.RECALL.motion_table] = _recall_motion_table(framerate=10.0)


def _flame_launch_order(recs):
    t = F.PROJECTILE_TABLES[1]
    entries = [(k, tuple(reversed(v)) if k == P.Launch else v) for k, v in t.entries]
    recs[t.did] = _table(t.did, entries)


def _arrow_has_launch(recs):
    t = F.PROJECTILE_TABLES[0]
    recs[t.did] = _table(t.did, (*t.entries, (P.Launch, ((1.0, 0x33000719),))))


def _frost_launch_without_particles(recs):
    recs[0x330008BF] = _pes(0x330008BF, [(0.0, H.SoundTableHook(BOTH, S.SOUND_TYPE_LAUNCH))])


def _tusker_no_default_script(recs):
    recs[TUSKER.setup] = replace(recs[TUSKER.setup], default_script=0)


def _hidden_pair_swapped(recs):
    did = 0x34000064
    recs[did] = _table(did, ((P.UnHide, ((1.0, 0x33000331),)), (P.Hidden, ((1.0, 0x3300032F),))))


def _extra_hidden_table(recs):
    recs[0x340000D2] = _table(0x340000D2, ((P.UnHide, ((1.0, 0x3300032F),)),
                                           (P.Hidden, ((1.0, 0x33000331),))))


def _blocking_in_animation(recs):
    """An Animation frame holding a CreateBlocking hook followed by a SoundTweaked hook: a
    decoder that takes CreateBlocking for payload-less (the known defect) would read the
    emitter DID as the next hook type and lose both; the raw scan still finds it."""
    recs[OTHER_ANIMATION] = Animation(OTHER_ANIMATION, AnimationFlags.HasHooks, 1, None, (
        AnimationFrame((ZERO,), (
            H.CreateBlockingParticleHook(BOTH, S.EMIT_BLOCKING, -1, ZERO, 7),
            H.SoundTweakedHook(FORWARD, S.WAVE_CHIME, 1.0, 0.9, 0.8))),))


def _blocking_script_outside_range(recs):
    did = F.CREATE_BLOCKING_SCRIPTS[-1] + 1
    recs[did] = _pes(did, [
        (0.0, H.SoundTableHook(BOTH, S.SOUND_TYPE_LAUNCH)),
        (0.1, H.CreateBlockingParticleHook(BOTH, S.EMIT_BLOCKING, -1, ZERO, 7)),
        (0.2, H.StopParticleHook(BOTH, 7))])


def _blocking_script_lost(recs):
    did = F.CREATE_BLOCKING_SCRIPTS[3]
    recs[did] = _pes(did, [(0.0, H.CreateParticleHook(BOTH, S.EMIT_BLOCKING, -1, ZERO, 7))])


def _missing_setup(recs):
    del recs[F.PROJECTILES_BY_NAME["Whirling Blade"].setup]


#: name -> (checks that must fail or be missing, mutation)
VARIANTS: dict[str, tuple[tuple[str, ...], object]] = {
    "second_sphere": (("sphere Force Bolt 0x0200087D",), _second_sphere),
    "lightning_radius": (("sphere Lightning Bolt 0x02000880",), _moved_radius),
    "moved_frame16_hook": (("recall emitter 0x030009BF frame 16",), _moved_frame16_hook),
    "moved_sound": (("recall sounds 0x030009BF",), _moved_sound),
    "recall_callpes": (("recall no CallPES 0x030009BF",), _recall_callpes),
    "recall_framerate": (("recall link 0x09000001 0x10000153",), _recall_framerate),
    "flame_launch_order": (("table entries Flame 0x34000005",), _flame_launch_order),
    "arrow_has_launch": (("table entries Arrow/Quarrel 0x3400002B",), _arrow_has_launch),
    "frost_launch_no_particles": (("table chains Frost 0x34000080",),
                                  _frost_launch_without_particles),
    "tusker_no_default_script": (("default script Tusker Fist 0x02000EAE",),
                                 _tusker_no_default_script),
    "hidden_pair_swapped": (("hidden/unhide 0x34000064",), _hidden_pair_swapped),
    "extra_hidden_table": (("hidden/unhide inventory",), _extra_hidden_table),
    "blocking_in_animation": (("CreateBlocking inventory",), _blocking_in_animation),
    "blocking_script_outside_range": (("CreateBlocking inventory",),
                                      _blocking_script_outside_range),
    "blocking_script_lost": (("CreateBlocking inventory",), _blocking_script_lost),
    "missing_setup": (("projectile Whirling Blade (WCID 7282)",
                       "sphere Whirling Blade 0x020003FC"), _missing_setup),
}
