"""``vfxviewer compare`` against a synthetic "recording": a rendering of a scenario, shifted
in time, scaled, and with one effect changed (issue 10's acceptance)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from viewer import synthetic
from viewer.cli import main
from viewer.compare.reference import resize
from viewer.media import read_frames, write_frames

FPS = 20
SIZE = "96x64"


def scenario(tmp_path, script, name):
    sc = {"dat": [str(synthetic.SYNTHETIC_DAT)], "seed": 3, "fps": FPS, "seconds": 1.5,
          "objects": [{"id": 1, "setup": f"0x{synthetic.SETUP_MARKER:08X}",
                       "position": [0, 0, 0.5]}],
          "events": [{"t": 0.2, "object": 1, "play_script": f"0x{script:08X}"}]}
    path = tmp_path / f"{name}.scenario.json"
    path.write_text(json.dumps(sc))
    return path


def render_dir(tmp_path, scen, name):
    out = tmp_path / name
    assert main(["render", "--scenario", str(scen), "--out", str(out), "--size", SIZE,
                 "--distance", "3", "--seed", "3"]) == 0
    return [f.image for f in read_frames(out, fps=FPS)]


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """The viewer's frames, and a recording of the same effect that starts 0.25 s earlier,
    is scaled 1.5x, and whose explosion is tinted from 0.6 s to 0.9 s."""
    tmp = tmp_path_factory.mktemp("rec")
    scen = scenario(tmp, synthetic.PES_EXPLODE, "explode")
    frames = render_dir(tmp, scen, "render")
    lead = 5  # 5 frames at 20 fps = 0.25 s
    rec = [frames[0]] * lead + frames
    altered = []
    for k, img in enumerate(rec):
        img = img[..., :3].copy()
        t_render = (k - lead) / FPS
        if 0.6 <= t_render < 0.9:  # one effect changed: the explosion turns green
            bright = img.sum(axis=2) > 120
            img[bright] = (40, 255, 40)
        altered.append(resize(img, (144, 96)))
    rec_dir = tmp / "recording"
    write_frames(rec_dir, altered, fps=FPS)
    return scen, frames, rec_dir, tmp


def test_compare_finds_offset_and_peaks_where_effect_changed(recording):
    scen, frames, rec_dir, tmp = recording
    assert any(f[..., :3].max() > 100 for f in frames), "the explosion must be visible"
    out_csv, out_json = tmp / "fig.csv", tmp / "fig.json"
    rc = main(["compare", "--scenario", str(scen), "--reference", str(rec_dir),
               "--reference-fps", str(FPS), "--align", "--size", SIZE, "--distance", "3",
               "--seed", "3", "--csv", str(out_csv), "--json", str(out_json),
               "--out", str(tmp / "side.mp4")])
    assert rc == 0
    data = json.loads(out_json.read_text())
    assert data["offset"] == pytest.approx(0.25, abs=1 / FPS + 1e-6)
    rows = data["frames"]
    mads = np.array([r["mad"] for r in rows], dtype=float)
    peak_t = rows[int(np.nanargmax(mads))]["t"]
    assert 0.6 <= peak_t < 0.9
    quiet = [r["mad"] for r in rows if r["t"] < 0.5 or r["t"] >= 1.0]
    assert max(quiet) < mads.max() / 3
    with open(out_csv) as fh:
        assert len(list(csv.DictReader(fh))) == len(rows)
    video = list(read_frames(tmp / "side.mp4"))
    assert len(video) == len(rows)
    assert video[0].image.shape[1] >= 2 * 96  # side by side


@pytest.mark.parametrize("mode", ["overlay", "wipe", "onion", "difference"])
def test_each_view_mode_renders_headless(recording, mode):
    scen, frames, rec_dir, tmp = recording
    out = tmp / f"{mode}.png"
    rc = main(["compare", "--scenario", str(scen), "--reference", str(rec_dir),
               "--reference-fps", str(FPS), "--offset", "0.25", "--size", SIZE,
               "--distance", "3", "--seed", "3", "--seconds", "0.8", "--mode", mode,
               "--out", str(out)])
    assert rc == 0
    from PIL import Image
    img = np.asarray(Image.open(out))
    assert img.shape[:2] == (64, 96)
    if mode == "difference":  # t = 0.8: the tinted explosion differs from the render
        assert img.max() > 50


def test_compare_missing_reference_is_an_input_error(tmp_path, capsys):
    scen = scenario(tmp_path, synthetic.PES_EXPLODE, "x")
    rc = main(["compare", "--scenario", str(scen), "--reference", str(tmp_path / "nope.mp4"),
               "--size", SIZE])
    assert rc == 1
    assert "nope.mp4" in capsys.readouterr().err
