"""RenderSurface pixels to RGBA8 (PixelFormatDesc::SetFormat 0x0043D0F0).

``decode_rgba(format, width, height, data, palette)`` returns an (height, width, 4) uint8
array. DXT1/3/5 (and the premultiplied DXT2/4) go through Pillow's BCn decoder; JPEG
through Pillow; the uncompressed formats are unpacked with numpy from the channel masks of
the client's ``PixelFormatDesc::SetFormat`` 0x0043D0F0. P8 and INDEX16 look up a Palette
(ColorARGB u32 0xAARRGGBB); what the client draws for them goes through
``runtime_palette`` and ``combined_palette`` (the one lookup of the ordinary and the
ObjDesc-changed surfaces). ``compressed_payload`` gives the raw BCn blocks for uploading
compressed to the GPU instead.

Sizes are checked as the client does (``RenderSurface::Serialize`` 0x004444E0 requires
``image_size == width * height * bpp / 8`` except for JPEG); a bad size, an unknown
format or a palette index outside the palette raises DatError.
"""

from __future__ import annotations

import io

import numpy as np

from viewer.dat.records.common import PixelFormat as PF
from viewer.errors import DatError

# bits per pixel of every format this module decodes
BPP = {
    PF.R8G8B8: 24, PF.A8R8G8B8: 32, PF.X8R8G8B8: 32, PF.R5G6B5: 16, PF.X1R5G5B5: 16,
    PF.A1R5G5B5: 16, PF.A4R4G4B4: 16, PF.R3G3B2: 8, PF.A8: 8, PF.A8R3G3B2: 16,
    PF.X4R4G4B4: 16, PF.A8B8G8R8: 32, PF.X8B8G8R8: 32, PF.P8: 8, PF.L8: 8, PF.A8L8: 16,
    PF.A4L4: 8, PF.INDEX16: 16, PF.CUSTOM_A8B8G8R8: 32, PF.CUSTOM_B8G8R8: 24,
    PF.CUSTOM_LSCAPE_R8G8B8: 24, PF.CUSTOM_LSCAPE_ALPHA: 8, PF.DXT1: 4, PF.DXT2: 8,
    PF.DXT3: 8, PF.DXT4: 8, PF.DXT5: 8,
}
# Pillow "bcn" decoder numbers
_BCN = {PF.DXT1: 1, PF.DXT2: 2, PF.DXT3: 2, PF.DXT4: 3, PF.DXT5: 3}
_MAX_PIXELS = 1 << 26


def _err(msg: str, did: int | None) -> DatError:
    return DatError(msg, did=did)


def palette_to_rgba(colors) -> np.ndarray:
    """Palette colours (u32 0xAARRGGBB) -> (n, 4) uint8 RGBA."""
    c = np.asarray(colors, dtype=np.uint32)
    out = np.empty((len(c), 4), dtype=np.uint8)
    out[:, 0] = (c >> 16) & 0xFF
    out[:, 1] = (c >> 8) & 0xFF
    out[:, 2] = c & 0xFF
    out[:, 3] = c >> 24
    return out


def runtime_palette(colors) -> np.ndarray:
    """A Palette's colours as the client holds them (u32 0xAARRGGBB): one of 256 colours is
    widened to 2048 at load, each colour repeated 8 times (``Palette::InitLoad`` 0x0053E060,
    run by the client's database on every Palette it loads); any other count is kept."""
    c = np.asarray([int(x) & 0xFFFFFFFF for x in getattr(colors, "colors", colors)],
                   dtype=np.uint32)
    return np.repeat(c, 8) if len(c) == 256 else c


def combined_palette(runtime_colors, clipmap: bool) -> np.ndarray:
    """The (n, 4) uint8 RGBA table a paletted texture (P8 or INDEX16) is combined through,
    texel by texel: each texel's index (u8 or u16) looked up directly in the runtime palette
    (``runtime_palette``; ``ImgTex::CopyIntoData`` 0x0053EC60 -> ``Palette::get_color32``
    0x0053E050), so a P8 texel i of a 256-colour palette shows colour i // 8. On a clip-map
    surface indices below 8 are 0 (all four channels) and the combined texture is A8R8G8B8;
    otherwise it is X8R8G8B8, its alpha ignored (``ImgTex::Combine`` 0x00540230 picks format
    21 or 22 from ``CSurface::SetTextureAndPalette`` 0x00535FB0's clip-map bit)."""
    table = palette_to_rgba(runtime_colors)
    if clipmap:
        table[:8] = 0
    else:
        table[:, 3] = 255
    return table


