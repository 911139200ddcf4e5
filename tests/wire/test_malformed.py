"""Malformed input never crashes or hangs: WireError, or skipped-and-counted (hypothesis)."""

from __future__ import annotations

import math
import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CAPTURES
from tests.wire.builders import create_object
from tests.wire.pcapgen import ac_packet, ethernet, fragment, pcap, udp_ipv4
from viewer.errors import WireError
from viewer.wire.descs import PD_CSETUP, PD_MOVEMENT, PD_POSITION
from viewer.wire.messages import GameAction, GameEvent, decode_message, effective_opcode
from viewer.wire.pipeline import ReplayStats, decode_capture, iter_messages
from viewer.wire.transport import MAX_FRAGMENT_SIZE, TransportStats, parse_packet

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
REAL = (CAPTURES / "enter-world.pcap").read_bytes()


def _decode_file(tmp_path, data: bytes):
    """decode_capture of ``data``: None for a WireError (one line naming the file), otherwise
    the items and stats, checked for consistency: every yielded message is counted once as
    decoded or undecoded, no more messages than fragments, no more records than the bytes
    could hold, finite times (relative to the first record: a lying timestamp may precede
    it), sizes from the bytes."""
    p = tmp_path / "m.pcap"
    p.write_bytes(data)
    try:
        out = decode_capture(p)
    except WireError as err:
        assert str(err).startswith(str(p)) and "\n" not in str(err)
        return None
    items, stats = out
    assert len(items) == sum(stats.decoded.values()) + sum(stats.undecoded.values())
    assert stats.transport.messages <= stats.transport.fragments
    assert len(items) + sum(stats.errors.values()) <= stats.transport.messages
    assert stats.capture.records <= len(data) // 16
    assert all(math.isfinite(it.t) and 4 <= it.size <= len(data) for it in items)
    assert all("\n" not in e for e in stats.first_errors)
    return out


def _check_packet(payload: bytes, packet) -> None:
    """parse_packet keeps to the bytes it was given: fragments are their declared size, lie
    inside the datagram and never overlap; ``exact`` only when the header size is the
    datagram's length."""
    if len(payload) < 20:
        assert packet is None
        return
    assert packet is not None
    assert sum(f.size for f in packet.fragments) <= len(payload) - 20
    for f in packet.fragments:
        assert 16 <= f.size <= MAX_FRAGMENT_SIZE and len(f.data) == f.size - 16
    if packet.exact:
        assert len(payload) == 20 + packet.header.size


def _decode_or_wireerror(data: bytes):
    """decode_message: a message of the opcode's kind, None for an opcode outside the set,
    or a one-line WireError with an offset inside the message."""
    try:
        msg = decode_message(data)
    except WireError as err:
        assert "\n" not in str(err)
        assert err.offset is None or 0 <= err.offset <= len(data)
        return None
    if msg is not None:
        assert effective_opcode(data) == _kind(msg) or getattr(msg, "update", False)
    return msg


def _kind(msg) -> int:
    """The opcode a decoded message stands for: a 0xF7B0 / 0xF7B1 wrapper the viewer does
    not decode further stands for the event / action type it carries."""
    if isinstance(msg, GameEvent):
        return msg.event_type
    if isinstance(msg, GameAction):
        return msg.action_type
    return type(msg).OPCODE


def test_a_corrupted_opcode_that_makes_a_game_event_decodes_as_that_wrapper():
    """Found by the random profile: byte 0 of a CreateObject turned to 0xB0 makes the
    0xF7B0 wrapper, whose next words read as guid, sequence and an unknown event type."""
    data = bytearray(create_object(0x80000001, PD_CSETUP | PD_POSITION | PD_MOVEMENT))
    data[0] = 0xB0
    msg = _decode_or_wireerror(bytes(data))
    assert isinstance(msg, GameEvent) and msg.event_type == effective_opcode(bytes(data))


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_as_a_capture(tmp_path, data):
    out = _decode_file(tmp_path, data)
    if len(data) < 24:                       # shorter than a pcap global header
        assert out is None


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
@given(st.binary(min_size=0, max_size=600))
def test_random_udp_payloads(payload):
    stats = TransportStats()
    _check_packet(payload, parse_packet(payload, stats))
    assert stats.packets == 1 and stats.exact_packets + stats.inexact_packets \
        + stats.short_packets == 1


@SETTINGS
@given(st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
       st.binary(max_size=64))
def test_lying_fragment_and_header_sizes(size, count, index, data):
    raw = ac_packet([fragment(1, data, count=count, index=index, size=size)],
                    size=size ^ 0x55)
    _check_packet(raw, parse_packet(raw))


@SETTINGS
@given(st.binary(max_size=300))
def test_random_message_bodies_for_every_opcode(body):
    for op in (0xF745, 0xF747, 0xF748, 0xF749, 0xF74A, 0xF74B, 0xF74C, 0xF74E, 0xF750,
               0xF751, 0xF754, 0xF755, 0xF625, 0xF7DB, 0xF746):
        _decode_or_wireerror(struct.pack("<I", op) + body)
    for action in (0xF61C, 0xF61B, 0xF753):
        _decode_or_wireerror(struct.pack("<III", 0xF7B1, 1, action) + body)


@SETTINGS
@given(st.integers(0, 200), st.integers(0, 255))
def test_CreateObject_with_a_corrupted_byte(where, value):
    original = create_object(0x80000001, PD_CSETUP | PD_POSITION | PD_MOVEMENT)
    data = bytearray(original)
    if where < len(data):
        data[where] = value
    msg = _decode_or_wireerror(bytes(data))
    if bytes(data) == original:
        assert msg is not None and msg.guid == 0x80000001      # the untouched message decodes


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
