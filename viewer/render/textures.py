"""RenderSurface pixels to GL textures.

DXT1/3/5 go to the GPU still compressed (``glCompressedTexImage2D`` from the context's own
loader) when the context has S3TC; otherwise, and for every other format, the pixels are
decoded to RGBA8 by ``viewer.dat.pixels`` (BCn and JPEG through Pillow). Palettes are
applied for P8 and INDEX16.
"""

from __future__ import annotations

import ctypes
import weakref

import numpy as np

from viewer.dat.pixels import BPP
from viewer.dat.pixels import palette_to_rgba as palette_rgba  # noqa: F401
from viewer.dat.records.common import PixelFormat
from viewer.errors import DatError

DXT1, DXT3, DXT5 = PixelFormat.DXT1, PixelFormat.DXT3, PixelFormat.DXT5

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


def decode_rgba(fmt: int, width: int, height: int, data: bytes,
                palette: np.ndarray | None = None, *, did: int | None = None) -> np.ndarray:
    """(H, W, 4) uint8 RGBA, top row first: the DAT layer's decoder (viewer.dat.pixels),
    which covers every retail pixel format and raises DatError on bad input."""
    from viewer.dat import pixels
    try:
        return pixels.decode_rgba(int(fmt), int(width), int(height), bytes(data), palette,
                                  did=did)
    except (ValueError, KeyError) as exc:  # an enum value the decoder does not know
        raise DatError(f"unsupported pixel format 0x{int(fmt):X} ({exc})", did=did) from None


_UPLOAD_FNS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _compressed_upload_fn(ctx):
    """glCompressedTexImage2D from the context's own loader (glcontext), or None when the
    context has no S3TC or its loader does not expose the function."""
    if ctx in _UPLOAD_FNS:
        return _UPLOAD_FNS[ctx]
    fn = None
    exts = ctx.extensions
    loader = getattr(getattr(ctx, "mglo", None), "_context", None)
    if (("GL_EXT_texture_compression_s3tc" in exts or "GL_S3_s3tc" in exts)
            and hasattr(loader, "load_opengl_function")):
        addr = loader.load_opengl_function("glCompressedTexImage2D")
        if addr:
            fn = ctypes.CFUNCTYPE(None, ctypes.c_uint, ctypes.c_int, ctypes.c_uint,
                                  ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                  ctypes.c_void_p)(addr)
    _UPLOAD_FNS[ctx] = fn
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
            for _ in range(16):  # clear stale error flags so the check below is ours
                if ctx.error == "GL_NO_ERROR":
                    break
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
