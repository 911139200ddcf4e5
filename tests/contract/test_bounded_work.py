"""Issue 14, adversarial finding 2: work without bound. Each check completes under a generous
hang guard (a subprocess timeout or a work counter), never a timed assertion."""

from __future__ import annotations

from tests.bounded import run_bounded
from viewer import synthetic as S


# --- render --out x.png draws only the frame it writes ---------------------------------------
def test_render_png_simulates_every_frame_and_draws_only_the_last(tmp_path, gl_ctx):
    from viewer.commands.render import build_parser_args, load_scenario, render_frames
    from viewer.media import FrameWriter
    args = build_parser_args(["--scenario", str(S.DEFAULT_SCENARIO), "--seconds", "1",
                              "--size", "32x32", "--out", str(tmp_path / "x.png")])
    for out, expected in (("x.png", 1), ("x.gif", 31), ("frames", 31)):
        writer = FrameWriter(tmp_path / out, fps=30)
        drawn = []
        n = render_frames(load_scenario(args), args, gl_ctx, drawn.append, wants=writer.wants)
        assert n == len(drawn) == expected, out
        writer.abort()


def test_render_png_of_a_long_scenario_completes(tmp_path):
    out = tmp_path / "x.png"
    r = run_bounded(["render", S.SYNTHETIC_DAT, "--scenario", S.DEFAULT_SCENARIO,
                     "--seconds", "60", "--size", "640x360", "--out", out], timeout=600)
    assert r.rc == 0 and not r.timed_out, r
    assert out.stat().st_size > 0



def test_the_png_of_a_render_is_the_last_frame_of_the_same_render_to_a_folder(tmp_path):
    import numpy as np
    from PIL import Image
    common = ["render", S.SYNTHETIC_DAT, "--scenario", S.DEFAULT_SCENARIO, "--seconds", "1",
              "--size", "96x64"]
    a = run_bounded([*common, "--out", tmp_path / "x.png"], timeout=300)
    b = run_bounded([*common, "--out", tmp_path / "frames"], timeout=300)
    assert a.rc == 0 and b.rc == 0, (a, b)
    last = sorted((tmp_path / "frames").iterdir())[-1]
    assert np.array_equal(np.asarray(Image.open(tmp_path / "x.png")), np.asarray(Image.open(last)))
