"""The picture after a TextureVelocity stops (CPhysics::AddGfxVelocity 0x00509B60 removes
the entry, the GfxObj's mesh keeps the offset CGfxObj::TexVelocity 0x005341D0 last wrote):
the synthetic scroll plane, rendered through the real path, stays where it stopped."""

from __future__ import annotations

import numpy as np
import pytest

from tests.render import scenes as S
from viewer import synthetic as syn
from viewer.dat.database import AssetDatabase
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.renderer import RenderSettings, SceneRenderer
from viewer.render.world_adapter import build_scene_input
from viewer.sim.scenario import Scenario, ScenarioRunner

pytestmark = pytest.mark.skipif(not syn.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")


def test_texture_offset_persists_after_the_stop_in_the_picture(gl_ctx):
    """PES_TEXTURE_VELOCITY: u 0.5 from 0 s, v -0.25 from 2 s, (0, 0) at 4 s. The frames
    at 4.5 s and 5.5 s are the same picture, and not the unscrolled one of t = 0."""
    with AssetDatabase([str(syn.SYNTHETIC_DAT)]) as db:
        sc = Scenario.from_json({
            "fps": 30, "seconds": 5.6,
            "objects": [{"id": 1, "setup": f"0x{syn.SETUP_SCROLL_PLANE:08X}"}],
            "events": [{"t": 0.0, "object": 1,
                        "play_script": f"0x{syn.PES_TEXTURE_VELOCITY:08X}"}]})
        runner = ScenarioRunner(sc, db)
        r = SceneRenderer(gl_ctx, db, RenderSettings(background=(0, 0, 0, 1),
                                                      show_grid=False))
        target = OffscreenTarget(gl_ctx, (64, 48))
        cam = S.oblique_camera(distance=2.5)
        pictures, offsets = {}, {}
        try:
            for t, _ in runner.frames():
                key = round(float(t), 3)
                if key in (0.0, 4.5, 5.5):
                    scene = build_scene_input(runner.world)
                    offsets[key] = scene.meshes[0].uv_offset
                    r.render(scene, cam, target)
                    pictures[key] = target.read_rgba()
        finally:
            r.release()
            target.release()
    assert offsets[0.0] == (0.0, 0.0)
    assert offsets[4.5] == offsets[5.5] != (0.0, 0.0)
    assert (pictures[0.0][..., :3].max(axis=-1) > 8).sum() > 100   # the plane is in view
    assert np.array_equal(pictures[4.5], pictures[5.5])
    assert not np.array_equal(pictures[0.0], pictures[4.5])
