"""Capture containers and the link/IP/UDP layers.

Classic pcap (either byte order, micro- or nanosecond) is read through ``dpkt.pcap``. pcapng
is read by the small block walker below because dpkt's pcapng reader honours only the first
interface, while a capture needs each interface's own link type and ``if_tsresol``.

Damage is reported, never guessed around: a file that is no capture at all raises
:class:`WireError`; a capture cut short or with a lying record/block length ends the walk
there and is counted in :class:`CaptureStats` (``truncated_records``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import dpkt

from viewer.errors import WireError
from viewer.inputs import CAPTURE_MAX_BYTES, read_capped

PCAP_MAGICS = {0xA1B2C3D4, 0xD4C3B2A1, 0xA1B23C4D, 0x4D3CB2A1}
PCAPNG_SHB = 0x0A0D0D0A
PCAPNG_BOM = 0x1A2B3C4D

# Link types the replayer understands.
LINKTYPE_NULL = 0
LINKTYPE_ETHERNET = 1
LINKTYPE_RAW = (101, 12, 228)
LINKTYPE_SLL = 113
LINKTYPE_SLL2 = 276

AC_PORTS = range(9000, 10014)  # aclogview's filter, 9000..10013 inclusive


@dataclass
class CaptureStats:
    records: int = 0               # capture records read
    truncated_records: int = 0     # a record or block cut short / with a lying length (walk ends)
    unsupported_link: int = 0      # records on a link type we do not decode
    not_ipv4_udp: int = 0          # not IPv4/UDP, or a header cut short
    ip_fragments: int = 0          # IP fragments (never AC traffic in practice) dropped
    not_ac: int = 0                # UDP outside the AC port range


@dataclass(frozen=True, slots=True)
class Record:
    t: float          # capture seconds (absolute)
    linktype: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Datagram:
    t: float
    src: bytes
    sport: int
    dst: bytes
    dport: int
    payload: bytes
    udp_len_ok: bool  # UDP length field fitted the captured bytes


def read_capture(path: str | Path, stats: CaptureStats | None = None) -> Iterator[Record]:
    """Yield every record of a pcap or pcapng file in file order."""
    path = Path(path)
    stats = stats if stats is not None else CaptureStats()
    data = read_capped(path, CAPTURE_MAX_BYTES, WireError, "capture")
    if len(data) < 4:
        raise WireError("not a capture: file shorter than a magic number", file=str(path),
                        offset=0)
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic in PCAP_MAGICS:
        yield from _read_pcap(path, data, stats)
    elif magic == PCAPNG_SHB:
        yield from _read_pcapng(path, data, stats)
    else:
        raise WireError(f"not a pcap or pcapng capture (magic 0x{magic:08X})", file=str(path),
                        offset=0)


def _read_pcap(path: Path, data: bytes, stats: CaptureStats) -> Iterator[Record]:
    import io
    if len(data) < 24:
        raise WireError("pcap global header truncated", file=str(path), offset=0)
    try:
        reader = dpkt.pcap.Reader(io.BytesIO(data))
    except (ValueError, dpkt.UnpackError) as exc:
        raise WireError(f"bad pcap header: {exc}", file=str(path), offset=0) from None
    linktype = reader.datalink()
    big = struct.unpack_from("<I", data, 0)[0] in (0xD4C3B2A1, 0x4D3CB2A1)
    hdr = struct.Struct(">IIII" if big else "<IIII")
    offset = 24
    it = iter(reader)
    while True:
        try:
            ts, buf = next(it)
        except StopIteration:
            return
        except (dpkt.UnpackError, ValueError, struct.error):
            stats.truncated_records += 1  # a record header cut short
            return
        # dpkt hands back a short buffer when incl_len runs past the end of the file.
        incl_len = hdr.unpack_from(data, offset)[2]
        offset += 16 + len(buf)
        if len(buf) < incl_len:
            stats.truncated_records += 1
            if not buf:
                return
        stats.records += 1
        yield Record(float(ts), linktype, bytes(buf))


def _read_pcapng(path: Path, data: bytes, stats: CaptureStats) -> Iterator[Record]:
    pos = 0
    end = len(data)
    endian = "<"
    interfaces: list[tuple[int, float]] = []  # (linktype, seconds per tick)
    seen_shb = False
    while pos + 12 <= end:
        btype = struct.unpack_from(endian + "I", data, pos)[0]
        if btype == PCAPNG_SHB:
            if pos + 12 > end:
                break
            bom_le = struct.unpack_from("<I", data, pos + 8)[0]
            if bom_le == PCAPNG_BOM:
                endian = "<"
            elif bom_le == 0x4D3C2B1A:
                endian = ">"
            else:
                raise WireError("pcapng section header has no byte-order magic",
                                file=str(path), offset=pos + 8)
            interfaces = []
            seen_shb = True
        elif not seen_shb:
            raise WireError("pcapng file does not start with a section header", file=str(path),
                            offset=pos)
        blen = struct.unpack_from(endian + "I", data, pos + 4)[0]
        if blen < 12 or blen % 4 or pos + blen > end:
            stats.truncated_records += 1  # lying or cut-short block length: stop here
            return
        body = data[pos + 8:pos + blen - 4]
        if btype == 1:  # Interface Description Block
            if len(body) >= 8:
                linktype = struct.unpack_from(endian + "H", body, 0)[0]
                interfaces.append((linktype, _if_tsresol(body[8:], endian)))
        elif btype == 6:  # Enhanced Packet Block
            if len(body) >= 20:
                iface, hi, lo, cap_len, _orig = struct.unpack_from(endian + "5I", body, 0)
                if iface < len(interfaces):
                    linktype, unit = interfaces[iface]
                    pkt = body[20:20 + cap_len]
                    if len(pkt) < cap_len:
                        stats.truncated_records += 1
                    stats.records += 1
                    yield Record(((hi << 32) | lo) * unit, linktype, bytes(pkt))
                else:
                    stats.unsupported_link += 1
            else:
                stats.truncated_records += 1
        elif btype == 3 and len(body) >= 4 and interfaces:  # Simple Packet Block, iface 0
            orig_len = struct.unpack_from(endian + "I", body, 0)[0]
            pkt = body[4:4 + min(orig_len, blen - 16)]
            stats.records += 1
            yield Record(0.0, interfaces[0][0], bytes(pkt))  # no timestamp in an SPB
        pos += blen
    if pos != end:
        stats.truncated_records += 1


def _if_tsresol(options: bytes, endian: str) -> float:
    """Seconds per timestamp tick from IDB option 9 (if_tsresol); default microseconds."""
    pos = 0
    while pos + 4 <= len(options):
        code, length = struct.unpack_from(endian + "HH", options, pos)
        if code == 0:
            break
        if code == 9 and length >= 1 and pos + 5 <= len(options):
            v = options[pos + 4]
            return 2.0 ** -(v & 0x7F) if v & 0x80 else 10.0 ** -(v & 0x7F)
        pos += 4 + ((length + 3) & ~3)
    return 1e-6


def locate_udp(record: Record, stats: CaptureStats | None = None) -> Datagram | None:
    """Find the IPv4/UDP datagram inside one link-layer record."""
    frame = record.data
    if record.linktype in LINKTYPE_RAW:
        ip = 0
    else:
        find = _IP_OFFSET.get(record.linktype)
        if find is None:
            return _miss(stats, "unsupported_link")
        ip = find(frame)
        if ip is None:
            return _miss(stats, "not_ipv4_udp")
    return _udp_in_ip(record, ip, stats)


# -- where the IPv4 header starts, per link type (None: not IPv4) --------------------------
def _ip_after_ethernet(frame: bytes) -> int | None:
    if len(frame) < 14:
        return None
    off = 12
    ethertype = (frame[off] << 8) | frame[off + 1]
    while ethertype in (0x8100, 0x88A8):  # 802.1Q / 802.1ad tags
        off += 4
        if off + 2 > len(frame):
            return None
        ethertype = (frame[off] << 8) | frame[off + 1]
    return off + 2 if ethertype == 0x0800 else None


def _ip_after_null(frame: bytes) -> int | None:
    if len(frame) < 4:
        return None
    fam_le = struct.unpack_from("<I", frame, 0)[0]
    fam_be = struct.unpack_from(">I", frame, 0)[0]
    return 4 if 2 in (fam_le, fam_be) else None


def _ip_after_sll(frame: bytes) -> int | None:
    return 16 if len(frame) >= 16 and frame[14:16] == b"\x08\x00" else None


def _ip_after_sll2(frame: bytes) -> int | None:
    return 20 if len(frame) >= 20 and frame[0:2] == b"\x08\x00" else None


_IP_OFFSET = {LINKTYPE_ETHERNET: _ip_after_ethernet, LINKTYPE_NULL: _ip_after_null,
              LINKTYPE_SLL: _ip_after_sll, LINKTYPE_SLL2: _ip_after_sll2}


def _udp_in_ip(record: Record, ip: int, stats: CaptureStats | None) -> Datagram | None:
    """The UDP datagram of the unfragmented IPv4 packet at ``ip``."""
    frame = record.data
    if ip + 20 > len(frame):
        return _miss(stats, "not_ipv4_udp")
    b0 = frame[ip]
    ihl = (b0 & 0x0F) * 4
    if b0 >> 4 != 4 or ihl < 20 or frame[ip + 9] != 17:
        return _miss(stats, "not_ipv4_udp")
    frag = (frame[ip + 6] << 8) | frame[ip + 7]
    if frag & 0x2000 or frag & 0x1FFF:  # More-Fragments or a non-zero fragment offset
        return _miss(stats, "ip_fragments")
    udp = ip + ihl
    if udp + 8 > len(frame):
        return _miss(stats, "not_ipv4_udp")
    sport, dport, ulen = struct.unpack_from(">HHH", frame, udp)
    avail = len(frame) - (udp + 8)
    # The IP total length is never trusted (UtilityBelt writes 0 there); UDP's length is,
    # when it fits the captured bytes.
    ok = ulen >= 8 and ulen - 8 <= avail
    n = ulen - 8 if ok else avail
    return Datagram(record.t, frame[ip + 12:ip + 16], sport, frame[ip + 16:ip + 20], dport,
                    frame[udp + 8:udp + 8 + n], ok)


def _miss(stats: CaptureStats | None, counter: str) -> None:
    if stats is not None:
        setattr(stats, counter, getattr(stats, counter) + 1)


def direction(dgram: Datagram, ports: range = AC_PORTS) -> str | None:
    """aclogview's rule: dport in range -> client to server, else sport in range -> s2c."""
    if dgram.dport in ports:
        return "c2s"
    if dgram.sport in ports:
        return "s2c"
    return None


__all__ = ["AC_PORTS", "CaptureStats", "Datagram", "Record", "direction", "locate_udp",
           "read_capture"]
