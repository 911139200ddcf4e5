"""UDP transport: packet header, optional sections, blob fragments, reassembly.

Checksums are never verified (replay does not need them); every
optional section is skipped by its size; fragments are reassembled per direction with
duplicates, out-of-order arrival, orphans and floods handled and counted.
"""

from __future__ import annotations

import struct
from collections import OrderedDict
from dataclasses import dataclass

HEADER = struct.Struct("<IIIHHHH")
FRAG_HEADER = struct.Struct("<IIHHHH")

# PacketHeaderFlags
RETRANSMISSION = 0x1
ENCRYPTED_CHECKSUM = 0x2
BLOB_FRAGMENTS = 0x4
LOGIN_REQUEST = 0x10000
REQUEST_RETRANSMIT = 0x1000
REJECT_RETRANSMIT = 0x2000

# Optional sections in ascending flag-bit order: flag -> fixed size (None: counted list,
# -1: rest of the payload).
OPTIONAL_SECTIONS: tuple[tuple[int, int | None], ...] = (
    (0x00000100, 8),    # ServerSwitch
    (0x00000200, 16),   # LogonServerAddr
    (0x00000400, 0),    # EmptyHeader1
    (0x00000800, 32),   # Referral
    (0x00001000, None),  # RequestRetransmit: count u32, seq[count]
    (0x00002000, None),  # RejectRetransmit: count u32, seq[count]
    (0x00004000, 4),    # AckSequence
    (0x00008000, 0),    # Disconnect
    (0x00010000, -1),   # LoginRequest: credentials, consume to end, never kept
    (0x00020000, 8),    # WorldLoginRequest
    (0x00040000, 32),   # ConnectRequest
    (0x00080000, 8),    # ConnectResponse
    (0x00100000, 8),    # NetError
    (0x00200000, 8),    # NetErrorDisconnect
    (0x00400000, 8),    # CICMDCommand
    (0x01000000, 8),    # TimeSync
    (0x02000000, 4),    # EchoRequest
    (0x04000000, 8),    # EchoResponse
    (0x08000000, 6),    # Flow
)

MAX_FRAGMENT_SIZE = 464  # 16-byte header + 448 data bytes


@dataclass(frozen=True, slots=True)
class PacketHeader:
    sequence: int
    flags: int
    checksum: int
    id: int
    time: int
    size: int
    iteration: int


@dataclass(frozen=True, slots=True)
class Fragment:
    sequence: int
    id: int
    count: int
    size: int
    index: int
    queue: int
    data: bytes


@dataclass(slots=True)
class TransportStats:
    packets: int = 0               # AC datagrams seen
    short_packets: int = 0         # shorter than the 20-byte header: dropped
    truncated_packets: int = 0     # header size runs past the datagram, or a section cut short
    inexact_packets: int = 0       # datagram length != 20 + size (padding or truncation)
    exact_packets: int = 0         # header, sections and fragments end exactly at 20 + size
    fragment_packets: int = 0      # packets with BlobFragments
    fragments: int = 0             # fragments read
    bad_fragments: int = 0         # size < 16, > 464, count 0, index >= count, count mismatch
    duplicate_fragments: int = 0   # copies of an index already held or already completed
    expired_messages: int = 0      # incomplete messages dropped after the timeout
    evicted_messages: int = 0      # incomplete messages dropped by the pending cap (floods)
    messages: int = 0              # messages reassembled


@dataclass(frozen=True, slots=True)
class ParsedPacket:
    header: PacketHeader
    fragments: tuple[Fragment, ...]
    exact: bool       # everything consumed exactly to 20 + size, datagram length matches


def parse_packet(payload: bytes, stats: TransportStats | None = None) -> ParsedPacket | None:
    """Walk one UDP payload. Returns None for a payload too short to hold a header."""
    st = stats if stats is not None else TransportStats()
    st.packets += 1
    if len(payload) < 20:
        st.short_packets += 1
        return None
    hdr = PacketHeader(*HEADER.unpack_from(payload, 0))
    end = 20 + hdr.size
    exact = len(payload) == end
    if end > len(payload):
        st.truncated_packets += 1
        end = len(payload)  # parse what is there
    pos = 20
    flags = hdr.flags
    for flag, size in OPTIONAL_SECTIONS:
        if not flags & flag:
            continue
        if size is None:
            if pos + 4 > end:
                st.truncated_packets += 1
                exact = False
                pos = end
                break
            count = struct.unpack_from("<I", payload, pos)[0]
            # aclogview clips the count to the bytes available; a lying count is inexact.
            avail = (end - pos - 4) // 4
            if count > avail:
                exact = False
                count = avail
            pos += 4 + 4 * count
        elif size < 0:
            pos = end
        else:
            if pos + size > end:
                st.truncated_packets += 1
                exact = False
                pos = end
                break
            pos += size
    frags: list[Fragment] = []
    if flags & BLOB_FRAGMENTS:
        st.fragment_packets += 1
        while pos + 16 <= end:
            seq, fid, count, size, index, queue = FRAG_HEADER.unpack_from(payload, pos)
            if size < 16 or size > MAX_FRAGMENT_SIZE or pos + size > end:
                st.bad_fragments += 1
                exact = False
                pos = end
                break
            st.fragments += 1
            frags.append(Fragment(seq, fid, count, size, index, queue,
                                  payload[pos + 16:pos + size]))
            pos += size
    if pos != end:
        exact = False
    if exact:
        st.exact_packets += 1
    else:
        st.inexact_packets += 1
    return ParsedPacket(hdr, tuple(frags), exact)


