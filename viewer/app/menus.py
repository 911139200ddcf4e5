"""The main menu bar: File, Edit, View (cameras, overlays, particle colour, layout).

Items that edit the scenario or the view go through the controller as commands; File's
dialogs and Quit go to the prompts (``viewer/app/prompts.py``).
"""

from __future__ import annotations

from imgui_bundle import imgui

from viewer.app.scene_view import OVERLAYS
from viewer.render.particle_debug import PARTICLE_COLOURS
from viewer.ui import commands as c
from viewer.ui.view_options import BACKGROUNDS

# File menu: label -> the path dialog's kind (viewer/app/prompts.py)
FILE_ITEMS = (("Open DAT...", "dat"), ("Load scenario...", "load"),
              ("Save scenario as...", "save"), ("Load reference recording...", "reference"))


class MainMenu:
    """The menu bar (``ViewerApp.menus``), drawn first in every frame's UI."""

    def __init__(self, app) -> None:
        self.app = app

    def draw(self) -> None:
        app = self.app
        if imgui.begin_main_menu_bar():
            if imgui.begin_menu("File"):
                self._file_menu()
                imgui.end_menu()
            if imgui.begin_menu("Edit"):
                self._edit_menu()
                imgui.end_menu()
            if imgui.begin_menu("View"):
                self._view_menu()
                imgui.end_menu()
            imgui.end_main_menu_bar()
        if app.prompts.file_dialog is not None:
            app.prompts.file_path_popup()

    def _file_menu(self) -> None:
        app = self.app
        for label, kind in FILE_ITEMS:
            if kind == "save" and imgui.menu_item("Save scenario", "Ctrl+S", False,
                                                  app.session is not None)[0]:
                app.prompts.save_or_ask()   # its own file, else Save As (never the library)
            if imgui.menu_item(label, "", False)[0]:
                app.prompts.open_dialog(kind)
        if imgui.menu_item("Audit open DATs", "", False)[0]:
            app.controller.apply(c.RunAudit(), "Audit")
        imgui.separator()
        if imgui.menu_item("Quit", "Ctrl+Q", False)[0]:
            app.prompts.request_quit()

    def _edit_menu(self) -> None:
        app = self.app
        h = None if app.session is None else app.session.history
        undo = h.undo_label() if h is not None else None
        redo = h.redo_label() if h is not None else None
        if imgui.menu_item(f"Undo {undo or ''}".strip(), "Ctrl+Z", False, undo is not None)[0]:
            app.controller.apply(c.Undo(), "Undo")
        if imgui.menu_item(f"Redo {redo or ''}".strip(), "Ctrl+Shift+Z", False,
                           redo is not None)[0]:
            app.controller.apply(c.Redo(), "Redo")

    def _view_menu(self) -> None:
        app, panels = self.app, self.app.wiring
        for name in ("perspective", "front", "side", "top"):
            if imgui.menu_item(f"Camera: {name}", "", False)[0]:
                app.controller.apply(c.CameraPreset(name))
        if imgui.menu_item("Camera: retail", "", False)[0]:
            app.controller.apply(c.CameraRetail())
        self._view_camera_items()
        self._view_debug_menus()
        if imgui.menu_item("Reset layout", "", False)[0]:
            panels.layout_done, panels.reset_layout = False, True
        _, panels.show_demo = imgui.menu_item("ImGui demo", "", panels.show_demo)

    def _view_camera_items(self) -> None:
        """Follow the selected object, frame all, reset; grid, axes, background: view
        settings (the Camera panel has the same)."""
        ctl = self.app.controller
        opts = ctl.view.options
        if imgui.menu_item("Follow selected", "", opts.follow)[0]:
            ctl.apply(c.CameraFollow(not opts.follow))
        for label, cmd in (("Frame all", c.CameraFrameAll()), ("Reset camera", c.CameraReset())):
            if imgui.menu_item(label, "", False)[0]:
                ctl.apply(cmd)
        imgui.separator()
        for layer, label in (("grid", "Grid"), ("axes", "Axes")):
            if imgui.menu_item(label, "", getattr(opts, layer))[0]:
                ctl.apply(c.SetViewLayer(layer, not getattr(opts, layer)))
        if imgui.begin_menu("Background"):
            for name in BACKGROUNDS:
                if imgui.menu_item(name, "", opts.background == name)[0]:
                    ctl.apply(c.SetBackground(name))
            imgui.end_menu()

    def _view_debug_menus(self) -> None:
        """View > Overlays and View > Particle colour (emitter debugging): view settings."""
        view = self.app.scene_view
        if imgui.begin_menu("Overlays"):
            for name, label in OVERLAYS:
                _, view.overlays[name] = imgui.menu_item(label, "", view.overlays[name])
            imgui.end_menu()
        if imgui.begin_menu("Particle colour"):
            for mode in PARTICLE_COLOURS:
                if imgui.menu_item(mode, "", view.particle_colour == mode)[0]:
                    view.particle_colour = mode
            imgui.end_menu()