def _bits(v: np.ndarray, shift: int, nbits: int) -> np.ndarray:
    """Extract a channel and scale it to 0..255 exactly (x * 255 / max, rounded)."""
    m = (1 << nbits) - 1
    x = (v >> shift) & m
    return ((x.astype(np.uint32) * 255 + m // 2) // m).astype(np.uint8)


def compressed_payload(fmt: int, width: int, height: int, data: bytes) -> tuple[str, bytes] | None:
    """("bc1" | "bc2" | "bc3", blocks) for DXT formats (GPU upload as-is), else None."""
    n = _BCN.get(fmt)
    if n is None:
        return None
    return f"bc{n}", bytes(data)


def decode_rgba(fmt: int, width: int, height: int, data: bytes, palette=None, *,
                did: int | None = None) -> np.ndarray:
    """Decode one image to (height, width, 4) uint8 RGBA.

    ``palette``: a Palette record, a sequence of ARGB u32 colours, or an (n, 4) uint8
    array; required for P8 and INDEX16.
    """
    if width <= 0 or height <= 0 or width * height > _MAX_PIXELS:
        raise _err(f"implausible RenderSurface size {width}x{height}", did)
    if fmt == PF.CUSTOM_RAW_JPEG:
        return _decode_jpeg(data, did)
    try:
        fmt = PF(fmt)
    except ValueError:
        raise _err(f"unknown pixel format 0x{fmt:X}", did) from None
    bpp = BPP.get(fmt)
    if bpp is None:
        raise _err(f"pixel format {fmt.name} (0x{int(fmt):X}) is not supported", did)
    w, h = width, height
    expect = w * h * bpp // 8
    if fmt in _BCN:
        return _decode_bcn(fmt, w, h, bytes(data), expect, did)
    if len(data) != expect:
        raise _err(f"{fmt.name} image is {len(data)} bytes, {w}x{h} needs {expect}", did)
    b = np.frombuffer(bytes(data), dtype=np.uint8)
    out = np.empty((h * w, 4), dtype=np.uint8)
    if fmt in (PF.P8, PF.INDEX16):
        _unpack_indexed(b, out, fmt, palette, did)
    else:
        _UNPACK[fmt](b, out, fmt)   # every other BPP format has an unpacker
    return out.reshape(h, w, 4)


def _decode_jpeg(data: bytes, did) -> np.ndarray:
    from PIL import Image
    try:
        with Image.open(io.BytesIO(bytes(data))) as im:
            rgba = np.asarray(im.convert("RGBA"))
    except Exception as exc:  # Pillow raises many types for a corrupt stream
        raise _err(f"CUSTOM_RAW_JPEG image could not be decoded: {exc}", did) from exc
    return np.ascontiguousarray(rgba)


# -- the uncompressed formats: unpack(bytes, out (n, 4), format) -----------------------------
def _bgr24(b: np.ndarray, out: np.ndarray, fmt) -> None:          # bytes B, G, R
    p = b.reshape(-1, 3)
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = p[:, 2], p[:, 1], p[:, 0], 255


def _rgb24(b: np.ndarray, out: np.ndarray, fmt) -> None:          # bytes R, G, B
    out[:, :3] = b.reshape(-1, 3)
    out[:, 3] = 255


def _bgra32(b: np.ndarray, out: np.ndarray, fmt) -> None:         # bytes B, G, R, A
    p = b.reshape(-1, 4)
    out[:, 0], out[:, 1], out[:, 2] = p[:, 2], p[:, 1], p[:, 0]
    out[:, 3] = p[:, 3] if fmt == PF.A8R8G8B8 else 255


def _rgba32(b: np.ndarray, out: np.ndarray, fmt) -> None:         # bytes R, G, B, A
    p = b.reshape(-1, 4)
    out[:, :3] = p[:, :3]
    out[:, 3] = 255 if fmt == PF.X8B8G8R8 else p[:, 3]


def _u16(b: np.ndarray) -> np.ndarray:
    return b.view("<u2").astype(np.uint32)


def _r5g6b5(b: np.ndarray, out: np.ndarray, fmt) -> None:
    v = _u16(b)
    out[:, 0], out[:, 1], out[:, 2] = _bits(v, 11, 5), _bits(v, 5, 6), _bits(v, 0, 5)
    out[:, 3] = 255


def _x1r5g5b5(b: np.ndarray, out: np.ndarray, fmt) -> None:
    v = _u16(b)
    out[:, 0], out[:, 1], out[:, 2] = _bits(v, 10, 5), _bits(v, 5, 5), _bits(v, 0, 5)
    out[:, 3] = _bits(v, 15, 1) if fmt == PF.A1R5G5B5 else 255


def _x4r4g4b4(b: np.ndarray, out: np.ndarray, fmt) -> None:       # 4-bit channels scale by 17
    v = _u16(b)
    out[:, 0], out[:, 1], out[:, 2] = _bits(v, 8, 4), _bits(v, 4, 4), _bits(v, 0, 4)
    out[:, 3] = _bits(v, 12, 4) if fmt == PF.A4R4G4B4 else 255


def _a8r3g3b2(b: np.ndarray, out: np.ndarray, fmt) -> None:
    v = _u16(b)
    out[:, 0], out[:, 1], out[:, 2] = _bits(v, 5, 3), _bits(v, 2, 3), _bits(v, 0, 2)
    out[:, 3] = (v >> 8).astype(np.uint8)


def _a8l8(b: np.ndarray, out: np.ndarray, fmt) -> None:
    v = _u16(b)
    lum = (v & 0xFF).astype(np.uint8)
    out[:, 0] = out[:, 1] = out[:, 2] = lum
    out[:, 3] = (v >> 8).astype(np.uint8)


def _r3g3b2(b: np.ndarray, out: np.ndarray, fmt) -> None:
    out[:, 0], out[:, 1], out[:, 2] = _bits(b, 5, 3), _bits(b, 2, 3), _bits(b, 0, 2)
    out[:, 3] = 255


def _a8(b: np.ndarray, out: np.ndarray, fmt) -> None:
    # alpha only; colour reads as white [uncertain: D3D9 fixed-function default]
    out[:, :3] = 255
    out[:, 3] = b


def _l8(b: np.ndarray, out: np.ndarray, fmt) -> None:
    out[:, 0] = out[:, 1] = out[:, 2] = b
    out[:, 3] = 255


def _a4l4(b: np.ndarray, out: np.ndarray, fmt) -> None:
    out[:, 0] = out[:, 1] = out[:, 2] = _bits(b, 0, 4)
    out[:, 3] = _bits(b, 4, 4)


_UNPACK = {
    PF.R8G8B8: _bgr24, PF.CUSTOM_LSCAPE_R8G8B8: _bgr24, PF.CUSTOM_B8G8R8: _rgb24,
    PF.A8R8G8B8: _bgra32, PF.X8R8G8B8: _bgra32,
    PF.A8B8G8R8: _rgba32, PF.X8B8G8R8: _rgba32, PF.CUSTOM_A8B8G8R8: _rgba32,
    PF.R5G6B5: _r5g6b5, PF.X1R5G5B5: _x1r5g5b5, PF.A1R5G5B5: _x1r5g5b5,
    PF.A4R4G4B4: _x4r4g4b4, PF.X4R4G4B4: _x4r4g4b4, PF.A8R3G3B2: _a8r3g3b2, PF.A8L8: _a8l8,
    PF.R3G3B2: _r3g3b2, PF.A8: _a8, PF.CUSTOM_LSCAPE_ALPHA: _a8, PF.L8: _l8, PF.A4L4: _a4l4,
}
assert set(_UNPACK) | set(_BCN) | {PF.P8, PF.INDEX16} == set(BPP)


def _unpack_indexed(b: np.ndarray, out: np.ndarray, fmt, palette, did) -> None:
    idx = b if fmt == PF.P8 else b.view("<u2")            # INDEX16 is unsigned
    pal = _palette_array(palette, fmt, did)
    top = int(idx.max(initial=0))
    if top >= len(pal):
        raise _err(f"palette index {top} outside a palette of {len(pal)} colours", did)
    out[:] = pal[idx]


def _palette_array(palette, fmt, did) -> np.ndarray:
    if palette is None:
        raise _err(f"{PF(fmt).name} image needs a palette", did)
    colors = getattr(palette, "colors", palette)
    arr = np.asarray(colors)
    if arr.ndim == 2 and arr.shape[1] == 4 and arr.dtype == np.uint8:
        return arr
    return palette_to_rgba(colors)


def _decode_bcn(fmt, w: int, h: int, data: bytes, expect: int, did) -> np.ndarray:
    from PIL import Image
    block = 8 if fmt == PF.DXT1 else 16
    bw, bh = (w + 3) // 4, (h + 3) // 4
    full = bw * bh * block
    if len(data) not in (expect, full):
        raise _err(f"{fmt.name} image is {len(data)} bytes, {w}x{h} needs {full}", did)
    if len(data) < full:       # a tiny (<4 px) image stored with the client's w*h*bpp/8 size
        data = data + b"\0" * (full - len(data))
    im = Image.frombytes("RGBA", (bw * 4, bh * 4), data, "bcn", _BCN[fmt])
    arr = np.asarray(im)
    return np.ascontiguousarray(arr[:h, :w])


def decode_render_surface(rs, palette=None) -> np.ndarray:
    """RGBA8 of a RenderSurface record (``palette`` for P8 / INDEX16)."""
    return decode_rgba(int(rs.format), rs.width, rs.height, rs.source_data, palette,
                       did=rs.id)
