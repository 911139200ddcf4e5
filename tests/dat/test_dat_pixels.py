"""RenderSurface pixel formats to RGBA8 (PixelFormatDesc::SetFormat 0x0043D0F0)."""

from __future__ import annotations

import io
import struct

import numpy as np
import pytest
from PIL import Image

from viewer.dat import records as R
from viewer.dat.pixels import (
    combined_palette,
    compressed_payload,
    decode_render_surface,
    decode_rgba,
    palette_to_rgba,
    runtime_palette,
)
from viewer.dat.records import PixelFormat as PF
from viewer.errors import DatError


def px(fmt, data: bytes, w=1, h=1, palette=None):
    return decode_rgba(int(fmt), w, h, data, palette)[0, 0].tolist()


def test_R8G8B8_bytes_are_B_G_R():
    assert px(PF.R8G8B8, bytes([10, 20, 30])) == [30, 20, 10, 255]


def test_A8R8G8B8_is_u32_ARGB_so_bytes_B_G_R_A():
    assert px(PF.A8R8G8B8, struct.pack("<I", 0x80102030)) == [0x10, 0x20, 0x30, 0x80]
    assert px(PF.X8R8G8B8, struct.pack("<I", 0x00102030)) == [0x10, 0x20, 0x30, 255]


def test_A8B8G8R8_and_CUSTOM_formats_byte_orders():
    assert px(PF.A8B8G8R8, bytes([1, 2, 3, 4])) == [1, 2, 3, 4]
    assert px(PF.X8B8G8R8, bytes([1, 2, 3, 4])) == [1, 2, 3, 255]
    assert px(PF.CUSTOM_A8B8G8R8, bytes([1, 2, 3, 4])) == [1, 2, 3, 4]
    assert px(PF.CUSTOM_B8G8R8, bytes([1, 2, 3])) == [1, 2, 3, 255]
    # client uses R8G8B8's masks for the landscape format [uncertain]
    assert px(PF.CUSTOM_LSCAPE_R8G8B8, bytes([1, 2, 3])) == [3, 2, 1, 255]


def test_16_bit_formats():
    assert px(PF.R5G6B5, struct.pack("<H", 0xF800)) == [255, 0, 0, 255]
    assert px(PF.R5G6B5, struct.pack("<H", 0x07E0)) == [0, 255, 0, 255]
    assert px(PF.A1R5G5B5, struct.pack("<H", 0x801F)) == [0, 0, 255, 255]
    assert px(PF.A1R5G5B5, struct.pack("<H", 0x001F)) == [0, 0, 255, 0]
    assert px(PF.X1R5G5B5, struct.pack("<H", 0x001F)) == [0, 0, 255, 255]


def test_A4R4G4B4_scales_4_bit_channels_by_17_not_integer_division():
    # ACE's (v >> 12) / 0xF * 255 gives only 0 or 255
    assert px(PF.A4R4G4B4, struct.pack("<H", 0x8421)) == [4 * 17, 2 * 17, 1 * 17, 8 * 17]
    assert px(PF.X4R4G4B4, struct.pack("<H", 0x0F00)) == [255, 0, 0, 255]


def test_alpha_and_luminance_formats():
    assert px(PF.A8, bytes([77]))[3] == 77
    assert px(PF.CUSTOM_LSCAPE_ALPHA, bytes([9]))[3] == 9
    assert px(PF.L8, bytes([50])) == [50, 50, 50, 255]
    assert px(PF.A8L8, struct.pack("<H", 0x8040)) == [0x40, 0x40, 0x40, 0x80]


def test_P8_applies_the_palette():
    pal = R.Palette(0x04000001, (0xFF000000, 0x80FF8040))
    img = decode_rgba(int(PF.P8), 2, 1, bytes([1, 0]), pal)
    assert img.tolist() == [[[0xFF, 0x80, 0x40, 0x80], [0, 0, 0, 255]]]


def test_INDEX16_indices_are_unsigned():
    colors = [0xFF000000 | i for i in range(0x9000)]
    img = decode_rgba(int(PF.INDEX16), 1, 1, struct.pack("<H", 0x8001), colors)
    assert img[0, 0].tolist() == [0, 0x80, 0x01, 255]


def test_palette_index_outside_the_palette_is_an_error():
    with pytest.raises(DatError):
        decode_rgba(int(PF.P8), 1, 1, bytes([5]), [0xFF000000])
    with pytest.raises(DatError):
        decode_rgba(int(PF.P8), 1, 1, bytes([0]), None)


def _bc1_block(c0: int, c1: int, idx: int = 0) -> bytes:
    return struct.pack("<HHI", c0, c1, idx)


def test_DXT1_decodes_through_Pillow_bcn():
    img = decode_rgba(int(PF.DXT1), 4, 4, _bc1_block(0xF800, 0x001F, 0))
    assert img.shape == (4, 4, 4) and img[0, 0].tolist() == [255, 0, 0, 255]
    # colour0 <= colour1: index 3 is transparent black (1-bit alpha)
    img = decode_rgba(int(PF.DXT1), 4, 4, _bc1_block(0x0000, 0xFFFF, 0xFFFFFFFF))
    assert img[0, 0, 3] == 0


def test_DXT1_non_multiple_of_4_is_cropped():
    img = decode_rgba(int(PF.DXT1), 6, 2, _bc1_block(0x07E0, 0, 0) * 2)
    assert img.shape == (2, 6, 4) and img[1, 5].tolist() == [0, 255, 0, 255]


