"""DAT container reader and writer (BTree::Search 0x006731C0)."""

from __future__ import annotations

import struct

import pytest

from viewer.dat.container import HEADER_OFFSET, NODE_SIZE, DatCollection, DatFile
from viewer.dat.writer import build_dat, write_dat, write_highres_dat
from viewer.errors import DatError


def records(n: int, base: int = 0x33000000, step: int = 1) -> dict[int, bytes]:
    return {base + i * step: struct.pack("<I", base + i * step) + bytes([i & 0xFF]) * (i % 37)
            for i in range(n)}


def header_u32(data: bytes, off: int) -> int:
    return struct.unpack_from("<I", data, HEADER_OFFSET + off)[0]


@pytest.mark.parametrize("n", [1, 2, 61, 62, 63, 123, 3844, 5000])
def test_round_trip_small_and_multi_level(n):
    recs = records(n)
    d = DatFile(data=build_dat(recs))
    assert d.dids() == sorted(recs)
    assert len(d) == n
    for did, data in recs.items():
        assert d.read(did) == data
    assert d.entry(0x34000000) is None and d.entry(0x32FFFFFF) is None


def test_round_trip_100000_entries_with_a_three_level_tree(tmp_path):
    recs = {0x01000000 + i: struct.pack("<I", i) for i in range(100_000)}
    path = tmp_path / "big.dat"
    write_dat(path, recs, block_size=256)
    with DatFile(path) as d:
        entries = list(d.entries())
        assert [e.did for e in entries] == sorted(recs)
        for did in (0x01000000, 0x01000000 + 99_999, 0x01000000 + 31_337):
            assert d.read(did) == recs[did]
        assert d.entry(0x01000000 + 100_000) is None
        # depth: root -> internal -> leaf at least (100k > 61 * 62)
        root = d._node(d.header.btree_root)
        assert not root.is_leaf and not d._node(root.branches[0]).is_leaf


def test_deep_tree_with_tiny_nodes_still_finds_everything():
    recs = records(300)
    d = DatFile(data=build_dat(recs, max_entries=1))     # one entry per node: depth ~9
    assert d.dids() == sorted(recs)
    assert all(d.read(k) == v for k, v in recs.items())


def test_header_fields_match_the_spec_layout():
    data = build_dat(records(3), block_size=256, data_set=2, data_subset=1)
    assert header_u32(data, 0x00) == 0x5442                    # magic "BT"
    assert header_u32(data, 0x04) == 256                       # block_size
    assert header_u32(data, 0x08) == len(data)                 # file_size
    assert header_u32(data, 0x0C) == 2 and header_u32(data, 0x10) == 1
    root = header_u32(data, 0x20)
    assert root >= 1024 and (root - 1024) % 256 == 0
    # the node chain: 1716 bytes need 7 blocks of 252 payload bytes
    d = DatFile(data=data)
    assert d.header.btree_root == root and d.block_size == 256
    assert len(d.read_chain(root, NODE_SIZE)) == NODE_SIZE


def test_entries_are_version_2_and_iteration_record_is_version_1():
    d = DatFile(data=build_dat(records(2), iteration=1))
    e = d.entry(0x33000000)
    assert e.version == 2 and not e.compressed
    it = d.entry(0xFFFF0001)
    # DiskController::LoadIterationList 0x00670DE0 loads it only at version 1
    assert it.version == 1 and d.read(0xFFFF0001) == struct.pack("<ii", 1, 1)


def test_ids_compare_unsigned():
    recs = {0x7FFFFFFF: b"a", 0x80000000: b"b", 0xC95B0159: b"c", 0x00000001: b"d"}
    d = DatFile(data=build_dat(recs))
    assert d.dids() == [1, 0x7FFFFFFF, 0x80000000, 0xC95B0159]
    assert d.read(0xC95B0159) == b"c"


def test_zero_size_record_needs_no_blocks():
    d = DatFile(data=build_dat({0x33000001: b"", 0x33000002: b"x"}))
    assert d.entry(0x33000001).offset == 0 and d.read(0x33000001) == b""


def test_record_spanning_many_blocks():
    big = bytes(range(256)) * 40                                   # 10240 bytes
    d = DatFile(data=build_dat({0x06000001: big}, block_size=256))
    assert d.read(0x06000001) == big


def test_compressed_entry_is_inflated():
    payload = b"abc" * 1000
    d = DatFile(data=build_dat({0x0A000001: payload}, compressed=[0x0A000001]))
    e = d.entry(0x0A000001)
    assert e.compressed and e.size < len(payload)
    assert d.read(0x0A000001) == payload


def test_missing_did_raises_DatError_naming_file_and_did(tmp_path):
    path = tmp_path / "x.dat"
    write_dat(path, records(3))
    with DatFile(path) as d, pytest.raises(DatError) as ei:
        d.read(0x33000099)
    assert ei.value.did == 0x33000099 and "x.dat" in str(ei.value)
    assert "0x33000099" in str(ei.value)


