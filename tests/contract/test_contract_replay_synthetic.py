"""Contract section 7 on a capture built here (retail framing, no captured bytes): the physics
and effect messages the real captures lack (F754 PlayScriptId, F747 DeleteObject, F748
UpdatePosition, F749 ParentEvent, F74B SetState) each print one JSON line with t / opcode /
dir and their decoded fields; a message split over two fragments prints once."""

from __future__ import annotations

import json
import math
import struct

import dpkt
import pytest

from .conftest import assert_no_raw_nonfinite

SERVER, CLIENT = b"\x0a\x00\x00\x01", b"\x0a\x00\x00\x02"
GUID = 0x50000042


def _frame(payload: bytes, *, s2c: bool) -> bytes:
    """Ethernet / IPv4 / UDP around one AC datagram; server port 9000."""
    udp = dpkt.udp.UDP(sport=9000 if s2c else 50000, dport=50000 if s2c else 9000,
                       data=payload)
    udp.ulen = 8 + len(payload)
    ip = dpkt.ip.IP(src=SERVER if s2c else CLIENT, dst=CLIENT if s2c else SERVER, p=17,
                    data=udp)
    ip.len = 20 + udp.ulen
    return bytes(dpkt.ethernet.Ethernet(src=b"\x02" * 6, dst=b"\x04" * 6, type=0x0800,
                                        data=ip))


def _packet(seq: int, fragments: list[bytes]) -> bytes:
    """Packet header: seq, flags (BlobFragments 0x4), checksum (not verified on replay), id,
    time, size of what follows, iteration."""
    body = b"".join(fragments)
    return struct.pack("<IIIHHHH", seq, 0x4, 0, 11, 0, len(body), 1) + body


def _fragment(msg_seq: int, data: bytes, *, count=1, index=0) -> bytes:
    """Fragment header: sequence, id, count, size (incl. the 16-byte header), index, queue."""
    return struct.pack("<IIHHHH", msg_seq, 0x80000000, count, 16 + len(data), index, 5) + data


MESSAGES = {
    # F754: guid, script did
    "0xF754": struct.pack("<III", 0xF754, GUID, 0x33000099),
    # F755: guid, script_type, mod (NaN payload bits kept)
    "0xF755": struct.pack("<III", 0xF755, GUID, 0x76) + bytes.fromhex("3412c07f"),
    # 4.4.2: guid, instance_ts u16, align4
    "0xF747": struct.pack("<IIHH", 0xF747, GUID, 3, 0),
    # 4.4.6: guid, new_physics_state, instance_ts, state_ts
    "0xF74B": struct.pack("<IIIHH", 0xF74B, GUID, 0x00404C08, 1, 2),
    # 4.4.4: parent, child, parent_location, placement_id, ts_a, ts_b
    "0xF749": struct.pack("<IIIIIHH", 0xF749, 0x50000001, GUID, 1, 0, 4, 5),
    # 4.4.3: flags 0x34 (grounded, no qx, no qy), cell, origin, qw, qz, 4 stamps
    "0xF748": struct.pack("<IIIIfffffHHHH", 0xF748, GUID, 0x34, 0xDA55001D, 88.1, 106.75,
                          20.0, -0.986, -0.167, 13, 827, 0, 0),
}


@pytest.fixture(scope="module")
def capture(tmp_path_factory):
    path = tmp_path_factory.mktemp("synthetic_capture") / "built.pcap"
    with path.open("wb") as fh:
        w = dpkt.pcap.Writer(fh, linktype=1)
        t0 = 1_700_000_000.0
        for i, (_, msg) in enumerate(MESSAGES.items()):
            w.writepkt(_frame(_packet(100 + i, [_fragment(10 + i, msg)]), s2c=True),
                       ts=t0 + 0.5 * i)
        # one F754 split over two packets (count 2): printed once, at the completing packet
        big = struct.pack("<III", 0xF754, GUID, 0x330000AA)
        w.writepkt(_frame(_packet(200, [_fragment(50, big[:6], count=2, index=0)]),
                          s2c=True), ts=t0 + 10.0)
        w.writepkt(_frame(_packet(201, [_fragment(50, big[6:], count=2, index=1)]),
                          s2c=True), ts=t0 + 10.25)
    return path


@pytest.fixture(scope="module")
def lines(capture):
    import contextlib
    import io

    from viewer.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", str(capture), "--json"]) == 0
    assert_no_raw_nonfinite(out.getvalue())
    return [json.loads(ln) for ln in out.getvalue().splitlines()]


def test_each_physics_message_is_one_line_with_t_opcode_dir(lines):
    by_op = {}
    for d in lines:
        by_op.setdefault(d["opcode"], []).append(d)
        assert d["dir"] == "s2c"
    for i, op in enumerate(MESSAGES):
        assert op in by_op, op
        assert by_op[op][0]["t"] == pytest.approx(0.5 * i, abs=1e-6)


def test_play_script_id_fields(lines):
    f754 = [d for d in lines if d["opcode"] == "0xF754"]
    assert f754[0]["guid"] == "0x50000042"
    assert "0x33000099" in json.dumps(f754[0])


def test_fragmented_message_printed_once_at_the_completing_packet(lines):
    split = [d for d in lines if "0x330000AA" in json.dumps(d)]
    assert len(split) == 1 and split[0]["t"] == pytest.approx(10.25, abs=1e-6)


def test_play_script_type_keeps_the_raw_nan(lines):
    f755 = next(d for d in lines if d["opcode"] == "0xF755")
    assert f755["script_type"] == 0x76 and f755["intensity"] == "nan"


def test_set_state_fields(lines):
    f74b = next(d for d in lines if d["opcode"] == "0xF74B")
    assert f74b["guid"] == "0x50000042"
    assert "0x00404C08" in json.dumps(f74b) or 0x00404C08 in f74b.values()


def test_update_position_omitted_quaternion_parts_are_zero(lines):
    f748 = next(d for d in lines if d["opcode"] == "0xF748")
    text = json.dumps(f748)
    assert "0xDA55001D" in text.upper().replace("0XDA55001D", "0xDA55001D")
    nums = [v for v in _floats(f748)]
    assert any(math.isclose(v, 88.1, rel_tol=1e-6) for v in nums)


def _floats(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from _floats(x)
    elif isinstance(v, list):
        for x in v:
            yield from _floats(x)
    elif isinstance(v, float):
        yield v


def test_guid_filter_on_built_capture(cli, capture):
    r = cli("replay", capture, "--json", "--guid", "0x50000001")
    kept = [json.loads(ln) for ln in r.lines]
    assert r.rc == 0 and [d["opcode"] for d in kept] == ["0xF749"]