@dataclass(frozen=True, slots=True)
class RawMessage:
    """One reassembled message: ``data`` starts with its opcode."""
    t: float
    dir: str
    sequence: int
    queue: int
    data: bytes


class _Pending:
    __slots__ = ("count", "parts", "queue", "t_first", "t_last")

    def __init__(self, count: int, t: float, queue: int) -> None:
        self.count = count
        self.parts: dict[int, bytes] = {}
        self.t_first = t
        self.t_last = t
        self.queue = queue


class Reassembler:
    """Fragment reassembly keyed by (direction, sequence, id).

    ``timeout`` drops incomplete messages older than that many capture seconds; ``max_pending``
    bounds how many incomplete messages are held (oldest dropped first), and ``max_fragments``
    rejects fragment counts no real message reaches, so a flood of fragments that never
    complete costs bounded memory and time.
    """

    def __init__(self, stats: TransportStats | None = None, *, timeout: float = 60.0,
                 max_pending: int = 1024, max_fragments: int = 1024,
                 finished_memory: int = 4096) -> None:
        self.stats = stats if stats is not None else TransportStats()
        self.timeout = timeout
        self.max_pending = max_pending
        self.max_fragments = max_fragments
        self.finished_memory = finished_memory
        self._pending: OrderedDict[tuple, _Pending] = OrderedDict()
        self._finished: OrderedDict[tuple, None] = OrderedDict()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def _finish(self, key: tuple) -> None:
        self._finished[key] = None
        if len(self._finished) > self.finished_memory:
            self._finished.popitem(last=False)

    def add(self, direction: str, t: float, frag: Fragment) -> RawMessage | None:
        st = self.stats
        if frag.count == 0 or frag.index >= frag.count or frag.count > self.max_fragments:
            st.bad_fragments += 1
            return None
        key = (direction, frag.sequence, frag.id)
        if key in self._finished:
            st.duplicate_fragments += 1  # retransmitted copy of a completed message
            return None
        self._expire(t)
        if frag.count == 1:
            self._finish(key)
            st.messages += 1
            return RawMessage(t, direction, frag.sequence, frag.queue, frag.data)
        entry = self._pending.get(key)
        if entry is None:
            entry = _Pending(frag.count, t, frag.queue)
            self._pending[key] = entry
            while len(self._pending) > self.max_pending:
                self._pending.popitem(last=False)
                st.evicted_messages += 1
        elif entry.count != frag.count:
            st.bad_fragments += 1
            return None
        if frag.index in entry.parts:
            st.duplicate_fragments += 1  # keep the first copy of each index
            return None
        entry.parts[frag.index] = frag.data
        entry.t_last = t
        if len(entry.parts) < entry.count:
            return None
        del self._pending[key]
        self._finish(key)
        st.messages += 1
        data = b"".join(entry.parts[i] for i in range(entry.count))
        return RawMessage(t, direction, frag.sequence, entry.queue, data)

    def _expire(self, t: float) -> None:
        if not self._pending:
            return
        limit = t - self.timeout
        # Entries are in creation order, so the oldest are at the front.
        while self._pending:
            key, entry = next(iter(self._pending.items()))
            if entry.t_first >= limit:
                break
            del self._pending[key]
            self.stats.expired_messages += 1


# ----------------------------------------------------------------------------------------
# checksum: replay never needs it; a debugging aid for unkeyed packets

CHECKSUM_SEED = 0xBADD70DD


def hash32(data: bytes) -> int:
    """Start with len << 16, add each complete LE u32, then the 1-3 tail bytes shifted into
    the high end (first tail byte << 24, next << 16, next << 8)."""
    n = len(data)
    total = (n << 16) & 0xFFFFFFFF
    whole = n & ~3
    if whole:
        total += sum(struct.unpack_from(f"<{whole // 4}I", data, 0))
    shift = 24
    for b in data[whole:]:
        total += b << shift
        shift -= 8
    return total & 0xFFFFFFFF


def plain_checksum_ok(payload: bytes) -> bool | None:
    """Verify a packet's checksum when it is not ISAAC-keyed (flag 0x2 clear).

    Returns None for keyed or unparseable packets. header_hash is Hash32 of the 20-byte
    header with the checksum field replaced by 0xBADD70DD; payload_hash is Hash32 of the
    optional-section bytes plus, per fragment, Hash32(header) + Hash32(data)."""
    if len(payload) < 20:
        return None
    hdr = PacketHeader(*HEADER.unpack_from(payload, 0))
    if hdr.flags & ENCRYPTED_CHECKSUM or 20 + hdr.size > len(payload):
        return None
    header = bytearray(payload[:20])
    struct.pack_into("<I", header, 8, CHECKSUM_SEED)
    packet = parse_packet(payload[:20 + hdr.size])
    if packet is None or not packet.exact:
        return None
    frag_bytes = sum(f.size for f in packet.fragments)
    sections_end = 20 + hdr.size - frag_bytes
    total = hash32(bytes(header)) + hash32(payload[20:sections_end])
    pos = sections_end
    for f in packet.fragments:
        total += hash32(payload[pos:pos + 16]) + hash32(f.data)
        pos += f.size
    return (total & 0xFFFFFFFF) == hdr.checksum
