"""Both real captures replay end to end (the counts in tests/data/captures/README.md).

Captures: effects-burst.pcap (amoeba/asheron-rs, MIT, (c) 2025 Bryce Mecum) and
enter-world.pcap (amoeba/gromnie, MIT, (c) 2025 Bryce Mecum); see
tests/data/captures/README.md and LICENSE.
"""

from __future__ import annotations

import struct

import pytest

from viewer.wire.capture import CaptureStats, direction, locate_udp, read_capture
from viewer.wire.messages import CreateObject, PlayerCreate, PlayScriptType, UpdateMotion
from viewer.wire.pipeline import decode_capture
from viewer.wire.transport import parse_packet


@pytest.fixture(scope="module")
def captures(request):
    from tests.conftest import CAPTURES as base
    return {name: decode_capture(base / f"{name}.pcap") + (base / f"{name}.pcap",)
            for name in ("effects-burst", "enter-world")}


def _duration(path) -> float:
    ts = [r.t for r in read_capture(path)]
    return ts[-1] - ts[0]


def test_effects_burst_counts_from_README(captures):
    _, stats, _ = captures["effects-burst"]
    assert stats.capture.records == 632
    d = stats.decoded
    assert d[0xF755] == 515 and d[0xF74C] == 12 and d[0xF625] == 60
    assert d[0xF74A] == 30 and d[0xF750] == 60
    assert d[0xF745] == 0  # starts mid-session: no CreateObject
    assert not stats.errors
    assert _duration(captures["effects-burst"][2]) == pytest.approx(49.8, abs=0.1)


def test_enter_world_counts_from_README(captures):
    _, stats, _ = captures["enter-world"]
    assert stats.capture.records == 89
    d = stats.decoded
    assert d[0xF745] == 136 and d[0xF746] == 1 and d[0xF74B] >= 1 and d[0xF74C] >= 1
    assert d[0xF61C] >= 1 and d[0xF753] >= 1
    assert not stats.errors
    assert _duration(captures["enter-world"][2]) == pytest.approx(11.4, abs=0.1)


@pytest.mark.parametrize("name", ["effects-burst", "enter-world"])
def test_every_packet_consumed_exactly(captures, name):
    _, stats, _ = captures[name]
    t = stats.transport
    assert t.packets == stats.capture.records
    assert t.exact_packets == t.packets and t.inexact_packets == 0
    assert t.bad_fragments == 0 and t.truncated_packets == 0 and t.short_packets == 0
    # Every started message completed; nothing was left half-assembled or dropped.
    assert t.expired_messages == 0 and t.evicted_messages == 0


def test_enter_world_multi_fragment_messages_up_to_nine(captures):
    _, _, path = captures["enter-world"]
    counts = set()
    for rec in read_capture(path):
        d = locate_udp(rec)
        p = parse_packet(d.payload)
        counts.update(f.count for f in p.fragments)
    assert max(counts) == 9


def test_enter_world_server_replies_from_other_port(captures):
    _, _, path = captures["enter-world"]
    ports = {(direction(d), d.sport, d.dport) for d in
             (locate_udp(r) for r in read_capture(path))}
    assert ("c2s", 12345, 9000) in ports and ("s2c", 9001, 12345) in ports


def test_test_vector_1_first_frame_header_and_fragment(captures):
    _, _, path = captures["effects-burst"]
    rec = next(iter(read_capture(path, CaptureStats())))
    d = locate_udp(rec)
    assert direction(d) == "c2s" and len(d.payload) == 64
    p = parse_packet(d.payload)
    h = p.header
    assert (h.sequence, h.flags, h.id, h.time, h.size, h.iteration) == \
        (570, 0x03000006, 50, 907, 44, 1)
    (f,) = p.fragments
    assert (f.sequence, f.id, f.count, f.size, f.index, f.queue) == \
        (287, 0x0300011F, 1, 32, 0, 3)
    assert struct.unpack("<4I", f.data) == (0xF7B1, 0x118, 0xC8, 0x80414B6A)


def test_effects_burst_first_F755_fields(captures):
    items, _, _ = captures["effects-burst"]
    f755 = [i for i in items if isinstance(i.message, PlayScriptType)]
    assert len(f755) == 515
    first = f755[0].message
    assert (first.guid, first.script_type, first.intensity_bits) == (0x50002B16, 0x37,
                                                                      0x3D4CCCCD)
    assert all(i.dir == "s2c" for i in f755)
    assert [i.t for i in f755] == sorted(i.t for i in f755)


def test_enter_world_test_vector_6_smallest_CreateObject_pyreal(captures):
    items, _, _ = captures["enter-world"]
    creates = {i.message.guid: i for i in items if isinstance(i.message, CreateObject)}
    item = creates[0x80103CDB]
    assert item.size == 88
    m = item.message
    p = m.physics
    assert p.flags == 0x20001 and p.state == 0x414 and p.animframe_id == 0x65
    assert p.setup == 0x02000B77 and p.timestamps == (0,) * 9
    assert p.position is None and p.physics_script_table is None
    w = m.weenie
    assert (w.header, w.name, w.wcid, w.icon, w.item_type, w.obj_desc_bits) == \
        (0x7018, "Pyreal", 273, 0x0600229F, 0x40, 0x10)
    assert w.get("value") == 10500 and w.get("useability") == 1
    assert w.get("stack_size") == 10500 and w.get("max_stack_size") == 25000
    assert w.get("container_guid") == 0x50002F67


def test_enter_world_player_create_precedes_its_CreateObject(captures):
    items, _, _ = captures["enter-world"]
    msgs = [i.message for i in items if i.message is not None]
    player = next(m for m in msgs if isinstance(m, PlayerCreate)).guid
    assert player == 0x50002F67
    mine = next(m for m in msgs if isinstance(m, CreateObject) and m.guid == player)
    assert mine.physics.setup == 0x02000001 and mine.physics.motion_table == 0x09000001
    assert any(isinstance(m, UpdateMotion) for m in msgs)


@pytest.mark.parametrize("name", ["effects-burst", "enter-world"])
def test_plain_checksums_verify_test_vector_2(captures, name):
    from viewer.wire.transport import plain_checksum_ok
    _, _, path = captures[name]
    results = [plain_checksum_ok(locate_udp(r).payload) for r in read_capture(path)]
    plain = [ok for ok in results if ok is not None]
    assert plain and all(plain)
