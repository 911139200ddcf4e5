"""Scenario files and ``vfxviewer trace`` / ``resolve`` (contracts/cli.md sections 3-5)."""

import json

import numpy as np
import pytest
import sim_builders as B

from viewer.cli import main
from viewer.dat import records as R
from viewer.dat.records.hooks import NoOpHook, SoundHook
from viewer.dat.writer import build_dat
from viewer.errors import ScenarioError
from viewer.sim.scenario import Scenario, ScenarioRunner

SETUP, TABLE, INFO, INFO2 = 0x02000001, 0x34000001, 0x32000001, 0x32000002
LAUNCH, TRAIL, LATE = 0x33000001, 0x33000002, 0x33000003


def _records():
    return {
        SETUP: B.setup(parts=2, lights=1),
        INFO: B.emitter_info(INFO, particle_type=6, a=(1.0, 0.0, 0.5), b=(0, 0, -1.0),
                             c=(1.0, 1.0, 1.0), birthrate=0.05, max_particles=8,
                             lifespan=0.4, lifespan_rand=0.2, scale_rand=0.3, trans_rand=0.2,
                             max_offset=0.3, min_offset=0.1, initial_particles=3),
        INFO2: B.emitter_info(INFO2, particle_type=4, a=(0, 1.0, 0), c=(0, 0, 2.0),
                              birthrate=0.1, is_parent_local=True),
        LAUNCH: B.script(LAUNCH, (0.0, B.create(INFO, logical=5)),
                         (0.1, B.callpes(TRAIL, 0.3)), (0.5, B.stop(5))),
        TRAIL: B.script(TRAIL, (0.0, B.create(INFO2, part=1, offset=(0, 0, 0.5))),
                        (0.2, SoundHook(0, 0x0A000001))),
        LATE: B.script(LATE, (0.0, NoOpHook(0)), (0.3, NoOpHook(0))),
        TABLE: B.table(TABLE, {4: [(0.5, LAUNCH), (1.0, LATE)], 0x76: [(1.0, LATE)]}),
        B.GFX: B.gfxobj(), 0x0A000001: B.wave(0x0A000001),
    }


@pytest.fixture
def dat(tmp_path):
    path = tmp_path / "test.dat"
    path.write_bytes(build_dat({d: R.encode(r) for d, r in _records().items()}))
    return path


def _scenario(tmp_path, **over):
    sc = {"dat": ["test.dat"], "seed": 7, "fps": 60, "seconds": 1.0,
          "objects": [{"id": 1, "setup": "0x02000001", "table": "0x34000001",
                       "position": [0, 0, 1], "heading_deg": 30, "velocity": [0, 0, 0],
                       "state": "0x00400C08"}],
          "events": [{"t": 0.0, "object": 1, "play_script": "0x33000001"},
                     {"t": 0.25, "object": 1, "play": "Launch", "intensity": 0.7},
                     {"t": 0.5, "object": 1, "set_state": "0x00404C08"},
                     {"t": 0.6, "object": 1, "play": "Launch", "intensity": "nan"}]}
    sc.update(over)
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(sc))
    return path


def _trace(capsys, *argv):
    assert main(["trace", *argv]) == 0
    return capsys.readouterr().out


def test_trace_same_scenario_and_seed_is_byte_identical(dat, tmp_path, capsys):
    sc = _scenario(tmp_path)
    a = _trace(capsys, str(dat), "--scenario", str(sc), "--particles", "--poses")
    b = _trace(capsys, str(dat), "--scenario", str(sc), "--particles", "--poses")
    assert a == b and len(a.splitlines()) > 100
    c = _trace(capsys, str(dat), "--scenario", str(sc), "--particles", "--seed", "8")
    assert c != a


def test_trace_lines_follow_the_contract(dat, tmp_path, capsys):
    out = _trace(capsys, str(dat), "--scenario", str(_scenario(tmp_path)), "--particles",
                 "--poses")
    lines = [json.loads(x) for x in out.splitlines()]
    assert all("t" in e and "event" in e for e in lines)
    kinds = {e["event"] for e in lines}
    assert {"script", "resolve", "hook", "emitter", "state", "tick", "pose",
            "particles"} <= kinds
    hook = next(e for e in lines if e["event"] == "hook")
    assert hook["source"] == "0x33000001" and hook["type"] == "CreateParticle"
    res = [e for e in lines if e["event"] == "resolve"]
    assert res[0]["script"] == "0x33000003" and res[0]["table"] == "0x34000001"
    assert res[-1]["intensity"] == "nan" and res[-1]["script"] is None
    st = next(e for e in lines if e["event"] == "state" and e["hidden"])
    assert st["state"] == "0x00404C10" and st["hidden"] is True
    em = next(e for e in lines if e["event"] == "emitter")
    assert set(em) >= {"action", "owner", "logical_id", "info", "part", "handle"}
    pose = next(e for e in lines if e["event"] == "pose")
    assert pose["part"] == -1 and len(pose["orientation"]) == 4
    times = [e["t"] for e in lines]
    assert times == sorted(times)


