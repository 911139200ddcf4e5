"""Capture containers and link layers, on hand-built captures."""

from __future__ import annotations

import struct

import pytest

from tests.wire.pcapgen import ac_packet, ethernet, fragment, pcap, pcapng, udp_ipv4
from viewer.errors import WireError
from viewer.wire.capture import CaptureStats, direction, locate_udp, read_capture
from viewer.wire.pipeline import decode_capture

F755 = bytes.fromhex("55F70000 42000050 37000000 0000003F".replace(" ", ""))


def _s2c(payload: bytes) -> bytes:
    return udp_ipv4(payload, 9000, 50000)


def _one_f755_packet(seq: int = 1) -> bytes:
    return ac_packet([fragment(seq, F755)], seq=seq)


def write(tmp_path, name, data) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


@pytest.mark.parametrize("big,nano", [(False, False), (True, False), (False, True),
                                      (True, True)])
def test_classic_pcap_either_byte_order_micro_or_nano(tmp_path, big, nano):
    data = pcap([(100.25, ethernet(_s2c(_one_f755_packet(1)))),
                 (101.5, ethernet(_s2c(_one_f755_packet(2))))], big=big, nano=nano)
    items, _ = decode_capture(write(tmp_path, "a.pcap", data))
    assert [round(i.t, 6) for i in items] == [0.0, 1.25]
    assert items[0].message.guid == 0x50000042 and items[0].dir == "s2c"


@pytest.mark.parametrize("linktype,frame", [
    (1, lambda ip: ethernet(ip)),
    (1, lambda ip: ethernet(ip, vlan=True)),
    (0, lambda ip: struct.pack("<I", 2) + ip),
    (0, lambda ip: struct.pack(">I", 2) + ip),
    (101, lambda ip: ip), (12, lambda ip: ip), (228, lambda ip: ip),
    (113, lambda ip: b"\0" * 14 + b"\x08\x00" + ip),
    (276, lambda ip: b"\x08\x00" + b"\0" * 18 + ip),
])
def test_every_link_type_of_the_spec(tmp_path, linktype, frame):
    data = pcap([(1.0, frame(_s2c(_one_f755_packet())))], linktype=linktype)
    items, _ = decode_capture(write(tmp_path, "l.pcap", data))
    assert len(items) == 1 and items[0].message.script_type == 0x37


def test_ip_header_length_is_honoured_and_fragments_dropped(tmp_path):
    ok = ethernet(udp_ipv4(_one_f755_packet(), 9000, 5, ihl_words=6))
    frag = ethernet(udp_ipv4(_one_f755_packet(), 9000, 5, frag=0x2000))
    items, stats = decode_capture(write(tmp_path, "i.pcap", pcap([(1, ok), (2, frag)])))
    assert len(items) == 1 and stats.capture.ip_fragments == 1


def test_direction_rule_dport_in_range_is_c2s_else_sport_s2c_else_not_ac(tmp_path):
    recs = [(1, ethernet(udp_ipv4(_one_f755_packet(), 12345, 9000))),
            (2, ethernet(udp_ipv4(_one_f755_packet(), 9001, 12345))),
            (3, ethernet(udp_ipv4(_one_f755_packet(), 53, 12345)))]
    items, stats = decode_capture(write(tmp_path, "d.pcap", pcap(recs)))
    assert [i.dir for i in items] == ["c2s", "s2c"] and stats.capture.not_ac == 1


def test_pcapng_per_interface_linktype_and_tsresol(tmp_path):
    pkt1, pkt2 = _s2c(_one_f755_packet(1)), _s2c(_one_f755_packet(2))
    data = pcapng([(1, None), (101, 9)],   # iface 0 Ethernet µs; iface 1 raw IPv4 ns
                  [(0, 5_000_000, ethernet(pkt1)), (1, 6_500_000_000, pkt2)])
    items, stats = decode_capture(write(tmp_path, "a.pcapng", data))
    assert [round(i.t, 6) for i in items] == [0.0, 1.5]
    assert stats.capture.records == 2


def test_pcapng_lying_block_length_stops_and_counts(tmp_path):
    pkt = ethernet(_s2c(_one_f755_packet()))
    data = bytearray(pcapng([(1, None)], [(0, 1, pkt), (0, 2, pkt)]))
    # second EPB: claim a length far past the end of the file
    second = len(data) - (12 + 20 + ((len(pkt) + 3) & ~3))
    struct.pack_into("<I", data, second + 4, 0x7FFFFFF0)
    stats = CaptureStats()
    recs = list(read_capture(write(tmp_path, "b.pcapng", bytes(data)), stats))
    assert len(recs) == 1 and stats.truncated_records == 1


def test_not_a_capture_raises_WireError_naming_the_file(tmp_path):
    path = write(tmp_path, "x.pcap", b"hello world, not a capture")
    with pytest.raises(WireError) as exc:
        list(read_capture(path))
    assert "x.pcap" in str(exc.value) and exc.value.offset == 0


def test_missing_file_raises_WireError(tmp_path):
    with pytest.raises(WireError):
        list(read_capture(tmp_path / "nope.pcap"))


def test_pcap_truncated_record_counted(tmp_path):
    data = pcap([(1, ethernet(_s2c(_one_f755_packet())))] * 2)
    stats = CaptureStats()
    recs = list(read_capture(write(tmp_path, "t.pcap", data[:-5]), stats))
    assert len(recs) == 2 and stats.truncated_records == 1


def test_udp_length_bounds_the_payload_not_ip_total_length():
    from viewer.wire.capture import Record
    ip = udp_ipv4(b"abcd", 9000, 5) + b"\0\0\0\0"  # Ethernet trailer padding
    d = locate_udp(Record(0.0, 101, ip))
    assert d.payload == b"abcd" and d.udp_len_ok and direction(d) == "s2c"