# --- collections: retail lookup order -------------------------------------------------------
def test_CLCache_GetDiskController_prefers_highres_for_ids_it_contains(tmp_path):
    portal, hires = tmp_path / "client_portal.dat", tmp_path / "client_highres.dat"
    write_dat(portal, {0x06000001: b"portal-1", 0x06000002: b"portal-2", 0x33000001: b"pes"})
    write_highres_dat(hires, {0x06000001: b"hires-1"})
    with DatCollection([portal, hires]) as c:
        assert c.read(0x06000001) == b"hires-1"           # present in highres -> highres
        assert c.read(0x06000002) == b"portal-2"          # absent -> portal
        assert c.dids() == [0x06000001, 0x06000002, 0x33000001]
        assert c.file_of(0x06000001).is_highres
    with DatCollection([portal, hires], highres_first=False) as c:   # ACViewer/DRW policy
        assert c.read(0x06000001) == b"portal-1"
    with DatCollection([portal, hires]) as c, pytest.raises(DatError):
        c.read(0x12345678)


# --- corruption -----------------------------------------------------------------------------
def _valid(n=5, bs=256) -> bytearray:
    return bytearray(build_dat(records(n), block_size=bs))


def test_bad_magic_is_rejected():
    data = _valid()
    struct.pack_into("<I", data, HEADER_OFFSET, 0x1234)
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(data))
    assert "magic" in str(ei.value) and ei.value.offset == HEADER_OFFSET


def test_truncated_file_is_reported(tmp_path):
    data = _valid()
    p = tmp_path / "t.dat"
    p.write_bytes(bytes(data[:-300]))
    with pytest.raises(DatError) as ei:
        DatFile(p)
    assert "truncated" in str(ei.value) and "t.dat" in str(ei.value)
    p.write_bytes(bytes(data[:100]))
    with pytest.raises(DatError):
        DatFile(p)


def test_missing_file_is_a_DatError(tmp_path):
    with pytest.raises(DatError):
        DatFile(tmp_path / "nope.dat")


def _first_record_block(d: DatFile, did: int) -> int:
    return d.entry(did).offset


def test_block_chain_that_loops_is_detected():
    recs = {0x06000001: bytes(2000)}                        # 8 blocks at bs=256
    data = bytearray(build_dat(recs, block_size=256))
    d = DatFile(data=bytes(data))
    off = _first_record_block(d, 0x06000001)
    struct.pack_into("<I", data, off + 256 * 2, off)        # third block points to the first
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(data)).read(0x06000001)
    assert "loops" in str(ei.value) and ei.value.did == 0x06000001


def test_block_chain_running_past_the_end_is_detected():
    data = bytearray(build_dat({0x06000001: bytes(2000)}, block_size=256))
    off = DatFile(data=bytes(data)).entry(0x06000001).offset
    struct.pack_into("<I", data, off, len(data) + 4096)
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(data)).read(0x06000001)
    assert "outside" in str(ei.value)


def test_block_chain_ending_early_or_into_a_free_block_is_detected():
    data = bytearray(build_dat({0x06000001: bytes(2000)}, block_size=256))
    off = DatFile(data=bytes(data)).entry(0x06000001).offset
    ended = bytearray(data)
    struct.pack_into("<I", ended, off, 0)
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(ended)).read(0x06000001)
    assert "ends after" in str(ei.value)
    free = bytearray(data)
    struct.pack_into("<I", free, off, 0x80000000 | (off + 256))
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(free)).read(0x06000001)
    assert "free block" in str(ei.value)


def test_chain_must_end_at_the_last_block_it_uses():
    data = bytearray(build_dat({0x06000001: bytes(100), 0x06000002: bytes(100)},
                               block_size=256))
    d = DatFile(data=bytes(data))
    off = d.entry(0x06000001).offset
    struct.pack_into("<I", data, off, d.entry(0x06000002).offset)
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(data)).read(0x06000001)
    assert "continues past" in str(ei.value)


def test_entry_size_that_does_not_fit_is_detected():
    data = bytearray(build_dat(records(3), block_size=256))
    d = DatFile(data=bytes(data))
    root = d.header.btree_root
    # first entry's size field: node payload +252 +12; payload byte k sits in block k // 252
    k = 252 + 12
    pos = root + 4 + k if k < 252 else root + 256 + 4 + (k - 252)
    struct.pack_into("<I", data, pos, 0x7FFFFFF0)
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(data)).read(0x33000000)
    assert "does not fit" in str(ei.value)


def test_node_with_more_than_61_entries_is_rejected():
    data = bytearray(build_dat(records(3), block_size=1024))
    root = DatFile(data=bytes(data)).header.btree_root
    struct.pack_into("<I", data, root + 4 + 248, 62)
    with pytest.raises(DatError) as ei:
        DatFile(data=bytes(data)).entry(0x33000000)
    assert "61" in str(ei.value)


def test_directory_that_loops_is_detected():
    data = bytearray(build_dat(records(200), block_size=1024))
    root = DatFile(data=bytes(data)).header.btree_root
    struct.pack_into("<I", data, root + 4, root)             # child 0 = the root itself
    d = DatFile(data=bytes(data))
    with pytest.raises(DatError):
        d.dids()
    with pytest.raises(DatError):
        d.entry(0x33000000)                                  # smallest id walks child 0


def test_opening_reads_only_the_header(tmp_path):
    # a corrupt record area does not stop the file from opening or other records from reading
    recs = records(10)
    data = bytearray(build_dat(recs, block_size=256))
    d = DatFile(data=bytes(data))
    bad = d.entry(0x33000003).offset
    struct.pack_into("<I", data, bad, 0x80000000)
    p = tmp_path / "partly-bad.dat"
    p.write_bytes(bytes(data))
    with DatFile(p) as d:
        assert d._nodes == {}                                 # nothing read yet
        assert d.read(0x33000004) == recs[0x33000004]
        with pytest.raises(DatError):
            d.read(0x33000003)
