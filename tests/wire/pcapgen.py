"""Tiny capture writers for tests (classic pcap and pcapng), from the formats' specs."""

from __future__ import annotations

import struct


def udp_ipv4(payload: bytes, sport: int, dport: int, *, src=b"\x7f\0\0\1", dst=b"\x7f\0\0\1",
             frag: int = 0, ihl_words: int = 5) -> bytes:
    udp = struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload
    opts = b"\0" * (4 * (ihl_words - 5))
    ip = struct.pack(">BBHHHBBH4s4s", 0x40 | ihl_words, 0, 0, 0, frag, 64, 17, 0, src, dst)
    return ip + opts + udp


def ethernet(ip: bytes, vlan: bool = False) -> bytes:
    eth = b"\x02" * 6 + b"\x04" * 6
    if vlan:
        eth += b"\x81\x00\x00\x05"
    return eth + b"\x08\x00" + ip


def pcap(records: list[tuple[float, bytes]], linktype: int = 1, *, big: bool = False,
         nano: bool = False) -> bytes:
    e = ">" if big else "<"
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    out = struct.pack(e + "IHHiIII", magic, 2, 4, 0, 0, 65535, linktype)
    for t, data in records:
        sec = int(t)
        frac = round((t - sec) * (1e9 if nano else 1e6))
        out += struct.pack(e + "IIII", sec, frac, len(data), len(data)) + data
    return out


def _block(btype: int, body: bytes) -> bytes:
    body += b"\0" * ((-len(body)) & 3)
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def pcapng(interfaces: list[tuple[int, int | None]], packets: list[tuple[int, int, bytes]]
           ) -> bytes:
    """interfaces: (linktype, if_tsresol byte or None); packets: (iface, ticks, data)."""
    out = _block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    for linktype, tsresol in interfaces:
        opts = b""
        if tsresol is not None:
            opts = struct.pack("<HH", 9, 1) + bytes([tsresol]) + b"\0\0\0" + b"\0\0\0\0"
        out += _block(1, struct.pack("<HHI", linktype, 0, 65535) + opts)
    for iface, ticks, data in packets:
        out += _block(6, struct.pack("<IIIII", iface, ticks >> 32, ticks & 0xFFFFFFFF,
                                     len(data), len(data)) + data)
    return out


def ac_packet(fragments: list[bytes], *, seq: int = 1, flags: int = 0x4, extra: bytes = b"",
              size: int | None = None) -> bytes:
    body = extra + b"".join(fragments)
    n = len(body) if size is None else size
    return struct.pack("<IIIHHHH", seq, flags, 0, 11, 0, n, 1) + body


def fragment(seq: int, data: bytes, *, count: int = 1, index: int = 0, fid: int = 0x80000000,
             queue: int = 10, size: int | None = None) -> bytes:
    return struct.pack("<IIHHHH", seq, fid, count, 16 + len(data) if size is None else size,
                       index, queue) + data
