"""``vfxviewer render`` (contract section 6): PNG, PNG sequence, MP4; same seed, same frames."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.imagecheck import assert_image_matches, load_png
from tests.render import dat_fixture
from viewer.cli import main


@pytest.fixture(scope="module")
def dat(tmp_path_factory):
    return dat_fixture.write(tmp_path_factory.mktemp("dat") / "fixture_portal.dat")


def _scenario(tmp_path, dat, **extra):
    sc = {"dat": [dat], "seed": 3, "fps": 30, "seconds": 0.5,
          "objects": [{"id": 1, "setup": f"0x{dat_fixture.SETUP:08X}", "position": [0, 0, 0]}],
          "events": []}
    sc.update(extra)
    p = tmp_path / "s.scenario.json"
    p.write_text(json.dumps(sc))
    return str(p)


def test_render_png_writes_the_last_frame_golden(tmp_path, dat, regen_goldens, gl_ctx):
    out = tmp_path / "last.png"
    rc = main(["render", "--scenario", _scenario(tmp_path, dat), "--out", str(out),
               "--size", "96x72", "--camera", "2.5,-3,2", "--target", "0,0,0.5"])
    assert rc == 0
    img = load_png(out)
    assert img.shape == (72, 96, 4)
    assert_image_matches(img, "render/cli_last_frame.png", tol=3, max_bad_fraction=0.01,
                         regen=regen_goldens)


def test_render_directory_writes_numbered_frames_and_same_seed_same_frames(tmp_path, dat,
                                                                        gl_ctx):
    sc = _scenario(tmp_path, dat)
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert main(["render", "--scenario", sc, "--out", str(out), "--size", "48x36",
                     "--seconds", "0.3"]) == 0
    names = sorted(p.name for p in a.iterdir())
    assert names[0] == "frame_00000.png" and len(names) == 10  # 0 .. 0.3 s at 30 fps
    for n in names:
        assert (a / n).read_bytes() == (b / n).read_bytes()
    # particles appear: the last frame differs from a run without the emitter's script
    assert not np.array_equal(load_png(a / names[0]), load_png(a / names[-1]))


def test_render_mp4(tmp_path, dat, gl_ctx):
    import av
    out = tmp_path / "v.mp4"
    assert main(["render", "--scenario", _scenario(tmp_path, dat), "--out", str(out),
                 "--size", "64x48", "--seconds", "0.2"]) == 0
    with av.open(str(out)) as c:
        frames = sum(1 for _ in c.decode(video=0))
    assert frames == 7


def test_render_setup_option_and_dat_argument(tmp_path, dat, gl_ctx):
    out = tmp_path / "one.png"
    assert main(["render", dat, "--setup", f"0x{dat_fixture.SETUP:08X}", "--out", str(out),
                 "--size", "32x24", "--seconds", "0"]) == 0
    assert load_png(out).shape == (24, 32, 4)


def test_render_unknown_setup_is_input_error(tmp_path, dat, capsys):
    rc = main(["render", dat, "--setup", "0x02000FFF", "--out", str(tmp_path / "x.png"),
               "--size", "16x16", "--seconds", "0"])
    assert rc == 1
    err = capsys.readouterr().err
    assert "0x02000FFF" in err and len(err.strip().splitlines()) == 1


def test_render_bad_size_is_usage_error(tmp_path, dat):
    with pytest.raises(SystemExit) as e:
        main(["render", dat, "--setup", "1", "--out", str(tmp_path / "x.png"), "--size", "0x5"])
    assert e.value.code == 2


def test_default_scenario_frame_golden(gl_ctx, regen_goldens):
    """One frame (t = 1 s) of the default scenario on the synthetic assets."""
    from viewer.commands.render import build_parser_args, load_scenario, render_frames
    from viewer.synthetic import DEFAULT_SCENARIO
    args = build_parser_args(["--scenario", str(DEFAULT_SCENARIO), "--out", "x.png",
                              "--size", "160x90", "--seconds", "1.0"])
    frames = []
    n = render_frames(load_scenario(args), args, gl_ctx, frames.append)
    assert n == 31 and len(frames) == 31
    assert (frames[-1][..., :3].max(axis=-1) > 40).sum() > 200
    assert_image_matches(frames[-1], "render/default_scenario_1s.png", tol=4,
                         max_bad_fraction=0.01, regen=regen_goldens)


def test_render_overlays_draws_the_world_collision_shapes(tmp_path, gl_ctx):
    """--overlays turns on RenderSettings.show_collision: the projectile harness's plane,
    box, sphere and cylinder (scenario "world") are drawn."""
    from viewer.synthetic import ASSETS_DIR
    sc = str(ASSETS_DIR / "projectiles.scenario.json")
    imgs = []
    for extra in ([], ["--overlays"]):
        out = tmp_path / f"p{len(extra)}.png"
        assert main(["render", "--scenario", sc, "--out", str(out), "--size", "64x48",
                     "--seconds", "0", "--target", "8,2,1", "--camera=-2,-6,6", *extra]) == 0
        imgs.append(load_png(out))
    plain, over = imgs
    green = (over[..., 1].astype(int) - over[..., 0] > 60) & (over[..., 1] > 120)
    assert green.sum() > 50                      # the ground plane's grid patch
    assert not (((plain[..., 1].astype(int) - plain[..., 0]) > 60) & (plain[..., 1] > 120)).any()
