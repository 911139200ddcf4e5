"""Procedural particle textures drawn with numpy, and their pixel-format encodings.

Every shape is an intensity field ``I`` in [0, 1] and a colour ramp; the RGBA image is
``(ramp(I) * sqrt(I), I)`` (black where transparent, so additive surfaces work too).
Palettised formats store ``I`` as an index into a palette built from the same colours, so
every format of one shape decodes to (nearly) the same picture.

Pixel layouts follow ``PixelFormatDesc::SetFormat`` 0x0043D0F0: A8R8G8B8
is the u32 0xAARRGGBB (bytes B, G, R, A), R8G8B8 is bytes B, G, R, the A8B8G8R8 family bytes
R, G, B, A, P8 a u8 index and INDEX16 a u16 index. DXT1/3/5 are standard BC1/BC2/BC3 blocks,
encoded here by a small deterministic bounding-box encoder (no library in our dependencies
encodes BCn); DXT1 blocks that contain transparent pixels use the 1-bit-alpha mode
(color0 <= color1), the others the 4-colour mode, so both DXT1 decoder branches are used.

Everything is integer-exact and platform independent: no random generator whose stream could
change between numpy versions (the smoke noise is an integer hash), and no float underflow
(the test suite runs with ``np.seterr(all="raise")``).
"""

from __future__ import annotations

import numpy as np

# (width, height) of each shape; the streak is deliberately not square.
SIZES = {"spark": (32, 32), "glow": (32, 32), "smoke": (32, 32), "ring": (32, 32),
         "streak": (64, 16)}

# Colour ramps: rgb at intensity 0, 0.5 and 1 (linear between).
_RAMPS = {
    "spark": ((1.00, 0.55, 0.10), (1.00, 0.85, 0.40), (1.00, 1.00, 0.95)),
    "glow": ((0.90, 0.30, 0.05), (1.00, 0.60, 0.20), (1.00, 0.95, 0.80)),
    "smoke": ((0.25, 0.24, 0.23), (0.45, 0.44, 0.42), (0.70, 0.69, 0.67)),
    "ring": ((0.10, 0.30, 1.00), (0.40, 0.70, 1.00), (0.90, 0.97, 1.00)),
    "streak": ((0.10, 0.80, 0.90), (0.50, 0.95, 1.00), (1.00, 1.00, 1.00)),
}


def ramp(shape: str, t: np.ndarray) -> np.ndarray:
    """RGB (float, [0, 1]) of ``shape`` at intensities ``t`` (any shape array)."""
    lo, mid, hi = (np.asarray(c, dtype=np.float64) for c in _RAMPS[shape])
    t = np.clip(np.asarray(t, dtype=np.float64), 0.0, 1.0)[..., None]
    first = lo + (mid - lo) * np.minimum(t * 2.0, 1.0)
    return np.where(t < 0.5, first, mid + (hi - mid) * np.clip(t * 2.0 - 1.0, 0.0, 1.0))


