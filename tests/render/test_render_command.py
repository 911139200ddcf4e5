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


# --- capture options (issue 10): --start, --transparent, .gif -----------------------------------
def test_render_start_writes_only_frames_at_or_after_S_from_a_run_starting_at_0(tmp_path, dat,
                                                                              gl_ctx):
    sc = _scenario(tmp_path, dat)
    full, late = tmp_path / "full", tmp_path / "late"
    assert main(["render", "--scenario", sc, "--out", str(full), "--size", "48x36",
                 "--seconds", "0.3"]) == 0
    assert main(["render", "--scenario", sc, "--out", str(late), "--size", "48x36",
                 "--seconds", "0.3", "--start", "0.2"]) == 0
    a, b = sorted(full.iterdir()), sorted(late.iterdir())
    assert len(a) == 10 and len(b) == 4             # t = 0.2, 0.233.., 0.266.., 0.3 at 30 fps
    for x, y in zip(a[6:], b):                     # the same frames as the full run's tail
        assert x.read_bytes() == y.read_bytes()


def test_render_start_after_the_end_is_an_input_error(tmp_path, dat, capsys):
    rc = main(["render", "--scenario", _scenario(tmp_path, dat), "--out",
               str(tmp_path / "x.png"), "--size", "32x24", "--start", "9"])
    assert rc == 1 and "--start" in capsys.readouterr().err


def test_render_start_must_be_non_negative_seconds(tmp_path, dat):
    with pytest.raises(SystemExit) as e:
        main(["render", "--scenario", _scenario(tmp_path, dat), "--out",
              str(tmp_path / "x.png"), "--start", "-1"])
    assert e.value.code == 2


def test_render_transparent_png_clears_alpha_0_and_keeps_drawn_pixels_opaque(tmp_path, dat,
                                                                             gl_ctx):
    from PIL import Image
    out = tmp_path / "t.png"
    assert main(["render", "--scenario", _scenario(tmp_path, dat), "--out", str(out),
                 "--size", "64x48", "--seconds", "0", "--transparent"]) == 0
    with Image.open(out) as im:
        assert im.mode == "RGBA"
        img = np.asarray(im)
    assert img[0, 0, 3] == 0 and img[-1, -1, 3] == 0           # background: transparent
    assert (img[..., 3] == 255).sum() > 20                     # the opaque box: alpha 1
    opaque = tmp_path / "o.png"
    assert main(["render", "--scenario", _scenario(tmp_path, dat), "--out", str(opaque),
                 "--size", "64x48", "--seconds", "0"]) == 0
    with Image.open(opaque) as im:
        assert im.mode == "RGB"


def test_render_transparent_folder_keeps_alpha(tmp_path, dat, gl_ctx):
    from PIL import Image
    out = tmp_path / "frames"
    assert main(["render", "--scenario", _scenario(tmp_path, dat), "--out", str(out),
                 "--size", "48x36", "--seconds", "0.1", "--transparent"]) == 0
    files = sorted(out.iterdir())
    assert len(files) == 4
    with Image.open(files[-1]) as im:
        assert im.mode == "RGBA" and im.getpixel((0, 0))[3] == 0


def test_render_gif_has_every_frame_and_transparent_keeps_the_background_clear(tmp_path, dat,
                                                                                gl_ctx):
    from PIL import Image
    for flag in ([], ["--transparent"]):
        out = tmp_path / f"anim{len(flag)}.gif"
        assert main(["render", "--scenario", _scenario(tmp_path, dat), "--out", str(out),
                     "--size", "48x36", "--seconds", "0.2", *flag]) == 0
        with Image.open(out) as im:
            assert im.n_frames == 7
            im.seek(im.n_frames - 1)
            rgba = np.asarray(im.convert("RGBA"))
        corner = rgba[0, 0]
        if flag:
            assert corner[3] == 0
        else:
            assert corner[3] == 255 and corner[:3].max() > 0   # the opaque background colour


def test_render_transparent_mp4_stays_opaque(tmp_path, dat, gl_ctx):
    from viewer.media import read_frames
    out = tmp_path / "v.mp4"
    assert main(["render", "--scenario", _scenario(tmp_path, dat), "--out", str(out),
                 "--size", "48x36", "--seconds", "0.1", "--transparent"]) == 0
    frames = list(read_frames(out))
    assert len(frames) == 4 and frames[0].image.shape == (36, 48, 3)
