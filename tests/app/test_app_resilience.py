"""The viewer keeps running when something fails: failures go to the error panel."""

from __future__ import annotations

from imgui_bundle import imgui

from viewer.app import ViewerApp
from viewer.errors import DatError
from viewer.render.framebuffer import OffscreenTarget

SIZE = (320, 240)


class BrokenSession:
    def tick(self, dt):
        raise DatError("corrupt record", file="x.dat", did=0x34000001, offset=12)

    def stats(self):
        return {}


def test_failing_session_panel_and_renderer_are_reported_not_raised(gl_ctx):
    app = ViewerApp(gl_ctx, display_size=SIZE, session=BrokenSession())
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        original = app.panels

        def half_drawn():
            imgui.begin("Half")
            imgui.begin_table("t", 2)
            imgui.begin_child("c")
            raise ValueError("half way")

        def panels():
            yield from original()
            yield "Broken", lambda: (_ for _ in ()).throw(ValueError("boom"))
            yield "Half", half_drawn
        app.panels = panels

        def bad_renderer(session, camera, target):
            raise RuntimeError("shader exploded")
        app.scene_renderer = bad_renderer
        for _ in range(3):
            app.frame(1 / 60, SIZE, target.fbo)
        kinds = {(e.kind, e.context) for e in app.errors.entries}
        assert ("DatError", "session tick") in kinds
        assert ("InternalError", "panel Broken") in kinds
        assert ("InternalError", "panel Half") in kinds   # ImGui's stack was unwound
        assert ("InternalError", "render 3D view") in kinds
        assert all(e.count == 3 for e in app.errors.entries)
        assert app.frame_count == 3
        assert imgui.get_frame_count() == 3
    finally:
        app.release()
        target.release()
