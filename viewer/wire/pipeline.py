"""Capture to decoded messages: the replay pipeline of ``vfxviewer replay``.

``iter_messages(path)`` yields :class:`Decoded` items in completion order with the capture
time (seconds from the first record) of the datagram that completed each message. Everything
that is skipped is counted in :class:`ReplayStats`; a message that fails to decode is counted
per opcode and skipped, never the rest of its packet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from viewer.errors import WireError
from viewer.wire.capture import AC_PORTS, CaptureStats, direction, locate_udp, read_capture
from viewer.wire.messages import Message, decode_message, effective_opcode
from viewer.wire.transport import Reassembler, TransportStats, parse_packet


@dataclass(frozen=True, slots=True)
class Decoded:
    t: float            # seconds from the first capture record
    dir: str            # "s2c" / "c2s"
    opcode: int         # effective opcode (inside 0xF7B0 / 0xF7B1)
    message: Message | None   # None: an opcode outside the viewer's set
    size: int           # message bytes
    wrapper: int | None = None  # 0xF7B0 / 0xF7B1 when the message came wrapped


@dataclass
class ReplayStats:
    capture: CaptureStats = field(default_factory=CaptureStats)
    transport: TransportStats = field(default_factory=TransportStats)
    decoded: Counter = field(default_factory=Counter)     # effective opcode -> count
    undecoded: Counter = field(default_factory=Counter)   # opcodes outside the set
    errors: Counter = field(default_factory=Counter)      # opcode -> decode failures
    first_errors: list = field(default_factory=list)      # up to 20 error strings

    def as_dict(self) -> dict:
        return {
            "capture": vars(self.capture),
            "transport": {k: getattr(self.transport, k)
                          for k in self.transport.__dataclass_fields__},
            "decoded": {f"0x{k:04X}": v for k, v in sorted(self.decoded.items())},
            "undecoded": sum(self.undecoded.values()),
            "errors": {f"0x{k:04X}": v for k, v in sorted(self.errors.items())},
        }


def iter_messages(path: str | Path, stats: ReplayStats | None = None, *,
                  ports: range = AC_PORTS, reassembler: Reassembler | None = None
                  ) -> Iterator[Decoded]:
    st = stats if stats is not None else ReplayStats()
    reasm = reassembler if reassembler is not None else Reassembler(st.transport)
    reasm.stats = st.transport
    t0: float | None = None
    name = str(path)
    for record in read_capture(path, st.capture):
        if t0 is None:
            t0 = record.t
        dgram = locate_udp(record, st.capture)
        if dgram is None:
            continue
        d = direction(dgram, ports)
        if d is None:
            st.capture.not_ac += 1
            continue
        packet = parse_packet(dgram.payload, st.transport)
        if packet is None:
            continue
        t = round(record.t - t0, 9)
        for frag in packet.fragments:
            raw = reasm.add(d, t, frag)
            if raw is None:
                continue
            op = effective_opcode(raw.data)
            if op is None:
                st.errors[0] += 1
                continue
            try:
                msg = decode_message(raw.data, d)
            except WireError as err:
                st.errors[op] += 1
                if len(st.first_errors) < 20:
                    st.first_errors.append(str(err.located(file=name)))
                continue
            if msg is None:
                st.undecoded[op] += 1
            else:
                st.decoded[type(msg).OPCODE if not getattr(msg, "update", False)
                           else 0xF7DB] += 1
            outer = int.from_bytes(raw.data[0:4], "little")
            yield Decoded(t, d, op, msg, len(raw.data),
                          outer if outer in (0xF7B0, 0xF7B1) else None)


def decode_capture(path: str | Path, *, ports: range = AC_PORTS
                   ) -> tuple[list[Decoded], ReplayStats]:
    stats = ReplayStats()
    items = list(iter_messages(path, stats, ports=ports))
    return items, stats
