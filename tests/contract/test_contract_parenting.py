"""Contract section 5 additions: scenario objects may carry ``parent`` and ``parent_part``
(attached as set_parent does); a missing, later or cyclic parent is an error naming the
field. Driven through ``vfxviewer trace`` only."""

from __future__ import annotations

import json

import pytest

from viewer import synthetic as S

from .conftest import SYN, assert_input_failure


def _write(tmp_path, objects, name="p.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"dat": [str(SYN)], "seed": 0, "fps": 30, "seconds": 0.5,
                                "objects": objects, "events": []}))
    return path


def _o(i, setup=S.SETUP_ATTACH_POINTS, **kw):
    return {"id": i, "setup": f"0x{setup:08X}", "table": f"0x{S.PST_FLAME:08X}", **kw}


def test_a_child_follows_its_parents_part_pose(cli, tmp_path):
    """Object 2 on object 1's part 1 and object 3 on object 2's root: every tick their root
    poses are the parent's part pose (and object 2's root)."""
    path = _write(tmp_path, [_o(1, position=[1, 2, 0], heading_deg=30),
                             _o(2, S.SETUP_MARKER, parent=1, parent_part=1),
                             _o(3, S.SETUP_MARKER, parent=2)])
    r = cli("trace", SYN, "--scenario", path, "--poses")
    assert r.rc == 0, r
    poses = {}
    for ev in r.json_lines():
        if ev["event"] == "pose":
            poses[(ev["t"], ev["owner"], ev["part"])] = ev
    times = sorted({t for t, _, _ in poses})
    assert len(times) > 5
    for t in times:
        part1 = poses[(t, 1, 1)]
        for owner, want in ((2, part1), (3, poses[(t, 2, -1)])):
            got = poses[(t, owner, -1)]
            assert got["origin"] == pytest.approx(want["origin"], abs=1e-6)
            assert got["orientation"] == pytest.approx(want["orientation"], abs=1e-6)
    assert poses[(times[0], 2, -1)]["origin"] != poses[(times[0], 1, -1)]["origin"]


@pytest.mark.parametrize("objects, field", [
    ([_o(1, parent=1)], "objects[0].parent"),
    ([_o(1, parent=2), _o(2, parent=1)], "objects[0].parent"),
    ([_o(1, parent=3), _o(2, parent=1), _o(3, parent=2)], "objects[0].parent"),
    ([_o(1), _o(2, parent=7)], "objects[1].parent"),
    ([_o(1), _o(2, parent=3), _o(3)], "objects[1].parent"),
    ([_o(1), _o(2, parent=1, parent_part=9)], "objects[1].parent_part"),
], ids=["self", "cycle2", "cycle3", "missing", "later", "no_such_part"])
def test_bad_parents_are_one_line_errors_naming_the_field(cli, tmp_path, objects, field):
    path = _write(tmp_path, objects)
    assert_input_failure(cli("trace", SYN, "--scenario", path), "p.json", field)
