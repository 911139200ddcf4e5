"""Malformed input never crashes or hangs: WireError, or skipped-and-counted (hypothesis)."""

from __future__ import annotations

import contextlib
import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SHARED
from tests.wire.builders import create_object
from tests.wire.pcapgen import ac_packet, ethernet, fragment, pcap, udp_ipv4
from viewer.errors import WireError
from viewer.wire.descs import PD_CSETUP, PD_MOVEMENT, PD_POSITION
from viewer.wire.messages import decode_message
from viewer.wire.pipeline import ReplayStats, decode_capture, iter_messages
from viewer.wire.transport import parse_packet

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
REAL = (SHARED / "data" / "captures" / "enter-world.pcap").read_bytes()


def _decode_file(tmp_path, data: bytes):
    p = tmp_path / "m.pcap"
    p.write_bytes(data)
    try:
        return decode_capture(p)
    except WireError:
        return None


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_as_a_capture(tmp_path, data):
    _decode_file(tmp_path, data)


@SETTINGS
@given(st.integers(0, len(REAL)))
def test_real_capture_truncated_anywhere(tmp_path, cut):
    out = _decode_file(tmp_path, REAL[:cut])
    if out is not None and cut < len(REAL):
        assert out[1].capture.records <= 89


@SETTINGS
@given(st.integers(24, len(REAL) - 4), st.integers(0, 0xFFFFFFFF))
def test_real_capture_with_a_lying_u32_anywhere(tmp_path, where, value):
    data = bytearray(REAL)
    struct.pack_into("<I", data, where, value)
    _decode_file(tmp_path, bytes(data))


@SETTINGS
@given(st.binary(min_size=20, max_size=600))
def test_random_udp_payloads(payload):
    parse_packet(payload)


@SETTINGS
@given(st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
       st.binary(max_size=64))
def test_lying_fragment_and_header_sizes(size, count, index, data):
    raw = ac_packet([fragment(1, data, count=count, index=index, size=size)],
                    size=size ^ 0x55)
    parse_packet(raw)


@SETTINGS
@given(st.binary(max_size=300))
def test_random_message_bodies_for_every_opcode(body):
    for op in (0xF745, 0xF747, 0xF748, 0xF749, 0xF74A, 0xF74B, 0xF74C, 0xF74E, 0xF750,
               0xF751, 0xF754, 0xF755, 0xF625, 0xF7DB, 0xF746):
        with contextlib.suppress(WireError):
            decode_message(struct.pack("<I", op) + body)
    for action in (0xF61C, 0xF61B, 0xF753):
        with contextlib.suppress(WireError):
            decode_message(struct.pack("<III", 0xF7B1, 1, action) + body)


@SETTINGS
@given(st.integers(0, 200), st.integers(0, 255))
def test_CreateObject_with_a_corrupted_byte(where, value):
    data = bytearray(create_object(0x80000001, PD_CSETUP | PD_POSITION | PD_MOVEMENT))
    if where < len(data):
        data[where] = value
    with contextlib.suppress(WireError):
        decode_message(bytes(data))


def test_fragment_flood_capture_finishes_and_counts(tmp_path):
    recs = []
    for i in range(3000):  # 3000 packets, each a fragment of a 9-part message never finished
        frag = fragment(i, b"y" * 64, count=9, index=i % 9)
        recs.append((i * 0.001, ethernet(udp_ipv4(ac_packet([frag], seq=i), 9000, 5))))
    p = tmp_path / "flood.pcap"
    p.write_bytes(pcap(recs))
    stats = ReplayStats()
    assert list(iter_messages(p, stats)) == []
    assert stats.transport.fragments == 3000
    assert stats.transport.evicted_messages > 0
