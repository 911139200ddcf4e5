"""The synthetic projectile scenario (issue 11): each projectile kind launched at a wall and a
target; its trace (``vfxviewer trace``) and its render (``vfxviewer render``)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from viewer.cli import main

ROOT = Path(__file__).resolve().parents[3]
DAT = ROOT / "assets_synthetic" / "synthetic_portal.dat"
SCENARIO = ROOT / "assets_synthetic" / "projectiles.scenario.json"


def trace(capsys, *extra):
    assert main(["trace", str(DAT), "--scenario", str(SCENARIO), *extra]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.fixture(scope="module")
def events():
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["trace", str(DAT), "--scenario", str(SCENARIO), "--poses"]) == 0
    return [json.loads(line) for line in buf.getvalue().splitlines()]


def of(events, kind, **match):
    return [e for e in events if e["event"] == kind
            and all(e.get(k) == v for k, v in match.items())]


def test_scenario_launches_each_projectile_kind():
    sc = json.loads(SCENARIO.read_text())
    setups = {e["create"]["setup"] for e in sc["events"] if "create" in e}
    assert setups == {"0x02000101", "0x02000102"}   # the arrow and the bolt


def test_each_projectile_hits_its_wall_or_target_first(events):
    first = {}
    for e in of(events, "impact"):
        first.setdefault(e["owner"], e)
    assert {o: e["other"] for o, e in first.items()} == {
        1: "world:1", 2: "world:1", 3: "world:2", 4: "world:3"}
    assert first[1]["normal"] == [-1.0, 0.0, 0.0]
    assert first[4]["normal"] == [-1.0, 0.0, 0.0]


def test_impact_point_lies_on_the_struck_surface(events):
    first = {}
    for e in of(events, "impact"):
        first.setdefault(e["owner"], e)
    assert first[2]["point"][0] < 8.0                       # wall face x = 8
    p = first[3]["point"]                                    # target sphere r 0.5 at (8,4,1.2)
    assert math.dist(p, (8.0, 4.0, 1.2)) == pytest.approx(0.5, abs=0.12)


def test_server_answers_each_impact_then_deletes(events):
    for owner in (1, 2, 3, 4):
        imp = of(events, "impact", owner=owner)[0]
        ans = of(events, "projectile", action="server_impact", owner=owner)
        assert len(ans) == 1 and ans[0]["t"] == pytest.approx(imp["t"] + 0.1, abs=1e-9)
        gone = of(events, "object", action="destroyed", owner=owner)
        assert gone and gone[0]["t"] == pytest.approx(ans[0]["t"] + 1.5, abs=1e-9)


def test_bolt_table_resolves_launch_and_explode_at_the_chosen_intensity(events):
    launch = of(events, "resolve", owner=2, type=4)
    assert launch and launch[0]["intensity"] == 0.5 and launch[0]["script"] == "0x33000102"
    explode = of(events, "resolve", owner=2, type=5)
    assert explode and explode[0]["intensity"] == 0.5


def test_arrow_table_has_no_launch_entry(events):
    assert of(events, "resolve", owner=1, type=4)[0]["script"] is None


def test_poses_follow_the_flight_and_align_with_it(events):
    poses = [e for e in of(events, "pose", owner=2, part=-1) if 0.45 < e["t"] < 0.9]
    assert len(poses) >= 10
    xs = [p["origin"][0] for p in poses]
    assert all(b > a for a, b in itertools.pairwise(xs))
    w, x, y, z = poses[-1]["orientation"]       # heading 90: local +Y along +X
    fwd = (2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x))
    assert fwd == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)


def test_trace_is_deterministic(capsys):
    assert trace(capsys) == trace(capsys)


def test_render_shows_the_bolt_trail_mid_flight(gl_ctx, tmp_path):
    from PIL import Image
    shots = {}
    for name, seconds in (("before", 0.3), ("flight", 0.9)):
        out = tmp_path / f"{name}.png"
        assert main(["render", str(DAT), "--scenario", str(SCENARIO), "--out", str(out),
                     "--size", "96x64", "--seconds", str(seconds), "--camera", "4,-8,4",
                     "--target", "4,3,1"]) == 0
        shots[name] = np.asarray(Image.open(out).convert("RGB"), dtype=np.int16)
    # the trail is orange-bright: red clearly above blue
    def warm(a):
        return int(((a[..., 0] - a[..., 2]) > 60).sum())

    assert warm(shots["flight"]) > warm(shots["before"]) + 3
