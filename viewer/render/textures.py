"""RenderSurface pixels to GL textures (dat-format.md 3.6-3.9).

Every pixel format in the spec's decode table is handled. DXT1/3/5 go to the GPU still
compressed (``glCompressedTexImage2D``) when the context has S3TC; otherwise, and for every
other format, the pixels are decoded to RGBA8 here (BCn through Pillow's ``bcn`` decoder,
JPEG through Pillow). Palettes are applied for P8 and INDEX16.
"""

from __future__ import annotations

import ctypes
import io

import numpy as np
from PIL import Image

from viewer.errors import DatError

R8G8B8 = 0x14
A8R8G8B8 = 0x15
X8R8G8B8 = 0x16
R5G6B5 = 0x17
X1R5G5B5 = 0x18
A1R5G5B5 = 0x19
A4R4G4B4 = 0x1A
A8 = 0x1C
X4R4G4B4 = 0x1E
A8B8G8R8 = 0x20
X8B8G8R8 = 0x21
P8 = 0x29
INDEX16 = 0x65
CUSTOM_A8B8G8R8 = 0xF1
CUSTOM_B8G8R8 = 0xF2
CUSTOM_LSCAPE_R8G8B8 = 0xF3
CUSTOM_LSCAPE_ALPHA = 0xF4
CUSTOM_RAW_JPEG = 0x1F4
DXT1 = 0x31545844
DXT3 = 0x33545844
DXT5 = 0x35545844

# bits per pixel (PixelFormatDesc::SetFormat 0x0043D0F0)
BPP = {R8G8B8: 24, A8R8G8B8: 32, X8R8G8B8: 32, R5G6B5: 16, X1R5G5B5: 16, A1R5G5B5: 16,
       A4R4G4B4: 16, A8: 8, X4R4G4B4: 16, A8B8G8R8: 32, X8B8G8R8: 32, P8: 8, INDEX16: 16,
       CUSTOM_A8B8G8R8: 32, CUSTOM_B8G8R8: 24, CUSTOM_LSCAPE_R8G8B8: 24,
       CUSTOM_LSCAPE_ALPHA: 8, DXT1: 4, DXT3: 8, DXT5: 8}

# GL internal formats for compressed upload (EXT_texture_compression_s3tc)
GL_COMPRESSED = {DXT1: 0x83F1, DXT3: 0x83F2, DXT5: 0x83F3}
_BCN_MODE = {DXT1: 1, DXT3: 2, DXT5: 3}


