"""Transport and reassembly: sections by size, duplicates, order, floods."""

from __future__ import annotations

import struct

from tests.wire.pcapgen import ac_packet, fragment
from viewer.wire.transport import Fragment, Reassembler, TransportStats, parse_packet

F755 = bytes.fromhex("55F70000 42000050 37000000 0000003F".replace(" ", ""))


def frag(seq, index, count, data, fid=0x80000000):
    return Fragment(seq, fid, count, 16 + len(data), index, 10, data)


def test_optional_sections_skipped_by_size_in_flag_order():
    # TimeSync (8) + EchoRequest (4) before the fragments, as in test vector 1
    extra = struct.pack("<d", 1.0) + struct.pack("<f", 2.0)
    p = parse_packet(ac_packet([fragment(1, F755)], flags=0x03000006, extra=extra))
    assert p.exact and len(p.fragments) == 1 and p.fragments[0].data == F755


def test_nak_list_with_lying_count_is_clipped_and_marked_inexact():
    extra = struct.pack("<I", 1000) + struct.pack("<I", 7)
    st = TransportStats()
    p = parse_packet(ac_packet([], flags=0x1000, extra=extra), st)
    assert not p.exact and p.fragments == () and st.inexact_packets == 1


def test_ack_only_packet_exact():
    p = parse_packet(ac_packet([], flags=0x4000, extra=struct.pack("<I", 99)))
    assert p.exact and p.header.size == 4


def test_header_size_larger_than_datagram_counts_truncated():
    st = TransportStats()
    raw = ac_packet([fragment(1, F755)], size=500)
    p = parse_packet(raw, st)
    assert st.truncated_packets == 1 and not p.exact
    assert len(p.fragments) == 1  # what is there is still parsed


def test_fragment_size_below_header_or_past_end_is_bad_and_stops():
    st = TransportStats()
    p = parse_packet(ac_packet([fragment(1, F755, size=8)]), st)
    assert p.fragments == () and st.bad_fragments == 1
    p = parse_packet(ac_packet([fragment(1, F755, size=400)]), st)
    assert p.fragments == () and st.bad_fragments == 2


def test_login_request_consumes_to_end():
    p = parse_packet(ac_packet([], flags=0x10000, extra=b"secret-bytes"))
    assert p.exact and p.fragments == ()


def test_reassembly_out_of_order_with_duplicates():
    r = Reassembler()
    parts = [b"\x55\xf7\x00\x00", b"BBBB", b"CCCC"]
    assert r.add("s2c", 1.0, frag(5, 2, 3, parts[2])) is None
    assert r.add("s2c", 1.1, frag(5, 0, 3, parts[0])) is None
    assert r.add("s2c", 1.2, frag(5, 2, 3, b"XXXX")) is None  # duplicate index: first kept
    msg = r.add("s2c", 1.3, frag(5, 1, 3, parts[1]))
    assert msg.data == b"".join(parts) and msg.t == 1.3
    assert r.add("s2c", 1.4, frag(5, 1, 3, parts[1])) is None  # retransmission after done
    assert r.stats.duplicate_fragments == 2 and r.stats.messages == 1


def test_direction_is_part_of_the_key():
    r = Reassembler()
    assert r.add("s2c", 1, frag(5, 0, 1, b"a")).data == b"a"
    assert r.add("c2s", 1, frag(5, 0, 1, b"b")).data == b"b"


def test_count_mismatch_and_bad_index_rejected():
    r = Reassembler()
    r.add("s2c", 1, frag(5, 0, 3, b"a"))
    assert r.add("s2c", 1, frag(5, 1, 4, b"b")) is None
    assert r.add("s2c", 1, frag(6, 3, 3, b"b")) is None
    assert r.add("s2c", 1, frag(7, 0, 0, b"b")) is None
    assert r.stats.bad_fragments == 3


def test_incomplete_messages_expire_after_timeout():
    r = Reassembler(timeout=60.0)
    r.add("s2c", 0.0, frag(5, 0, 2, b"a"))
    r.add("s2c", 61.0, frag(6, 0, 2, b"a"))
    assert r.stats.expired_messages == 1 and r.pending == 1


def test_fragment_flood_is_bounded():
    r = Reassembler(max_pending=64)
    for seq in range(10_000):
        r.add("s2c", 0.0, frag(seq, 0, 9, b"x" * 16))
    assert r.pending == 64 and r.stats.evicted_messages == 10_000 - 64


def test_oversized_fragment_count_rejected():
    r = Reassembler(max_fragments=1024)
    assert r.add("s2c", 0, frag(1, 0, 60000, b"x")) is None
    assert r.stats.bad_fragments == 1 and r.pending == 0