def _grid(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel-centre coordinates in [-1, 1]; v points up the image."""
    u = (np.arange(w, dtype=np.float64) + 0.5) / w * 2.0 - 1.0
    v = 1.0 - (np.arange(h, dtype=np.float64) + 0.5) / h * 2.0
    return np.meshgrid(u, v)


def _gauss(x: np.ndarray) -> np.ndarray:
    """exp(-x^2) with the argument clamped so it can never underflow."""
    return np.exp(-np.minimum(x * x, 60.0))


def _hash_noise(w: int, h: int, cells: int, seed: int) -> np.ndarray:
    """Bilinear value noise in [0, 1] from an integer hash (identical on every platform)."""
    gx = np.arange(cells + 1, dtype=np.uint64)
    ix, iy = np.meshgrid(gx, gx)
    m = np.uint64(0xFFFFFFFF)
    hsh = (ix * np.uint64(374761393) + iy * np.uint64(668265263) + np.uint64(seed * 2654435761))
    hsh &= m
    hsh = ((hsh ^ (hsh >> np.uint64(13))) * np.uint64(1274126177)) & m
    hsh ^= hsh >> np.uint64(16)
    lattice = (hsh & np.uint64(0xFFFF)).astype(np.float64) / 65535.0
    fx = (np.arange(w, dtype=np.float64) + 0.5) / w * cells
    fy = (np.arange(h, dtype=np.float64) + 0.5) / h * cells
    x0 = np.floor(fx).astype(int)
    y0 = np.floor(fy).astype(int)
    tx = (fx - x0)[None, :]
    ty = (fy - y0)[:, None]
    a = lattice[np.ix_(y0, x0)]
    b = lattice[np.ix_(y0, x0 + 1)]
    c = lattice[np.ix_(y0 + 1, x0)]
    d = lattice[np.ix_(y0 + 1, x0 + 1)]
    return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty


def intensity(shape: str) -> np.ndarray:
    """The shape's intensity field (float64, rows top to bottom), zero at the border."""
    w, h = SIZES[shape]
    u, v = _grid(w, h)
    r = np.sqrt(u * u + v * v)
    edge = np.clip((1.0 - r) / 0.25, 0.0, 1.0)          # fade to zero before the border
    if shape == "spark":
        core = _gauss(r / 0.14)
        rays = np.maximum(_gauss(u / 0.06) * np.clip(1 - np.abs(v), 0, 1) ** 2,
                          _gauss(v / 0.06) * np.clip(1 - np.abs(u), 0, 1) ** 2)
        field = np.clip(core + 0.85 * rays, 0.0, 1.0) * edge
    elif shape == "glow":
        field = np.clip(1.0 - r, 0.0, 1.0) ** 1.5
    elif shape == "smoke":
        noise = 0.6 * _hash_noise(w, h, 4, 7) + 0.4 * _hash_noise(w, h, 8, 11)
        field = np.clip(1.0 - r, 0.0, 1.0) ** 0.9 * (0.45 + 0.75 * noise)
    elif shape == "ring":
        band = np.clip(1.0 - np.abs(r - 0.68) / 0.16, 0.0, 1.0) ** 2
        field = np.clip(band + 0.12 * np.clip(0.68 - r, 0.0, 1.0), 0.0, 1.0) * edge
    elif shape == "streak":
        across = np.clip(1.0 - np.abs(v), 0.0, 1.0) ** 2
        along = np.clip((u + 1.0) / 2.0, 0.0, 1.0) ** 1.5 * np.clip((1.0 - u) / 0.15, 0.0, 1.0)
        field = across * along
    else:
        raise KeyError(f"unknown texture shape {shape!r}")
    return np.clip(field, 0.0, 1.0)


def color(shape: str, t: np.ndarray) -> np.ndarray:
    """Texel RGB at intensity ``t``: the ramp darkened towards black as ``t`` -> 0, so the
    texture also works on pure Additive (ONE/ONE) surfaces, where alpha is ignored."""
    t = np.clip(np.asarray(t, dtype=np.float64), 0.0, 1.0)
    return ramp(shape, t) * np.sqrt(t)[..., None]


def rgba8(shape: str) -> np.ndarray:
    """RGBA8 image (h, w, 4) of ``shape``: rgb = color(I), alpha = I."""
    i = np.rint(intensity(shape) * 255.0) / 255.0      # alpha 0 gives black exactly
    rgba = np.concatenate([color(shape, i), i[..., None]], axis=-1)
    return np.rint(rgba * 255.0).astype(np.uint8)


def indices(shape: str, levels: int) -> np.ndarray:
    """Palette indices (h, w) of ``shape`` for a palette of ``levels`` entries."""
    return np.rint(intensity(shape) * (levels - 1)).astype(np.int64)


def palette_argb(shape: str, levels: int) -> list[int]:
    """A ``levels``-entry ColorARGB ramp (u32 0xAARRGGBB): entry k has intensity k/(levels-1)."""
    t = np.arange(levels, dtype=np.float64) / (levels - 1)
    rgb = np.rint(color(shape, t) * 255.0).astype(np.uint32)
    a = np.rint(t * 255.0).astype(np.uint32)
    argb = (a << 24) | (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    return [int(x) for x in argb]


P8_REACHED = 32  # colours of a 256-colour palette a P8 texel reaches once widened x8


def p8_palette_argb(shape: str) -> list[int]:
    """The 256-colour palette of a P8 ``shape``. The client widens a 256-colour palette to
    2048 (each colour 8 times) and looks a P8 texel v up directly, so v shows colour v // 8
    (Palette::InitLoad 0x0053E060, ImgTex::CopyIntoData 0x0053EC60): colours 0..31 are a
    32-step ramp (colour k has intensity k/31, so texel ``round(I * 255)`` shows about I);
    colours 32..255, which no P8 texel reaches, repeat the last."""
    ramp = palette_argb(shape, P8_REACHED)
    return ramp + [ramp[-1]] * (256 - P8_REACHED)


# ---------------------------------------------------------------------------------------------
# Uncompressed layouts
# ---------------------------------------------------------------------------------------------

def _premultiplied(img: np.ndarray) -> np.ndarray:
    """RGB multiplied by alpha, for formats without alpha (additive use stays correct)."""
    return (img[..., :3].astype(np.uint32) * img[..., 3:4].astype(np.uint32) + 127) // 255


def luminance(r: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer Rec. 601 luma of 8-bit channels (for the L8 family)."""
    return (77 * r.astype(np.uint32) + 150 * g.astype(np.uint32) + 29 * b.astype(np.uint32)
            + 128) >> 8


def _u16(a: np.ndarray) -> bytes:
    return a.astype("<u2").tobytes()


def _bits(c: np.ndarray, n: int) -> np.ndarray:
    """Quantise 8-bit channel values to n bits (round to nearest)."""
    return (c.astype(np.uint32) * ((1 << n) - 1) + 127) // 255


def encode_uncompressed(img: np.ndarray, fmt: str) -> bytes:
    """Pixel bytes of an RGBA8 image in an uncompressed PixelFormat (name)."""
    r, g, b, a = (img[..., k].astype(np.uint32) for k in range(4))
    if fmt == "A8R8G8B8":
        return np.stack([b, g, r, a], axis=-1).astype(np.uint8).tobytes()
    if fmt in ("A8B8G8R8", "CUSTOM_A8B8G8R8"):
        return np.stack([r, g, b, a], axis=-1).astype(np.uint8).tobytes()
    pm = _premultiplied(img)
    pr, pg, pb = pm[..., 0], pm[..., 1], pm[..., 2]
    ff = np.full_like(a, 0xFF)
    if fmt == "X8R8G8B8":
        return np.stack([pb, pg, pr, ff], axis=-1).astype(np.uint8).tobytes()
    if fmt == "X8B8G8R8":
        return np.stack([pr, pg, pb, ff], axis=-1).astype(np.uint8).tobytes()
    if fmt in ("R8G8B8", "CUSTOM_LSCAPE_R8G8B8"):
        return np.stack([pb, pg, pr], axis=-1).astype(np.uint8).tobytes()
    if fmt == "CUSTOM_B8G8R8":
        return np.stack([pr, pg, pb], axis=-1).astype(np.uint8).tobytes()
    if fmt in ("A8", "CUSTOM_LSCAPE_ALPHA"):
        return a.astype(np.uint8).tobytes()
    if fmt == "R5G6B5":
        return _u16((_bits(pr, 5) << 11) | (_bits(pg, 6) << 5) | _bits(pb, 5))
    if fmt == "X1R5G5B5":
        return _u16((1 << 15) | (_bits(pr, 5) << 10) | (_bits(pg, 5) << 5) | _bits(pb, 5))
    if fmt == "A1R5G5B5":
        a1 = (a >= 128).astype(np.uint32)
        return _u16((a1 << 15) | (_bits(r, 5) << 10) | (_bits(g, 5) << 5) | _bits(b, 5))
    if fmt == "A4R4G4B4":
        return _u16((_bits(a, 4) << 12) | (_bits(r, 4) << 8) | (_bits(g, 4) << 4) | _bits(b, 4))
    if fmt == "R3G3B2":
        return ((_bits(pr, 3) << 5) | (_bits(pg, 3) << 2) | _bits(pb, 2)).astype(np.uint8).tobytes()
    if fmt == "A8R3G3B2":
        return _u16((a << 8) | (_bits(r, 3) << 5) | (_bits(g, 3) << 2) | _bits(b, 2))
    if fmt == "L8":
        return luminance(pr, pg, pb).astype(np.uint8).tobytes()
    if fmt == "A8L8":
        return _u16((a << 8) | luminance(r, g, b))
    if fmt == "A4L4":
        return ((_bits(a, 4) << 4) | _bits(luminance(r, g, b), 4)).astype(np.uint8).tobytes()
    if fmt == "X4R4G4B4":
        return _u16((0xF << 12) | (_bits(pr, 4) << 8) | (_bits(pg, 4) << 4) | _bits(pb, 4))
    raise KeyError(f"no uncompressed encoder for pixel format {fmt}")


# ---------------------------------------------------------------------------------------------
# BCn (DXT1 / DXT3 / DXT5)
# ---------------------------------------------------------------------------------------------

def _blocks(img: np.ndarray) -> np.ndarray:
    """(h, w, 4) -> (n_blocks, 16, 4) in block row-major order, texels row-major inside."""
    h, w, _ = img.shape
    if h % 4 or w % 4:
        raise ValueError(f"BCn needs sizes that are multiples of 4, got {w}x{h}")
    return (img.reshape(h // 4, 4, w // 4, 4, 4).transpose(0, 2, 1, 3, 4)
            .reshape(-1, 16, 4).astype(np.int64))


def _to565(c: np.ndarray) -> np.ndarray:
    return (_bits(c[..., 0], 5) << 11) | (_bits(c[..., 1], 6) << 5) | _bits(c[..., 2], 5)


def _from565(v: np.ndarray) -> np.ndarray:
    r, g, b = (v >> 11) & 31, (v >> 5) & 63, v & 31
    return np.stack([(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)],
                    axis=-1).astype(np.int64)


def _color_block(px: np.ndarray, punch_through: bool) -> bytes:
    """One BC1 colour block (8 bytes) for 16 RGBA texels.

    Endpoints: the best pair (least squared error, first on ties) among the block's own
    colours quantised to 565, searched exhaustively with integer arithmetic, so the result is
    the same on every machine.
    """
    opaque = px[:, 3] >= 128 if punch_through else np.ones(16, dtype=bool)
    transparent_mode = punch_through and not opaque.all()
    src = px[opaque, :3] if opaque.any() else np.zeros((1, 3), dtype=np.int64)
    q = np.unique(_to565(src).astype(np.int64))
    cand = _from565(q.astype(np.uint32))                     # (k, 3) expanded colours
    ia, ib = np.triu_indices(len(q))                          # pairs a <= b (incl. a == b)
    a, b = cand[ia], cand[ib]
    if transparent_mode:
        pal = np.stack([a, b, (a + b) // 2], axis=1)          # (P, 3, 3)
    else:
        pal = np.stack([a, b, (2 * a + b) // 3, (a + 2 * b) // 3], axis=1)   # (P, 4, 3)
    d = ((src[None, :, None, :] - pal[:, None, :, :]) ** 2).sum(axis=-1)      # (P, n, m)
    best = int(d.min(axis=2).sum(axis=1).argmin())
    c0, c1 = int(q[ia[best]]), int(q[ib[best]])
    if transparent_mode:
        if c0 > c1:
            c0, c1 = c1, c0                       # color0 <= color1: 3 colours + transparent
    elif c0 < c1:
        c0, c1 = c1, c0                           # color0 > color1: 4-colour mode
    p0, p1 = _from565(np.array([c0, c1], dtype=np.uint32))
    if c0 > c1:
        pal1 = np.array([p0, p1, (2 * p0 + p1) // 3, (p0 + 2 * p1) // 3])
    elif transparent_mode:
        pal1 = np.array([p0, p1, (p0 + p1) // 2])
    else:
        pal1 = np.array([p0])                     # c0 == c1 in an opaque block: index 0 only
    dd = ((px[:, None, :3] - pal1[None, :, :]) ** 2).sum(axis=-1)
    idx = dd.argmin(axis=1)
    if transparent_mode:
        idx = np.where(opaque, idx, 3)
    bits = 0
    for i, k in enumerate(idx):
        bits |= int(k) << (2 * i)
    return np.array([c0, c1], dtype="<u2").tobytes() + np.uint32(bits).astype("<u4").tobytes()


def _alpha_block_dxt5(alpha: np.ndarray) -> bytes:
    a0, a1 = int(alpha.max()), int(alpha.min())
    if a0 == a1:
        return bytes([a0, a1]) + bytes(6)
    vals = np.array([a0, a1] + [((7 - k) * a0 + k * a1) // 7 for k in range(1, 7)])
    idx = np.abs(alpha[:, None] - vals[None, :]).argmin(axis=1)
    bits = 0
    for i, k in enumerate(idx):
        bits |= int(k) << (3 * i)
    return bytes([a0, a1]) + bits.to_bytes(6, "little")


def _alpha_block_dxt3(alpha: np.ndarray) -> bytes:
    a4 = _bits(alpha, 4)
    bits = 0
    for i, k in enumerate(a4):
        bits |= int(k) << (4 * i)
    return bits.to_bytes(8, "little")


def encode_bcn(img: np.ndarray, fmt: str) -> bytes:
    out = bytearray()
    for px in _blocks(img):
        if fmt == "DXT1":
            out += _color_block(px, punch_through=True)
        elif fmt == "DXT3":
            out += _alpha_block_dxt3(px[:, 3]) + _color_block(px, punch_through=False)
        elif fmt == "DXT5":
            out += _alpha_block_dxt5(px[:, 3]) + _color_block(px, punch_through=False)
        else:
            raise KeyError(f"no BCn encoder for {fmt}")
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# One entry point
# ---------------------------------------------------------------------------------------------

PALETTE_LEVELS = {"P8": 256, "INDEX16": 2048}


def encode(shape: str, fmt: str) -> tuple[int, int, bytes]:
    """(width, height, pixel bytes) of ``shape`` in PixelFormat ``fmt`` (name)."""
    w, h = SIZES[shape]
    if fmt == "P8":
        return w, h, indices(shape, 256).astype(np.uint8).tobytes()
    if fmt == "INDEX16":
        return w, h, indices(shape, 2048).astype("<u2").tobytes()
    img = rgba8(shape)
    if fmt == "CUSTOM_RAW_JPEG":              # a JFIF stream of the premultiplied colour
        from viewer.synthetic.jpeg import encode_jpeg
        return w, h, encode_jpeg(_premultiplied(img).astype(np.uint8))
    if fmt in ("DXT1", "DXT3", "DXT5"):
        return w, h, encode_bcn(img, fmt)
    return w, h, encode_uncompressed(img, fmt)


# ---------------------------------------------------------------------------------------------
# Cloth: the ObjDesc demo's paletted textures and palettes
# ---------------------------------------------------------------------------------------------
CLOTH_SIZE = 32
CLOTH_WARP = 64      # first palette entry of the warp band (64 entries)
CLOTH_WEFT = 128     # first palette entry of the weft band (64 entries)


def cloth_indices(pattern: str) -> np.ndarray:
    """(32, 32) INDEX16 indices: ``weave`` a 4-texel checker of warp and weft threads,
    ``stripes`` 4-texel horizontal bands; the shade within a band follows the texel's
    place along its thread (0..63)."""
    y, x = np.mgrid[0:CLOTH_SIZE, 0:CLOTH_SIZE]
    if pattern == "weave":
        warp = ((x // 4) + (y // 4)) % 2 == 0
        shade = np.where(warp, (y % 4) * 16 + (x % 16), (x % 4) * 16 + (y % 16))
    elif pattern == "stripes":
        warp = (y // 4) % 2 == 0
        shade = (x * 2) % 64
    else:
        raise KeyError(f"unknown cloth pattern {pattern!r}")
    return np.where(warp, CLOTH_WARP, CLOTH_WEFT) + shade


def cloth_palette(kind: str) -> list[int]:
    """ColorARGB palettes: ``base`` (2048: blue warp, pale grey weft, mid grey elsewhere),
    ``crimson`` (2048, a crimson ramp everywhere), ``gold`` (256, a gold ramp: widened to
    2048 at load, entry k at 8k..8k+7)."""
    def ramp(n, lo, hi):
        t = (np.arange(n) % 64) / 63.0
        rgb = np.rint(np.outer(1.0 - t, lo) + np.outer(t, hi)).astype(np.uint32)
        return [int(0xFF000000 | (r << 16) | (g << 8) | b) for r, g, b in rgb]
    if kind == "base":
        grey = [0xFF808080] * 2048
        grey[CLOTH_WARP:CLOTH_WARP + 64] = ramp(64, (20, 40, 110), (60, 100, 200))
        grey[CLOTH_WEFT:CLOTH_WEFT + 64] = ramp(64, (170, 170, 160), (235, 235, 225))
        return grey
    if kind == "crimson":
        return ramp(2048, (90, 10, 20), (220, 40, 50))
    if kind == "gold":
        return ramp(256, (150, 110, 20), (255, 215, 80))
    raise KeyError(f"unknown cloth palette {kind!r}")