def expected_size(fmt: int, width: int, height: int) -> int | None:
    """Byte size the client requires (RenderSurface::Serialize 0x004444E0); None for JPEG."""
    if fmt in (DXT1, DXT3, DXT5):
        blocks = max(1, (width + 3) // 4) * max(1, (height + 3) // 4)
        return blocks * (8 if fmt == DXT1 else 16)
    bpp = BPP.get(fmt)
    return None if bpp is None else width * height * bpp // 8


def _expand(v: np.ndarray, bits: int) -> np.ndarray:
    """n-bit channel to 8 bits by bit replication (x*255/(2^n-1), rounded)."""
    v = v.astype(np.uint32)
    return ((v * 255 + ((1 << bits) - 1) // 2) // ((1 << bits) - 1)).astype(np.uint8)


def decode_rgba(fmt: int, width: int, height: int, data: bytes,
                palette: np.ndarray | None = None, *, did: int | None = None) -> np.ndarray:
    """Decode one RenderSurface image to an (H, W, 4) uint8 RGBA array (top row first).

    ``palette`` is (n, 4) uint8 RGBA for P8 / INDEX16. Bad sizes and unknown formats raise
    DatError naming the DID.
    """
    w, h = int(width), int(height)
    if w <= 0 or h <= 0:
        raise DatError(f"RenderSurface has size {w}x{h}", did=did)
    if fmt == CUSTOM_RAW_JPEG:
        try:
            with Image.open(io.BytesIO(bytes(data))) as im:
                return np.asarray(im.convert("RGBA")).copy()
        except Exception as exc:  # Pillow raises many types for a bad stream
            raise DatError(f"bad JPEG pixel data: {exc}", did=did) from None
    need = expected_size(fmt, w, h)
    if need is None:
        raise DatError(f"unsupported pixel format 0x{fmt:X}", did=did)
    if len(data) < need:
        raise DatError(f"pixel data is {len(data)} bytes, format 0x{fmt:X} {w}x{h} needs "
                       f"{need}", did=did, offset=len(data))
    buf = np.frombuffer(bytes(data), dtype=np.uint8, count=need)
    out = np.empty((h * w, 4), np.uint8)
    if fmt in (DXT1, DXT3, DXT5):
        im = Image.frombytes("RGBA", (w, h), bytes(data[:need]), "bcn", _BCN_MODE[fmt])
        return np.asarray(im).copy()
    if fmt in (R8G8B8, CUSTOM_LSCAPE_R8G8B8):  # bytes B, G, R (LSCAPE per client masks)
        px = buf.reshape(-1, 3)
        out[:, 0], out[:, 1], out[:, 2], out[:, 3] = px[:, 2], px[:, 1], px[:, 0], 255
    elif fmt == CUSTOM_B8G8R8:                 # bytes R, G, B
        px = buf.reshape(-1, 3)
        out[:, :3], out[:, 3] = px, 255
    elif fmt in (A8R8G8B8, X8R8G8B8):          # bytes B, G, R, A
        px = buf.reshape(-1, 4)
        out[:, 0], out[:, 1], out[:, 2] = px[:, 2], px[:, 1], px[:, 0]
        out[:, 3] = px[:, 3] if fmt == A8R8G8B8 else 255
    elif fmt in (A8B8G8R8, X8B8G8R8, CUSTOM_A8B8G8R8):  # bytes R, G, B, A
        px = buf.reshape(-1, 4)
        out[:] = px
        if fmt == X8B8G8R8:
            out[:, 3] = 255
    elif fmt == R5G6B5:
        v = buf.view("<u2")
        out[:, 0] = _expand(v >> 11, 5)
        out[:, 1] = _expand((v >> 5) & 0x3F, 6)
        out[:, 2] = _expand(v & 0x1F, 5)
        out[:, 3] = 255
    elif fmt in (X1R5G5B5, A1R5G5B5):
        v = buf.view("<u2")
        out[:, 0] = _expand((v >> 10) & 0x1F, 5)
        out[:, 1] = _expand((v >> 5) & 0x1F, 5)
        out[:, 2] = _expand(v & 0x1F, 5)
        out[:, 3] = np.where(v >> 15, 255, 0) if fmt == A1R5G5B5 else 255
    elif fmt in (A4R4G4B4, X4R4G4B4):          # 4-bit channels scaled by 17 (spec 5.13)
        v = buf.view("<u2")
        out[:, 0] = ((v >> 8) & 0xF) * 17
        out[:, 1] = ((v >> 4) & 0xF) * 17
        out[:, 2] = (v & 0xF) * 17
        out[:, 3] = ((v >> 12) & 0xF) * 17 if fmt == A4R4G4B4 else 255
    elif fmt in (A8, CUSTOM_LSCAPE_ALPHA):     # alpha only, white colour
        out[:, :3], out[:, 3] = 255, buf
    elif fmt in (P8, INDEX16):
        idx = buf if fmt == P8 else buf.view("<u2")  # INDEX16 is unsigned (spec 5.13)
        if palette is None:
            raise DatError(f"indexed pixel format 0x{fmt:X} without a palette", did=did)
        if len(palette) == 0 or int(idx.max(initial=0)) >= len(palette):
            raise DatError(f"palette index {int(idx.max(initial=0))} outside a palette of "
                           f"{len(palette)} colours", did=did)
        out[:] = palette[idx]
    else:  # pragma: no cover - BPP table and branches list the same formats
        raise DatError(f"unsupported pixel format 0x{fmt:X}", did=did)
    return out.reshape(h, w, 4)


def palette_rgba(colors) -> np.ndarray:
    """Palette ColorARGB u32 list (0xAARRGGBB) to (n, 4) uint8 RGBA."""
    c = np.asarray(colors, dtype=np.uint32).reshape(-1)
    return np.stack([(c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF, (c >> 24) & 0xFF],
                    axis=-1).astype(np.uint8)


def _compressed_upload_fn(ctx):
    """glCompressedTexImage2D from the context's own loader, or None."""
    cached = getattr(ctx, "_vfx_cti2d", False)
    if cached is not False:
        return cached
    fn = None
    try:
        exts = ctx.extensions
        if ("GL_EXT_texture_compression_s3tc" in exts or "GL_S3_s3tc" in exts):
            addr = ctx.mglo._context.load_opengl_function("glCompressedTexImage2D")
            if addr:
                fn = ctypes.CFUNCTYPE(None, ctypes.c_uint, ctypes.c_int, ctypes.c_uint,
                                      ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_void_p)(addr)
    except Exception:  # any loader without the hook falls back to decoding
        fn = None
    try:
        ctx._vfx_cti2d = fn
    except Exception:
        pass
    return fn


def upload(ctx, fmt: int, width: int, height: int, data: bytes,
           palette: np.ndarray | None = None, *, did: int | None = None,
           allow_compressed: bool = True):
    """A moderngl texture of the image; ``.extra`` records how it was uploaded."""
    if allow_compressed and fmt in GL_COMPRESSED and width % 4 == 0 and height % 4 == 0:
        need = expected_size(fmt, width, height)
        fn = _compressed_upload_fn(ctx)
        if fn is not None and len(data) >= need:
            tex = ctx.texture((width, height), 4)
            tex.use(0)
            raw = ctypes.create_string_buffer(bytes(data[:need]), need)
            fn(0x0DE1, 0, GL_COMPRESSED[fmt], width, height, 0, need,
               ctypes.cast(raw, ctypes.c_void_p))
            if ctx.error == "GL_NO_ERROR":
                tex.extra = "compressed"
                _sampling(tex)
                return tex
            tex.release()
    rgba = decode_rgba(fmt, width, height, data, palette, did=did)
    tex = ctx.texture((width, height), 4, np.ascontiguousarray(rgba).tobytes())
    tex.extra = "decoded"
    _sampling(tex)
    return tex


def _sampling(tex) -> None:
    import moderngl
    tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
    tex.repeat_x = tex.repeat_y = True
