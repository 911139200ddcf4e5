"""DAT container and record-decode figures (issue 3).

Builds a 100,000-entry retail-layout file with our writer (mixed record types, block size
1024 as in client_portal.dat), then prints: write time, open + full enumeration time, the
viewer's directory read in a worker thread (and how long the frame loop waited at a time),
random lookups per second (cold and warm node cache), record reads per second, the time
to open a 1 GiB (sparse) file and read one record, and the decode rate per record type.
Run: ``.venv/bin/python bench/dat_index.py [--entries N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer.dat import records as R
from viewer.dat import samples
from viewer.dat.container import DatFile
from viewer.dat.writer import write_dat
from viewer.ui.progress import ThreadJob


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--lookups", type=int, default=100_000)
    ap.add_argument("--block-size", type=int, default=1024)
    args = ap.parse_args()

    sample = samples.sample_records()
    encoded = {did: R.encode(rec) for did, rec in sample.items()}
    by_prefix = {}
    for did, data in encoded.items():
        by_prefix.setdefault(did >> 24, (did, data))
    prefixes = sorted(by_prefix)
    recs: dict[int, bytes] = {}
    for i in range(args.entries):
        p = prefixes[i % len(prefixes)]
        recs[(p << 24) | (i // len(prefixes))] = by_prefix[p][1]
    total_bytes = sum(len(v) for v in recs.values())

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_portal.dat"
        t0 = time.perf_counter()
        size = write_dat(path, recs, block_size=args.block_size)
        t_write = time.perf_counter() - t0
        print(f"entries            {args.entries:>12,}")
        print(f"record bytes       {total_bytes:>12,}")
        print(f"file size          {size:>12,}  (block size {args.block_size})")
        print(f"write              {t_write:>12.3f} s")

        t0 = time.perf_counter()
        with DatFile(path) as d:
            n = sum(1 for _ in d.entries())
        t_enum = time.perf_counter() - t0
        assert n == args.entries
        print(f"open + enumerate   {t_enum:>12.3f} s  ({n / t_enum:,.0f} entries/s)")

        # the viewer's open (issue 19): the directory read in a worker thread with a progress
        # step per leaf node, while the frame loop's thread waits 5 ms at a time
        with DatFile(path) as d:
            t0 = time.perf_counter()
            job = ThreadJob("index", lambda report: d.read_index(
                lambda f, n: report(round(f * 1000), 1000)))
            waits, last = [], t0
            while not job.step(0.005):
                now = time.perf_counter()
                waits.append(now - last)
                last = now
            t_index = time.perf_counter() - t0
        longest = max(waits, default=0.0) * 1000
        print(f"index in a worker  {t_index:>12.3f} s  (the frame loop waited at most "
              f"{longest:.1f} ms at a time, {len(waits)} waits)")

        rng = random.Random(0)
        keys = list(recs)
        probe = [rng.choice(keys) for _ in range(args.lookups)]
        with DatFile(path) as d:
            t0 = time.perf_counter()
            for k in probe[:5000]:
                d.entry(k)
            t_cold = time.perf_counter() - t0
            print(f"lookups (cold)     {5000 / t_cold:>12,.0f} /s  (first 5,000, nodes read "
                  f"on demand)")
            t0 = time.perf_counter()
            for k in probe:
                d.entry(k)
            t_warm = time.perf_counter() - t0
            print(f"lookups (warm)     {len(probe) / t_warm:>12,.0f} /s  (node cache filled)")
            t0 = time.perf_counter()
            for k in probe[:20000]:
                d.read(k)
            t_read = time.perf_counter() - t0
            print(f"lookup + read      {20000 / t_read:>12,.0f} /s")

        # laziness: a 1 GiB (sparse) file opens and answers a lookup without reading it all
        with open(path, "r+b") as fh:
            fh.truncate(1 << 30)
        t0 = time.perf_counter()
        with DatFile(path) as d:
            d.read(probe[0])
            nodes = len(d._nodes)
        t_big = time.perf_counter() - t0
        print(f"1 GiB open + 1 read{t_big * 1000:>11.2f} ms  ({nodes} B-tree nodes read)")

        print("decode rate per record type:")
        for did in sorted(encoded):
            data = encoded[did]
            cls = R.record_class(did)
            reps = max(20, min(20000, 2_000_000 // max(len(data), 1)))
            t0 = time.perf_counter()
            for _ in range(reps):
                R.decode(did, data)
            dt = time.perf_counter() - t0
            print(f"  {cls.__name__:<22} {len(data):>7} B  {reps / dt:>10,.0f} rec/s  "
                  f"{reps * len(data) / dt / 1e6:>8.1f} MB/s   (sample 0x{did:08X})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
