"""A DAT with stored type-4 (AnimationDone) and unknown-type hooks, in an Animation and in a
PhysicsScript, traces as retail does (CAnimHook::UnPackHook 0x005271D0 builds no hook for
them): through ``vfxviewer trace`` on the synthetic library only."""

from __future__ import annotations

import json

from viewer import synthetic as S

from .conftest import SYN


def _trace(cli, *args):
    r = cli("trace", SYN, *args)
    assert r.rc == 0, r
    return r.json_lines()


def _did(d: int) -> str:
    return f"0x{d:08X}"


def test_AnimFrame_UnPack_0x0051F8E0_null_hooks_in_an_Animation_never_run(cli):
    """ANIM_NULL_HOOKS frame 1 stores Sound, AnimationDone, unknown, SoundTable: only the
    Sound (runtime index 0) and the SoundTable (index 1) run, each time frame 1 is
    crossed; frame 2's stored AnimationDone never appears."""
    evs = _trace(cli, "--setup", _did(S.SETUP_NULL_HOOKS), "--seconds", "0.5")
    hooks = [e for e in evs if e["event"] == "hook"]
    assert hooks, "the default animation cycles through frame 1"
    assert {(e["source"], e["index"], e["type"]) for e in hooks} == {
        (_did(S.ANIM_NULL_HOOKS), 0, "Sound"), (_did(S.ANIM_NULL_HOOKS), 1, "SoundTable")}
    assert [e["type"] for e in hooks[:2]] == ["Sound", "SoundTable"]


def test_UpdateScripts_0x0051B480_null_hooks_in_PhysicsScripts_end_them(cli):
    """PES_NULL_ANIMATION_DONE: CreateParticle at 0, stored AnimationDone at 0.3, Sound at
    0.6. PES_NULL_UNKNOWN queued behind it starts at 0 + 0.6 (its precomputed start):
    Sound at +0, unknown type at +0.2, SoundTable at +0.5. Neither the first script's
    Sound nor the second's SoundTable ever plays."""
    a, b = S.PES_NULL_ANIMATION_DONE, S.PES_NULL_UNKNOWN
    evs = _trace(cli, "--setup", _did(S.SETUP_MARKER), "--script", _did(a), "--script",
                 _did(b), "--seconds", "2")
    ticks = [e["t"] for e in evs if e["event"] == "tick"]

    def first_tick_at(t):
        return min(x for x in ticks if x >= t - 1e-9)

    scripts = [(e["action"], e["script"], e["t"]) for e in evs if e["event"] == "script"]
    queued = {e["script"]: e["start"] for e in evs
              if e["event"] == "script" and e["action"] == "queued"}
    assert queued == {_did(a): 0.0, _did(b): 0.6}
    assert ("finished", _did(a), first_tick_at(0.3)) in scripts
    assert ("started", _did(b), first_tick_at(0.6)) in scripts
    assert ("finished", _did(b), first_tick_at(0.8)) in scripts
    hooks = [(e["source"], e["index"], e["type"], e["t"]) for e in evs if e["event"] == "hook"]
    assert hooks == [(_did(a), 0, "CreateParticle", ticks[0]),
                     (_did(b), 0, "Sound", first_tick_at(0.6))]
    assert not [e for e in evs if e["event"] == "sound" and e["type"] != "Sound"]


def test_runtime_AnimationDone_is_a_hook_event_with_source_null(cli, tmp_path):
    """Contract additions: the AnimationDone the runtime makes when a link animation ends
    (CSequence's anim_done_hook, not read from a record) is a ``hook`` with source null."""
    scenario = {"dat": [str(SYN)], "seed": 0, "fps": 60, "seconds": 2.0,
                "objects": [{"id": 1, "setup": _did(S.SETUP_HUMANOID),
                             "table": _did(S.PST_HUMANOID)}],
                "events": [{"t": 0.1, "object": 1, "motion": _did(S.MOTION_WALK_FORWARD)},
                           {"t": 1.0, "object": 1, "motion": _did(S.MOTION_READY)}]}
    path = tmp_path / "walk.json"
    path.write_text(json.dumps(scenario))
    evs = _trace(cli, "--scenario", path)
    done = [e for e in evs if e["event"] == "hook" and e["source"] is None]
    assert done and all(e["type"] == "AnimationDone" and e["index"] == -1 for e in done)
    assert all(e["t"] > 0.1 for e in done)
    # no record hook is ever an AnimationDone: retail builds none from data
    assert not [e for e in evs if e["event"] == "hook" and e["source"] is not None
                and e["type"] == "AnimationDone"]