def test_trace_command_line_selection_is_object_1_at_t0(dat, capsys):
    out = _trace(capsys, str(dat), "--setup", "0x02000001", "--table", "0x34000001",
                 "--play", "Launch:0.5", "--script", "0x33000003", "--seconds", "0.2")
    lines = [json.loads(x) for x in out.splitlines()]
    queued = [e["script"] for e in lines if e["event"] == "script" and e["action"] == "queued"]
    # command-line effects queue in the order they were typed: --play first here
    assert queued[:2] == ["0x33000001", "0x33000003"]
    assert lines[-1]["t"] == pytest.approx(0.2)


def test_trace_fps_changes_the_run_as_retail_would(dat, tmp_path, capsys):
    sc = str(_scenario(tmp_path))
    ticks60 = [json.loads(x)["t"] for x in _trace(capsys, str(dat), "--scenario", sc).splitlines()
               if '"tick"' in x]
    ticks144 = [json.loads(x)["t"] for x in
                _trace(capsys, str(dat), "--scenario", sc, "--fps", "144").splitlines()
                if '"tick"' in x]
    assert len(ticks60) == 30 and len(ticks144) == 28


def test_trace_unknown_script_did_is_an_input_error(dat, capsys):
    assert main(["trace", str(dat), "--setup", "0x02000001", "--script", "0x33000999"]) == 1
    err = capsys.readouterr().err
    assert "0x33000999" in err and len(err.strip().splitlines()) == 1


def test_resolve_command(dat, capsys):
    for args, expected in ((["Launch", "0.5"], "0x33000001"), (["4", "0.7"], "0x33000003"),
                           (["Launch", "nan"], "none"), (["Launch", "inf"], "none"),
                           (["Launch", "-inf"], "0x33000001"), (["Hidden", "1"], "0x33000003")):
        assert main(["resolve", str(dat), "0x34000001", *args]) == 0
        assert capsys.readouterr().out.strip() == expected


def test_resolve_unknown_table_is_exit_1(dat, capsys):
    assert main(["resolve", str(dat), "0x34000099", "Launch", "1"]) == 1
    assert "0x34000099" in capsys.readouterr().err


def test_scenario_save_load_round_trip(tmp_path):
    sc = Scenario.load(_scenario(tmp_path))
    out = tmp_path / "again.json"
    sc.save(out)
    again = Scenario.load(out)
    assert again.to_json() == sc.to_json()
    assert again.objects[0].table == TABLE and again.events[1].value == 4


@pytest.mark.parametrize("bad, what", [
    ("{not json", "not JSON"),
    ('{"objects": [{"id": 1}]}', "setup"),
    ('{"objects": [{"id": 1, "setup": "zz"}]}', "not a DID"),
    ('{"events": [{"t": 0, "object": 1}]}', "no known action"),
    ('{"fps": 0}', "fps"),
])
def test_scenario_errors_name_the_file(tmp_path, bad, what):
    p = tmp_path / "bad.json"
    p.write_text(bad)
    with pytest.raises(ScenarioError) as err:
        Scenario.load(p)
    assert what in str(err.value) and "bad.json" in str(err.value)


def test_ScenarioRunner_event_on_missing_object_is_an_error():
    db = B.MemoryDB(_records())
    sc = Scenario.from_json({"objects": [], "events": [{"t": 0, "object": 3, "play_script": 1}]})
    with pytest.raises(ScenarioError):
        ScenarioRunner(sc, db).run(0.1)


def test_ScenarioRunner_run_time_and_world():
    db = B.MemoryDB(_records())
    sc = Scenario.from_json({"fps": 30, "seconds": 0.5,
                             "objects": [{"id": 1, "setup": "0x02000001"}]})
    r = ScenarioRunner(sc, db)
    r.run()
    assert r.time == pytest.approx(0.5) and r.frame == 15 and 1 in r.world.objects


def test_snapshot_continues_identically_and_independently():
    db = B.MemoryDB(_records())
    sc = Scenario.from_json({"seed": 3, "fps": 60, "seconds": 1.0,
                             "objects": [{"id": 1, "setup": "0x02000001", "table": "0x34000001"}],
                             "events": [{"t": 0, "object": 1, "play_script": "0x33000001"}]})
    r = ScenarioRunner(sc, db)
    r.world.events = []
    for _ in range(20):
        r.step_frame()
    snap = r.snapshot()
    snap.world.events = []
    r.world.events = []
    for _ in range(30):
        r.step_frame()
        snap.step_frame()
    assert r.world.events == snap.world.events and len(r.world.events) > 10
    a, b = r.world.pool, snap.world.pool
    assert a.live_count == b.live_count > 0
    la, lb = a.evaluate(), b.evaluate()
    assert (la == lb).all() and np.array_equal(a.position[la], b.position[lb])
    assert np.shares_memory(b.birth, b.state) and not np.shares_memory(b.state, a.state)
    assert snap.world.objects[1] is not r.world.objects[1]
    assert snap.world.pool is not r.world.pool
    assert snap.world.db is r.world.db


