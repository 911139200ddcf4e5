"""Contract section 5: ``vfxviewer trace`` prints JSON Lines, one event per line, in the order
things happened; every line has ``t`` and ``event``; each event kind carries its fields.
Driven with --scenario (the committed scenarios) and with --setup/--table/--script/--play."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from viewer import synthetic as S
from viewer.dat import records as R
from viewer.dat.container import DatFile

from .conftest import (
    DID_RE,
    ROOT,
    SYN,
    assert_input_failure,
    assert_no_raw_nonfinite,
    assert_usage_error,
    run_process,
)

SCENARIOS = {name: ROOT / "assets_synthetic" / f"{name}.scenario.json"
             for name in ("default", "gallery", "projectiles")}
HOOK_NAMES = {m.name for m in R.AnimationHookType}
EMITTER_ACTIONS = {"created", "replaced", "blocked", "stopped", "destroyed", "finished"}


def _trace(cli, *argv) -> list[dict]:
    r = cli("trace", *argv)
    assert r.rc == 0, r
    assert_no_raw_nonfinite(r.out)
    return [json.loads(ln) for ln in r.lines]


@pytest.fixture(scope="module")
def scenario_traces():
    """Each committed scenario traced once (with --poses and --particles) as a process."""
    out = {}
    for name, path in SCENARIOS.items():
        r = run_process("trace", "--scenario", path, "--poses", "--particles")
        assert r.rc == 0, r
        out[name] = [json.loads(ln) for ln in r.lines]
    return out


def _num(v) -> bool:
    return (type(v) in (int, float)) or v in ("nan", "inf", "-inf")


def _vec(v, n) -> bool:
    return isinstance(v, list) and len(v) == n and all(_num(c) for c in v)


def _did(v) -> bool:
    return isinstance(v, str) and bool(DID_RE.match(v))


def check_line(ev: dict) -> None:
    """One trace line against the table of section 5 (extra fields are welcome)."""
    assert _num(ev["t"]) and isinstance(ev["event"], str)
    kind = ev["event"]
    if kind == "script":
        assert ev["action"] in ("queued", "started", "finished")
        assert type(ev["owner"]) is int and _did(ev["script"])
    elif kind == "resolve":
        assert type(ev["owner"]) is int and _did(ev["table"])
        assert type(ev["type"]) is int and _num(ev["intensity"])
        assert ev["script"] is None or _did(ev["script"])
    elif kind == "hook":
        assert ev["type"] in HOOK_NAMES and type(ev["owner"]) is int
        if ev["source"] is None:  # additions: a hook the runtime makes itself
            assert ev["type"] == "AnimationDone" and ev["index"] == -1
        else:
            assert _did(ev["source"])
            assert type(ev["index"]) is int and ev["index"] >= 0
    elif kind == "emitter":
        assert ev["action"] in EMITTER_ACTIONS
        assert type(ev["owner"]) is int and type(ev["logical_id"]) is int
        assert _did(ev["info"]) and type(ev["part"]) is int and type(ev["handle"]) is int
    elif kind == "state":
        assert type(ev["owner"]) is int and type(ev["hidden"]) is bool
        assert isinstance(ev["state"], str) and int(ev["state"], 16) >= 0
        assert ev["state"].startswith("0x")
    elif kind == "tick":
        assert type(ev["particles"]) is int and type(ev["emitters"]) is int
    elif kind == "pose":
        assert type(ev["owner"]) is int and type(ev["part"]) is int and ev["part"] >= -1
        assert _vec(ev["origin"], 3) and _vec(ev["orientation"], 4)
        assert math.isclose(sum(c * c for c in ev["orientation"]), 1.0, abs_tol=1e-4)
    elif kind == "impact":
        assert type(ev["owner"]) is int
        other = ev["other"]
        assert type(other) is int or (isinstance(other, str) and other.startswith("world:")
                                      and other[6:].isdigit())
        assert _vec(ev["point"], 3) and _vec(ev["normal"], 3)
    elif kind == "particles":
        assert type(ev["handle"]) is int
        n = len(ev["positions"])
        assert all(_vec(p, 3) for p in ev["positions"])
        assert len(ev["scales"]) == n and len(ev["trans"]) == n
        assert all(_num(x) for x in ev["scales"] + ev["trans"])


# --- every line, every scenario -------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_line_has_t_and_event_and_its_fields(scenario_traces, name):
    for ev in scenario_traces[name]:
        check_line(ev)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_lines_are_in_the_order_things_happened(scenario_traces, name):
    ts = [ev["t"] for ev in scenario_traces[name]]
    assert ts == sorted(ts)


def test_every_event_kind_of_section_5_occurs(scenario_traces):
    kinds = {ev["event"] for evs in scenario_traces.values() for ev in evs}
    assert {"script", "resolve", "hook", "emitter", "state", "tick", "pose", "impact",
            "particles"} <= kinds
    actions = {(ev["event"], ev["action"]) for evs in scenario_traces.values() for ev in evs
               if ev["event"] in ("script", "emitter")}
    assert {("script", a) for a in ("queued", "started", "finished")} <= actions
    assert {("emitter", a) for a in EMITTER_ACTIONS} <= actions


def test_impact_other_names_world_shape_or_object(scenario_traces):
    others = [ev["other"] for evs in scenario_traces.values() for ev in evs
              if ev["event"] == "impact"]
    assert any(isinstance(o, str) for o in others) and any(type(o) is int for o in others)


def test_tick_t_is_the_render_frame_time(scenario_traces):
    """``t`` is the simulation time of the tick: a whole number of frames at the scenario's
    fps (30 in the committed scenarios)."""
    for evs in scenario_traces.values():
        for ev in evs:
            if ev["event"] == "tick":
                frames = Fraction(repr(ev["t"])) * 30
                assert abs(frames - round(frames)) < Fraction(1, 10**6)


def test_emitter_handles_unique_per_instance(scenario_traces):
    for evs in scenario_traces.values():
        created = [ev["handle"] for ev in evs
                   if ev["event"] == "emitter" and ev["action"] == "created"]
        assert len(created) == len(set(created))
        known = set()
        for ev in evs:
            if ev["event"] == "emitter":
                if ev["action"] in ("created", "replaced"):
                    known.add(ev["handle"])
                elif ev["action"] in ("stopped", "destroyed", "finished"):
                    assert ev["handle"] in known, ev


def test_script_lifecycle_queued_then_started_then_finished(scenario_traces):
    for evs in scenario_traces.values():
        seen: dict[tuple, list[str]] = {}
        for ev in evs:
            if ev["event"] == "script":
                seen.setdefault((ev["owner"], ev["script"]), []).append(ev["action"])
        for acts in seen.values():
            assert acts[0] == "queued"
            for i, a in enumerate(acts):
                if a == "started":
                    assert acts[:i].count("queued") > acts[:i].count("started")


def test_hook_index_is_the_position_in_the_runtime_hook_order(scenario_traces):
    """``index`` counts in the runtime order (hooks sorted by start time at unpack,
    PhysicsScript::UnPack 0x005218B0): the hook at that index has that type."""
    dat = DatFile(SYN)
    checked = 0
    for evs in scenario_traces.values():
        for ev in evs:
            if ev["event"] != "hook" or not (ev["source"] or "").startswith("0x33"):
                continue
            did = int(ev["source"], 16)
            script = R.decode(did, dat.read(did))
            assert script.script_data[ev["index"]].hook.hook_type.name == ev["type"]
            checked += 1
    assert checked > 20


def test_particles_lines_one_per_emitter_per_tick(scenario_traces):
    """--particles: after each tick, one line per live emitter; their particles add up to the
    tick's alive count."""
    evs = scenario_traces["gallery"]
    checked = 0
    for i, ev in enumerate(evs):
        if ev["event"] != "tick":
            continue
        group = []
        for nxt in evs[i + 1:]:
            if nxt["event"] in ("pose", "particles") and nxt["t"] == ev["t"]:
                if nxt["event"] == "particles":
                    group.append(nxt)
            else:
                break
        assert len({g["handle"] for g in group}) == len(group)
        assert len(group) == ev["emitters"]
        assert sum(len(g["positions"]) for g in group) == ev["particles"]
        checked += ev["particles"] > 0
    assert checked > 10


