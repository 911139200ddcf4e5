"""Stats splits the frame time into simulation, render and UI (issue 28, item 6), each
smoothed like the frame time; a headless frame fills all three."""

from __future__ import annotations

import ui_fixtures as F

from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.session import Session
from viewer.ui.stats_panel import FrameStats


def test_the_split_is_smoothed_and_listed():
    st = FrameStats()
    st.add_split(0.002, 0.004, 0.006)
    assert (st.sim_ms, st.render_ms, st.ui_ms) == (2.0, 4.0, 6.0)
    st.add_split(0.012, 0.004, 0.006)
    assert st.sim_ms == 3.0                        # 10% of the way, as the frame time
    names = [name.strip() for name, _ in st.rows()]
    assert names[:4] == ["frame", "simulation", "render", "UI"]


def test_a_frame_fills_the_split(gl_ctx):
    s = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (640, 400)) as (app, target):
        app.controller.apply(c.Play())
        for _ in range(3):
            app.frame(1 / 30, display_size=target.size, target=target.fbo)
        st = app.stats
        assert st.sim_ms > 0 and st.render_ms > 0 and st.ui_ms > 0
        assert st.sim_ms + st.render_ms + st.ui_ms < 10_000
