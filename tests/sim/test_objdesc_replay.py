"""A replay of the MIT capture (tests/data/captures/effects-burst.pcap) applies its
ObjDescEvents (0xF625) at their capture times (SmartBox::UpdateVisualDesc 0x00451F40 ->
CPhysicsObj::DoObjDescChangesFromDefault 0x0050F9B0): the player's parts take the GfxObjs
the events name, and an emitter a hook attached to a replaced part stays on that part.

The capture begins mid-session (no CreateObject), so the player rides a stand-in body: a
small in-memory Setup of 34 parts whose GfxObjs, like every GfxObj the capture's ObjDescs
name, are tiny synthetic meshes at those DIDs (no retail bytes)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import sim_builders as B

from viewer.dat import samples
from viewer.sim import inspect
from viewer.sim.objdesc import ObjDesc, parse_objdesc
from viewer.sim.scenario import Scenario, ScenarioRunner, _Fields
from viewer.wire.replay import capture_scenario

CAPTURE = Path(__file__).resolve().parents[1] / "data" / "captures" / "effects-burst.pcap"
PLAYER = 0x50002B16
SETUP, SCRIPT, INFO = 0x02000F01, 0x33000F01, 0x32000F01
PART = 16


def _gfx(did):
    return dataclasses.replace(samples.sample_gfxobj(did), surfaces=(), did_degrade=None)


def _scene():
    sc = capture_scenario(CAPTURE, PLAYER, stand_in=(SETUP, None))
    descs = [e for e in sc["events"] if "objdesc" in e]
    assert len(descs) == 60  # every ObjDescEvent of the capture reaches the scenario
    first, second = descs[0], descs[1]
    sc["events"] = [e for e in sc["events"] if "create" in e] + [first, second]
    sc.update(fps=10, seconds=round(second["t"] + 0.2, 3))
    db = B.MemoryDB({B.GFX: _gfx(B.GFX)})
    for e in descs:
        for p in e["objdesc"].get("parts", []):
            did = int(p["gfxobj"], 16)
            db.add(did, _gfx(did))
    info = B.emitter_info(INFO, lifespan=100.0, birthrate=0.5, max_particles=5)
    db.add(INFO, info)
    db.add(SCRIPT, B.script(SCRIPT, (0.0, B.create(INFO, part=PART, logical=7,
                                                     offset=(0.0, 0.0, 0.5)))))
    db.add(SETUP, B.setup(SETUP, parts=34, default_script=SCRIPT))
    return sc, db, first, second


def _final_gfxobj(event, part):
    desc: ObjDesc = parse_objdesc(_Fields(None), event["objdesc"], "objdesc")
    return [c.gfxobj for c in desc.anim_part_changes if c.part_index == part][-1]


def test_replayed_ObjDescEvents_swap_a_part_at_the_event_time_and_its_emitter_follows():
    sc, db, first, second = _scene()
    runner = ScenarioRunner(Scenario.from_json(sc), db)
    w = runner.world
    w.events = []
    want_first, want_second = _final_gfxobj(first, PART), _final_gfxobj(second, PART)
    seen = []
    for t, _ in runner.frames():
        obj = w.objects[PLAYER]
        looks = inspect.object_looks(obj, {}, w)
        seen.append((float(t), looks[PART + 1].gfxobj))
        ems = inspect.emitters(obj)
        if float(t) == 0.0 and not ems:
            continue  # the DefaultScript's hook runs at the first script update
        assert [(e["logical_id"], e["part"]) for e in ems] == [(7, PART)]
        # the emitter sits 0.5 m above part 16 whatever GfxObj that part draws
        origin = obj.parts[PART].frame.origin
        assert abs(ems[0]["origin"][2] - (origin[2] + 0.5)) < 1e-5
        assert abs(ems[0]["origin"][0] - origin[0]) < 1e-5
    before = [g for t, g in seen if t < first["t"]]
    between = [g for t, g in seen if first["t"] <= t < second["t"]]
    after = [g for t, g in seen if t >= second["t"]]
    assert before and set(before) == {B.GFX}
    assert between and set(between) == {want_first}
    assert after and set(after) == {want_second}
    assert want_first != B.GFX