def test_poses_one_line_per_object_root_and_part_per_tick(scenario_traces):
    evs = scenario_traces["default"]
    dat = DatFile(SYN)
    objects = json.loads(SCENARIOS["default"].read_text())["objects"]
    want = sum(1 + len(R.decode(int(o["setup"], 16), dat.read(int(o["setup"], 16))).parts)
               for o in objects)
    ticks = [ev["t"] for ev in evs if ev["event"] == "tick"]
    for t in ticks[:5] + ticks[-5:]:
        poses = [ev for ev in evs if ev["event"] == "pose" and ev["t"] == t]
        assert len(poses) == want
        roots = [p for p in poses if p["part"] == -1]
        assert sorted(p["owner"] for p in roots) == sorted(o["id"] for o in objects)


def test_poses_and_particles_only_when_asked(cli):
    evs = _trace(cli, "--scenario", SCENARIOS["gallery"], "--seconds", "0.5")
    assert not {"pose", "particles"} & {ev["event"] for ev in evs}


# --- byte-identical -------------------------------------------------------------------------
def test_same_seed_same_scenario_byte_identical_across_processes(tmp_path):
    argv = ("trace", "--scenario", SCENARIOS["gallery"], "--particles", "--poses",
            "--seconds", "2")
    a = run_process(*argv, env={"PYTHONHASHSEED": "1"})
    b = run_process(*argv, env={"PYTHONHASHSEED": "2"})
    assert a.rc == b.rc == 0
    assert a.out == b.out and a.out


