"""The deterministic retail runtime: headless, seeded, no GL (docs/DEVELOPING.md).

world.py           World: objects, CPhysics::UseTime / update_object stepping,
                   animate_static_object for static animating objects, the event sink
physobj.py         PhysicsObj state (state bits, frames, parts, lights, children, tweens)
hooks.py           every hook's effect (a handler per AnimationHookType); FPHook tweens
                   (a channel per FPHookType); CallPES
script_manager.py  ScriptManager: one serial FIFO of PhysicsScripts per owner
script_table.py    PhysicsScriptTable resolution (GetScript 0x00521E40 / 0x00521A20)
particles.py       ParticlePool (numpy), ParticleEmitter, ParticleManager, the twelve laws
clock.py           frame clock, MIN/MAX_QUANTUM rules
rng.py             the seeded ran2 random source (retail draw order)
state.py           PhysicsState / TransientState bits
scenario.py        scenario files and ScenarioRunner (frames(): the one frame loop)
playback.py        the viewer's playback clock: scrub by re-simulation from snapshots
events.py          trace events as JSON Lines
inspect.py         read-only queries for panels and the renderer
frame.py           Frame math; animation/, poses.py: animation; physics.py, collision.py,
                   projectile.py: free-body integration, sweeps and the launch harness
"""
