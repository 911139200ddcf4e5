"""Pixel formats to RGBA (PixelFormatDesc::SetFormat 0x0043D0F0) and compressed upload."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from viewer.dat.records.common import PixelFormat as PF
from viewer.errors import DatError
from viewer.render import textures as T


def one(fmt, data, palette=None):
    return T.decode_rgba(fmt, 1, 1, bytes(data), palette)[0, 0].tolist()


def test_R8G8B8_bytes_are_BGR():
    assert one(PF.R8G8B8, [0x10, 0x20, 0x30]) == [0x30, 0x20, 0x10, 255]


def test_CUSTOM_LSCAPE_R8G8B8_uses_client_BGR_masks():
    assert one(PF.CUSTOM_LSCAPE_R8G8B8, [0x10, 0x20, 0x30]) == [0x30, 0x20, 0x10, 255]


def test_CUSTOM_B8G8R8_bytes_are_RGB():
    assert one(PF.CUSTOM_B8G8R8, [0x10, 0x20, 0x30]) == [0x10, 0x20, 0x30, 255]


def test_A8R8G8B8_is_u32_AARRGGBB():
    assert one(PF.A8R8G8B8, (0x80112233).to_bytes(4, "little")) == [0x11, 0x22, 0x33, 0x80]


def test_X8R8G8B8_ignores_alpha():
    assert one(PF.X8R8G8B8, (0x00112233).to_bytes(4, "little")) == [0x11, 0x22, 0x33, 255]


def test_A8B8G8R8_bytes_are_RGBA():
    assert one(PF.A8B8G8R8, [1, 2, 3, 4]) == [1, 2, 3, 4]
    assert one(PF.CUSTOM_A8B8G8R8, [1, 2, 3, 4]) == [1, 2, 3, 4]
    assert one(PF.X8B8G8R8, [1, 2, 3, 4]) == [1, 2, 3, 255]


def test_R5G6B5_expands_to_full_range():
    assert one(PF.R5G6B5, (0xF800).to_bytes(2, "little")) == [255, 0, 0, 255]
    assert one(PF.R5G6B5, (0x07E0).to_bytes(2, "little")) == [0, 255, 0, 255]
    assert one(PF.R5G6B5, (0x001F).to_bytes(2, "little")) == [0, 0, 255, 255]


def test_A1R5G5B5_alpha_bit_15():
    assert one(PF.A1R5G5B5, (0x7C00).to_bytes(2, "little")) == [255, 0, 0, 0]
    assert one(PF.A1R5G5B5, (0xFC00).to_bytes(2, "little")) == [255, 0, 0, 255]
    assert one(PF.X1R5G5B5, (0x7C00).to_bytes(2, "little")) == [255, 0, 0, 255]


def test_A4R4G4B4_scales_by_17_not_ACE_integer_division():
    assert one(PF.A4R4G4B4, (0x8421).to_bytes(2, "little")) == [4 * 17, 2 * 17, 17, 8 * 17]
    assert one(PF.X4R4G4B4, (0x8421).to_bytes(2, "little"))[3] == 255


def test_A8_is_alpha_only():
    assert one(PF.A8, [0x40]) == [255, 255, 255, 0x40]
    assert one(PF.CUSTOM_LSCAPE_ALPHA, [0x40]) == [255, 255, 255, 0x40]


def test_P8_applies_palette():
    pal = T.palette_rgba([0xFF000000, 0x80102030])
    assert one(PF.P8, [1], pal) == [0x10, 0x20, 0x30, 0x80]


def test_INDEX16_index_is_unsigned():
    colors = [0xFF000000] * 0x8001
    colors[0x8000] = 0xFFABCDEF
    pal = T.palette_rgba(colors)
    assert one(PF.INDEX16, (0x8000).to_bytes(2, "little"), pal) == [0xAB, 0xCD, 0xEF, 255]


def test_palette_index_outside_palette_raises_DatError():
    with pytest.raises(DatError):
        T.decode_rgba(PF.P8, 1, 1, bytes([5]), T.palette_rgba([0xFF000000]), did=0x06000001)


def test_indexed_without_palette_raises_DatError():
    with pytest.raises(DatError, match="0x06000002"):
        T.decode_rgba(PF.P8, 1, 1, bytes([0]), None, did=0x06000002)


def test_short_pixel_data_names_did_and_offset():
    with pytest.raises(DatError) as err:
        T.decode_rgba(PF.A8R8G8B8, 2, 2, bytes(15), did=0x06000003)
    assert "0x06000003" in str(err.value) and "15 bytes" in str(err.value)


def test_unknown_format_raises_DatError():
    with pytest.raises(DatError, match="0x06000004"):
        T.decode_rgba(0x12345, 1, 1, bytes(4), did=0x06000004)


def _dxt1_red_block():
    return bytes([0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0])  # color0 red, all indices 0


def test_DXT1_decodes_through_bcn():
    img = T.decode_rgba(PF.DXT1, 4, 4, _dxt1_red_block())
    assert img.shape == (4, 4, 4) and (img[..., 0] == 255).all() and (img[..., 2] == 0).all()


def test_DXT5_decodes_alpha_block():
    # alpha0 = 0x80, alpha1 = 0, indices 0 -> alpha 0x80 everywhere; colour block as DXT1
    blk = bytes([0x80, 0x00, 0, 0, 0, 0, 0, 0]) + _dxt1_red_block()
    img = T.decode_rgba(PF.DXT5, 4, 4, blk)
    assert (img[..., 3] == 0x80).all() and (img[..., 0] == 255).all()


def test_JPEG_decodes_with_pillow(tmp_path):
    import io
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 255, 0)).save(buf, "JPEG", quality=95)
    img = T.decode_rgba(PF.CUSTOM_RAW_JPEG, 4, 4, buf.getvalue())
    assert img.shape == (4, 4, 4) and img[..., 1].min() > 240


def test_bad_JPEG_raises_DatError():
    with pytest.raises(DatError):
        T.decode_rgba(PF.CUSTOM_RAW_JPEG, 4, 4, b"not a jpeg", did=0x06000005)


def test_DXT1_uploads_compressed_when_GL_has_s3tc(gl_ctx):
    tex = T.upload(gl_ctx, PF.DXT1, 4, 4, _dxt1_red_block())
    try:
        if "GL_EXT_texture_compression_s3tc" in gl_ctx.extensions:
            assert tex.extra == "compressed"
        px = np.frombuffer(tex.read(), np.uint8).reshape(4, 4, 4)
        assert (px[..., 0] == 255).all() and (px[..., 1] == 0).all()
    finally:
        tex.release()


def test_DXT_falls_back_to_decoding_when_compressed_is_refused(gl_ctx):
    tex = T.upload(gl_ctx, PF.DXT1, 4, 4, _dxt1_red_block(), allow_compressed=False)
    try:
        assert tex.extra == "decoded"
        px = np.frombuffer(tex.read(), np.uint8).reshape(4, 4, 4)
        assert (px[..., 0] == 255).all()
    finally:
        tex.release()
