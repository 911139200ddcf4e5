"""The retail order inside one object update (CPhysicsObj::UpdateObjectInternal 0x005156B0,
UpdatePositionInternal 0x00512C30):
animation -> physics -> process_hooks (tweens, then animation hooks) -> set_frame (parts,
children, emitters) -> UpdateParticles -> UpdateScripts."""

import sim_builders as B

from viewer.sim.frame import Frame

INFO, SCRIPT = 0x32000001, 0x33000001


class FakeMotion:
    """A motion controller that moves part 0 by +1 in x each advance and fires the hooks
    it is given on the first advance."""

    def __init__(self, hooks=()):
        self.x = 0.0
        self.hooks = list(hooks)
        self.calls = []

    def advance(self, dt, **kw):
        self.calls.append(dt)
        self.x += 1.0
        fired, self.hooks = [(h, 0x03000001, i) for i, h in enumerate(self.hooks)], []
        return Frame(), fired

    def part_frames(self):
        return [Frame((self.x, 0.0, 0.0))]


def _world():
    info = B.emitter_info(INFO, initial_particles=1, birthrate=0.001, lifespan=50.0,
                          total_seconds=100.0)
    return B.world({0x02000001: B.setup(), INFO: info,
                    SCRIPT: B.script(SCRIPT, (0.0, B.create(INFO, part=0)))})


def test_process_hooks_before_set_frame_hook_emitters_are_born_in_the_previous_pose():
    w = _world()
    o = w.create_object(1, 0x02000001)
    o.motion = FakeMotion([B.create(INFO, part=0)])
    w._set_frame(o, o.frame)  # pose x = 0 published
    B.run_frames(w, 1)
    em = o.particle_manager.emitters()[0][1]
    w.pool.evaluate()
    idx = em.live_slots()[0][1]
    assert w.pool.start_origin[idx][0] == 0.0  # born in the pose before this tick's x = 1
    assert em.parent_frame.origin[0] == 1.0  # set_frame then moved the emitter object


def test_animation_hook_emitter_first_update_is_culled_script_emitter_is_not():
    w = _world()
    o = w.create_object(1, 0x02000001)
    o.motion = FakeMotion([B.create(INFO, part=0, logical=1)])
    B.run_frames(w, 1)
    hook_em = dict(o.particle_manager.emitters())[1]
    assert hook_em.degraded_out  # process_hooks ran before UpdateParticles
    assert hook_em.num_particles == 1  # no birth was due yet, so no phantom

    w2 = _world()
    o2 = w2.create_object(1, 0x02000001)
    w2.play_script(o2, SCRIPT)
    B.run_frames(w2, 1)
    em = o2.particle_manager.emitters()[0][1]
    assert not em.degraded_out and em.total_emitted == 1  # not updated yet this tick
    B.run_frames(w2, 1, start=2)
    assert not em.degraded_out and em.total_emitted == 2  # first update after a render


def test_children_follow_the_parent_part_after_set_frame():
    w = _world()
    parent = w.create_object(1, 0x02000001)
    child = w.create_object(2, 0x02000001)
    parent.motion = FakeMotion()
    w.attach_child(child, parent, 0, Frame((0.0, 0.0, 2.0)))
    B.run_frames(w, 3)
    assert child.frame.origin == (3.0, 0.0, 2.0)
    assert child.motion is None and child.parent is parent


def test_hidden_owner_skips_animation_but_children_and_emitters_still_update():
    w = _world()
    o = w.create_object(1, 0x02000001)
    o.motion = FakeMotion()
    w.play_script(o, SCRIPT)
    w.set_hidden(o, True)
    B.run_frames(w, 4)
    assert o.motion.calls == []
    assert o.particle_manager.emitters()[0][1].total_emitted >= 2


