"""The read-only inspection API (viewer.sim.inspect) over a live run."""

import sim_builders as B

from viewer.dat.records.hooks import TextureVelocityHook
from viewer.sim import inspect

INFO, SCRIPT = 0x32000001, 0x33000001


def test_inspect_reports_owners_queues_emitters_particles_state_and_lights():
    w = B.world({0x02000001: B.setup(parts=2, lights=1),
                 INFO: B.emitter_info(INFO, initial_particles=2, lifespan=5.0),
                 SCRIPT: B.script(SCRIPT, (0.0, B.create(INFO, logical=3)),
                                  (0.0, TextureVelocityHook(0, 0.5, 0.0)),
                                  (2.0, B.stop(3)))})
    o = w.create_object(1, 0x02000001)
    w.play_script(o, SCRIPT)
    B.run_frames(w, 3)
    s = inspect.object_summary(o)
    assert inspect.owners(w) == [1]
    assert s["state"] == "0x00400C08" and "Lighting" in s["bits"]
    assert len(s["parts"]) == 2 and len(s["lights"]) == 1
    q = s["queue"][0]
    assert q["script"] == "0x33000001" and q["hook_index"] == 1 and len(q["hooks"]) == 3
    em = s["emitters"][0]
    assert em["logical_id"] == 3 and em["particles"] >= 2 and not em["stopped"]
    parts = inspect.emitter_particles(w, em["handle"])
    assert parts["positions"].shape == (em["particles"], 3)
    t = inspect.totals(w)
    assert (t["objects"], t["emitters"], t["queued_scripts"]) == (1, 1, 1)
    assert inspect.texture_velocities(w)["0x01000001"]["du"] == 0.5
    assert inspect.world_lights(w)[0]["owner"] == 1


def test_renderer_and_panel_queries_read_live_objects_and_none_for_absent_ones():
    w = B.world({0x02000001: B.setup(parts=2, lights=1)})
    o = w.create_object(1, 0x02000001, position=(1.0, 2.0, 0.0), heading_deg=90.0)
    B.run_frames(w, 2)
    assert inspect.drawn_objects(w) == [o]
    assert inspect.live_lights(o) == list(o.lights)          # Lighting on: they shine
    assert inspect.object_origin(w, 1) == (1.0, 2.0, 0.0)
    assert inspect.object_bounds(w, 1)[1] == o.setup.selection_sphere.radius
    origin, forward = inspect.object_facing(w, 1)
    assert origin == (1.0, 2.0, 0.0) and abs(sum(f * f for f in forward) - 1.0) < 1e-9
    assert inspect.script_table(w, 1) is o.table
    assert inspect.particle_pool(w) is w.pool and inspect.pool_emitters(w) == []
    assert inspect.frame_time(w) == float(w.time)
    for absent in (inspect.object_origin, inspect.object_bounds, inspect.object_facing,
                   inspect.script_table):
        assert absent(w, 99) is None
    w.set_lights(o, False)
    assert inspect.live_lights(o) == []
