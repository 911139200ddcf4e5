"""Camera panel: presets, frame the selection or everything, follow the selected object,
reset, the grid / axes / background (view settings), bookmarks, and the screenshot button.
(Orbit / pan / zoom / fly are mouse and keys over the Viewport.)"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.render.camera import PRESETS
from viewer.ui import commands as c
from viewer.ui.view_options import BACKGROUNDS, ViewOptions
from viewer.ui.widgets import (
    button_width,
    checkbox_width,
    same_line_if_fits,
    text_wrapped,
    text_wrapped_disabled,
)


@dataclass
class CameraPanelState:
    bookmark_name: str = "view 1"
    screenshot_path: str = "out/viewer.png"
    last_screenshot: str = ""


def draw_camera_panel(camera, bookmarks: list[str], state: CameraPanelState,
                      options: ViewOptions | None = None) -> list[c.Command]:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Camera", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        t = camera.target
        text_wrapped(imgui, f"target ({t[0]:.2f}, {t[1]:.2f}, {t[2]:.2f})  "
                           f"distance {camera.distance:.2f}")
        for i, name in enumerate(PRESETS):
            if i:
                same_line_if_fits(imgui, button_width(imgui, name.capitalize()))
            if imgui.button(name.capitalize()):
                out.append(c.CameraPreset(name))
        if imgui.button("Retail"):
            out.append(c.CameraRetail())
        same_line_if_fits(imgui, button_width(imgui, "Retail: in head"))
        if imgui.button("Retail: in head"):
            out.append(c.CameraRetail(in_head=True))
        if camera.fov_mode == "retail":
            text_wrapped_disabled(imgui, "retail FOV: (pi/2) / (aspect - 0.1); narrower "
                                         "than 4:3: 4:3's width")
        if imgui.button("Frame selected (F)"):
            out.append(c.CameraFrameSelected())
        for label, cmd in (("Frame all", c.CameraFrameAll()), ("Reset", c.CameraReset())):
            same_line_if_fits(imgui, button_width(imgui, label))
            if imgui.button(label):
                out.append(cmd)
        if options is not None:
            _view_options(imgui, options, out)
        imgui.set_next_item_width(120)
        _, state.bookmark_name = imgui.input_text("##bm", state.bookmark_name)
        same_line_if_fits(imgui, button_width(imgui, "Save bookmark"))
        if imgui.button("Save bookmark") and state.bookmark_name.strip():
            out.append(c.CameraBookmark(state.bookmark_name.strip(), save=True))
        for name in bookmarks:
            if imgui.small_button(f"Go: {name}"):
                out.append(c.CameraBookmark(name))
        imgui.separator()
        imgui.set_next_item_width(180)
        _, state.screenshot_path = imgui.input_text("##shot", state.screenshot_path)
        same_line_if_fits(imgui, button_width(imgui, "Screenshot"))
        if imgui.button("Screenshot") and state.screenshot_path.strip():
            out.append(c.TakeScreenshot(state.screenshot_path.strip()))
        if state.last_screenshot:
            text_wrapped_disabled(imgui, f"saved {state.last_screenshot}")
    finally:
        imgui.end()
    return out


def _view_options(imgui, options: ViewOptions, out: list[c.Command]) -> None:
    """Follow the selected object; grid, axes and background (view settings only)."""
    changed, on = imgui.checkbox("Follow selected", options.follow)
    if changed:
        out.append(c.CameraFollow(on))
    for layer, label in (("grid", "Grid"), ("axes", "Axes")):
        same_line_if_fits(imgui, checkbox_width(imgui, label))
        changed, on = imgui.checkbox(label, getattr(options, layer))
        if changed:
            out.append(c.SetViewLayer(layer, on))
    imgui.set_next_item_width(120)
    if imgui.begin_combo("Background", options.background):
        for name in BACKGROUNDS:
            if imgui.selectable(name, name == options.background)[0]:
                out.append(c.SetBackground(name))
        imgui.end_combo()