def test_seed_seeds_the_random_draws(cli):
    argv = ("--setup", f"0x{S.SETUP_MARKER:08X}", "--script", f"0x{S.PES_EMITTER_LIMITS:08X}",
            "--particles", "--seconds", "1")
    r0 = cli("trace", SYN, *argv, "--seed", "0")
    r0b = cli("trace", SYN, *argv, "--seed", "0x0")
    r7 = cli("trace", SYN, *argv, "--seed", "7")
    r7h = cli("trace", SYN, *argv, "--seed", "0x7")
    assert r0.rc == r7.rc == 0
    assert r0.out == r0b.out and r7.out == r7h.out
    assert r0.out != r7.out


# --- selection options ----------------------------------------------------------------------
def test_setup_table_play_script_are_events_at_t0_on_object_1(cli):
    evs = _trace(cli, SYN, "--setup", f"0x{S.SETUP_BOLT:08X}", "--table",
                 f"0x{S.PST_FLAME:08X}", "--script", f"0x{S.PES_COLLISION_FLASH:08X}",
                 "--play", "Launch:0.5", "--seconds", "0.5")
    resolves = [ev for ev in evs if ev["event"] == "resolve"]
    assert resolves[0] == {**resolves[0], "t": 0.0, "owner": 1, "table": f"0x{S.PST_FLAME:08X}",
                           "type": 4, "intensity": 0.5,
                           "script": f"0x{S.PES_LAUNCH_TRAIL:08X}"}
    queued = [ev["script"] for ev in evs if ev["event"] == "script"
              and ev["action"] == "queued" and ev["t"] == 0.0 and ev["owner"] == 1]
    assert f"0x{S.PES_COLLISION_FLASH:08X}" in queued
    assert f"0x{S.PES_LAUNCH_TRAIL:08X}" in queued


def test_script_and_play_are_repeatable_in_command_line_order(cli):
    a, b = f"0x{S.PES_CHAIN_LINK_A:08X}", f"0x{S.PES_CHAIN_LINK_B:08X}"
    evs = _trace(cli, SYN, "--setup", f"0x{S.SETUP_MARKER:08X}", "--table",
                 f"0x{S.PST_FLAME:08X}", "--script", a, "--script", b, "--play",
                 "Explode:0", "--play", "4:1", "--seconds", "0.1")
    queued = [ev["script"] for ev in evs if ev["event"] == "script" and ev["action"] == "queued"]
    assert queued[:2] == [a, b]
    res = [(ev["type"], ev["intensity"], ev["script"]) for ev in evs if ev["event"] == "resolve"]
    assert res == [(5, 0.0, f"0x{S.PES_EXPLODE_SMALL:08X}"),
                   (4, 1.0, f"0x{S.PES_LAUNCH_LARGE:08X}")]


