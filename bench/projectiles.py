"""Projectile physics throughput: the integrator, the transition sweep, the scenario trace.

Prints figures only (no assertions). Run: .venv/bin/python bench/projectiles.py
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viewer.cli import main
from viewer.sim import collision as co
from viewer.sim import physics as ph
from viewer.sim.frame import Frame
from viewer.synthetic import falling_arrows_scenario

WORLD = co.world_from_scenario([
    {"plane": {"normal": [0, 0, 1], "d": 0}},
    {"box": {"min": [400, -2, 0], "max": [400.02, 2, 3]}},
    {"sphere": {"center": [0, 300, 1], "radius": 0.5}},
    {"cylinder": {"low_point": [0, -300, 0], "radius": 0.4, "height": 2}},
])


def integrator(n: int) -> None:
    b = ph.PhysicsBody(state=ph.GRAVITY_PS, omega=(0.0, 0.0, 1.0))
    ph.calc_acceleration(b)
    ph.set_velocity(b, (10.0, 0.0, 30.0))
    f = Frame()
    t0 = time.perf_counter()
    for _ in range(n):
        f = ph.update_physics_internal(b, 1 / 30, f)
    dt = time.perf_counter() - t0
    print(f"UpdatePhysicsInternal: {n / dt:,.0f} quanta/s ({dt / n * 1e6:.1f} us each)")


def sweep(quantum: float, n: int) -> None:
    """A 50 m/s arrow (sphere 0.1 m) through a four-shape world: ceil(50*q/0.1) sub-steps."""
    t0 = time.perf_counter()
    steps = 0
    for _ in range(n):
        b = ph.PhysicsBody(frame=Frame((0.0, 0.0, 1.0)), spheres=(((0.0, 0.0, 0.0), 0.1),),
                           state=ph.MISSILE | ph.ALIGNPATH)
        ph.set_velocity(b, (50.0, 0.0, 0.0))
        tr = WORLD.transition(b, b.frame, Frame((50.0 * quantum, 0.0, 1.0)))
        steps += tr.steps_taken
    dt = time.perf_counter() - t0
    print(f"transition, quantum {quantum:.3f} s ({steps // n} sub-steps): "
          f"{n / dt:,.0f} sweeps/s ({dt / n * 1e3:.2f} ms each, "
          f"{dt / steps * 1e6:.1f} us per sub-step)")


def scenario() -> None:
    dat = ROOT / "assets_synthetic" / "synthetic_portal.dat"
    sc = ROOT / "assets_synthetic" / "projectiles.scenario.json"
    buf = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(buf):
        main(["trace", str(dat), "--scenario", str(sc), "--poses"])
    dt = time.perf_counter() - t0
    lines = buf.getvalue().count("\n")
    print(f"projectiles.scenario.json trace --poses (3.5 s at 30 fps): {dt:.2f} s, "
          f"{lines} lines")


def falling_arrows(n: int) -> None:
    """Collision cost with many objects (issue 14: the broad phase). Before it, every
    transition built and tested every other object's shapes: 200 arrows took about 21 s
    and 500 about 180 s here."""
    import json
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "arrows.json"
        path.write_text(json.dumps(falling_arrows_scenario(n)))
        buf = io.StringIO()
        t0, c0 = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(buf):
            main(["trace", "--scenario", str(path)])
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    impacts = buf.getvalue().count('"event": "impact"')
    print(f"{n} falling arrows (trace, 1 s at 30 fps): {dt:.2f} s wall, {cpu:.2f} s CPU "
          f"({impacts} impacts)")


if __name__ == "__main__":
    integrator(20000)
    sweep(1 / 30, 300)
    sweep(0.2, 100)
    scenario()
    for count in (200, 500):
        falling_arrows(count)