def test_UpdateObjectInternal_0x005156B0_full_order_runtime_7_6_and_11(monkeypatch):
    # UpdatePositionInternal 0x00512C30 (animation, physics, process_hooks), then the commit
    # (set_frame 0x00514090), then ParticleManager::UpdateParticles, then
    # ScriptManager::UpdateScripts 0x0051B480, as retail stages it
    from viewer.sim import world as world_mod
    w = B.world({0x02000001: B.setup(), 0x33000001: B.script(0x33000001, (5.0, B.stop(1)))})
    o = w.create_object(1, 0x02000001)
    w.play_script(o, 0x33000001)
    w.particle_manager(o)
    calls = []

    def spy(name, fn):
        def wrapped(*a, **k):
            calls.append(name)
            return fn(*a, **k)
        return wrapped

    monkeypatch.setattr(w, "_advance_animation", spy("animation", w._advance_animation))
    monkeypatch.setattr(w, "_update_physics", spy("physics", w._update_physics))
    monkeypatch.setattr(world_mod.hooks_mod, "process_hooks",
                        spy("process_hooks", world_mod.hooks_mod.process_hooks))
    monkeypatch.setattr(w, "_set_frame", spy("set_frame", w._set_frame))
    pm, sm = o.particle_manager, o.script_manager
    monkeypatch.setattr(pm, "update_particles", spy("particles", pm.update_particles))
    monkeypatch.setattr(sm, "update_scripts", spy("scripts", sm.update_scripts))
    B.run_frames(w, 1)
    assert calls == ["animation", "physics", "process_hooks", "set_frame", "particles",
                     "scripts"]


def test_one_runner_frame_follows_the_world_docstring_frame_order(monkeypatch):
    # viewer/sim/world.py's frame order, one ScenarioRunner frame: the scenario events due,
    # the projectile harness, then World.tick (UseTime 0x00509950 -> update_object ->
    # UpdateObjectInternal 0x005156B0 -> UpdateTexVelocity -> tick event) and render_pass
    from viewer.sim import world as world_mod
    from viewer.sim.particles import ParticleManager
    from viewer.sim.scenario import Scenario, ScenarioRunner
    from viewer.sim.script_manager import ScriptManager
    info = B.emitter_info(INFO, initial_particles=1, birthrate=0.001, lifespan=50.0,
                          total_seconds=100.0)
    db = B.MemoryDB({0x02000001: B.setup(lights=1), INFO: info,
                     SCRIPT: B.script(SCRIPT, (0.0, B.create(INFO, part=0)), (9.0, B.stop(0)))})
    sc = Scenario.from_json({
        "fps": 30, "seconds": 1.0,
        "objects": [{"id": 1, "setup": "0x02000001"},
                    {"id": 2, "setup": "0x02000001", "parent": 1, "parent_part": 0}],
        "events": [{"t": 0.0, "object": 1, "play_script": "0x33000001"},
                   {"t": 0.05, "object": 1, "set_state": 0x00400C08}]})
    runner = ScenarioRunner(sc, db)
    frames = runner.frames()
    next(frames)                                  # frame 0: the objects, the script queued
    next(frames)                                  # frame 1: the script makes the emitter
    w = runner.world
    w.set_lights(w.objects[1], True)
    w.objects[1].motion = FakeMotion()
    calls = []

    def spy(owner, attr, name, only=None):
        fn = getattr(owner, attr)

        def wrapped(*a, **k):
            if only is None or only(*a, **k):
                calls.append(name)
            return fn(*a, **k)
        monkeypatch.setattr(owner, attr, wrapped)

    spy(runner, "_apply", "event")
    spy(runner.harness, "step", "harness")
    spy(w, "tick", "tick")
    spy(w, "_advance_animation", "animation")
    spy(w, "_update_physics", "physics")
    spy(world_mod.hooks_mod, "process_hooks", "hooks")
    spy(w, "_set_frame", "parts", only=lambda obj, frame: obj.id == 1)
    spy(w, "_place_child", "child")
    spy(ParticleManager, "set_parent_frames", "emitter frames")
    spy(w, "_update_lights", "lights", only=lambda obj: obj.id == 1)
    spy(ParticleManager, "update_particles", "particles")
    spy(ScriptManager, "update_scripts", "scripts")
    spy(w, "update_tex_velocity", "tex velocity")
    spy(w, "emit", "tick event", only=lambda ev: ev.get("event") == "tick")
    spy(w, "render_pass", "render pass")
    t, _ = next(frames)
    assert t * 30 == 2
    assert calls == ["event", "harness", "tick", "animation", "physics", "hooks", "parts",
                     "child", "emitter frames", "lights", "particles", "scripts",
                     "tex velocity", "tick event", "render pass"]
