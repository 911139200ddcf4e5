"""Synthetic asset library figures (issue 4).

Prints how long the generator takes (drawing textures, building records, encoding, laying
out the DAT), the size of the generated file, the record count per type, and how fast the
committed ``synthetic_portal.dat`` opens and decodes end to end.
Run: ``.venv/bin/python bench/synthetic_assets.py``.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer import synthetic as S
from viewer.dat.container import DatFile
from viewer.dat.records import decode
from viewer.synthetic import generate as G
from viewer.synthetic import textures as T


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def main() -> int:
    _, t_tex = timed(lambda: [T.encode(s, f) for s, f in S.texture_combinations()])
    lib, t_lib = timed(G.build_library)
    recs, t_enc = timed(G.build_records, lib)
    data, t_dat = timed(G.build_dat_bytes, lib)
    print(f"textures drawn + encoded : {len(S.texture_combinations())} in {t_tex * 1e3:.0f} ms")
    print(f"library built            : {len(lib.assets)} records in {t_lib * 1e3:.0f} ms")
    print(f"records encoded          : {sum(map(len, recs.values()))} bytes in "
          f"{t_enc * 1e3:.0f} ms")
    print(f"DAT laid out (total)     : {len(data)} bytes in {t_dat * 1e3:.0f} ms")
    counts = Counter(a.type_name for a in lib.assets)
    print("records per type         : " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))

    t0 = time.perf_counter()
    with DatFile(S.SYNTHETIC_DAT) as f:
        n = 0
        for did in f.dids():
            decode(did, f.read(did))
            n += 1
    dt = time.perf_counter() - t0
    print(f"open + decode every record: {n} records in {dt * 1e3:.0f} ms "
          f"({n / dt:,.0f} records/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
