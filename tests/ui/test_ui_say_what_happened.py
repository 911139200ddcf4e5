"""Issue 28 item 5, "say what happened": an anonymous emitter's id in hex and named, the
Play on object notice (toast) and its event's mark, the particle colour legend, the
picked particle where it is drawn, the Emitters table scrolled to it, the reference
entry's path and view mode kept, opaque Audit and path dialogs."""

from __future__ import annotations

import math

import ui_fixtures as F

from viewer.dat.database import AssetDatabase
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.hooks import CreateParticleHook
from viewer.sim.inspect import live_emitters
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.emitters_panel import emitter_id_label
from viewer.ui.session import Session


def anonymous_db():
    """The library with SCRIPT's emitter created without a logical id (0)."""
    recs = F.records()
    recs[F.SCRIPT] = F.script(F.SCRIPT, (0.0, CreateParticleHook(0, F.EMITTER, -1,
                                                                 RFrame((0.0, 0.0, 0.5)), 0)))
    return AssetDatabase.from_records(recs)


def test_an_anonymous_emitter_shows_its_id_in_hex_and_named():
    s = Session(anonymous_db(), Scenario.from_json(F.scenario_json()))
    s.apply(c.Seek(0.3))
    ids = [em.logical_id for em in live_emitters(s.world)]
    assert ids == [0xFFFF0000]                      # ParticleManager's first own id
    assert emitter_id_label(ids[0]) == "0xFFFF0000 (anonymous)"
    assert emitter_id_label(1) == "1" and emitter_id_label(0xFFFF0003).endswith("anonymous)")


def test_play_on_object_at_nan_says_so_and_marks_the_timeline(gl_ctx):
    s = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (700, 500)) as (app, target):
        app.controller.apply(c.SetIntensity(math.nan))
        app.controller.apply(c.Seek(0.5))
        app.wiring.table_state["toast"] = "Played Launch (0x04) ... none"   # as the button
        app.only_panel = "Script Table"
        app.frame(1 / 60, display_size=target.size, target=target.fbo)
        assert any(getattr(item[0], "text", "").startswith("Played Launch")
                   for item in app.toasts.items)
        app.controller.apply(c.PlayTyped(1, 4, math.nan))
        marks = s.timeline_view().events
        assert marks[-1][0] == 0.5 and marks[-1][2]          # flagged: nan plays nothing
        assert "intensity nan" in marks[-1][1]
