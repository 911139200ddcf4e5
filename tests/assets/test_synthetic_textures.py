"""Synthetic textures: every RenderSurface of the library, decoded by the DAT layer's pixel
decoder (viewer.dat.pixels), shows the picture textures.py drew, in every pixel format."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from viewer import synthetic as S
from viewer.dat.container import DatFile
from viewer.dat.pixels import decode_render_surface, runtime_palette
from viewer.dat.records import decode
from viewer.synthetic import textures as T

# Formats without alpha store premultiplied colour; DXT1 keeps 1-bit alpha.
_OPAQUE = {"R8G8B8", "X8R8G8B8", "R5G6B5", "X1R5G5B5", "X4R4G4B4", "X8B8G8R8", "CUSTOM_B8G8R8",
           "CUSTOM_LSCAPE_R8G8B8", "R3G3B2", "CUSTOM_RAW_JPEG"}
# Largest per-channel error allowed (quantisation of the format, or the BCn encoder).
_TOL = {"A8R8G8B8": 0, "A8B8G8R8": 0, "CUSTOM_A8B8G8R8": 0, "X8R8G8B8": 0, "X8B8G8R8": 0,
        "R8G8B8": 0, "CUSTOM_B8G8R8": 0, "CUSTOM_LSCAPE_R8G8B8": 0, "A8": 0,
        "CUSTOM_LSCAPE_ALPHA": 0, "L8": 0, "A8L8": 0, "P8": 0, "INDEX16": 0, "R5G6B5": 5,
        "X1R5G5B5": 5, "A1R5G5B5": 5, "A4R4G4B4": 9, "X4R4G4B4": 9, "A4L4": 9, "R3G3B2": 43,
        "A8R3G3B2": 43, "DXT1": 72, "DXT3": 72, "DXT5": 72,
        "CUSTOM_RAW_JPEG": 24}


def _expected(shape: str, fmt: str) -> np.ndarray:
    img = T.rgba8(shape).astype(np.int64)
    exp = img.copy()
    if fmt in T.PALETTE_LEVELS:     # the runtime palette's entry of each index (widened x8)
        n = T.PALETTE_LEVELS[fmt]
        colors = T.p8_palette_argb(shape) if fmt == "P8" else T.palette_argb(shape, n)
        argb = runtime_palette(colors).astype(np.int64)
        pal = np.stack([(argb >> 16) & 255, (argb >> 8) & 255, argb & 255, argb >> 24], -1)
        exp = pal[T.indices(shape, n)]
        # index ~ intensity; a P8 texel v shows colour v // 8 of a 32-step ramp
        assert np.abs(exp[..., 3] - img[..., 3]).max() <= (7 if fmt == "P8" else 1)
    elif fmt in _OPAQUE:
        exp[..., :3] = (img[..., :3] * img[..., 3:4] + 127) // 255
        exp[..., 3] = 255
    elif fmt in ("A8", "CUSTOM_LSCAPE_ALPHA"):
        exp[..., :3] = 255                         # alpha-only formats read as white
    elif fmt == "L8":
        pm = (img[..., :3] * img[..., 3:4] + 127) // 255
        exp[..., :3] = T.luminance(pm[..., 0], pm[..., 1], pm[..., 2])[..., None]
        exp[..., 3] = 255
    elif fmt in ("A8L8", "A4L4"):
        exp[..., :3] = T.luminance(img[..., 0], img[..., 1], img[..., 2])[..., None]
    return exp


@pytest.fixture(scope="module")
def dat():
    with DatFile(S.SYNTHETIC_DAT) as f:
        yield f


@pytest.mark.parametrize("shape,fmt", S.texture_combinations())
def test_render_surface_decodes_to_the_drawn_texture(dat, shape, fmt):
    did = S.RENDER_SURFACES[(shape, fmt)]
    rs = decode(did, dat.read(did))
    assert rs.format.name == fmt and (rs.width, rs.height) == T.SIZES[shape]
    palette = None
    if rs.default_palette_id is not None:
        palette = decode(rs.default_palette_id, dat.read(rs.default_palette_id))
        assert len(palette.colors) == {"P8": 256, "INDEX16": 2048}[fmt]
    if palette is not None:         # as the client holds it (Palette::InitLoad 0x0053E060)
        palette = runtime_palette(palette)
    got = decode_render_surface(rs, palette).astype(np.int64)
    exp = _expected(shape, fmt)
    if fmt == "A1R5G5B5":
        assert np.array_equal(got[..., 3] == 255, exp[..., 3] >= 128)
        got, exp = got[..., :3], exp[..., :3]
    if fmt == "DXT1":   # 1-bit alpha: the same texels are opaque, their colour is close
        opaque = exp[..., 3] >= 128
        assert np.array_equal(got[..., 3] == 255, opaque)
        got, exp = got[opaque][:, :3], exp[opaque][:, :3]
    err = np.abs(got - exp)
    assert err.max() <= _TOL[fmt]
    assert err.mean() <= 10


def test_dxt1_uses_both_block_modes():
    """Both BC1 decoder branches: color0 > color1 (4 colours) and color0 <= color1 (3 colours
    + transparent) appear in the synthetic DXT1 textures."""
    modes = set()
    for shape in S.SHAPES:
        _, _, data = T.encode(shape, "DXT1")
        blocks = np.frombuffer(data, dtype="<u2").reshape(-1, 4)
        modes |= {bool(c0 > c1) for c0, c1 in blocks[:, :2]}
    assert modes == {True, False}


def test_index16_uses_indices_above_255():
    _, _, data = T.encode("glow", "INDEX16")
    assert np.frombuffer(data, dtype="<u2").max() > 255


def test_transparent_texels_are_black_for_additive_surfaces():
    for shape in S.SHAPES:
        img = T.rgba8(shape)
        assert img[img[..., 3] == 0][:, :3].max(initial=0) == 0, shape


def test_jpeg_texture_is_a_deterministic_jfif_stream():
    """CUSTOM_RAW_JPEG (500) stores a whole JFIF stream; ours is integer-only, so the DAT
    regenerates byte for byte whatever libjpeg Pillow bundles."""
    data = T.encode("glow", "CUSTOM_RAW_JPEG")[2]
    assert data[:2] == b"\xFF\xD8" and data[-2:] == b"\xFF\xD9" and b"JFIF" in data[:20]
    assert T.encode("glow", "CUSTOM_RAW_JPEG")[2] == data


# Properties of the BCn encoder on arbitrary 4x4 blocks (decoded by Pillow's "bcn").

_block = st.lists(st.tuples(*[st.integers(0, 255)] * 4), min_size=16, max_size=16).map(
    lambda px: np.array(px, dtype=np.uint8).reshape(4, 4, 4))


def _bcn_decode(data: bytes, n: int) -> np.ndarray:
    return np.asarray(Image.frombytes("RGBA", (4, 4), data, "bcn", n)).astype(np.int64)


@settings(max_examples=40, deadline=None)
@given(_block)
def test_dxt1_punch_through_alpha_is_exact(img):
    got = _bcn_decode(T.encode_bcn(img, "DXT1"), 1)
    assert np.array_equal(got[..., 3] == 255, img[..., 3] >= 128)
    assert (got[..., 3] == 0).sum() + (got[..., 3] == 255).sum() == 16


@settings(max_examples=40, deadline=None)
@given(_block)
def test_dxt5_alpha_error_is_at_most_half_a_step(img):
    got = _bcn_decode(T.encode_bcn(img, "DXT5"), 3)
    a = img[..., 3].astype(np.int64)
    step = (a.max() - a.min()) / 7.0
    assert np.abs(got[..., 3] - a).max() <= step / 2 + 1


@settings(max_examples=25, deadline=None)
@given(st.tuples(*[st.integers(0, 255)] * 3))
def test_uniform_block_keeps_its_colour_within_565_quantisation(rgb):
    img = np.zeros((4, 4, 4), dtype=np.uint8)
    img[..., :3] = rgb
    img[..., 3] = 255
    for fmt, n in (("DXT1", 1), ("DXT3", 2), ("DXT5", 3)):
        got = _bcn_decode(T.encode_bcn(img, fmt), n)
        assert np.abs(got[..., :3] - img[..., :3].astype(np.int64)).max() <= 4
