"""The ObjDesc demo (assets_synthetic/objdesc.scenario.json) rendered through the real path
(scenario -> World -> build_scene_input -> SceneRenderer): the clothing part swap at 1 s
(CPartArray::SetPart 0x00518580), the subpalette recolour at 2 s (CPartArray::SetPalette
0x00518E10 -> CPhysicsPart::UsePalette 0x0050DED0, the paletted texture looked up in the
modified palette, ImgTex::CopyIntoData 0x0053EC60) and the texture change at 3 s
(CPartArray::SetTextureMap 0x005185E0). Goldens: 96x96, llvmpipe."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.imagecheck import assert_image_matches
from tests.render import scenes as S
from viewer import synthetic as syn
from viewer.dat.database import AssetDatabase
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.renderer import RenderSettings, SceneRenderer
from viewer.render.world_adapter import build_scene_input
from viewer.sim.scenario import Scenario, ScenarioRunner

pytestmark = pytest.mark.skipif(not syn.OBJDESC_SCENARIO.exists(), reason="no synthetic DAT")
TIMES = (0.5, 1.5, 2.5, 3.5)


@pytest.fixture(scope="module")
def pictures(_gl_session_ctx):
    ctx = _gl_session_ctx
    ctx.__enter__()
    data = json.loads(syn.OBJDESC_SCENARIO.read_text())
    data["dat"] = [str(syn.SYNTHETIC_DAT)]
    with AssetDatabase([str(syn.SYNTHETIC_DAT)]) as db:
        runner = ScenarioRunner(Scenario.from_json(data), db)
        r = SceneRenderer(ctx, db, RenderSettings(background=(0, 0, 0, 1), show_grid=False))
        target = OffscreenTarget(ctx, (96, 96))
        cam = S.front_camera(distance=2.6, target=(0.0, 0.0, 1.1))
        out = {}
        try:
            for t, world in runner.frames():
                key = round(float(t), 3)
                if key in TIMES:
                    r.render(build_scene_input(world), cam, target)
                    out[key] = target.read_rgba()
        finally:
            r.release()
            target.release()
    return out


def _cloth(img):
    """The cloth's pixels: the box's rows 0.95..1.45 m sit in the image's middle band."""
    return img[30:56, 36:60, :3].astype(int)


def test_part_swap_golden(pictures, regen_goldens):
    """The robe (longer, wider) replaces the tunic on part 1: more cloth pixels lower
    down; same blue-and-grey weave."""
    tunic, robe = pictures[0.5], pictures[1.5]
    lit = lambda img: (img[..., :3].max(axis=-1) > 8)  # noqa: E731
    assert lit(robe)[60:80].sum() > lit(tunic)[60:80].sum() + 100
    assert_image_matches(robe, "render/objdesc_part_swap.png", tol=3, max_bad_fraction=0.01,
                         regen=regen_goldens)


def test_subpalette_recolour_golden(pictures, regen_goldens):
    """The warp band (units 8..15) turns crimson, the weft band (16..23) gold: the cloth
    goes from blue-dominant to red-dominant, the shape does not change."""
    before, after = _cloth(pictures[1.5]), _cloth(pictures[2.5])
    assert before[..., 2].mean() > before[..., 0].mean()      # blue warp, grey weft
    assert after[..., 0].mean() > after[..., 2].mean() + 40   # crimson and gold
    same_shape = (pictures[1.5][..., :3].max(-1) > 8) == (pictures[2.5][..., :3].max(-1) > 8)
    assert same_shape.mean() > 0.99
    assert_image_matches(pictures[2.5], "render/objdesc_recolour.png", tol=3,
                         max_bad_fraction=0.01, regen=regen_goldens)


def test_texture_change_keeps_the_recolour(pictures):
    """At 3 s the weave becomes stripes; the ObjDesc names the subpalettes again, so the
    colours stay crimson and gold (each ObjDesc starts from the default palettes)."""
    stripes = _cloth(pictures[3.5])
    assert not np.array_equal(stripes, _cloth(pictures[2.5]))
    assert stripes[..., 0].mean() > stripes[..., 2].mean() + 40


def test_ImgTex_CopyIntoData_0x0053EC60_part_palette_and_clipmap_indices(gl_ctx):
    """A part's private surface draws its SurfaceTexture looked up in the part's palette
    index by index; on a clip-map surface indices below 8 are transparent black."""
    from viewer.dat.records import PixelFormat, RenderSurface, Surface, SurfaceTexture
    from viewer.dat.records import SurfaceType as ST
    from viewer.render.meshes import MeshCache
    from viewer.sim.objdesc import DrawnSurface

    class DB:
        records = {0x08000001: Surface(ST.Base1ClipMap, 0x05000001, 0, None, 0.0, 0.0, 1.0),
                   0x05000001: SurfaceTexture(0x05000001, 0, 2, (0x06000001,)),
                   0x06000001: RenderSurface(0x06000001, 0, 2, 1, PixelFormat.INDEX16,
                                             np.array([7, 8], "<u2").tobytes(), 0x04000001)}

        def get(self, did):
            return self.records[did]

    pal = np.full(2048, 0xFF102030, np.uint32)
    pal[8] = 0xFFFF0000
    cache = MeshCache(gl_ctx, DB())
    try:
        mat = cache.custom_surface(DrawnSurface(0x08000001, 0x05000001, pal, b"k", True))
        texels = np.frombuffer(mat.texture.read(), np.uint8).reshape(2, 4)
        assert texels[0].tolist() == [0, 0, 0, 0]          # index 7: clip-map transparent
        assert texels[1].tolist() == [255, 0, 0, 255]      # index 8: the part's palette
        assert mat.paletted
        assert cache.custom_surface(DrawnSurface(0x08000001, 0x05000001, pal, b"k")) is mat
    finally:
        cache.release()
