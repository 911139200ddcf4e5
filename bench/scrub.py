"""Scrub figure (issue 8): how long the timeline takes to reach any time of a 10 s effect.

Loads the synthetic default scenario stretched to 10 s at 60 fps (5 objects, projectiles,
emitters, an animated figure) -- lazily, as the viewer does (frame 0 and at most
LOAD_FRAMES ahead) -- then explores the rest (event log and snapshots), then seeks to
random times and reports the worst and median seek per snapshot interval. The target is
every seek under 150 ms on this machine.

    .venv/bin/python bench/scrub.py [--seeks N] [--seconds S] [--fps F]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from viewer.sim.scenario import Scenario
from viewer.synthetic import DEFAULT_SCENARIO
from viewer.ui.session import Session, open_database


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeks", type=int, default=60)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--fps", type=float, default=60.0)
    ap.add_argument("--every", type=int, nargs="*", default=[5, 10, 15, 30])
    args = ap.parse_args()
    sc0 = Scenario.load(DEFAULT_SCENARIO)
    db = open_database([str(p) for p in sc0.dat_paths()])
    print(f"scenario {DEFAULT_SCENARIO.name}: {len(sc0.objects)} objects, "
          f"{args.seconds:g} s at {args.fps:g} fps ({int(args.seconds * args.fps)} frames)")
    for every in args.every:
        sc = Scenario.load(DEFAULT_SCENARIO)
        sc.seconds, sc.fps = args.seconds, args.fps
        t0 = time.perf_counter()
        s = Session(db, sc, snapshot_every=every)
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        s.playback.explore(10**9)
        first = time.perf_counter() - t0
        rng = random.Random(1)
        times = []
        for _ in range(args.seeks):
            target = rng.uniform(0.0, args.seconds)
            t0 = time.perf_counter()
            s.playback.seek(target)
            times.append(time.perf_counter() - t0)
        # stepping back one frame from the end: the common "step back" case
        s.playback.seek(args.seconds)
        t0 = time.perf_counter()
        s.playback.step(-1)
        back = time.perf_counter() - t0
        print(f"snapshot every {every:3d} frames: load {load * 1000:7.1f} ms, rest of the "
              f"first pass {first * 1000:7.1f} ms, "
              f"{len(s.playback.snapshot_frames):3d} snapshots, seek worst "
              f"{max(times) * 1000:6.1f} ms, median {statistics.median(times) * 1000:6.1f} ms, "
              f"step back {back * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
