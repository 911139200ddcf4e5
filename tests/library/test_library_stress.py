"""The stress scene (assets_synthetic/stress.scenario.json, issue 18): 50 markers with
PES_STRESS each, 500 persistent emitters, 100,000 initial particles. The full scene is for
bench/particles.py --stress and the viewer; here its construction is checked, and one marker
of it is run through the runtime and both particle paths of the renderer."""

from __future__ import annotations

import json

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.dat.database import AssetDatabase
from viewer.dat.records import CreateParticleHook
from viewer.sim.scenario import Scenario, ScenarioRunner
from viewer.synthetic.generate import stress_scenario

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")

STRESS_INFOS = (S.EMIT_STRESS_GLOW, S.EMIT_STRESS_SWARM, S.EMIT_STRESS_SHARDS)


@pytest.fixture(scope="module")
def db():
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as d:
        yield d


def test_stress_scenario_file_is_the_generated_one():
    assert json.loads(S.STRESS_SCENARIO.read_text()) == stress_scenario()


def test_stress_scene_has_500_emitters_and_100k_initial_particles(db):
    sc = stress_scenario()
    plays = [e for e in sc["events"] if e.get("play_script") == f"0x{S.PES_STRESS:08X}"]
    assert len(plays) == len(sc["objects"]) == 50
    hooks = [d.hook for d in db.get(S.PES_STRESS).script_data]
    assert len(hooks) == 10 and all(isinstance(h, CreateParticleHook) for h in hooks)
    assert {h.emitter_info_id for h in hooks} == set(STRESS_INFOS)
    initial = sum(int(db.get(h.emitter_info_id).initial_particles) for h in hooks)
    assert len(plays) * len(hooks) >= 500 and len(plays) * initial >= 100_000


def test_one_stress_marker_runs_and_draws_on_both_paths(db, gl_ctx, tmp_path):
    """Ten emitters, 2,000 initial particles after the frame that plays PES_STRESS; the GPU
    and the CPU particle paths draw the same number of particles."""
    from viewer.commands.render import build_parser_args, make_camera
    from viewer.render.framebuffer import OffscreenTarget
    from viewer.render.renderer import RenderSettings, SceneRenderer
    from viewer.render.scene_input import scene_input_from_world
    sc = stress_scenario()
    sc["objects"], sc["events"] = sc["objects"][:1], sc["events"][:1]
    path = tmp_path / "one.scenario.json"
    sc["dat"] = [str(S.SYNTHETIC_DAT)]
    path.write_text(json.dumps(sc))
    frames = ScenarioRunner(Scenario.load(path), db).frames()
    _, world = next(frames)
    camera = make_camera(build_parser_args(["--scenario", str(path), "--out", "x.png"]), world)
    world.viewer_position = tuple(float(c) for c in camera.eye())
    _, world = next(frames)
    assert world.pool.emitter_count == 10 and world.pool.live_count == 2000
    drawn = []
    for gpu in (True, False):
        r = SceneRenderer(gl_ctx, db, RenderSettings(gpu_particles=gpu))
        target = OffscreenTarget(gl_ctx, (64, 48))
        stats = r.render(scene_input_from_world(world, gpu_particles=gpu), camera, target)
        drawn.append(stats["particles_drawn"])
        assert np.asarray(target.read_rgba())[..., :3].any()
        target.release()
        r.release()
    assert drawn[0] == drawn[1] > 0
