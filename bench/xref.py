"""Cross-reference index (issue 29): build time, peak memory, cache size, cold load and warm
lookup on a generated 100,000-record DAT.

The DAT is written at bench time by our writer (nothing is committed): the synthetic
library's records repeated under fresh DIDs, copy k of a record at
``top byte | (k + 1) << 16 | low 16 bits``, and every library DID inside a copy's bytes
moved to the same copy, so each copy is a library of its own whose Setups, tables,
scripts, emitters, GfxObjs, Surfaces and textures name one another as the library's do.

Each phase runs in a fresh child process, so its peak memory is its own:
1. build: ``build_index`` from the DAT alone, then saving the cache;
2. cold load: a new process loads the cached index (``load_or_build``, the key checked)
   and answers one lookup;
3. warm lookup: in that process, ``uses`` + ``used_by`` of 2,000 DIDs;
and the build once more under tracemalloc for the peak of the Python heap it allocates.

Run: ``.venv/bin/python bench/xref.py [--records N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer import synthetic as S
from viewer.dat.container import DatCollection, DatFile
from viewer.dat.writer import write_dat


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _anon_mib() -> float:
    """Anonymous resident memory now (the heap; excludes the mmap'd DAT's pages)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _copy_did(did: int, k: int) -> int:
    return (did & 0xFF000000) | ((k + 1) << 16) | (did & 0xFFFF)


def _write(path: Path, n: int) -> None:
    with DatFile(S.SYNTHETIC_DAT) as dat:
        lib = [(e.did, dat.read_entry(e)) for e in dat.entries() if e.did >> 24 != 0xFF]
    dids = [d for d, _ in lib]
    assert len({(d >> 24, d & 0xFFFF) for d in dids}) == len(dids), "copies would collide"
    pattern = re.compile(b"|".join(re.escape(struct.pack("<I", d)) for d in dids))
    recs: dict[int, bytes] = {}
    for i in range(n):
        k, (did, data) = divmod(i, len(lib))[0], lib[i % len(lib)]
        recs[_copy_did(did, k)] = pattern.sub(
            lambda m, k=k: struct.pack("<I", _copy_did(struct.unpack("<I", m.group())[0], k)),
            data)
    write_dat(path, recs, block_size=1024)


def _child_build(dat: Path, cache: Path) -> dict:
    from viewer.dat.xref import build_index, cache_key, cache_path
    with DatCollection([dat]) as c:
        key = cache_key(c)
        t0 = time.perf_counter()
        index = build_index(c, key=key)
        built = time.perf_counter() - t0
        path = cache_path(key, cache)
        t0 = time.perf_counter()
        index.save(path)
        saved = time.perf_counter() - t0
    return {"build_s": built, "save_s": saved, "references": index.references,
            "records": len(index.dids), "errors": len(index.errors),
            "cache_bytes": path.stat().st_size, "peak_mib": _peak_mib(),
            "heap_mib": _anon_mib()}


def _child_traced(dat: Path, cache: Path) -> dict:
    """The build again under tracemalloc: the peak of the Python heap it allocates (RSS
    also counts the DAT's mapped pages)."""
    import tracemalloc

    from viewer.dat.xref import build_index
    with DatCollection([dat]) as c:
        tracemalloc.start()
        index = build_index(c)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return {"traced_peak_mib": peak / 2**20, "references": index.references}


def _child_load(dat: Path, cache: Path) -> dict:
    t0 = time.perf_counter()
    from viewer.dat.xref import load_or_build
    imported = time.perf_counter() - t0
    with DatCollection([dat]) as c:
        t0 = time.perf_counter()
        index, cached = load_or_build(c, cache_dir=cache)
        first = index.uses(int(index.dids[0]))
        cold = time.perf_counter() - t0
    assert cached, "the cache was not used"
    dids = random.Random(1).sample(index.dids.tolist(), min(2000, len(index.dids)))
    t0 = time.perf_counter()
    related = sum(len(index.uses(d)) + len(index.used_by(d)) for d in dids)
    warm = (time.perf_counter() - t0) / len(dids)
    return {"import_s": imported, "cold_s": cold, "warm_us": warm * 1e6,
            "lookups": len(dids), "related": related, "first": len(first),
            "peak_mib": _peak_mib(), "heap_mib": _anon_mib()}


def _child(phase: str, dat: Path, cache: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", phase, str(dat), str(cache)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--child", nargs=3, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        phase, dat, cache = args.child
        fn = {"write": None, "build": _child_build, "load": _child_load,
              "traced": _child_traced}[phase]
        if fn is None:
            _write(Path(dat), args.records)
        else:
            print(json.dumps(fn(Path(dat), Path(cache))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        dat, cache = Path(tmp) / "bench_portal.dat", Path(tmp) / "cache"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--records", str(args.records), "--child",
                        "write", str(dat), str(cache)], check=True)
        print(f"generated {args.records:,}-record DAT: {dat.stat().st_size / 1e6:.1f} MB, "
              f"written in {time.perf_counter() - t0:.1f} s")
        b = _child("build", dat, cache)
        print(f"build       {b['build_s']:7.2f} s  {b['records']:,} records held, "
              f"{b['references']:,} references, {b['errors']} errors; peak RSS "
              f"{b['peak_mib']:,.0f} MiB (mmap'd DAT pages included), heap "
              f"{b['heap_mib']:,.0f} MiB at the end")
        t = _child("traced", dat, cache)
        print(f"            peak Python heap while building (tracemalloc) "
              f"{t['traced_peak_mib']:,.1f} MiB")
        print(f"cache       {b['cache_bytes'] / 1e6:7.2f} MB, saved in {b['save_s']:.3f} s")
        ld = _child("load", dat, cache)
        print(f"cold load   {ld['cold_s'] * 1e3:7.1f} ms  (key check + load + first lookup; "
              f"importing the module {ld['import_s'] * 1e3:.0f} ms); peak RSS "
              f"{ld['peak_mib']:,.0f} MiB")
        print(f"warm lookup {ld['warm_us']:7.1f} us  per DID (uses + used by, "
              f"{ld['lookups']:,} DIDs, {ld['related']:,} related records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
