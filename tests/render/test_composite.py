"""The comparison views on the GPU (viewer/render/composite.py, shaders/composite.frag.glsl)
equal viewer.compare.views.compose bit for bit, onion skin ghosts included."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.compare import views
from viewer.render.composite import CompositePass

W, H = 37, 21


def _view(ctx, img):
    """A view texture + framebuffer holding top-down ``img`` (GL rows bottom-up)."""
    rgba = np.concatenate([img, np.full(img.shape[:2] + (1,), 255, np.uint8)], axis=-1)
    tex = ctx.texture((img.shape[1], img.shape[0]), 4, np.ascontiguousarray(rgba[::-1]).tobytes())
    return tex, ctx.framebuffer([tex])


def _read(tex):
    data = np.frombuffer(tex.read(alignment=1), np.uint8).reshape(tex.size[1], tex.size[0], 4)
    return data[::-1, :, :3]


@pytest.fixture
def composer(gl_ctx):
    cp = CompositePass.create(gl_ctx)
    if cp is None:
        pytest.skip("no GLSL 4.00")
    yield cp
    cp.release()


@pytest.mark.parametrize("mode,opts", [
    ("side_by_side", {}), ("overlay", {"opacity": 0.5}), ("overlay", {"opacity": 0.3}),
    ("overlay", {"opacity": 0.77}), ("wipe", {"split": 0.5}), ("wipe", {"split": 0.31}),
    ("wipe", {"split": 1.0}), ("difference", {})])
def test_gpu_composite_equals_views_compose(gl_ctx, composer, mode, opts):
    rng = np.random.default_rng(len(mode) + int(100 * sum(opts.values())))
    a = rng.integers(0, 256, (H, W, 3), np.uint8)
    b = rng.integers(0, 256, (H, W, 3), np.uint8)
    tex, fbo = _view(gl_ctx, a)
    composer.set_reference(b, (W, H), key=0)
    out = composer.compose(mode, fbo, tex, **opts)
    assert np.array_equal(_read(out), views.compose(mode, a, b, **opts))
    fbo.release()
    tex.release()


def test_gpu_onion_ghosts_the_frames_before_as_numpy_does(gl_ctx, composer):
    rng = np.random.default_rng(5)
    b = rng.integers(0, 256, (H, W, 3), np.uint8)
    composer.set_reference(b, (W, H), key=0)
    frames = [rng.integers(0, 256, (H, W, 3), np.uint8) for _ in range(6)]
    for k, a in enumerate(frames):
        tex, fbo = _view(gl_ctx, a)
        out = _read(composer.compose("onion", fbo, tex, frame=k, generation=1))
        previous = frames[max(0, k - 3):k][::-1]     # newest first, at most three
        assert np.array_equal(out, views.onion(a, b, previous))
        fbo.release()
        tex.release()
    # a gap (a frame never shown) stops the ghosts, and a new generation forgets them
    tex, fbo = _view(gl_ctx, frames[0])
    assert np.array_equal(_read(composer.compose("onion", fbo, tex, frame=9, generation=1)),
                          views.onion(frames[0], b, []))
    assert np.array_equal(_read(composer.compose("onion", fbo, tex, frame=10, generation=2)),
                          views.onion(frames[0], b, []))
    fbo.release()
    tex.release()
