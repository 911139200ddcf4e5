"""A tiny deterministic baseline JPEG (JFIF) encoder for the CUSTOM_RAW_JPEG texture.

RenderSurface format 500 stores a complete JFIF stream. Pillow could
write one, but its bytes depend on the bundled libjpeg version, and the committed synthetic
DAT must regenerate byte for byte everywhere. This encoder is pure integer arithmetic:
integer YCbCr conversion, an integer 8x8 DCT (cosines scaled by 4096, hard-coded), the
JPEG Annex K quantisation tables, and fixed-length Huffman codes (every DC category a 4-bit
code, every AC symbol an 8-bit code: valid canonical tables, just not optimal ones).
Sizes must be multiples of 8; 4:4:4 sampling, one table set shared by the three components.
"""

from __future__ import annotations

import struct

import numpy as np

# DCT basis: round(a(u) * cos((2x + 1) u pi / 16) * 4096), a(0) = 1/sqrt(8), a(u>0) = 1/2.
_C1, _C2, _C3, _C4, _C5, _C6, _C7 = 2009, 1892, 1703, 1448, 1138, 784, 400
_T = np.array([
    [_C4] * 8,
    [_C1, _C3, _C5, _C7, -_C7, -_C5, -_C3, -_C1],
    [_C2, _C6, -_C6, -_C2, -_C2, -_C6, _C6, _C2],
    [_C3, -_C7, -_C1, -_C5, _C5, _C1, _C7, -_C3],
    [_C4, -_C4, -_C4, _C4, _C4, -_C4, -_C4, _C4],
    [_C5, -_C1, _C7, _C3, -_C3, -_C7, _C1, -_C5],
    [_C6, -_C2, _C2, -_C6, -_C6, _C2, -_C2, _C6],
    [_C7, -_C5, _C3, -_C1, _C1, -_C3, _C5, -_C7],
], dtype=np.int64)

# Annex K tables (natural order), used at "quality 50" as printed.
_Q_LUMA = np.array([
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99],
    dtype=np.int64).reshape(8, 8)
_Q_CHROMA = np.array([
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
    24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99] + [99] * 32,
    dtype=np.int64).reshape(8, 8)


def _zigzag() -> list[tuple[int, int]]:
    order = []
    for s in range(15):
        diag = [(i, s - i) for i in range(8) if 0 <= s - i < 8]
        order += diag if s % 2 else diag[::-1]
    return order


ZIGZAG = _zigzag()

# Huffman: DC categories 0..11 -> 4-bit codes; AC symbols EOB, ZRL and (run, size) for
# run 0..15, size 1..10 -> 8-bit codes, in ascending symbol order (canonical assignment).
_DC_SYMBOLS = list(range(12))
_AC_SYMBOLS = sorted(set([0x00, 0xF0] + [(r << 4) | s for r in range(16) for s in range(1, 11)]))
assert len(_AC_SYMBOLS) == 162
_DC_CODE = {s: (i, 4) for i, s in enumerate(_DC_SYMBOLS)}
_AC_CODE = {s: (i, 8) for i, s in enumerate(_AC_SYMBOLS)}


class _Bits:
    def __init__(self) -> None:
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, value: int, length: int) -> None:
        for i in range(length - 1, -1, -1):
            self.acc = (self.acc << 1) | ((value >> i) & 1)
            self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                if self.acc == 0xFF:
                    self.out.append(0x00)          # byte stuffing
                self.acc = self.n = 0

    def flush(self) -> bytes:
        if self.n:
            self.put((1 << (8 - self.n)) - 1, 8 - self.n)   # pad with 1-bits
        return bytes(self.out)


def _category(v: int) -> tuple[int, int]:
    """(size, bits) of a coefficient (JPEG F.1.2.1)."""
    s = abs(v).bit_length()
    return s, (v if v >= 0 else v + (1 << s) - 1)


def _quantise(block: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Integer forward DCT of a level-shifted 8x8 block, then rounding division by q."""
    f = _T @ block @ _T.T                     # scaled by 4096^2
    d = q * (1 << 24)
    return np.where(f >= 0, (f + d // 2) // d, -((-f + d // 2) // d))


def _ycbcr(rgb: np.ndarray) -> list[np.ndarray]:
    r, g, b = (rgb[..., k].astype(np.int64) for k in range(3))
    y = (77 * r + 150 * g + 29 * b + 128) >> 8
    cb = ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128
    cr = ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128
    return [np.clip(c, 0, 255) for c in (y, cb, cr)]


def _segment(marker: int, payload: bytes) -> bytes:
    return struct.pack(">HH", marker, len(payload) + 2) + payload


def _dht(table_class: int, table_id: int, length: int, symbols: list[int]) -> bytes:
    counts = [0] * 16
    counts[length - 1] = len(symbols)
    return bytes([(table_class << 4) | table_id] + counts + symbols)


def encode_jpeg(rgb: np.ndarray) -> bytes:
    """A baseline JFIF stream of an (h, w, 3) uint8 image; h and w multiples of 8."""
    h, w, _ = rgb.shape
    if h % 8 or w % 8:
        raise ValueError(f"encode_jpeg needs multiples of 8, got {w}x{h}")
    comps = _ycbcr(rgb)
    bits = _Bits()
    pred = [0, 0, 0]
    for by in range(0, h, 8):
        for bx in range(0, w, 8):
            for c, plane in enumerate(comps):
                q = _Q_LUMA if c == 0 else _Q_CHROMA
                coef = _quantise(plane[by:by + 8, bx:bx + 8] - 128, q)
                zz = [int(coef[i, j]) for i, j in ZIGZAG]
                diff, pred[c] = zz[0] - pred[c], zz[0]
                s, v = _category(diff)
                bits.put(*_DC_CODE[s])
                bits.put(v, s)
                run = 0
                last = max((k for k in range(1, 64) if zz[k]), default=0)
                for k in range(1, last + 1):
                    if zz[k] == 0:
                        run += 1
                        continue
                    while run > 15:
                        bits.put(*_AC_CODE[0xF0])
                        run -= 16
                    s, v = _category(zz[k])
                    bits.put(*_AC_CODE[(run << 4) | s])
                    bits.put(v, s)
                    run = 0
                if last < 63:
                    bits.put(*_AC_CODE[0x00])      # EOB
    scan = bits.flush()
    dqt = b"".join(bytes([t]) + bytes(int(q[i, j]) for i, j in ZIGZAG)
                   for t, q in ((0, _Q_LUMA), (1, _Q_CHROMA)))
    sof = struct.pack(">BHHB", 8, h, w, 3) + bytes([1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1])
    dht = _dht(0, 0, 4, _DC_SYMBOLS) + _dht(1, 0, 8, _AC_SYMBOLS)
    sos = bytes([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0])
    return (b"\xFF\xD8"
            + _segment(0xFFE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
            + _segment(0xFFDB, dqt) + _segment(0xFFC0, sof) + _segment(0xFFC4, dht)
            + _segment(0xFFDA, sos) + scan + b"\xFF\xD9")
