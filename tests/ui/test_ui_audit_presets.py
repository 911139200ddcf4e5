"""GL-free models of the Audit window and the Launch panel's named projectiles (issue 17),
and one headless screenshot of the Audit window."""

from __future__ import annotations

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.dat.database import AssetDatabase
from viewer.sim import presets
from viewer.sim.audit import FAIL, MISSING, PASS, audit_collection
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.audit_panel import AuditModel
from viewer.ui.controller import Controller
from viewer.ui.launch_panel import LaunchPanelState, LaunchView, launch_command, select_preset
from viewer.ui.session import Session


@pytest.fixture
def session():
    return Session(AssetDatabase(S.SYNTHETIC_DAT),
                   Scenario.from_json({"seed": 0, "fps": 30, "seconds": 2.0, "world": [
                       {"box": {"min": [6, -2, 0], "max": [6.2, 2, 3]}}]}))


def view(session, objects=()):
    return LaunchView(tuple(objects), 7, None, None, presets.status(session.db))


# --- Audit window model ---------------------------------------------------------------------
def test_audit_model_shows_the_same_table_as_the_command_line():
    m = AuditModel()
    assert m.summary() == "not run" and m.rows() == []
    with AssetDatabase(S.SYNTHETIC_DAT) as db:
        m.run(db.collection)
        want = audit_collection(db.collection)
    assert m.open and m.source == str(S.SYNTHETIC_DAT)
    assert m.rows() == [(ch.status, ch.check, ch.detail) for ch in want]
    n = m.counts()
    assert n[PASS] and n[FAIL] and n[MISSING] and sum(n.values()) == len(want)
    assert m.summary() == f"{n[PASS]} passed, {n[FAIL]} failed, {n[MISSING]} missing"
    m.show_passed = False
    assert all(status != PASS for status, _, _ in m.rows())


def test_run_audit_command_audits_the_session_dats(session):
    ctl = Controller(session=session)
    assert ctl.apply(c.RunAudit())
    model = ctl.view.audit
    assert model.open
    rows = {check: status for status, check, _ in model.rows()}
    assert rows["sphere Force Bolt 0x0200087D"] == PASS          # the stand-ins
    assert rows["recall link 0x09000001 0x10000153"] == MISSING


def test_run_audit_without_dats_is_all_missing():
    ctl = Controller()
    assert ctl.apply(c.RunAudit())
    assert {s for s, _, _ in ctl.view.audit.rows()} == {MISSING}


# --- Launch panel: named projectiles -----------------------------------------------------------
def test_select_preset_shows_its_setup_and_table(session):
    st = LaunchPanelState()
    select_preset(st, view(session), "Lightning Bolt")
    assert (st.preset, st.setup, st.table, st.message) == (
        "Lightning Bolt", "0x02000880", "0x34000081", "")
    select_preset(st, view(session), "Whirling Blade")
    assert st.table == ""                          # no table in its weenie template
    select_preset(st, view(session), "")
    assert st.preset == ""


def test_preset_missing_from_the_open_dats_says_which_did():
    with AssetDatabase.from_records({}) as db:
        v = LaunchView((), 1, None, None, presets.status(db))
    st = LaunchPanelState()
    select_preset(st, v, "Frost Bolt")
    assert st.message == "Setup 0x020003F4 missing, PhysicsScriptTable 0x34000080 missing"
    with pytest.raises(ValueError, match="Frost Bolt: Setup 0x020003F4 missing"):
        launch_command(st, v)


def test_preset_launch_command_and_session_event(session):
    st = LaunchPanelState(velocity=[10.0, 0.0, 0.0], intensity="1")
    select_preset(st, view(session), "Flame Bolt")
    cmd = launch_command(st, view(session))
    assert cmd == c.LaunchProjectile(7, origin=(0.0, 0.0, 1.0), velocity=(10.0, 0.0, 0.0),
                                     intensity=1.0, preset="Flame Bolt")
    with pytest.raises(ValueError, match="object 7 exists"):
        launch_command(st, view(session, objects=(7,)))
    session.apply(c.Seek(0.2))
    session.apply(cmd)
    raw = session.scenario.events[-1].to_json()
    assert raw["launch"]["preset"] == "Flame Bolt" and raw["object"] == 7
    events = session.events()
    assert any(e["event"] == "resolve" and e["owner"] == 7 and e["table"] == 0x34000005
               and e["script"] == 0x3300011D for e in events)        # Launch at intensity 1
    session.apply(c.Seek(1.0))
    assert session.world.objects[7].setup_did == 0x0200040D


def test_audit_window_headless_screenshot(gl_ctx, session):
    from viewer.app import ViewerApp
    from viewer.render.framebuffer import OffscreenTarget

    size = (520, 300)
    app = ViewerApp(gl_ctx, display_size=size, session=session)
    target = OffscreenTarget(gl_ctx, size)
    try:
        app.only_panel = "Audit"
        app.controller.apply(c.RunAudit())
        for _ in range(3):
            app.frame(1 / 60, size, target.fbo)
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
        img = target.read_rgba()
    finally:
        app.release()
        target.release()
    rgb = img[..., :3].astype(int)
    green = (rgb[..., 1] > 180) & (rgb[..., 0] < 150) & (rgb[..., 2] < 150)   # PASS
    red = (rgb[..., 0] > 220) & (rgb[..., 1] < 150) & (rgb[..., 2] < 120)     # FAIL
    assert green.sum() > 30 and red.sum() > 10
    assert np.unique(rgb.reshape(-1, 3), axis=0).shape[0] > 10
