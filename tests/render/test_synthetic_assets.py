"""The synthetic asset library through the real render path: every pixel format, every
billboard mode (GPU particle shader and CPU part path agree)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.render import scenes as S
from viewer import synthetic as syn
from viewer.dat.database import AssetDatabase
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.meshes import MeshCache
from viewer.render.renderer import RenderSettings, SceneRenderer

pytestmark = pytest.mark.skipif(not syn.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")


@pytest.fixture(scope="module")
def db():
    d = AssetDatabase([str(syn.SYNTHETIC_DAT)])
    yield d
    d.close()


def test_every_pixel_format_uploads(gl_ctx, db):
    cache = MeshCache(gl_ctx, db)
    try:
        for key, did in syn.GALLERY_GFXOBJS.items():
            mesh = cache.mesh(did)
            (sub,) = mesh.subsets
            mat = sub.material
            assert mat.texture is not None, key
            _shape, fmt = key
            want = "compressed" if fmt in ("DXT1", "DXT3", "DXT5") else "decoded"
            if want == "compressed" and "GL_EXT_texture_compression_s3tc" not in gl_ctx.extensions:
                want = "decoded"
            assert mat.texture_mode == want, key
    finally:
        cache.release()


@pytest.mark.parametrize("gfx", [syn.GFX_QUAD_SPARK, syn.GFX_QUAD_SPARK_AXIS_X,
                                 syn.GFX_QUAD_SPARK_AXIS_Y, syn.GFX_QUAD_STREAK])
def test_billboard_modes_gpu_particle_matches_cpu_part(gl_ctx, db, gfx):
    settings = RenderSettings(background=(0, 0, 0, 1), show_grid=False)
    r = SceneRenderer(gl_ctx, db, settings)
    t = OffscreenTarget(gl_ctx, (64, 48))
    cam = S.oblique_camera(distance=1.5)
    try:
        r.render(S.scene([S.mesh(gfx)]), cam, t)
        part = t.read_rgba()
        r.render(S.scene(particles=S.particle_arrays([[0, 0, 0]], gfx)), cam, t)
        particle = t.read_rgba()
        # each quad lies in the plane its degrade mode turns to the viewer: never edge-on
        assert (part[..., :3].max(axis=-1) > 8).sum() > 5
        diff = np.abs(part.astype(int) - particle.astype(int)).max(axis=-1)
        assert (diff > 8).mean() < 0.01
    finally:
        r.release()
        t.release()
