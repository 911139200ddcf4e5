"""Messages decoded per second on the larger real capture (prints figures; no assertions).

Usage: .venv/bin/python bench/replay.py [CAPTURE] [--repeat N]
Default capture: tests/data/captures/effects-burst.pcap (MIT, (c) 2025 Bryce Mecum).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viewer.wire.pipeline import ReplayStats, iter_messages
from viewer.wire.replay import message_json
from viewer.wire.smartbox import SmartBox


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("capture", nargs="?",
                    default=str(ROOT / "tests" / "data" / "captures" / "effects-burst.pcap"))
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()

    best = None
    for _ in range(args.repeat):
        stats = ReplayStats()
        t0 = time.perf_counter()
        items = list(iter_messages(args.capture, stats))
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    decoded = sum(1 for i in items if i.message is not None)
    packets = stats.transport.packets
    print(f"capture            {args.capture}")
    print(f"packets            {packets}")
    print(f"messages           {len(items)} ({decoded} decoded, "
          f"{sum(stats.errors.values())} errors)")
    print(f"pipeline best      {best * 1e3:.2f} ms over {args.repeat} runs")
    print(f"messages/s         {len(items) / best:,.0f}")
    print(f"decoded msgs/s     {decoded / best:,.0f}")
    print(f"packets/s          {packets / best:,.0f}")

    t0 = time.perf_counter()
    for _ in range(args.repeat):
        box = SmartBox(require_player=False)
        for i in items:
            if i.message is not None:
                box.dispatch(i.t, i.message)
    dt = (time.perf_counter() - t0) / args.repeat
    print(f"SmartBox msgs/s    {decoded / dt:,.0f}")

    t0 = time.perf_counter()
    for i in items:
        message_json(i)
    dt = time.perf_counter() - t0
    print(f"JSON msgs/s        {len(items) / dt:,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