@pytest.mark.parametrize("intensity,want", [("nan", "nan"), ("inf", "inf"), ("-inf", "-inf")])
def test_play_nonfinite_intensity_written_as_string(cli, intensity, want):
    evs = _trace(cli, SYN, "--setup", f"0x{S.SETUP_MARKER:08X}", "--table",
                 f"0x{S.PST_FLAME:08X}", "--play", f"Launch:{intensity}", "--seconds", "0")
    res = [ev for ev in evs if ev["event"] == "resolve"]
    assert res[0]["intensity"] == want
    assert res[0]["script"] == (f"0x{S.PES_LAUNCH_SMALL:08X}" if want == "-inf" else None)


def test_script_on_the_command_line_adds_to_a_scenario(cli, tmp_path):
    sc = tmp_path / "s.json"
    sc.write_text(json.dumps({"dat": [str(SYN)], "seconds": 0.1,
                              "objects": [{"id": 1, "setup": f"0x{S.SETUP_MARKER:08X}"}]}))
    evs = _trace(cli, "--scenario", sc, "--script", f"0x{S.PES_EMITTER_GALLERY:08X}")
    assert any(ev["event"] == "script" and ev["owner"] == 1 and ev["t"] == 0.0
               and ev["script"] == f"0x{S.PES_EMITTER_GALLERY:08X}" for ev in evs)


def test_seconds_and_fps_set_the_run(cli):
    evs = _trace(cli, SYN, "--setup", f"0x{S.SETUP_MARKER:08X}", "--seconds", "1",
                 "--fps", "144")
    ticks = [ev["t"] for ev in evs if ev["event"] == "tick"]
    assert ticks and ticks[-1] <= 1.0 + 1e-9 and ticks[-1] > 1.0 - 1 / 30 - 1e-9
    for t in ticks:
        frames = Fraction(repr(t)) * 144
        assert abs(frames - round(frames)) < Fraction(1, 10**6)


def test_60_and_144_fps_differ_as_retail_quantum_rules_make_them(cli):
    """CPhysics::UseTime 0x00509950 updates objects only once MIN_QUANTUM (1/30 s) has
    passed: ticks are about 30 Hz at either frame rate, at different frame times."""
    base = (SYN, "--setup", f"0x{S.SETUP_MARKER:08X}", "--seconds", "1")
    t60 = [ev["t"] for ev in _trace(cli, *base, "--fps", "60") if ev["event"] == "tick"]
    t144 = [ev["t"] for ev in _trace(cli, *base, "--fps", "144") if ev["event"] == "tick"]
    assert 25 <= len(t60) <= 31 and 25 <= len(t144) <= 31
    assert t60 != t144


@pytest.mark.parametrize("spelling", ["0x02000106", str(0x02000106), "0X02000106"])
def test_setup_DID_decimal_or_hex(cli, spelling):
    evs = _trace(cli, SYN, "--setup", spelling, "--seconds", "0")
    assert evs[0]["t"] == 0.0


# --- failures -------------------------------------------------------------------------------
def test_unknown_setup_DID_names_the_DAT_and_DID(cli):
    assert_input_failure(cli("trace", SYN, "--setup", "0x02009999"),
                         "synthetic_portal.dat", "0x02009999")


def test_unknown_script_DID_names_the_DID(cli):
    r = cli("trace", SYN, "--setup", f"0x{S.SETUP_MARKER:08X}", "--script", "0x33009999")
    assert_input_failure(r, "synthetic_portal.dat", "0x33009999")


def test_missing_DAT_names_the_file(cli, tmp_path):
    assert_input_failure(cli("trace", tmp_path / "gone.dat", "--setup", "0x02000106"),
                         "gone.dat")


