"""The interactive viewer: one ``ViewerApp`` drives both the window and headless capture.

``ViewerApp`` is the coordinator: it owns the ImGui context and renderer, the controller
(the one place commands are applied), the error log and the frame statistics, and the
parts that each keep one concern:

- ``scene_view`` (``viewer/app/scene_view.py``): the 3D view and its comparison composite;
- ``wiring`` (``viewer/app/panels.py``): the dockspace, the keys and every panel's
  view-model;
- ``menus`` (``viewer/app/menus.py``): the main menu bar;
- ``prompts`` (``viewer/app/prompts.py``): the unsaved-changes prompt, Esc, the path dialog;
- ``jobs`` (``viewer/app/jobs.py``): long work with progress and Cancel (capture, Find
  offset, audit, opening DATs).

Per frame (``ViewerApp.frame``):
1. ``io.delta_time`` and the display size are set; the session (runtime) advances when
   playing;
2. the 3D view renders into the viewport's offscreen target (``viewer/render/framebuffer``)
   at the size the "Viewport" window had last frame: grid, axes, then the scene renderer;
3. the panels are built; each returns commands; ``Controller`` applies them in one place;
4. ImGui's draw data is drawn into the target framebuffer (the window's, or another
   offscreen target for ``vfxviewer screenshot``); then queued long work is stepped.

Every failure while loading, applying a command, drawing a panel or rendering the scene
goes to the error panel; the viewer keeps running.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import moderngl
import numpy as np
from imgui_bundle import imgui, implot
from PIL import Image

from viewer.app.jobs import LongWork, capture_events
from viewer.app.menus import MainMenu
from viewer.app.panels import PanelWiring
from viewer.app.prompts import Prompts
from viewer.app.scene_view import SceneView
from viewer.errors import OutputError
from viewer.media import save_image
from viewer.render.framebuffer import OffscreenTarget
from viewer.ui.controller import Controller, ViewState
from viewer.ui.error_panel import ErrorLog, Toasts
from viewer.ui.imgui_backend import ImGuiInput, ImGuiRenderer
from viewer.ui.stats_panel import FrameStats

HEADLESS_DT = 1.0 / 60.0


class _Part:
    """An attribute of one of the viewer's parts, reachable on the viewer itself as well
    (``app.viewport`` is ``app.scene_view.viewport``): the names scripts, commands and
    tests use."""

    def __init__(self, part: str, name: str | None = None) -> None:
        self.part, self.name = part, name

    def __set_name__(self, owner, name) -> None:
        self.name = self.name or name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return getattr(getattr(obj, self.part), self.name)

    def __set__(self, obj, value) -> None:
        setattr(getattr(obj, self.part), self.name, value)


class ViewerApp:
    """GL + ImGui state of one viewer. ``ini_path=None`` keeps no layout file (headless)."""

    # the parts' state and actions under the viewer's own names
    viewport = _Part("scene_view")
    grid = _Part("scene_view")
    scene_renderer = _Part("scene_view")
    use_scene_renderer = _Part("scene_view")
    compare_texture = _Part("scene_view")
    overlays = _Part("scene_view")
    particle_colour = _Part("scene_view")
    fold_backgrounds = _Part("wiring")
    assets_state = _Part("wiring")
    camera_state = _Part("wiring")
    capture_state = _Part("wiring")
    launch_state = _Part("wiring")
    emitter_counts = _Part("wiring")
    panels = _Part("wiring")
    file_dialog = _Part("prompts")
    recent = _Part("prompts")
    recent_dirs = _Part("prompts")
    should_close = _Part("prompts")
    quit_prompt = _Part("prompts")
    open_prompt = _Part("prompts")
    escape = _Part("prompts")
    request_quit = _Part("prompts")
    job = _Part("jobs")
    job_budget = _Part("jobs")
    open_later = _Part("jobs")
    cancel_job = _Part("jobs", "cancel")

    def __init__(self, ctx: moderngl.Context, *, display_size=(1280, 720),
                 ini_path: str | os.PathLike | None = None, session=None,
                 keymap: dict | None = None) -> None:
        self.ctx = ctx
        self.display_size = tuple(int(v) for v in display_size)
        self.imgui_context = imgui.create_context()
        io = imgui.get_io()
        io.config_flags |= imgui.ConfigFlags_.docking_enable
        # No keyboard navigation: the arrow keys and Space are the timeline's (they must not
        # also walk ImGui's focus across the Timeline's buttons); Tab still moves between
        # text fields.
        # A panel that fails half-way (say inside a table) must not take the viewer down:
        # ImGui unwinds its stacks at end of frame instead of asserting.
        io.config_error_recovery = True
        io.config_error_recovery_enable_assert = False
        io.config_error_recovery_enable_tooltip = False
        self.ini_path = None if ini_path is None else Path(ini_path)
        if self.ini_path is not None:
            self.ini_path.parent.mkdir(parents=True, exist_ok=True)
            io.set_ini_filename(str(self.ini_path))
        else:
            io.set_ini_filename("")
        io.display_size = self.display_size
        imgui.style_colors_dark()
        # ImGui 1.92 shrinks dock tabs that do not fit only down to 80 px, then scrolls the
        # rest out of sight; every tab stays in its bar, shrunk (its title cut), as before
        imgui.get_style().tab_min_width_shrink = 1.0
        self.renderer = ImGuiRenderer(ctx, display_size=self.display_size)
        self.input = ImGuiInput(keymap)
        self.errors = ErrorLog()
        self.stats = FrameStats()
        self.toasts = Toasts()
        self.implot_context = implot.create_context()
        self.controller = Controller(ViewState(), session, self.errors)
        self.fb_scale = 1.0
        self.only_panel: str | None = None   # draw one panel filling the display (tests)
        self.frame_count = 0
        self.clock = time.perf_counter   # times Stats' split (tests: a fixed one)
        # the parts, each one concern
        self.scene_view = SceneView(self)
        self.jobs = LongWork(self)
        self.prompts = Prompts(self, ini_path)
        self.wiring = PanelWiring(self)
        self.menus = MainMenu(self)
        self.controller.opener = self.jobs.open
        self.controller.capture_reader = capture_events
        self.controller.audit_later = True
        self.controller.before_replacing = self.prompts.before_replacing

    @property
    def session(self):
        return self.controller.session

    @session.setter
    def session(self, value) -> None:
        self.controller.session = value

    def frame(self, dt: float, display_size=None, target: moderngl.Framebuffer | None = None,
              framebuffer_scale: float = 1.0):
        """Run one frame and draw it into ``target`` (default: the screen)."""
        io = imgui.get_io()
        if display_size is not None:
            self.display_size = tuple(int(v) for v in display_size)
        io.display_size = self.display_size
        io.display_framebuffer_scale = (framebuffer_scale, framebuffer_scale)
        self.fb_scale = framebuffer_scale
        io.delta_time = max(float(dt), 1e-6)   # ImGui asserts on a zero delta
        self.stats.add_frame(dt)
        clock = self.clock   # Stats' split of the frame: simulation, render, UI
        t0 = clock()
        self._guard("session tick", self._tick_session, dt)
        sim = clock() - t0
        self._guard("reference", self.controller.sync_reference)
        self._guard("camera follow", self.controller.follow_selection)
        t0 = clock()
        self.scene_view.resize()
        self.scene_view.compare_shown = False
        if self.only_panel in (None, "Viewport"):
            self._guard("render 3D view", self.scene_view.render)
            self._guard("comparison view", self.scene_view.composite)
        render = clock() - t0

        t0 = clock()
        self.input.begin_frame()
        imgui.new_frame()
        self.wiring.build()
        imgui.render()
        self._guard("comparison figures", self.scene_view.read_back)

        if target is not None:
            target.use()
        self.ctx.viewport = (0, 0, int(self.display_size[0] * framebuffer_scale),
                             int(self.display_size[1] * framebuffer_scale))
        self.ctx.scissor = None
        fbo = target if target is not None else self.ctx.screen
        fbo.clear(*self.wiring.clear_colour())
        # images with alpha 255 everywhere: the 3D view (its alpha cleared to 1) and the
        # comparison composite (both composers write alpha 1)
        opaque = {self.scene_view.viewport.color.glo} if self.scene_view.view_opaque else set()
        if not self.wiring.fold_backgrounds:
            opaque.clear()
        elif self.scene_view.compare_shown and self.scene_view.compare_texture is not None:
            opaque.add(self.scene_view.compare_texture.glo)
        self.renderer.render(imgui.get_draw_data(), self.wiring.docked_recolour(), opaque)
        self.stats.add_split(sim, render, clock() - t0)
        self.frame_count += 1
        requests = self.controller.view.screenshot_requests
        while requests:
            self._guard("screenshot", self._save_screenshot, fbo, requests.pop(0))
        if not self.jobs.stepping:
            self._guard("long work", self.jobs.run)

    def _save_screenshot(self, fbo, path: str) -> None:
        """The whole viewer as drawn this frame, to a PNG."""
        w = int(self.display_size[0] * self.fb_scale)
        h = int(self.display_size[1] * self.fb_scale)
        data = fbo.read(viewport=(0, 0, w, h), components=4, alignment=1)
        img = np.frombuffer(data, np.uint8).reshape(h, w, 4)[::-1]
        out = Path(path)
        if out.parent.exists() and not out.parent.is_dir():
            raise OutputError(f"cannot write the screenshot: {out.parent} is not a folder",
                              file=str(out))
        try:  # a path under a file, a read-only folder, a type Pillow cannot write: one line
            out.parent.mkdir(parents=True, exist_ok=True)
            # under a partial name, renamed when whole: an interrupted save leaves no file
            save_image(Image.fromarray(np.ascontiguousarray(img), "RGBA"), out)
        except (OSError, ValueError) as err:
            raise OutputError(f"cannot write the screenshot: "
                              f"{getattr(err, 'strerror', None) or err}", file=str(out)) from None
        self.wiring.camera_state.last_screenshot = str(out)

    def _guard(self, context: str, fn, *args):
        try:
            return fn(*args)
        except Exception as err:  # noqa: BLE001 - keep running, show it
            self.errors.report(err, context)
            return None

    def _tick_session(self, dt: float) -> None:
        session = self.session
        if session is None:
            return
        try:
            session.tick(dt)
        finally:  # what the runtime met on the way (absent records): once each in Errors
            take = getattr(session, "take_notices", None)   # a session that keeps none
            for notice in (take() if take is not None else ()):
                self.errors.report(notice, "playback")
        stats = session.stats()
        self.stats.sim_time = float(stats.get("time", 0.0))
        self.stats.sim_frame = int(stats.get("frame", 0))
        self.stats.particles = int(stats.get("particles", 0))
        self.stats.emitters = int(stats.get("emitters", 0))
        self.stats.updates = int(stats.get("updates", 0))
        self.stats.rng_draws = int(stats.get("rng_draws", 0))

    @property
    def modified(self) -> bool:
        return self.session is not None and self.session.modified

    def title(self) -> str:
        """The window title: scenario, DAT(s), a * while there are unsaved changes."""
        s = self.session
        if s is None:
            return "AC VFX Viewer"
        path = s.file or s.scenario.path
        scenario = "untitled" if path is None else Path(path).name
        dats = ", ".join(Path(p).name for p in s.dat_paths) or "no DAT"
        return f"{scenario}{'*' if s.modified else ''} \u2014 {dats} \u2014 AC VFX Viewer"

    def capture(self, size, frames: int = 4, dt: float = HEADLESS_DT,
                actions=()) -> np.ndarray:
        """Render ``frames`` frames of the whole viewer into an offscreen target of ``size``
        and return the last as HxWx4 uint8 (the layout settles over the first frames).
        ``actions``: (frame, command) pairs applied before that frame, as ``--actions``."""
        target = OffscreenTarget(self.ctx, size)
        pending = sorted(actions, key=lambda a: a[0])
        try:
            for k in range(max(1, frames)):
                while pending and pending[0][0] <= k:
                    self.controller.apply(pending.pop(0)[1], "actions")
                self.frame(dt, display_size=size, target=target.fbo)
            return target.read_rgba()
        finally:
            target.release()

    def release(self) -> None:
        if self.ini_path is not None:
            imgui.save_ini_settings_to_disk(str(self.ini_path))
        self.controller.view.compare.forget_reading()
        self.scene_view.release()
        self.renderer.shutdown()
        implot.destroy_context(self.implot_context)
        imgui.destroy_context(self.imgui_context)
