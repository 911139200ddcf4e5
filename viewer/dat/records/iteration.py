"""The iteration record 0xFFFF0001 (DiskController::LoadIterationList 0x00670DE0): no id header.

CMostlyConsecutiveIntSet::Serialize: i32 N, then tokens until N numbers are produced; a
negative token t is followed by i32 start and means the run start .. start + (-t) - 1, a
non-negative token is a single number (ACE and DRW assume pairs only).

A run is 8 bytes however many numbers it stands for, so the header's N, not the record's
bytes, bounds what decoding (and ``iterations``) makes: N is at most ``MAX_ITERATIONS``
(ours; retail's End-of-Retail DATs hold 497..2,072 iterations).
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer

ITERATION_DID = 0xFFFF0001
#: The most iteration numbers one record may claim: 32 times retail's largest list.
MAX_ITERATIONS = 65536


@dataclass(frozen=True, slots=True)
class Iteration:
    count: int
    tokens: tuple[tuple[int, ...], ...]   # (single,) or (-run_length, start), stored order

    def iterations(self) -> list[int]:
        out: list[int] = []
        for tok in self.tokens:
            if len(tok) == 2:
                out.extend(range(tok[1], tok[1] - tok[0]))
            else:
                out.append(tok[0])
        return out

    @classmethod
    def read(cls, r: Reader) -> Iteration:
        n = r.i32("iteration count")
        if n < 0:
            raise r.error(f"iteration count {n} is negative", 0)
        if n > MAX_ITERATIONS:
            raise r.error(f"iteration count {n} is more than the {MAX_ITERATIONS} iterations "
                          f"a DAT may list", 0)
        produced, toks = 0, []
        while produced < n:
            t = r.i32("iteration token")
            if t < 0:
                toks.append((t, r.i32("iteration run start")))
                produced += -t
            else:
                toks.append((t,))
                produced += 1
        if produced != n:
            raise r.error(f"iteration runs produce {produced} numbers, header says {n}")
        return cls(n, tuple(toks))

    def write(self, w: Writer) -> None:
        w.i32(self.count)
        for tok in self.tokens:
            for v in tok:
                w.i32(v)
