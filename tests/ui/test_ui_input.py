"""Keyboard and mouse reach ImGui fully (letters, modifiers, buttons, wheel) and
io.delta_time follows every frame; mouse drags over the Viewport move the camera."""

from __future__ import annotations

import pytest
from imgui_bundle import imgui
from moderngl_window.context.glfw.keys import Keys as GlfwKeys

from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.ui.imgui_backend import build_keymap

SIZE = (480, 320)


@pytest.fixture
def app(gl_ctx):
    a = ViewerApp(gl_ctx, display_size=SIZE, keymap=build_keymap(GlfwKeys))
    target = OffscreenTarget(gl_ctx, SIZE)
    a.test_target = target
    yield a
    a.release()
    target.release()


def _frame(app, dt=1 / 60):
    app.frame(dt, display_size=SIZE, target=app.test_target.fbo)


def test_keymap_covers_letters_digits_function_keys_and_modifiers():
    km = build_keymap(GlfwKeys)
    assert km[GlfwKeys.A] == imgui.Key.a and km[GlfwKeys.Z] == imgui.Key.z
    assert km[GlfwKeys.NUMBER_5] == imgui.Key._5 and km[GlfwKeys.F12] == imgui.Key.f12
    assert km[GlfwKeys.LEFT_SHIFT] == imgui.Key.left_shift
    assert km[GlfwKeys.NUMPAD_3] == imgui.Key.keypad3
    assert km[GlfwKeys.ESCAPE] == imgui.Key.escape


def test_letters_and_modifiers_reach_imgui(app):
    _frame(app)
    app.input.modifiers(ctrl=True, shift=True, alt=False)
    assert app.input.key(GlfwKeys.A, True)
    _frame(app)
    io = imgui.get_io()
    assert imgui.is_key_down(imgui.Key.a)
    assert io.key_ctrl and io.key_shift and not io.key_alt
    app.input.key(GlfwKeys.A, False)
    app.input.modifiers(False, False, False)
    _frame(app)
    assert not imgui.is_key_down(imgui.Key.a) and not io.key_ctrl


def test_unknown_key_is_ignored_not_raised(app):
    assert app.input.key(-12345, True) is False


def test_mouse_position_and_buttons_reach_imgui(app):
    # (the wheel is checked through its effect: zoom, below)
    app.input.mouse_pos(100, 50)
    app.input.mouse_button(1, True)
    _frame(app)
    io = imgui.get_io()
    assert (io.mouse_pos.x, io.mouse_pos.y) == (100, 50)
    assert not io.mouse_down[1]   # a press with the move onto a place: one frame later
    _frame(app)
    assert io.mouse_down[1] and not io.mouse_down[0]
    app.input.mouse_button(1, False)
    app.input.mouse_button(0, True)   # where the mouse already was: at once
    _frame(app)
    assert io.mouse_down[0] and not io.mouse_down[1]


def test_delta_time_updated_every_frame(app):
    for dt in (0.01, 0.05, 0.2):
        _frame(app, dt)
        assert imgui.get_io().delta_time == pytest.approx(dt)


def _viewport_centre():
    win = imgui.internal.find_window_by_name("Viewport")
    return win.pos.x + win.size.x / 2, win.pos.y + win.size.y / 2


def test_left_drag_over_viewport_orbits_camera_and_wheel_zooms(app):
    _frame(app)
    _frame(app)
    x, y = _viewport_centre()
    before = app.controller.view.camera
    app.input.mouse_pos(x, y)
    _frame(app)
    app.input.mouse_button(0, True)
    _frame(app)
    for i in range(1, 4):
        app.input.mouse_pos(x + 10 * i, y + 4 * i)
        _frame(app)
    app.input.mouse_button(0, False)
    _frame(app)
    after = app.controller.view.camera
    assert after.yaw != before.yaw and after.pitch != before.pitch
    assert after.distance == before.distance
    app.input.wheel(0.0, 1.0)
    _frame(app)
    assert app.controller.view.camera.distance < after.distance


def _typing_frame():
    imgui.get_io().display_size = SIZE
    imgui.new_frame()
    imgui.set_next_window_pos(imgui.ImVec2(0, 0))
    imgui.begin("typing")
    if imgui.is_window_appearing():
        imgui.set_keyboard_focus_here()
    _, text = imgui.input_text("field", "")
    imgui.end()
    imgui.render()
    return text


def test_typed_characters_reach_a_text_field(app):
    _frame(app)
    _typing_frame()          # focuses the field
    _typing_frame()
    app.input.char("hé")
    assert _typing_frame() == "hé"


def test_space_and_arrows_drive_the_timeline(app):
    import ui_fixtures as F

    from viewer.sim.scenario import Scenario
    from viewer.ui.session import Session

    app.session = Session(F.database(), Scenario.from_json(F.scenario_json()))
    _frame(app)
    for key, want in ((GlfwKeys.RIGHT, 1), (GlfwKeys.RIGHT, 2), (GlfwKeys.LEFT, 1)):
        app.input.key(key, True)
        _frame(app)
        app.input.key(key, False)
        _frame(app)
        assert app.session.playback.frame == want
    app.input.key(GlfwKeys.SPACE, True)
    _frame(app)
    app.input.key(GlfwKeys.SPACE, False)
    assert app.session.playback.playing