def test_scenario_viewer_position_drives_the_distance_cull():
    db = B.MemoryDB(_records())
    base = {"seed": 1, "fps": 30, "seconds": 0.3,
            "objects": [{"id": 1, "setup": "0x02000001", "table": "0x34000001"}],
            "events": [{"t": 0, "object": 1, "play_script": "0x33000001"}]}
    near = ScenarioRunner(Scenario.from_json(base), db)
    near.run()
    far = ScenarioRunner(Scenario.from_json({**base, "viewer": [1000, 0, 0]}), db)
    far.run()
    em_near = near.world.objects[1].particle_manager.emitters()[0][1]
    em_far = far.world.objects[1].particle_manager.emitters()[0][1]
    assert not em_near.degraded_out and em_far.degraded_out


def test_trace_without_any_dat_is_bad_usage(capsys):
    assert main(["trace", "--setup", "0x02000001"]) == 2
    assert "no DAT" in capsys.readouterr().err


_DID = r"^0x[0-9A-F]{8}$"
_CONTRACT = {  # contracts/cli.md section 5, field by field
    "script": {"action": {"queued", "started", "finished"}, "owner": int, "script": "did"},
    "resolve": {"owner": int, "table": "did?", "type": int, "intensity": "num",
                "script": "did?"},
    "hook": {"owner": int, "source": "did", "index": int, "type": str},
    "emitter": {"action": {"created", "replaced", "blocked", "stopped", "destroyed",
                           "finished"},
                "owner": int, "logical_id": int, "info": "did", "part": int, "handle": int},
    "state": {"owner": int, "state": "did", "hidden": bool},
    "tick": {"particles": int, "emitters": int},
    "pose": {"owner": int, "part": int, "origin": "vec3", "orientation": "quat"},
    "particles": {"handle": int, "positions": "vec3s", "scales": "nums", "trans": "nums"},
}


def _field_ok(kind, v):
    import re
    if isinstance(kind, set):
        return v in kind
    if kind in (int, str, bool):
        return isinstance(v, kind) and (kind is bool or not isinstance(v, bool))
    if kind == "did":
        return isinstance(v, str) and re.match(_DID, v) is not None
    if kind == "did?":
        return v is None or _field_ok("did", v)
    if kind == "num":
        return v in ("nan", "inf", "-inf") or isinstance(v, (int, float))
    if kind == "nums":
        return isinstance(v, list) and all(isinstance(x, (int, float)) for x in v)
    if kind == "vec3":
        return isinstance(v, list) and len(v) == 3 and _field_ok("nums", v)
    if kind == "quat":
        return (isinstance(v, list) and len(v) == 4
                and abs(sum(c * c for c in v) - 1.0) < 1e-6)
    if kind == "vec3s":
        return isinstance(v, list) and all(_field_ok("vec3", x) for x in v)
    raise AssertionError(kind)


def test_trace_every_line_has_the_contract_fields_and_types(dat, tmp_path, capsys):
    out = _trace(capsys, str(dat), "--scenario", str(_scenario(tmp_path)), "--particles",
                 "--poses")
    seen = set()
    for line in out.splitlines():
        ev = json.loads(line)
        assert isinstance(ev["t"], float) and isinstance(ev["event"], str)
        spec = _CONTRACT.get(ev["event"])
        if spec is None:
            continue  # extra event kinds are welcome
        seen.add(ev["event"])
        for name, kind in spec.items():
            assert name in ev and _field_ok(kind, ev[name]), (name, line)
        if ev["event"] == "particles":
            assert len(ev["positions"]) == len(ev["scales"]) == len(ev["trans"])
    assert seen == set(_CONTRACT)


def test_emitter_creation_failure_is_its_own_event_kind_not_an_emitter_action():
    w = B.world({SETUP: B.setup(), INFO: B.emitter_info(INFO, hw_gfxobj_id=0)})
    o = w.create_object(1, SETUP)
    from viewer.sim.frame import Frame
    assert w.create_particle_emitter(o, INFO, -1, Frame(), 3) == 0
    assert not B.events(w, "emitter")
    assert B.events(w, "emitter_failed")[0]["reason"] == "hw_gfxobj_id is 0"


def test_trace_is_byte_identical_across_processes_and_hash_seeds(dat, tmp_path):
    import os
    import subprocess
    import sys
    sc = str(_scenario(tmp_path, seconds=0.5))
    outs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-m", "viewer", "trace", str(dat), "--scenario", sc,
                            "--particles", "--poses"], capture_output=True, env=env,
                           check=True, timeout=120)
        outs.append(r.stdout)
    assert outs[0] == outs[1] and outs[0].count(b"\n") > 50
