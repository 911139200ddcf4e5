"""The synthetic assets driven through the contract CLI (``vfxviewer trace`` / ``resolve``):
each edge case the manifest lists behaves as the retail rule it was built for."""

from __future__ import annotations

import json

import pytest

from viewer import synthetic as S
from viewer.cli import main

DAT = str(S.SYNTHETIC_DAT)
ANON_FIRST = 0xFFFF0000   # ParticleManager next_emitter_id starts here


def _hex(did: int) -> str:
    return f"0x{did:08X}"


def run_cli(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def trace(capsys, *argv) -> list[dict]:
    out = run_cli(capsys, "trace", DAT, *argv)
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def emitters(events, action=None):
    return [e for e in events if e["event"] == "emitter"
            and (action is None or e["action"] == action)]


def test_CreateBlockingParticleEmitter_0x0051B8A0_blocks_a_live_logical_id(capsys):
    ev = trace(capsys, "--setup", _hex(S.SETUP_MARKER), "--script", _hex(S.PES_BLOCKING),
               "--seconds", "2.6")
    seven = [e["action"] for e in emitters(ev) if e["logical_id"] == 7]
    assert seven == ["created", "blocked", "destroyed", "created", "stopped", "finished"]
    anon = [e for e in emitters(ev, "created") if e["logical_id"] != 7]
    assert [e["logical_id"] for e in anon] == [ANON_FIRST]


@pytest.mark.parametrize("play,intensity,script", [
    ("Launch", "0.3", S.PES_LAUNCH_LARGE),      # stored order: the Mod-1 entry comes first
    ("Launch", "1.5", None),                    # above every threshold
    ("Launch", "-inf", S.PES_LAUNCH_LARGE),
    ("Test1", "nan", None),                     # 0x00521A3B: NaN selects none
    ("Test1", "5", S.PES_DIFFUSE),              # +inf threshold
    ("Test1", "inf", S.PES_DIFFUSE),            # inf <= inf
    ("Test1", "-5", S.PES_LUMINOUS),
    ("Test1", "1.0", S.PES_DIFFUSE),            # duplicate key: the first stored wins
    ("Test2", "0", None),                       # a key with no entries
    ("Explode", "0.5", S.PES_EXPLODE_MEDIUM),
])
def test_GetScript_0x00521A20_walks_PST_UNSORTED_in_stored_order(capsys, play, intensity,
                                                                   script):
    out = run_cli(capsys, "resolve", DAT, _hex(S.PST_UNSORTED), play, intensity).strip()
    assert out == ("none" if script is None else _hex(script))


@pytest.mark.parametrize("table,play,intensity,script", [
    (S.PST_FLAME, "Launch", "0", S.PES_LAUNCH_SMALL),
    (S.PST_FLAME, "Launch", "0.5", S.PES_LAUNCH_TRAIL),
    (S.PST_FLAME, "Launch", "1", S.PES_LAUNCH_LARGE),
    (S.PST_FLAME, "Explode", "0.25", S.PES_EXPLODE_MEDIUM),
    (S.PST_FLAME, "ProjectileCollision", "1", S.PES_COLLISION_FLASH),
    (S.PST_ARROW, "Launch", "1", None),          # the arrow table has no Launch
    (S.PST_HUMANOID, "Hidden", "1", S.PES_HIDDEN),
    (S.PST_HUMANOID, "UnHide", "1", S.PES_UNHIDE),
])
def test_flame_arrow_and_hidden_tables_resolve(capsys, table, play, intensity, script):
    out = run_cli(capsys, "resolve", DAT, _hex(table), play, intensity).strip()
    assert out == ("none" if script is None else _hex(script))


def test_PhysicsScript_UnPack_0x005218B0_sorts_PES_UNSORTED_as_retail_qsort(capsys):
    ev = trace(capsys, "--setup", _hex(S.SETUP_MARKER), "--script", _hex(S.PES_UNSORTED),
               "--seconds", "1.5")
    hooks = [e["type"] for e in ev if e["event"] == "hook"]
    assert hooks == ["CreateParticle", "Diffuse", "Luminous", "CreateParticle", "SoundTable",
                     "SoundTable"]


def test_emitter_limits_and_the_failing_hw_gfxobj(capsys):
    ev = trace(capsys, "--setup", _hex(S.SETUP_MARKER), "--script",
               _hex(S.PES_EMITTER_LIMITS), "--seconds", "4")
    created = {int(e["info"], 16) for e in emitters(ev, "created")}
    assert S.EMIT_NO_HW_GFXOBJ not in created          # SetInfo fails: no emitter
    assert {S.EMIT_TOTAL_PARTICLES, S.EMIT_TOTAL_SECONDS, S.EMIT_INITIAL_BURST,
            S.EMIT_RANDOM_RANGES, S.EMIT_UNKNOWN_EMITTER_TYPE} <= created
    finished = {int(e["info"], 16) for e in emitters(ev, "finished")}
    assert {S.EMIT_TOTAL_PARTICLES, S.EMIT_TOTAL_SECONDS} <= finished


def test_CallPES_0x00511AF0_chain_enqueues_every_link(capsys):
    ev = trace(capsys, "--setup", _hex(S.SETUP_MARKER), "--script", _hex(S.PES_CALLPES_CHAIN),
               "--seconds", "2.5")
    queued = [int(e["script"], 16) for e in ev
              if e["event"] == "script" and e["action"] == "queued"]
    assert queued.count(S.PES_CHAIN_LINK_A) == 1
    assert queued.count(S.PES_CHAIN_LINK_B) == 2          # immediate + after link A's pause


def _scenario(tmp_path, objects, events, seconds=3.0):
    sc = {"dat": [DAT], "seed": 0, "fps": 30, "seconds": seconds, "objects": objects,
          "events": events}
    path = tmp_path / "s.scenario.json"
    path.write_text(json.dumps(sc))
    return str(path)


def test_recall_action_creates_emitter_19_on_the_root(capsys, tmp_path):
    sc = _scenario(tmp_path, [{"id": 1, "setup": _hex(S.SETUP_HUMANOID)}],
                   [{"t": 0.0, "object": 1, "motion": _hex(S.MOTION_RECALL)}], seconds=4.0)
    ev = trace(capsys, "--scenario", sc)
    created = emitters(ev, "created")
    assert [(e["logical_id"], int(e["info"], 16), e["part"]) for e in created] == [
        (S.RECALL_EMITTER_LOGICAL_ID, S.EMIT_RECALL, -1)]
    # frame 16 at 9.96 frames/s is left after ~1.7 s (the hook fires when the frame is left)
    assert 1.4 <= created[0]["t"] <= 2.0
    sounds = [e for e in ev if e["event"] == "hook" and e["type"] in ("SoundTweaked",
                                                                      "SoundTable")]
    assert len(sounds) >= 3 and all(s["t"] >= created[0]["t"] for s in sounds)


def test_set_hidden_resolves_Hidden_and_UnHide_at_intensity_1(capsys, tmp_path):
    hidden = S.DEFAULT_STATE | 0x4000
    # the table is given explicitly: set_description 0x00514F40 replaces the Setup's table
    # with the PhysicsDesc's, even when that is absent
    sc = _scenario(tmp_path, [{"id": 1, "setup": _hex(S.SETUP_HUMANOID),
                               "table": _hex(S.PST_HUMANOID), "state": _hex(S.DEFAULT_STATE)}],
                   [{"t": 0.5, "object": 1, "set_state": _hex(hidden)},
                    {"t": 1.5, "object": 1, "set_state": _hex(S.DEFAULT_STATE)}])
    ev = trace(capsys, "--scenario", sc)
    resolved = [(e["type"], e["script"]) for e in ev if e["event"] == "resolve"]
    assert resolved == [(0x76, _hex(S.PES_HIDDEN)), (0x75, _hex(S.PES_UNHIDE))]


def test_lantern_default_script_starts_its_persistent_flame(capsys):
    ev = trace(capsys, "--setup", _hex(S.SETUP_LANTERN), "--seconds", "1")
    created = emitters(ev, "created")
    assert [(int(e["info"], 16), e["part"]) for e in created] == [(S.EMIT_LANTERN_FLAME, 2)]
    assert not emitters(ev, "finished")


def test_default_scenario_launches_and_explodes_every_bolt(capsys):
    ev = trace(capsys, "--scenario", str(S.DEFAULT_SCENARIO))
    from viewer.synthetic.generate import BOLTS
    bolts = [o for o, _ in BOLTS]
    for oid in bolts:
        infos = [int(e["info"], 16) for e in emitters(ev, "created") if e["owner"] == oid]
        assert S.EMIT_TRAIL_PER_METER in infos and S.EMIT_EXPLODE_SPARKS in infos
    assert any(e["logical_id"] == 19 for e in emitters(ev, "created") if e["owner"] == 1)
    assert max(e["particles"] for e in ev if e["event"] == "tick") <= 400   # light enough
