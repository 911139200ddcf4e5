"""``dat verify`` throughput (issue 17): records/s and MB/s.

1. The synthetic library (``assets_synthetic/synthetic_portal.dat``).
2. A generated 100,000-record DAT written by our writer: the synthetic library's records
   repeated under fresh DIDs (each type keeps its top byte), block size 1024 as in
   client_portal.dat.

Also prints the process's peak resident memory after each run (the big DAT is written by a
child process, so the figure is the verifier's own), to show it does not grow with the
record count. Run: ``.venv/bin/python bench/dat_verify.py [--records N]``.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer import synthetic as S
from viewer.dat.container import DatFile
from viewer.dat.verify import verify
from viewer.dat.writer import write_dat


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _anon_mib() -> float:
    """Anonymous resident memory (the heap; unlike peak RSS it excludes the mmap'd DAT)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _run(label: str, path: Path) -> None:
    t0 = time.perf_counter()
    report = verify([path])
    dt = time.perf_counter() - t0
    assert report.ok, report.failures[:3]
    print(f"{label:<28} {report.records:>9,} records {report.bytes / 1e6:>9.1f} MB "
          f"{dt:>7.2f} s  {report.records / dt:>9,.0f} records/s  "
          f"{report.bytes / 1e6 / dt:>6.1f} MB/s  peak RSS {_peak_mib():,.0f} MiB "
          f"(mmap'd file included), heap {_anon_mib():,.0f} MiB")


def _write(path: Path, n: int) -> None:
    with DatFile(S.SYNTHETIC_DAT) as dat:
        lib = [(e.did, dat.read_entry(e)) for e in dat.entries() if e.did >> 24 != 0xFF]
    recs: dict[int, bytes] = {}
    for i in range(n):
        did, data = lib[i % len(lib)]
        recs[(did & 0xFF000000) | (0x00100000 + i)] = data
    write_dat(path, recs, block_size=1024)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--write", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.write is not None:              # child: build the big DAT and exit
        _write(args.write, args.records)
        return 0

    _run("synthetic library", S.SYNTHETIC_DAT)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_portal.dat"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--records", str(args.records),
                        "--write", str(path)], check=True)
        print(f"generated {args.records:,}-record DAT: {path.stat().st_size / 1e6:.1f} MB "
              f"file, written in {time.perf_counter() - t0:.1f} s")
        _run(f"generated {args.records:,}", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
