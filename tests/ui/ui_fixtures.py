"""A tiny effect library for the UI tests, built from the DAT record types and written
through our own DAT writer (AssetDatabase.from_records): no retail bytes.

Setup 0x02000100 (one part, the sample GfxObj) with table 0x34000100:
  Launch -> [0.3: 0x33000100, 1.0: 0x33000102]; Hidden -> 0x33000103; UnHide -> 0x33000104.
Script 0x33000100: t=0 CreateParticle(0x32000100, logical 1), t=0.5 CallPES(0x33000101,
0.25), t=1.0 StopParticle(1). 0x33000101: t=0 CreateParticle(0x32000101, logical 2).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from viewer.app import ViewerApp
from viewer.dat import samples
from viewer.dat.database import AssetDatabase
from viewer.dat.records.animation import AnimationFrame
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.common import PlayScript, SetupFlags, Sphere
from viewer.dat.records.hooks import CallPESHook, CreateParticleHook, StopParticleHook
from viewer.dat.records.particle_emitter import ParticleEmitterInfo
from viewer.dat.records.physics_script import (
    PhysicsScript,
    PhysicsScriptData,
    PhysicsScriptTable,
    PhysicsScriptTableData,
    ScriptAndModData,
)
from viewer.dat.records.setup import Setup
from viewer.render.framebuffer import OffscreenTarget

GFX = 0x01000100       # a unit quad with a solid-colour surface, no degrades
SURFACE = 0x08000100
SETUP = 0x02000100
TABLE = 0x34000100
SCRIPT = 0x33000100
SCRIPT_PES = 0x33000101
SCRIPT_BIG = 0x33000102
SCRIPT_HIDDEN = 0x33000103
SCRIPT_UNHIDE = 0x33000104
EMITTER = 0x32000100
EMITTER_PES = 0x32000101


def emitter_info(did, *, birthrate=0.05, max_particles=20, lifespan=0.8, a=(0, 0, 1.0)):
    return ParticleEmitterInfo(did, 0, 1, 3, GFX, GFX, birthrate, max_particles, 1, 0, 0.0,
                               lifespan, 0.0, (0.0, 0.0, 1.0), 0.0, 0.2, a, 1.0, 1.0,
                               (0.0, 0.0, 0.0), 1.0, 1.0, (0.0, 0.0, 0.0), 1.0, 1.0,
                               0.3, 0.1, 0.0, 0.0, 0.8, 0.0, False)


def script(did, *entries):
    return PhysicsScript.from_hooks(did, [PhysicsScriptData(float(t), h) for t, h in entries])


def records() -> dict:
    import dataclasses

    from viewer.dat import records as R

    recs = {k: v for k, v in samples.sample_records().items() if k >> 24 not in (0x02, 0x09)}
    recs[SURFACE] = samples.sample_surface_solid()
    recs[GFX] = dataclasses.replace(samples.sample_gfxobj(GFX), flags=R.GfxObjFlags(0x3),
                                    surfaces=(SURFACE,), did_degrade=None)
    recs[SETUP] = Setup(SETUP, SetupFlags(0), (GFX,), None, None, (), (),
                        ((0x65, AnimationFrame((RFrame((0.0, 0.0, 0.5)),))),), (), (),
                        1.0, 0.5, 0.0, 0.0, Sphere((0, 0, 0.5), 1.0), Sphere((0, 0, 0.5), 1.0),
                        (), 0, 0, 0, 0, 0)
    recs[EMITTER] = emitter_info(EMITTER)
    recs[EMITTER_PES] = emitter_info(EMITTER_PES, birthrate=0.1, a=(0.5, 0, 0.5))
    recs[SCRIPT] = script(SCRIPT,
                          (0.0, CreateParticleHook(0, EMITTER, -1, RFrame((0.0, 0.0, 0.5)), 1)),
                          (0.5, CallPESHook(0, SCRIPT_PES, 0.25)),
                          (1.0, StopParticleHook(0, 1)))
    recs[SCRIPT_PES] = script(SCRIPT_PES,
                              (0.0, CreateParticleHook(0, EMITTER_PES, -1, RFrame(), 2)))
    recs[SCRIPT_BIG] = script(SCRIPT_BIG, (0.0, StopParticleHook(0, 9)))
    recs[SCRIPT_HIDDEN] = script(SCRIPT_HIDDEN, (0.0, StopParticleHook(0, 8)))
    recs[SCRIPT_UNHIDE] = script(SCRIPT_UNHIDE, (0.0, StopParticleHook(0, 7)))
    recs[TABLE] = PhysicsScriptTable(TABLE, (
        (PlayScript.Launch, PhysicsScriptTableData((ScriptAndModData(0.3, SCRIPT),
                                                    ScriptAndModData(1.0, SCRIPT_BIG)))),
        (PlayScript.Hidden, PhysicsScriptTableData((ScriptAndModData(1.0, SCRIPT_HIDDEN),))),
        (PlayScript.UnHide, PhysicsScriptTableData((ScriptAndModData(1.0, SCRIPT_UNHIDE),))),
    ))
    return recs


def database() -> AssetDatabase:
    return AssetDatabase.from_records(records())


def scenario_json(seconds=2.0, fps=30) -> dict:
    return {"seed": 0, "fps": fps, "seconds": seconds,
            "objects": [{"id": 1, "setup": f"0x{SETUP:08X}", "table": f"0x{TABLE:08X}",
                         "position": [0, 0, 0]}],
            "events": [{"t": 0.0, "object": 1, "play_script": f"0x{SCRIPT:08X}"}]}


def write_dat(path) -> str:
    """The library as a DAT file on disk (our writer, retail layout)."""
    from viewer.dat import records as R
    from viewer.dat.writer import build_dat

    data = build_dat({did: R.encode(rec) for did, rec in records().items()})
    with open(path, "wb") as f:
        f.write(data)
    return str(path)


SETUP_BOLT = 0x02000101   # a projectile: one physics sphere (r 0.1 at the origin), so it flies


def projectile_database() -> AssetDatabase:
    """The library plus SETUP_BOLT (its table is TABLE: Launch plays SCRIPT)."""
    recs = records()
    recs[SETUP_BOLT] = Setup(SETUP_BOLT, SetupFlags(0), (GFX,), None, None, (), (),
                             ((0x65, AnimationFrame((RFrame((0.0, 0.0, 0.0)),))),), (),
                             (Sphere((0.0, 0.0, 0.0), 0.1),), 1.0, 1.0, 0.0, 0.0,
                             Sphere((0, 0, 0), 1.0), Sphere((0, 0, 0), 1.0), (), 0, 0, 0, 0, 0)
    return AssetDatabase.from_records(recs)


def settled_view(app, target, frames: int = 3):
    """The app's 3D view after ``frames`` frames (the viewport settles at its panel's
    size), as RGBA."""
    for _ in range(frames):
        app.frame(1 / 60, display_size=target.size, target=target.fbo)
    return app.viewport.read_rgba()


@contextmanager
def headless_app(gl_ctx, session, size) -> Iterator[tuple[ViewerApp, OffscreenTarget]]:
    """A ViewerApp on ``session`` drawing into an offscreen target of ``size``; both
    released on exit."""
    app = ViewerApp(gl_ctx, display_size=size, session=session)
    target = OffscreenTarget(gl_ctx, size)
    try:
        yield app, target
    finally:
        app.release()
        target.release()


def changed_pixels(a, b, threshold: int = 30) -> int:
    """How many pixels of two RGBA views differ by more than ``threshold`` in a channel."""
    return int((np.abs(a.astype(int) - b.astype(int)).max(axis=-1) > threshold).sum())


def count_calls(monkeypatch, owner, name: str) -> list:
    """A list that grows by one at each call of ``owner.name`` (still called through)."""
    calls = []
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, counted)
    return calls


def click_button(app, label: str, monkeypatch, frames) -> None:
    """Press the ImGui button ``label`` with the mouse, where it was drawn (its place
    recorded as drawn); ``frames(n)`` draws n viewer frames."""
    from imgui_bundle import imgui

    rects = {}
    real = imgui.button

    def button(text, *args, **kwargs):
        pressed = real(text, *args, **kwargs)
        rects[text] = (imgui.get_item_rect_min(), imgui.get_item_rect_max())
        return pressed

    monkeypatch.setattr(imgui, "button", button)
    try:
        frames(2)
        lo, hi = rects[label]
        app.input.mouse_pos((lo.x + hi.x) / 2, (lo.y + hi.y) / 2)
        frames(1)
        app.input.mouse_button(0, True)
        frames(1)
        app.input.mouse_button(0, False)
        frames(2)
    finally:
        monkeypatch.setattr(imgui, "button", real)
