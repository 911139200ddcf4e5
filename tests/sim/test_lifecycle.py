"""Lifecycle acceptance, scaled to run in seconds: 96 owners with
scripts, delayed CallPES, emitters, particles and lights; churn (delete and recreate 32
owners with the same ids, Hidden/UnHide cycles); at the end zero owners, queues, delayed
hooks, emitters and particles remain."""

import sim_builders as B

from viewer.dat.records.hooks import NoOpHook, SoundHook
from viewer.sim import inspect
from viewer.sim.state import DEFAULT_STATE
from viewer.sim.state import PhysicsState as PS

SETUP, TABLE, INFO = 0x02000001, 0x34000004, 0x3200078E
SPAWN, FUTURE, HIDE_S, UNHIDE_S, PES = 0x33000719, 0x33000720, 0x33000331, 0x3300032F, 0x33000721


def _records():
    return {
        SETUP: B.setup(parts=2, lights=1),
        INFO: B.emitter_info(INFO, particle_type=2, a=(0, 0, 1.0), birthrate=0.02,
                             max_particles=12, lifespan=0.3, initial_particles=2),
        SPAWN: B.script(SPAWN, (0.0, B.create(INFO, logical=19)), (0.0, B.callpes(PES, 0.5)),
                        (3.0, B.stop(19))),
        FUTURE: B.script(FUTURE, (10.0, NoOpHook(0))),
        PES: B.script(PES, (0.0, SoundHook(0, 0x0A000001)), (0.1, B.create(INFO, part=1))),
        HIDE_S: B.script(HIDE_S, (0.0, B.create(INFO, logical=3, blocking=True)),
                         (0.2, B.destroy(3))),
        UNHIDE_S: B.script(UNHIDE_S, (0.0, NoOpHook(0))),
        TABLE: B.table(TABLE, {0x75: [(1.0, UNHIDE_S)], 0x76: [(1.0, HIDE_S)]}),
    }


def _spawn(w, oid):
    o = w.create_object(oid, SETUP, table=TABLE, position=(oid * 0.5, 0.0, 0.0))
    w.play_script(o, SPAWN)
    w.play_script(o, FUTURE)
    return o


def test_step9_lifecycle_96_owners_churn_then_zero_left():
    w = B.world(_records(), seed=96)
    for oid in range(1, 97):
        _spawn(w, oid)
    frame = B.run_frames(w, 12)
    t = inspect.totals(w)
    assert t["objects"] == 96 and t["emitters"] >= 96 and t["particles"] > 96
    # every owner retains a future hook in its serial FIFO (FUTURE queued behind SPAWN)
    assert all(o.script_manager and len(o.script_manager) >= 1 for o in w.objects.values())
    assert all(o.lights for o in w.objects.values())

    # churn logical lifetime: delete 32 owners, recreate the same ids (new owners)
    old = {oid: w.objects[oid] for oid in range(1, 33)}
    for oid in range(1, 33):
        w.remove_object(oid)
    assert all(o.particle_manager is None and o.script_manager is None for o in old.values())
    for oid in range(1, 33):
        _spawn(w, oid)
    assert all(w.objects[oid] is not old[oid] for oid in range(1, 33))
    frame = B.run_frames(w, 6, start=frame)

    # repeat Hidden/UnHide twelve times on one owner, keeping the same owner
    o = w.objects[50]
    for _ in range(12):
        w.set_state(o, DEFAULT_STATE | PS.Hidden)
        frame = B.run_frames(w, 3, start=frame)
        w.set_state(o, DEFAULT_STATE)
        frame = B.run_frames(w, 2, start=frame)
    assert w.objects[50] is o and not o.hidden
    hides = B.events(w, "script", action="queued", owner=50, script=HIDE_S)
    unhides = B.events(w, "script", action="queued", owner=50, script=UNHIDE_S)
    assert len(hides) == len(unhides) == 12

    frame = B.run_frames(w, 20, start=frame)
    for oid in list(w.objects):
        w.remove_object(oid)
    t = inspect.totals(w)
    assert t == {**t, "objects": 0, "emitters": 0, "particles": 0, "queued_scripts": 0}
    assert w.pool.emitter_count == 0 and w.pool.live_count == 0
    assert not w.pool.alive.any()
    assert all(em is None for em in w.pool.row_emitter)
    assert all(not o.fp_hooks and not o.anim_hooks and o.lights is None for o in old.values())
    # nothing is left to tick
    B.run_frames(w, 3, start=frame)
    assert B.events(w, "tick")[-1]["particles"] == 0
