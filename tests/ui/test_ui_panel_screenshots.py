"""Headless screenshots of each panel (EGL, small sizes) on the synthetic test library:
the effect played to t = 0.6 s with an emitter selected; golden images plus a content check
each, so a failure says what is missing."""

from __future__ import annotations

import numpy as np
import pytest
import ui_fixtures as F
from imagecheck import assert_image_matches

from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.session import Session

SIZE = (420, 260)


@pytest.fixture(scope="module")
def session():
    return Session(F.database(), Scenario.from_json(F.scenario_json()))


def shoot(gl_ctx, session, panel, size=SIZE, frames=3, setup=()):
    app = ViewerApp(gl_ctx, display_size=size, session=session)
    target = OffscreenTarget(gl_ctx, size)
    try:
        app.only_panel = panel
        app.clock = lambda: 0.0        # Stats' frame split: the same figures every run
        app.controller.apply_all([c.Seek(0.6), c.Select("emitter", 1), *setup])
        for _ in range(frames):
            app.frame(1 / 60, size, target.fbo)
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
        return target.read_rgba()
    finally:
        app.release()
        target.release()


def colour_count(img, lo, hi):
    rgb = img[..., :3].astype(int)
    return int(((rgb >= lo) & (rgb <= hi)).all(axis=-1).sum())


def brownish(img) -> int:
    """Pixels of the solid-colour surface (0xFF6F3916) as lit: red well above blue."""
    rgb = img[..., :3].astype(int)
    return int(((rgb[..., 0] > rgb[..., 2] + 40) & (rgb[..., 0] > 70)).sum())


CASES = {
    # panel: (golden name, content check)
    "Timeline": lambda img: colour_count(img, (40, 150, 50), (100, 200, 110)) > 50,  # bars
    "Script Table": lambda img: colour_count(img, (40, 110, 50), (60, 140, 75)) > 300,  # pick
    "Emitters": lambda img: colour_count(img, (200, 200, 200), (255, 255, 255)) > 200,
    "Hidden / UnHide": lambda img: colour_count(img, (200, 200, 200), (255, 255, 255)) > 200,
    "Object": lambda img: colour_count(img, (200, 200, 200), (255, 255, 255)) > 200,
    "Assets": lambda img: colour_count(img, (200, 200, 200), (255, 255, 255)) > 200,
    "Camera": lambda img: colour_count(img, (200, 200, 200), (255, 255, 255)) > 100,
    "Stats": lambda img: colour_count(img, (200, 200, 200), (255, 255, 255)) > 100,
    # "No errors." in TextDisabled grey (0.5 in ImGui < 1.92's dark style, 0.58 since)
    "Errors": lambda img: colour_count(img, (100, 100, 100), (160, 160, 160)) > 20,
    "Viewport": lambda img: brownish(img) > 500,    # the quad and its particles
}


@pytest.mark.parametrize("panel", list(CASES))
def test_panel_screenshot(gl_ctx, session, panel, regen_goldens):
    img = shoot(gl_ctx, session, panel,
                setup=[c.CameraZoom(8)] if panel == "Viewport" else [])
    assert (img[..., 3] == 255).all()
    assert CASES[panel](img), f"{panel}: expected content not found"
    if panel == "Viewport":
        return   # the 3D scene is the renderer's (its own goldens); content check only
    name = panel.lower().replace(" / ", "_").replace(" ", "_")
    assert_image_matches(img, f"ui/panel_{name}.png", tol=4, max_bad_fraction=0.003,
                         regen=regen_goldens)


def test_script_table_nan_intensity_says_none(gl_ctx, session):
    a = shoot(gl_ctx, session, "Script Table", setup=[c.SetIntensity(0.1)])
    b = shoot(gl_ctx, session, "Script Table", setup=[c.SetIntensity(float("nan"))])
    picked = (40, 110, 50), (60, 140, 75)
    assert colour_count(a, *picked) > 300           # the picked row is highlighted
    assert colour_count(b, *picked) == 0            # NaN: none highlighted
    assert colour_count(b, (230, 150, 60), (255, 200, 100)) > 10   # "none" in orange


def test_selected_particle_is_ringed_in_viewport(gl_ctx, session):
    plain = shoot(gl_ctx, session, "Viewport", setup=[c.CameraZoom(8)])
    ringed = shoot(gl_ctx, session, "Viewport",
                   setup=[c.CameraZoom(8), c.Select("particle", (1, 0))])
    yellow = (230, 230, 20), (255, 255, 90)
    assert colour_count(ringed, *yellow) > colour_count(plain, *yellow) + 10
    assert not np.array_equal(plain, ringed)
