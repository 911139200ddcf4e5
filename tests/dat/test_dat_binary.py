"""Primitive encodings (SB_As32Bit_Compressed::Serialize 0x005BE430, align4)."""

from __future__ import annotations

import pytest

from viewer.dat.binary import Reader, Writer
from viewer.errors import DatError


@pytest.mark.parametrize("value,raw", [
    (0x00, b"\x00"), (0x7F, b"\x7f"),
    (0x80, b"\x80\x80"), (0x3FFF, b"\xbf\xff"),
    (0x4000, b"\xc0\x00\x00\x40"),                  # low u16 little-endian (not DRW's BE bug)
    (0x3FFFFFFF, b"\xff\xff\xff\xff"), (0x12345678 & 0x3FFFFFFF, b"\xd2\x34\x78\x56"),
])
def test_SB_As32Bit_Compressed_cuint_forms(value, raw):
    w = Writer()
    w.cuint(value)
    assert w.getvalue() == raw
    r = Reader(raw)
    assert r.cuint() == value and r.pos == len(raw)


def test_cuint_out_of_range_is_refused():
    with pytest.raises(DatError):
        Writer().cuint(0x40000000)


@pytest.mark.parametrize("did,raw", [
    (0x01000000, b"\x00\x00"), (0x01003FFF, b"\xff\x3f"),
    (0x01004000, b"\x00\x80\x00\x40"),              # 0x8000 | hi, then lo
    (0x01012345, b"\x01\x80\x45\x23"),
])
def test_Pack_AsDataIDOfKnownType(did, raw):
    w = Writer()
    w.packed_did(did, 0x01000000)
    assert w.getvalue() == raw
    assert Reader(raw).packed_did(0x01000000) == did


def test_packed_did_zero_writes_the_base_offset():
    w = Writer()
    w.packed_did(0, 0x01000000)                      # (id or base) - base
    assert w.getvalue() == b"\x00\x00"


def test_pstring16_aligns_and_escapes_long_lengths():
    w = Writer()
    w.pstring16("abc")
    assert w.getvalue() == b"\x03\x00abc\x00\x00\x00"   # 2 + 3 -> padded to 8
    r = Reader(w.getvalue())
    assert r.pstring16() == "abc" and r.pos == 8
    long = "x" * 0x10000
    w = Writer()
    w.pstring16(long)
    raw = w.getvalue()
    assert raw[:6] == b"\xff\xff\x00\x00\x01\x00"       # 0xFFFF then u32 length
    assert Reader(raw).pstring16() == long


def test_reader_errors_carry_offset_file_and_did():
    r = Reader(b"\x01\x02\x03", file="f.dat", did=0x33000001)
    r.u16()
    with pytest.raises(DatError) as ei:
        r.u32("num_script_data")
    e = ei.value
    assert (e.offset, e.file, e.did) == (2, "f.dat", 0x33000001)
    assert "num_script_data" in str(e) and "offset 2" in str(e)


def test_count_guard_rejects_counts_that_cannot_fit():
    r = Reader(b"\0" * 16)
    with pytest.raises(DatError):
        r.count(5, 4, "items")
    assert r.count(4, 4, "items") == 4