def test_DXT3_and_DXT5_blocks():
    alpha3 = struct.pack("<Q", 0x8888888888888888)            # explicit 4-bit alpha 8 -> 136
    img = decode_rgba(int(PF.DXT3), 4, 4, alpha3 + _bc1_block(0x001F, 0, 0))
    assert img[0, 0].tolist() == [0, 0, 255, 136]
    alpha5 = bytes([200, 100]) + bytes(6)                      # all indices 0 -> alpha0
    img = decode_rgba(int(PF.DXT5), 4, 4, alpha5 + _bc1_block(0xFFFF, 0, 0))
    assert img[3, 3].tolist() == [255, 255, 255, 200]


def test_compressed_payload_is_the_raw_blocks_for_GPU_upload():
    blk = _bc1_block(0xF800, 0)
    assert compressed_payload(int(PF.DXT1), 4, 4, blk) == ("bc1", blk)
    assert compressed_payload(int(PF.DXT5), 4, 4, blk * 2)[0] == "bc3"
    assert compressed_payload(int(PF.A8R8G8B8), 1, 1, bytes(4)) is None


def test_JPEG_decodes_with_Pillow():
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 10, 10)).save(buf, "JPEG", quality=95)
    img = decode_rgba(int(PF.CUSTOM_RAW_JPEG), 8, 8, buf.getvalue())
    assert img.shape == (8, 8, 4) and abs(int(img[4, 4, 0]) - 200) < 8
    with pytest.raises(DatError):
        decode_rgba(int(PF.CUSTOM_RAW_JPEG), 8, 8, b"not a jpeg")


def test_wrong_image_size_and_unknown_format_are_errors():
    with pytest.raises(DatError) as ei:
        decode_rgba(int(PF.R8G8B8), 2, 2, bytes(11), did=0x06000001)
    assert ei.value.did == 0x06000001 and "12" in str(ei.value)
    with pytest.raises(DatError):
        decode_rgba(0x12345, 1, 1, bytes(4))
    with pytest.raises(DatError):
        decode_rgba(int(PF.D24S8), 1, 1, bytes(4))             # known but not an image
    with pytest.raises(DatError):
        decode_rgba(int(PF.DXT1), 4, 4, bytes(7))
    with pytest.raises(DatError):
        decode_rgba(int(PF.R8G8B8), 0, 4, b"")


def test_decode_render_surface_record():
    rs = R.RenderSurface(0x06000001, 0, 2, 1, PF.R8G8B8, bytes([1, 2, 3, 4, 5, 6]), None)
    assert decode_render_surface(rs).tolist() == [[[3, 2, 1, 255], [6, 5, 4, 255]]]


def test_palette_to_rgba():
    assert palette_to_rgba([0x11223344]).tolist() == [[0x22, 0x33, 0x44, 0x11]]
    assert np.asarray(palette_to_rgba([])).shape == (0, 4)


# --- paletted textures as the client combines them -----------------------------------------
def _ramp(n: int) -> list[int]:
    """n distinct opaque-ish colours: entry k = 0x80RRGGBB with R = k & 255, G = k >> 8."""
    return [0x80000000 | ((k & 255) << 16) | ((k >> 8) << 8) | 7 for k in range(n)]


def test_Palette_InitLoad_0x0053E060_widens_256_colours_to_2048_each_8_times():
    wide = runtime_palette(R.Palette(0x04000001, tuple(_ramp(256))))
    assert wide.dtype == np.uint32 and len(wide) == 2048
    assert wide.tolist() == [c for c in _ramp(256) for _ in range(8)]
    assert runtime_palette(_ramp(2048)).tolist() == _ramp(2048)      # only 256 is widened
    assert runtime_palette(_ramp(16)).tolist() == _ramp(16)


def test_ImgTex_CopyIntoData_0x0053EC60_P8_texel_i_of_a_256_colour_palette_shows_i_div_8():
    """The texel's u8 index is looked up directly in the widened palette
    (Palette::get_color32 0x0053E050): texel i shows stored colour i // 8."""
    table = combined_palette(runtime_palette(_ramp(256)), clipmap=False)
    img = decode_rgba(PF.P8, 256, 1, bytes(range(256)), table)
    assert img[0, :, 0].tolist() == [i // 8 for i in range(256)]       # R = stored index
    assert set(img[0, :, 3].tolist()) == {255}     # X8R8G8B8: the palette's alpha is unused


def test_ImgTex_CopyIntoData_0x0053EC60_INDEX16_looks_its_index_up_directly():
    table = combined_palette(runtime_palette(_ramp(2048)), clipmap=False)
    data = np.array([0, 9, 300, 2047], "<u2").tobytes()
    img = decode_rgba(PF.INDEX16, 4, 1, data, table)
    assert [(int(p[0]), int(p[1])) for p in img[0]] == [(0, 0), (9, 0), (44, 1), (255, 7)]


def test_ImgTex_Combine_0x00540230_clipmap_indices_below_8_are_zero_and_alpha_is_kept():
    """A clip-map surface's combined texture is A8R8G8B8 and CopyIntoData writes 0 (every
    channel) for an index below 8; other indices keep the palette's alpha."""
    table = combined_palette(runtime_palette(_ramp(256)), clipmap=True)
    img = decode_rgba(PF.P8, 4, 1, bytes([0, 7, 8, 255]), table)
    assert img[0].tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 7, 0x80], [31, 0, 7, 0x80]]
    data = np.array([7, 8], "<u2").tobytes()                        # INDEX16 too
    img16 = decode_rgba(PF.INDEX16, 2, 1, data, combined_palette(_ramp(2048), clipmap=True))
    assert img16[0].tolist() == [[0, 0, 0, 0], [8, 0, 7, 0x80]]