@pytest.mark.parametrize("argv", [
    [],                                                 # neither --scenario nor --setup
    ["--setup", "0x02000106", "--scenario", "x.json"],  # both
    ["--setup", "zz"],
    ["--setup", "0x02000106", "--play", "Launch"],      # no :INTENSITY
    ["--setup", "0x02000106", "--play", "Launch:abc"],
    ["--setup", "0x02000106", "--play", "Bogus:1"],     # unknown PlayScript name
    ["--setup", "0x02000106", "--seconds", "nan"],
    ["--setup", "0x02000106", "--seconds", "inf"],
    ["--setup", "0x02000106", "--seconds", "-1"],
    ["--setup", "0x02000106", "--fps", "0"],
    ["--setup", "0x02000106", "--fps", "inf"],
    ["--setup", "0x02000106", "--fps", "nan"],
    ["--setup", "0x02000106", "--seed", "abc"],
])
def test_bad_options_are_usage_errors(cli, argv):
    assert_usage_error(cli("trace", SYN, *argv))


def test_setup_without_any_DAT_is_usage_error(cli):
    assert_usage_error(cli("trace", "--setup", "0x02000106"))


def test_table_with_scenario_is_usage_error(cli):
    assert_usage_error(cli("trace", "--scenario", SCENARIOS["default"], "--table",
                           f"0x{S.PST_FLAME:08X}"))


@pytest.fixture(scope="module")
def damaged_dats(tmp_path_factory):
    """The synthetic DAT rewritten with one record cut short (PhysicsScript, Setup,
    PhysicsScriptTable)."""
    from viewer.dat.writer import write_dat
    dat = DatFile(SYN)
    recs = {e.did: dat.read(e.did) for e in dat.entries()}
    out = {}
    root = tmp_path_factory.mktemp("damaged")
    for name, did, cut in (("script", S.PES_COLLISION_FLASH, 30), ("setup", S.SETUP_MARKER, 40),
                           ("table", S.PST_FLAME, 13)):
        path = root / f"cut_{name}.dat"
        write_dat(path, {**recs, did: recs[did][:cut]})
        out[name] = (path, did)
    return out


_DAMAGED_ARGS = {
    "script": ["--setup", f"0x{S.SETUP_MARKER:08X}", "--script",
               f"0x{S.PES_COLLISION_FLASH:08X}"],
    "setup": ["--setup", f"0x{S.SETUP_MARKER:08X}"],
    "table": ["--setup", f"0x{S.SETUP_MARKER:08X}", "--table", f"0x{S.PST_FLAME:08X}",
              "--play", "Launch:0.5"],
}


@pytest.mark.parametrize("name", sorted(_DAMAGED_ARGS))
def test_truncated_record_is_input_failure_naming_file_and_DID(cli, damaged_dats, name):
    path, did = damaged_dats[name]
    r = cli("trace", path, *_DAMAGED_ARGS[name], "--seconds", "0.2")
    assert_input_failure(r, path.name, f"0x{did:08X}")


@pytest.mark.parametrize("name", sorted(_DAMAGED_ARGS))
def test_truncated_record_names_the_byte_offset(cli, damaged_dats, name):
    path, did = damaged_dats[name]
    r = cli("trace", path, *_DAMAGED_ARGS[name], "--seconds", "0.2")
    assert_input_failure(r, path.name, f"0x{did:08X}", "offset")


def test_particle_positions_are_world_metres(cli, tmp_path):
    """--particles positions are world metres: around an object standing at (100, 200, 0).
    (The scenario's extra "viewer" stands the viewer nearby, past retail's distance cull.)"""
    sc = tmp_path / "far.json"
    sc.write_text(json.dumps({
        "dat": [str(SYN)], "seconds": 1.0, "viewer": [100, 195, 1],
        "objects": [{"id": 1, "setup": f"0x{S.SETUP_MARKER:08X}", "position": [100, 200, 0],
                     "state": "0x00000000"}],
        "events": [{"t": 0, "object": 1, "play_script": f"0x{S.PES_EMITTER_GALLERY:08X}"}]}))
    pts = [p for ev in _trace(cli, "--scenario", sc, "--particles")
           if ev["event"] == "particles" for p in ev["positions"]]
    assert len(pts) > 100
    assert all(90 < x < 110 and 190 < y < 210 for x, y, _ in pts)