def test_esc_gives_the_keyboard_back_to_the_viewport_and_never_quits(app):
    import ui_fixtures as F

    from viewer.sim.scenario import Scenario
    from viewer.ui.session import Session
    from viewer.ui.shortcuts import focused_window

    app.session = Session(F.database(), Scenario.from_json(F.scenario_json()))
    for _ in range(4):
        _frame(app)
    imgui.set_window_focus("Assets")
    _frame(app)
    assert focused_window() == "Assets"
    app.input.key(GlfwKeys.RIGHT, True)          # Assets focused: no step
    app.input.key(GlfwKeys.RIGHT, False)
    _frame(app)
    assert app.session.playback.frame == 0
    app.input.key(GlfwKeys.ESCAPE, True)
    app.input.key(GlfwKeys.ESCAPE, False)
    _frame(app)
    _frame(app)
    assert focused_window() == "Viewport" and not app.should_close
    app.input.key(GlfwKeys.RIGHT, True)
    app.input.key(GlfwKeys.RIGHT, False)
    _frame(app)
    assert app.session.playback.frame == 1


def _press(app, key, frames=1):
    app.input.key(key, True)
    app.input.key(key, False)
    for _ in range(frames):
        _frame(app)


def _session_app(app):
    import ui_fixtures as F

    from viewer.sim.scenario import Scenario
    from viewer.ui.session import Session

    app.session = Session(F.database(), Scenario.from_json(F.scenario_json()))
    for _ in range(4):
        _frame(app)


def test_arrows_in_a_text_field_or_a_table_never_step_the_timeline(app):
    """Issue 19: the navigation keys act on the timeline only while the Viewport or the
    Timeline has focus (or no window has)."""
    from viewer.ui.shortcuts import focused_window

    _session_app(app)
    app.file_dialog = ("load", "scenario.json")      # its path field takes the keyboard
    for _ in range(3):
        _frame(app)
    assert imgui.get_io().want_text_input
    for key in (GlfwKeys.RIGHT, GlfwKeys.RIGHT, GlfwKeys.LEFT, GlfwKeys.SPACE, GlfwKeys.HOME):
        _press(app, key)
    assert app.session.playback.frame == 0 and not app.session.playback.playing
    _press(app, GlfwKeys.ESCAPE, 4)                  # the field lets the keyboard go ...
    assert app.file_dialog is not None and not imgui.get_io().want_text_input
    _press(app, GlfwKeys.ESCAPE, 2)                  # ... and the next Esc closes the dialog
    assert app.file_dialog is None and not app.should_close
    imgui.set_window_focus("Emitters")               # a table panel
    _frame(app)
    assert focused_window() == "Emitters" and not imgui.get_io().want_text_input
    _press(app, GlfwKeys.RIGHT)
    _press(app, GlfwKeys.SPACE)
    assert app.session.playback.frame == 0 and not app.session.playback.playing
    imgui.set_window_focus("Timeline")
    _frame(app)
    _press(app, GlfwKeys.RIGHT)
    assert app.session.playback.frame == 1


def test_arrows_step_the_timeline_and_never_walk_imgui_focus_over_its_buttons(app):
    _session_app(app)
    imgui.set_window_focus("Timeline")
    _frame(app)
    g = imgui.get_current_context()
    assert not imgui.get_io().config_flags & imgui.ConfigFlags_.nav_enable_keyboard
    nav_before = g.nav_id
    for n in range(1, 6):
        _press(app, GlfwKeys.RIGHT)
        assert app.session.playback.frame == n
        assert g.nav_id == nav_before and not g.nav_cursor_visible
    _press(app, GlfwKeys.LEFT)
    assert app.session.playback.frame == 4 and g.nav_id == nav_before


def test_double_clicking_a_setup_in_assets_replaces_the_scene_and_ctrl_z_brings_it_back(app):
    """Issue 19: "double-clicking a Setup in Assets replaces the whole scene with no way
    back": the replaced scene, with its edits, comes back with Ctrl+Z."""
    import ui_fixtures as F

    from viewer.ui import commands as c

    _session_app(app)
    s = app.session
    s.apply(c.Seek(0.2))
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))           # an unsaved edit
    edited = [e.to_json() for e in s.scenario.events]
    app.only_panel = "Assets"                        # the panel alone, filling the display
    from viewer.ui.assets_panel import FILTERS
    app.assets_state.type_index = [n for n, _ in FILTERS].index("Setup (0x02)")
    app.assets_state.query = f"0x{F.SETUP:08X}"      # one row: the Setup
    _frame(app)
    _frame(app)
    rows = next(w for w in imgui.get_current_context().windows
                if w.name.startswith("Assets/list"))
    app.input.mouse_pos(rows.pos.x + 40, rows.pos.y + 8)
    _frame(app)
    for _ in range(2):                               # a double click
        app.input.mouse_button(0, True)
        _frame(app)
        app.input.mouse_button(0, False)
        _frame(app)
    assert s.scenario.events == [] and s.modified
    assert s.history.undo_label() == f"load Setup 0x{F.SETUP:08X}"
    app.only_panel = None
    for _ in range(3):
        _frame(app)
    imgui.set_window_focus("Viewport")
    _frame(app)
    app.input.modifiers(True, False, False)
    _press(app, GlfwKeys.Z, 2)
    app.input.modifiers(False, False, False)
    assert [e.to_json() for e in s.scenario.events] == edited and s.modified
    assert s.history.undo_label() == "play script" and app.errors.entries == []
