"""The interactive viewer: one ``ViewerApp`` drives both the window and headless capture.

Per frame (``ViewerApp.frame``):
1. ``io.delta_time`` and the display size are set; the session (runtime) advances when
   playing;
2. the 3D view renders into the viewport's offscreen target (``viewer/render/framebuffer``)
   at the size the "Viewport" window had last frame: grid, axes, then the scene renderer;
3. the panels are built; each returns commands; ``Controller`` applies them in one place;
4. ImGui's draw data is drawn into the target framebuffer (the window's, or another
   offscreen target for ``vfxviewer screenshot``).

Every failure while loading, applying a command, drawing a panel or rendering the scene
goes to the error panel; the viewer keeps running.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import moderngl
import moderngl_window as mglw
import numpy as np
from imgui_bundle import imgui, implot
from PIL import Image

from viewer.bounds import VIEWER_FRAMES
from viewer.compare.align import estimate_offset
from viewer.errors import ScenarioError
from viewer.inputs import ACTIONS_MAX_BYTES, read_text_capped
from viewer.media import FrameWriter
from viewer.render.composite import reference_texels
from viewer.render.framebuffer import OffscreenTarget, PixelReadback
from viewer.render.grid import GridPass
from viewer.render.particle_debug import PARTICLE_COLOURS, particle_bounds, velocity_lines
from viewer.render.renderer import SceneRenderer
from viewer.render.world_adapter import build_scene_input
from viewer.sim import inspect, presets
from viewer.sim.inspect import live_emitters, object_summaries, state_transitions
from viewer.sim.scenario import read_json
from viewer.ui import commands as c
from viewer.ui import layout
from viewer.ui.action_args import command_args_problem
from viewer.ui.assets_panel import AssetIndex, AssetsState, RecentFiles, draw_assets_panel
from viewer.ui.audit_panel import draw_audit_panel
from viewer.ui.camera_panel import CameraPanelState, draw_camera_panel
from viewer.ui.capture_panel import CapturePanelState, draw_capture_panel
from viewer.ui.compare_panel import (
    ReferencePanelState,
    draw_reference_panel,
    panel_view,
    scenario_play_events,
)
from viewer.ui.controller import Controller, ViewState
from viewer.ui.emitter_filter import filter_particles
from viewer.ui.emitter_plot import EmitterCounts, draw_counts_plot
from viewer.ui.emitters_panel import draw_emitters_panel, emitters_view
from viewer.ui.error_panel import ErrorLog, Toasts, draw_error_panel, draw_toasts
from viewer.ui.hidden_panel import draw_hidden_panel
from viewer.ui.imgui_backend import ImGuiInput, ImGuiRenderer, build_keymap
from viewer.ui.launch_panel import LaunchPanelState, LaunchView, draw_launch_panel
from viewer.ui.object_panel import ObjectPanelState, draw_object_panel
from viewer.ui.progress import Job, ThreadJob, draw_progress
from viewer.ui.script_table_panel import ScriptTableView, draw_script_table_panel
from viewer.ui.session import plan_session, read_index
from viewer.ui.shortcuts import (
    ESCAPE,
    QUIT,
    SAVE,
    focused_window,
    held_repeats,
    press_actions,
)
from viewer.ui.stats_panel import FrameStats, draw_stats_panel
from viewer.ui.timeline import draw_timeline
from viewer.ui.viewport_panel import (
    SELECTED_EMITTER,
    SELECTED_OBJECT,
    SELECTED_PARTICLE,
    draw_viewport_panel,
    pick_object,
    pick_particle,
    project,
    project_many,
)
from viewer.wire.replay import replay_events

BACKGROUND = (0.11, 0.12, 0.14, 1.0)
HIGHLIGHT_MAX = 400   # particles of the selected emitter ringed in the view
# View > Overlays: RenderSettings flags and their menu labels
OVERLAYS = (("show_spheres", "Bounds (Setup and emitter spheres)"),
            ("show_emitter_anchors", "Emitter anchors"), ("show_part_axes", "Part axes"),
            ("show_collision", "Collision shapes"),
            ("show_velocities", "Velocities (selected emitter's particles)"),
            ("show_particle_bounds", "Particle bounds (selected emitter's, else every emitter's)"))
HEADLESS_DT = 1.0 / 60.0


class ViewerApp:
    """GL + ImGui state of one viewer. ``ini_path=None`` keeps no layout file (headless)."""

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
        self.renderer = ImGuiRenderer(ctx, display_size=self.display_size)
        self.input = ImGuiInput(keymap)
        self.errors = ErrorLog()
        self.stats = FrameStats()
        self.toasts = Toasts()
        self.implot_context = implot.create_context()
        self.emitter_counts = EmitterCounts()   # the Emitters panel's counts over time
        # long work (Capture, Find offset): a progress.Job stepped after each frame for
        # job_budget seconds with a progress bar and Cancel (None: run to the end at once)
        self.job: Job | None = None
        self.job_budget: float | None = None
        self._stepping = False
        self.controller = Controller(ViewState(), session, self.errors)
        self.viewport = OffscreenTarget(ctx, (640, 480))
        self.renderer.register_texture(self.viewport.color)
        self.grid = GridPass(ctx)
        self.scene_renderer = None   # viewer.render.renderer.SceneRenderer for session.db
        self._scene_db = None
        self.use_scene_renderer = True
        # UI-only state of the panels (text boxes, tree state): never simulation state.
        self.table_state: dict = {}
        self.assets_state = AssetsState()
        self.object_state = ObjectPanelState()
        self.camera_state = CameraPanelState()
        self.reference_state = ReferencePanelState()
        self.capture_state = CapturePanelState()
        self.launch_state = LaunchPanelState()
        self.compare_texture: moderngl.Texture | None = None   # the comparison composite
        self._compare_shown = False
        self._read_back = None    # (frame, t, view tag, fbo): the 3D view to read back
        self._readback = PixelReadback(ctx)
        self._composer = None          # viewer.render.composite.CompositePass (GPU views)
        self._composed = None          # what the composer's texture was composed from
        self._composer_tried = False
        self.file_dialog: tuple[str, str] | None = None   # (kind, path text) while open
        self.recent = RecentFiles(None if ini_path is None
                                  else Path(ini_path).parent / "recent.json")
        # folders the file dialog opened or saved in (newest first), kept beside the layout
        self.recent_dirs = RecentFiles(None if ini_path is None
                                       else Path(ini_path).parent / "recent_dirs.json")
        self._asset_index: AssetIndex | None = None
        self._asset_index_db = None
        self.controller.opener = self._open
        self.controller.capture_reader = _capture_events
        self.controller.audit_later = True
        self._fb_scale = 1.0
        self.only_panel: str | None = None   # draw one panel filling the display (tests)
        self._focus_defaults = 0
        self.frame_count = 0
        self._emitters_memo = None   # (key, live_emitters) of this frame (_live_emitters)
        self._summaries_memo = None  # (key, object_summaries) of this frame (_summaries)
        self._want_viewport = self.viewport.size
        self._view_drawn = None      # _view_key of the image in the viewport (None: none)
        self.views_drawn = 0         # 3D views drawn into the viewport (tests count them)
        # Fold the dockspace host's full-screen background into the clear (_clear_colour),
        # draw the docked windows' backgrounds and the 3D view's image without blending:
        # the same pixels, less llvmpipe fill (False: all drawn as ImGui gives it, tests)
        self.fold_backgrounds = True
        self._dock_host_bg: int | None = None   # packed ImU32 folded into the clear
        self._dock_node = None                  # the dockspace's root node this frame
        self._view_opaque = False   # the 3D view's texture has alpha 255 everywhere
        self._folded_bg: dict = {}    # _clear_colour's and _docked_recolour's cache
        self._layout_done = False
        self._reset_layout = False
        self.show_demo = False
        # View > Overlays: the renderer's debug overlays (view settings only)
        self.overlays = {name: False for name, _ in OVERLAYS}
        # View > Particle colour: emitter debugging tint (particle_debug.PARTICLE_COLOURS)
        self.particle_colour = "none"
        # quitting: the window's close button / Ctrl+Q / File > Quit ask first when the
        # scenario has unsaved changes (save / discard / cancel); Esc never quits
        self.should_close = False
        self.quit_prompt = False
        # Open DAT / Load scenario over unsaved changes asks the same first: the command
        # held back while the prompt shows, and the one the user let through
        self.open_prompt: c.Command | None = None
        self._confirmed: c.Command | None = None
        self._after_save = None   # "quit" or a held-back command: once the Save dialog saved
        self.controller.before_replacing = self._before_replacing

    # --- session ----------------------------------------------------------------------------
    @property
    def session(self):
        return self.controller.session

    @session.setter
    def session(self, value) -> None:
        self.controller.session = value

    # --- frame ------------------------------------------------------------------------------
    def frame(self, dt: float, display_size=None, target: moderngl.Framebuffer | None = None,
              framebuffer_scale: float = 1.0):
        """Run one frame and draw it into ``target`` (default: the screen)."""
        io = imgui.get_io()
        if display_size is not None:
            self.display_size = tuple(int(v) for v in display_size)
        io.display_size = self.display_size
        io.display_framebuffer_scale = (framebuffer_scale, framebuffer_scale)
        self._fb_scale = framebuffer_scale
        io.delta_time = max(float(dt), 1e-6)   # ImGui asserts on a zero delta
        self.stats.add_frame(dt)
        self._guard("session tick", self._tick_session, dt)
        self._guard("reference", self.controller.sync_reference)
        self._resize_viewport()
        self._compare_shown = False
        if self.only_panel in (None, "Viewport"):
            self._guard("render 3D view", self._render_scene)
            self._guard("comparison view", self._composite)

        self.input.begin_frame()
        imgui.new_frame()
        self._build_ui()
        imgui.render()
        self._guard("comparison figures", self._read_view_back)

        if target is not None:
            target.use()
        self.ctx.viewport = (0, 0, int(self.display_size[0] * framebuffer_scale),
                             int(self.display_size[1] * framebuffer_scale))
        self.ctx.scissor = None
        fbo = target if target is not None else self.ctx.screen
        fbo.clear(*self._clear_colour())
        # images with alpha 255 everywhere: the 3D view (its alpha cleared to 1) and the
        # comparison composite (both composers write alpha 1)
        opaque = {self.viewport.color.glo} if self._view_opaque else set()
        if not self.fold_backgrounds:
            opaque.clear()
        elif self._compare_shown and self.compare_texture is not None:
            opaque.add(self.compare_texture.glo)
        self.renderer.render(imgui.get_draw_data(), self._docked_recolour(), opaque)
        self.frame_count += 1
        requests = self.controller.view.screenshot_requests
        while requests:
            self._guard("screenshot", self._save_screenshot, fbo, requests.pop(0))
        if not self._stepping:
            self._guard("long work", self._run_jobs)

    def _clear_colour(self) -> tuple:
        """BACKGROUND, or (when the dockspace's host window drew no background this frame)
        the exact colour its background drawn over BACKGROUND gave: one full-screen blended
        layer fewer for the rasteriser (on llvmpipe ~3 ms a frame at 1280x720), the same
        pixels (the menu bar above it is opaque)."""
        col = self._dock_host_bg
        if col is None:
            return BACKGROUND
        folded = self._folded_bg.get(col)
        if folded is None:
            folded = self._folded_bg[col] = self.renderer.blended(col, BACKGROUND)
        return folded

    def _docked_recolour(self) -> tuple | None:
        """(the dockspace host's draw list, WindowBg, the opaque colour WindowBg gives over
        the folded clear) for ``ImGuiRenderer.render``: the docked windows' backgrounds go
        into the host's draw list first, straight over the clear, so drawing them in the
        colour they blend to at alpha 255 leaves the same pixels, and the renderer draws
        them without blending (llvmpipe: no framebuffer read, covered tiles dropped)."""
        col, node = self._dock_host_bg, self._dock_node
        if col is None or node is None or node.host_window is None:
            return None
        key = (col, "docked")
        packed = self._folded_bg.get(key)
        if packed is None:
            rgba = self.renderer.blended(col, self._clear_colour())
            r, g, b, a = (round(v * 255) for v in rgba)
            packed = self._folded_bg[key] = r | g << 8 | b << 16 | a << 24
        return node.host_window.draw_list, col, packed

    def _run_jobs(self) -> None:
        """Start queued Capture / Find offset work as a progress.Job and step it for
        ``job_budget`` seconds (None: to the end at once, as headless runs do)."""
        exports = self.controller.view.export_requests
        self._stepping = True
        try:
            while True:
                if self.job is None:
                    if not exports:
                        return
                    self.job = self._job_for(exports.pop(0))
                job = self.job
                try:
                    if not job.step(self.job_budget):
                        return
                finally:
                    if job.finished:
                        self.job = None
        finally:
            self._stepping = False

    def _job_for(self, cmd) -> Job | ThreadJob:
        if isinstance(cmd, OpenLater):
            return self._open_job(cmd)
        if isinstance(cmd, c.AlignReferenceAuto):
            return Job("Find offset", self._align_steps())
        if isinstance(cmd, c.RunAudit):
            s = self.session
            return Job("Audit open DATs", self.controller.view.audit.steps(
                None if s is None else s.db.collection))
        return Job(f"Capture to {cmd.path}", self._export_steps(cmd))

    def cancel_job(self) -> None:
        if self.job is not None:
            self.job.cancel()
            if isinstance(self.job, Job):
                self.capture_state.last = f"{self.job.label}: cancelled"
            self.job = None

    def _save_screenshot(self, fbo, path: str) -> None:
        """The whole viewer as drawn this frame, to a PNG."""
        w = int(self.display_size[0] * self._fb_scale)
        h = int(self.display_size[1] * self._fb_scale)
        data = fbo.read(viewport=(0, 0, w, h), components=4, alignment=1)
        img = np.frombuffer(data, np.uint8).reshape(h, w, 4)[::-1]
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(np.ascontiguousarray(img), "RGBA").save(out)
        self.camera_state.last_screenshot = str(out)

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
        session.tick(dt)
        stats = session.stats()
        self.stats.sim_time = float(stats.get("time", 0.0))
        self.stats.sim_frame = int(stats.get("frame", 0))
        self.stats.particles = int(stats.get("particles", 0))
        self.stats.emitters = int(stats.get("emitters", 0))
        self.stats.updates = int(stats.get("updates", 0))
        self.stats.rng_draws = int(stats.get("rng_draws", 0))

    def _resize_viewport(self) -> None:
        old = self.viewport.color
        if self.viewport.resize(self._want_viewport):
            self.renderer.unregister_texture(old)
            self.renderer.register_texture(self.viewport.color)

    def _render_scene(self) -> None:
        """The 3D view into the viewport; when nothing it is drawn from changed
        (_view_key: paused, or playing faster than the scenario's frame rate between two
        simulated frames), the image drawn last stays as it is."""
        key = self._view_key()
        if key is not None and key == self._view_drawn:
            return
        self._view_drawn = None
        self._draw_view(self.viewport)
        self._view_drawn = self._view_key()    # the first view's eye may rebuild the world
        self.views_drawn += 1

    def _view_key(self) -> tuple | None:
        """Everything the 3D view's image is drawn from (None: no session): the renderer
        and its settings with the overlays and particle colour, the session and its
        scenario's generation, the world shown and its frame, the camera, the viewport's
        size and framebuffer, the selection (velocity and bounds overlays), solo / mute,
        and the count of commands applied (whatever a command changes)."""
        s = self.session
        if s is None:
            return None
        renderer = self._scene_renderer_for(s)
        return (self._view_tag(), _Is(renderer),
                None if renderer is None else renderer.gpu_particles,
                _Is(s), _Is(s.playback.world), s.playback.frame, _Is(self.viewport.fbo),
                self.controller.applied)

    def _view_tag(self) -> tuple:
        """What the 3D view's image of a frame is drawn with, beside the frame itself: the
        session and its scenario's generation, the renderer's settings with the overlays
        and particle colour, the camera, the viewport's size, the selection and solo /
        mute. A frame's comparison figures hold for its image drawn with the same tag."""
        s = self.session
        view = self.controller.view
        renderer = self._scene_renderer_for(s)
        flt = view.emitter_filter
        return (None if s is None else (s.serial, s.generation),
                None if renderer is None else self._view_settings(renderer),
                view.camera, self.viewport.size, view.selection, flt.solo,
                frozenset(flt.muted))

    def _view_settings(self, renderer):
        """The renderer's settings with the View menu's overlays and particle colour."""
        return replace(renderer.settings, **self.overlays, particle_colour=self.particle_colour)

    def _draw_view(self, target: OffscreenTarget, transparent: bool = False) -> None:
        """The 3D view into ``target``. ``transparent``: no grid, and alpha stays 0 where
        nothing is drawn (exports); otherwise the view is opaque."""
        if target is self.viewport:
            self._view_opaque = False   # until the alpha clear below makes it so
        camera = self.controller.view.camera
        session = self.session
        renderer = self._scene_renderer_for(session)
        if renderer is not None:
            settings = self._view_settings(renderer)
            if transparent:
                settings = replace(settings, background=(*settings.background[:3], 0.0),
                                   show_grid=False)
            # the distance cull's viewer and the sound listener, as render does
            session.set_viewer(camera.eye(), camera.forward())
            flt = self.controller.view.emitter_filter
            # solo / mute and particle colours: the CPU particle arrays, filtered and
            # tinted (view settings only)
            scene = build_scene_input(session.world,
                                      gpu_particles=renderer.gpu_particles and not flt.active,
                                      particle_colour=self.particle_colour)
            if settings.show_velocities:
                scene.overlays.velocities = self._selected_velocities()
            if settings.show_particle_bounds:
                scene.overlays.particle_boxes = self._particle_boxes()
            if flt.active:
                scene.particles = filter_particles(scene.particles,
                                                   session.world.pool.row_emitter, flt)
            info = renderer.render(scene, camera, target, settings=settings) or {}
            self.stats.draw_calls = int(info.get("draw_calls", 0)) + 1
            self.stats.instances = int(info.get("instances", 0))
            if not transparent:
                # The view is shown as an opaque image: whatever alpha the passes left goes.
                target.fbo.color_mask = (False, False, False, True)
                target.fbo.clear(0.0, 0.0, 0.0, 1.0)
                target.fbo.color_mask = (True, True, True, True)
                self._view_opaque = target is self.viewport
            return
        target.use()
        if transparent:
            target.clear((*BACKGROUND[:3], 0.0))
        else:
            target.clear(BACKGROUND)
            self.grid.draw(camera.view_projection(target.aspect), camera.eye())
        self.stats.draw_calls, self.stats.instances = 1, 0

    # --- comparison with a reference recording ---------------------------------------------
    def _composite(self) -> None:
        """When a comparison view is on: measure the shown frame against the recording and
        put the composite (viewer.compare.views, as ``vfxviewer compare``) in a texture the
        Viewport shows instead of the plain view."""
        cmp = self.controller.view.compare
        s = self.session
        if not cmp.active or s is None:
            return
        t, frame = s.playback.time, s.playback.frame
        tag = self._view_tag()
        composer = self._composite_pass()
        if composer is None:   # no GLSL 4.00: numpy composes a read-back view
            rendered = self.viewport.read_rgba()
            cmp.measure_later(frame, t, rendered, tag)   # MAD / SSIM in a worker thread
            self._upload_composite(cmp.compose(rendered, t, frame))
            self._compare_shown = True
            return
        # read back only a frame not measured yet (playing: one at a time), once the
        # panels are built (_read_view_back): the rasteriser has drawn it by then
        if cmp.wants_measure(frame, playing=s.playback.playing, view=tag):
            self._read_back = (frame, t, tag, self.viewport.fbo)
        size = self.viewport.size
        # the recording frame shown, at this size and these settings: cropped and resized
        # (Pillow) and uploaded only when that changes (paused, or a slower recording)
        key = cmp.reference_key(t, size)
        if key != composer.reference_key:
            composer.set_reference_texels(cmp.reference_ready(t, size, reference_texels),
                                          size, key)
        if s.playback.playing:   # the next frame's recording frame, read in a worker
            cmp.reference_soon((frame + 1) / s.playback.fps, size, reference_texels)
        # the composite of an unchanged view (paused) with the same recording frame and
        # settings is the one drawn last
        composed = (self._view_drawn, key, cmp.mode, cmp.opacity, cmp.split,
                    cmp.generation, frame)
        if self._view_drawn is None or composed != self._composed or composer.texture is None:
            self._composed = None
            tex = composer.compose(cmp.mode, self.viewport.fbo, self.viewport.color,
                                   frame=frame, opacity=cmp.opacity, split=cmp.split,
                                   generation=cmp.generation)
            self._composed = composed
        else:
            tex = composer.texture
        self._show_composite(tex)
        self._compare_shown = True

    def _read_view_back(self) -> None:
        """Queue the read-back of the 3D view _composite asked for into a pixel buffer;
        the figures worker gets it at the next frame's collect (CompareModel.measure_after),
        as the frame it was rendered for."""
        want, self._read_back = self._read_back, None
        if want is None:
            return
        frame, t, tag, fbo = want
        if fbo is not self.viewport.fbo:   # reallocated since (never within a frame)
            return
        cmp = self.controller.view.compare
        cmp.collect()                     # fetches an earlier read-back still waiting
        self._readback.issue(fbo, self.viewport.size)
        cmp.measure_after(frame, t, self._readback.fetch, tag)

    def _composite_pass(self):
        if not self._composer_tried:
            self._composer_tried = True
            from viewer.render.composite import CompositePass
            self._composer = CompositePass.create(self.ctx)
        return self._composer

    def _show_composite(self, tex) -> None:
        """Show the GPU composite's texture (registered with ImGui when it changes)."""
        for old in self._composer.take_retired():
            self.renderer.unregister_texture(old)
            old.release()
        if tex is not self.compare_texture:
            self.compare_texture = tex
            self.renderer.register_texture(tex)

    def _upload_composite(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        rgba = np.empty((h, w, 4), np.uint8)
        rgba[..., :3] = image[..., :3]
        rgba[..., 3] = 255
        data = np.ascontiguousarray(rgba[::-1]).tobytes()   # GL rows are bottom-up
        tex = self.compare_texture
        if tex is None or tex.size != (w, h):
            if tex is not None:
                self.renderer.unregister_texture(tex)
                tex.release()
            tex = self.compare_texture = self.ctx.texture((w, h), 4, data)
            tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self.renderer.register_texture(tex)
        else:
            tex.write(data)

    ALIGN_WIDTH = 96

    def _align_steps(self):
        """Render every frame of the scenario small (re-simulated, the current camera) and
        set the offset ``estimate_offset`` finds. A generator of (frames done, total) for a
        progress.Job; closing it early sets nothing and comes back to the frame shown."""
        s = self.session
        cmp = self.controller.view.compare
        cmp.require_track()
        if s is None:
            raise ScenarioError("nothing loaded to line the recording up with")
        pb = s.playback
        w, h = self.viewport.size
        size = (self.ALIGN_WIDTH, max(1, round(self.ALIGN_WIDTH * h / max(w, 1))))
        times, frames = [], []
        with _offscreen(self.ctx, size) as target, paused_playback(pb):
            for k in range(pb.total_frames + 1):
                pb.seek_frame(k)
                self._draw_view(target)
                times.append(pb.time)
                frames.append(target.read_rgba()[..., :3])
                yield k + 1, pb.total_frames + 2
        offset, _ = estimate_offset(np.asarray(times), frames, cmp.track)
        # an edit of the saved reference entry: on the undo history, like a typed offset
        self.controller.apply(c.SetReferenceOffset(offset), "Find offset")
        yield pb.total_frames + 2, pb.total_frames + 2

    # --- capture ---------------------------------------------------------------------------
    def _export_steps(self, cmd: c.ExportCapture):
        """Write the 3D view for every render frame in [start, end], re-simulated
        deterministically (Playback.seek_frame), then come back to the frame shown. A
        generator of (frames done, total) for a progress.Job; closing it early removes the
        half-written file."""
        s = self.session
        if s is None:
            raise ScenarioError("nothing loaded to capture")
        pb = s.playback
        cmp = self.controller.view.compare
        with_compare = cmd.compare and cmp.track is not None
        first = min(max(math.floor(cmd.start * pb.fps + 1e-9), 0), pb.total_frames)
        end = pb.duration if cmd.end is None else cmd.end
        last = min(max(math.floor(end * pb.fps + 1e-9), first), pb.total_frames)
        size = self.viewport.size
        if cmd.window:
            size = (int(self.display_size[0] * self._fb_scale),
                    int(self.display_size[1] * self._fb_scale))
        transparent = cmd.transparent and not with_compare and not cmd.window
        with _offscreen(self.ctx, size) as target, paused_playback(pb):
            writer = FrameWriter(cmd.path, fps=pb.fps, transparent=transparent)
            try:
                for k in range(first, last + 1):
                    pb.seek_frame(k)
                    if writer.wants(k == last):   # a .png keeps only the last frame
                        writer.write(self._export_image(cmd, target, k, transparent,
                                                        with_compare))
                    yield k - first + 1, last - first + 1
                if writer.kind == "video":   # the sound of the frames written
                    writer.set_audio(s.sound_track(first / pb.fps, (last - first + 1) / pb.fps),
                                     s.sound.mixer.sample_rate)
                out = writer.close()
            except BaseException:
                writer.abort()
                raise
        self.capture_state.last = f"wrote {last - first + 1} frame(s) to {out}"

    def _export_image(self, cmd: c.ExportCapture, target: OffscreenTarget, k: int,
                      transparent: bool, with_compare: bool) -> np.ndarray:
        """Render frame ``k`` (the playback is there) for an export: one whole viewer frame
        (``cmd.window``; ImGui's frame has ended here), or the 3D view, composed with the
        recording when asked."""
        if cmd.window:
            self.frame(1e-6, target=target.fbo, framebuffer_scale=self._fb_scale)
            return target.read_rgba()
        self._draw_view(target, transparent=transparent)
        image = target.read_rgba()
        if with_compare:
            pb, cmp = self.session.playback, self.controller.view.compare
            cmp.measure(k, pb.time, image)
            image = cmp.compose(image, pb.time, k)
        return image

    def _scene_renderer_for(self, session):
        """The scene renderer for the session's database (rebuilt when it changes)."""
        if session is None or not self.use_scene_renderer:
            return None
        if self.scene_renderer is None or self._scene_db is not session.db:
            self.scene_renderer = SceneRenderer(self.ctx, session.db, grid=self.grid)
            self._scene_db = session.db
        return self.scene_renderer

    # --- UI ---------------------------------------------------------------------------------
    def _build_ui(self) -> None:
        self._dock_host_bg = self._dock_node = None
        if self.only_panel is not None:
            for name, panel in self.panels():
                if name == self.only_panel:
                    imgui.set_next_window_pos(imgui.ImVec2(0, 0))
                    imgui.set_next_window_size(imgui.ImVec2(*self.display_size))
                    self._run_panel(name, panel)
            return
        self._main_menu()
        # The dockspace's host window covers the display below the menu bar: its
        # background is folded into the frame's clear (_clear_colour) instead of drawn.
        if self.fold_backgrounds:
            self._dock_host_bg = imgui.get_color_u32(imgui.Col_.window_bg)
            imgui.set_next_window_bg_alpha(0.0)
        dock_id = imgui.dock_space_over_viewport()
        self._dock_node = (imgui.internal.dock_builder_get_node(dock_id)
                           if self.fold_backgrounds else None)
        if not self._layout_done:
            node = imgui.internal.dock_builder_get_node(dock_id)
            self._front = layout.SAVED_FRONT   # a saved layout: the Timeline in front
            if self._reset_layout or node is None or not node.is_split_node():
                layout.build_default_layout(dock_id, self.display_size)
                self._front = layout.FRONT
            self._focus_defaults = 2
            self._layout_done = True
            self._reset_layout = False
        for name, panel in self.panels():
            self._run_panel(name, panel)
        if self._focus_defaults:
            imgui.set_window_focus("Viewport")   # the layout settles with the view focused
        self._keys()
        self._quit_popup()
        if self.job is not None and not self._stepping and draw_progress(self.job):
            self.cancel_job()
        self.toasts.update(self.errors, imgui.get_io().delta_time)
        if draw_toasts(self.toasts, self.display_size):
            layout.bring_to_front(["###Errors"])
        if self._focus_defaults:
            # A fresh layout shows the main tab of each dock node.
            self._focus_defaults -= 1
            if self._focus_defaults == 0:
                layout.bring_to_front(self._front)
        if self.show_demo:
            self.show_demo = imgui.show_demo_window(True) or False

    def _keys(self) -> None:
        """The key presses queued since the last frame, one action each, in order."""
        io = imgui.get_io()
        focus = focused_window()
        actions = press_actions(self.input.take_presses(), text_input=io.want_text_input,
                                focus=focus)
        actions += held_repeats(text_input=io.want_text_input, focus=focus)
        if self.job is not None:   # long work: only Esc (cancel) counts
            if ESCAPE in actions:
                self.cancel_job()
            return
        for action in actions:
            if action == SAVE:
                self.save_or_ask()
            elif action == QUIT:
                self.request_quit()
            elif action == ESCAPE:
                self.escape()
            elif self.session is not None:
                self.controller.apply(action, "shortcut")

    def escape(self) -> None:
        """Esc: close the quit prompt, else the file dialog, else give the keyboard back to
        the 3D view (the timeline keys act again); never quits."""
        if self.quit_prompt or self.open_prompt is not None:
            self.quit_prompt, self.open_prompt, self._after_save = False, None, None
        elif self.file_dialog is not None:
            self.file_dialog = None
        else:
            imgui.set_window_focus("Viewport")

    @property
    def modified(self) -> bool:
        return self.session is not None and self.session.modified

    def request_quit(self) -> None:
        """The window's close button, Ctrl+Q, File > Quit: close now, or ask first when
        the scenario has unsaved changes."""
        if self.modified:
            self.quit_prompt = True
        else:
            self.should_close = True

    def save_or_ask(self) -> bool:
        """Save to the scenario's file; with none yet, open the Save dialog. True when
        saved now."""
        s = self.session
        if s is not None and s.file is not None:
            return self.controller.apply(c.SaveScenario(str(s.file)), "Save scenario")
        self.file_dialog = ("save", self._default_path("save"))
        return False

    def _before_replacing(self, cmd) -> bool:
        """Controller hook before Open DAT / Load scenario replace the session: go on (True),
        or hold the command back and ask first when the scenario has unsaved changes."""
        if not self.modified or cmd is self._confirmed:
            return True
        self.open_prompt = cmd
        return False

    def _proceed(self, then) -> None:
        """Go on with what the unsaved-changes prompt held back: quit, or the open."""
        self._after_save = None
        if then == "quit":
            self.should_close = True
        elif then is not None:
            self._confirmed = then
            try:
                self.controller.apply(then, "open")
            finally:
                self._confirmed = None

    def _quit_popup(self) -> None:
        """Unsaved changes, before quitting or before an open replaces the scenario: Save
        (then go on), Discard (go on), Cancel."""
        asking = self.quit_prompt or self.open_prompt is not None
        if asking and not imgui.is_popup_open("Unsaved changes"):
            imgui.open_popup("Unsaved changes")
        if not imgui.begin_popup_modal("Unsaved changes", None,
                                       imgui.WindowFlags_.always_auto_resize)[0]:
            return
        try:
            if not asking:
                imgui.close_current_popup()
                return
            then = "quit" if self.quit_prompt else self.open_prompt
            s = self.session
            name = "the scenario" if s is None or s.file is None else Path(s.file).name
            imgui.text(f"Save the changes to {name} before {_going_on(then)}?")
            choice = None
            if imgui.button("Save"):
                choice = "save"
            imgui.same_line()
            if imgui.button("Discard"):
                choice = "discard"
            imgui.same_line()
            if imgui.button("Cancel"):
                choice = "cancel"
            if choice is not None:
                self.quit_prompt, self.open_prompt = False, None
                imgui.close_current_popup()
            if choice == "save":
                if self.save_or_ask():
                    if not self.modified:
                        self._proceed(then)
                else:
                    self._after_save = then    # the Save dialog goes on once it saved
            elif choice == "discard":
                self._proceed(then)
        finally:
            imgui.end_popup()

    def title(self) -> str:
        """The window title: scenario, DAT(s), a * while there are unsaved changes."""
        s = self.session
        if s is None:
            return "AC VFX Viewer"
        path = s.file or s.scenario.path
        scenario = "untitled" if path is None else Path(path).name
        dats = ", ".join(Path(p).name for p in s.dat_paths) or "no DAT"
        return f"{scenario}{'*' if s.modified else ''} \u2014 {dats} \u2014 AC VFX Viewer"

    def _run_panel(self, name, panel) -> None:
        try:
            commands = panel()
        except Exception as err:  # noqa: BLE001 - a broken panel must not stop the viewer
            self.errors.report(err, f"panel {name}")
            return
        self.controller.apply_all(commands, f"panel {name}")

    def panels(self):
        """(name, callable returning commands) for every panel, in draw order."""
        yield "Viewport", self._viewport_panel
        yield "Timeline", self._timeline_panel
        yield "Assets", self._assets_panel
        yield "Object", self._object_panel
        yield "Camera", lambda: draw_camera_panel(
            self.controller.view.camera, list(self.controller.view.bookmarks.saved),
            self.camera_state)
        yield "Script Table", self._script_table_panel
        yield "Emitters", self._emitters_panel
        yield "Hidden / UnHide", self._hidden_panel
        yield "Stats", lambda: draw_stats_panel(self.stats)
        yield "Reference", self._reference_panel
        yield "Capture", lambda: draw_capture_panel(
            None if self.session is None else self.session.playback.duration,
            self.capture_state, self.controller.view.compare.track is not None)
        yield "Launch", self._launch_panel
        yield "Errors", lambda: draw_error_panel(self.errors)
        if self.controller.view.audit.open:
            yield "Audit", lambda: draw_audit_panel(self.controller.view.audit)

    def _timeline_panel(self):
        if self.session is None:
            return draw_timeline(None)
        view = self.session.timeline_view()
        handles = self._plotted_emitters()

        def counts(duration):
            draw_counts_plot(self.emitter_counts, handles, view.time,
                             title="Emitter counts", height=120, duration=duration)
        return draw_timeline(replace(view, reference=self.controller.view.compare.lane(),
                                     counts=counts))

    def _plotted_emitters(self) -> list[int]:
        """The emitters the counts plots draw: the selected one (or the selected
        particle's), else every one recorded."""
        sel = self.controller.view.selection
        if sel is not None and sel[0] in ("emitter", "particle"):
            return [sel[1] if sel[0] == "emitter" else sel[1][0]]
        return sorted(self.emitter_counts.series)

    def _reference_panel(self):
        s = self.session
        view = panel_view(self.controller.view.compare, 0.0 if s is None else s.playback.time,
                          None if s is None else s.playback.frame,
                          () if s is None else scenario_play_events(s.scenario),
                          self.viewport.aspect, self._view_tag())
        return draw_reference_panel(view, self.reference_state)

    def _launch_panel(self):
        s = self.session
        view = None
        if s is not None:
            origin = inspect.object_origin(s.world, s.selected_object)
            view = LaunchView(tuple(sorted(inspect.owners(s.world))), s.next_object_id(),
                              None if origin is None else (s.selected_object, origin),
                              self.assets_state.selected, presets.status(s.db))
        return draw_launch_panel(view, self.launch_state)

    # view-models: read the session, hand frozen values to the panels
    def _viewport_panel(self):
        cmp = self.controller.view.compare
        shown = self._compare_shown and self.compare_texture is not None
        texture = self.compare_texture.glo if shown else self.viewport.color.glo
        aspect = recording_aspect(cmp) if cmp.active else None
        side = cmp.active and cmp.mode == "side_by_side"
        commands, size, click = draw_viewport_panel(
            texture, self._selection_rings(),
            wipe_split=cmp.split if shown and cmp.mode == "wipe" else None,
            aspect=None if aspect is None else aspect * (2 if side else 1))
        if side:
            # the 3D view takes the left half; the recording the right (2 px apart)
            size = (max(1, (size[0] - 2) // 2), size[1])
        self._want_viewport = size
        if click is not None and self.session is not None:
            # A click picks the particle under the mouse, else the nearest object.
            picked = pick_particle(live_emitters(self.session.world, with_particles=True),
                                   self.controller.view.camera, size, click)
            if picked is not None:
                commands.append(c.Select("particle", picked))
            else:
                obj = pick_object(object_summaries(self.session.world),
                                  self.controller.view.camera, size, click)
                if obj is not None:
                    commands.append(c.Select("object", obj))
        return commands

    def _selected_row(self) -> int | None:
        """The pool row of the selected emitter (or of the selected particle's emitter);
        None when none is selected or it is gone."""
        sel = self.controller.view.selection
        if sel is None or sel[0] not in ("emitter", "particle"):
            return None
        handle = sel[1] if sel[0] == "emitter" else sel[1][0]
        pool = self.session.world.pool
        rows = [r for r, em in enumerate(pool.row_emitter)
                if em is not None and em.handle == handle]
        return rows[0] if rows else None

    def _live_emitters(self, handle):
        """``inspect.live_emitters`` with one emitter's particle rows, built once per
        simulated frame for the rings and the Emitters panel alike (per-emitter Python: a
        scene of hundreds of emitters paid it every viewer frame, paused too); a new sim
        frame, a seek, an edit, another world, another selected emitter or a moved viewer
        (the detail's viewer distance) builds it again."""
        s = self.session
        key = (s, s.world, s.playback.frame, s.playback.time, s.generation, handle,
               s.viewer_eye, s.viewer_forward)   # the objects, not ids: never reused
        if self._emitters_memo is None or self._emitters_memo[0] != key:
            self._emitters_memo = (key, live_emitters(s.world, with_particles=handle))
        return self._emitters_memo[1]

    def _summaries(self):
        """``inspect.object_summaries`` built once per frame for the Object and Hidden
        panels alike (per-object Python: the stress scene's 50 objects paid it twice)."""
        s = self.session
        key = (self.frame_count, id(s.world), s.playback.frame, s.generation)
        if self._summaries_memo is None or self._summaries_memo[0] != key:
            self._summaries_memo = (key, object_summaries(s.world))
        return self._summaries_memo[1]

    def _selected_velocities(self):
        """Velocity segments of the selected emitter's particles (None: no emitter)."""
        row = self._selected_row()
        return None if row is None else velocity_lines(self.session.world.pool, row)

    def _particle_boxes(self):
        """The live particles' box of the selected emitter, else of every emitter."""
        row = self._selected_row()
        return particle_bounds(self.session.world.pool, None if row is None else [row])

    def _selection_rings(self):
        """Rings over the viewport for the selected particle (yellow), emitter (cyan) and
        object (pink), in viewport pixels."""
        s = self.session
        if s is None:
            return None
        cam, size = self.controller.view.camera, self.viewport.size
        rings = []
        sel = self.controller.view.selection
        if sel is not None and sel[0] == "particle":
            xy = self._selected_particle_screen()
            if xy is not None:
                rings.append((xy, 7.0, SELECTED_PARTICLE))
        elif sel is not None and sel[0] == "emitter":
            for em in self._live_emitters(sel[1]):
                if em.handle == sel[1]:
                    # the emitter, and the emitter debugger's highlight: a small ring on
                    # each of its particles (one emitter's, at most HIGHLIGHT_MAX)
                    shown = em.particles[:HIGHLIGHT_MAX]
                    points = project_many(cam, size, [em.origin,
                                                      *(p.position for p in shown)])
                    rings += [(xy, 10.0 if k == 0 else 3.5, SELECTED_EMITTER)
                              for k, xy in enumerate(points) if xy is not None]
        origin = inspect.object_origin(s.world, s.selected_object)
        if origin is not None:
            xy = project(cam, size, origin)
            if xy is not None:
                rings.append((xy, 12.0, SELECTED_OBJECT))
        return rings

    def _selected_particle_screen(self):
        """The selected particle's position in viewport pixels, or None."""
        sel = self.controller.view.selection
        if self.session is None or sel is None or sel[0] != "particle":
            return None
        handle, slot = sel[1]
        for em in self._live_emitters(handle):
            if em.handle == handle:
                for p in em.particles:
                    if p.slot == slot:
                        return project(self.controller.view.camera, self.viewport.size,
                                       p.position)
        return None

    def _assets_panel(self):
        s = self.session
        db = None if s is None else s.db
        if db is not None and self._asset_index_db is not db:
            self._asset_index, self._asset_index_db = AssetIndex(db), db
        return draw_assets_panel(db, self._asset_index, self.assets_state, self.recent,
                                 None if s is None else s.selected_object,
                                 () if s is None else s.dat_paths)

    def _object_panel(self):
        s = self.session
        objs = [] if s is None else self._summaries()
        return draw_object_panel(objs, None if s is None else s.selected_object,
                                 self.object_state)

    def _script_table_panel(self):
        s = self.session
        table = obj_id = None
        if s is not None and s.selected_object in inspect.owners(s.world):
            obj_id = s.selected_object
            table = inspect.script_table(s.world, obj_id)
        kind = 0x04 if s is None else s.play_script_type
        keys = [int(k) for k, _ in table.entries] if table is not None else []
        if keys and kind not in keys:
            kind = keys[0]   # the selected object's table lacks the type: show its first
        view = ScriptTableView(table, kind,
                               self.controller.view.intensity, obj_id)
        return draw_script_table_panel(view, self.table_state)

    def _emitters_panel(self):
        s = self.session
        selection = self.controller.view.selection
        handle = False
        if selection is not None and selection[0] == "emitter":
            handle = selection[1]
        elif selection is not None and selection[0] == "particle":
            handle = selection[1][0]
        live = [] if s is None else self._live_emitters(handle)
        if s is None:
            return draw_emitters_panel(emitters_view(live, None, selection))
        pb = s.playback
        self.emitter_counts.record((id(s), s.generation), pb.frame, pb.time, live)
        shown = [handle] if handle is not False else [em.handle for em in live]
        return draw_emitters_panel(
            emitters_view(live, s.tracks, selection),
            plot=lambda: draw_counts_plot(self.emitter_counts, shown, pb.time),
            emitter_filter=self.controller.view.emitter_filter)

    def _hidden_panel(self):
        s = self.session
        if s is None:
            return draw_hidden_panel(None, [])
        obj = next((o for o in self._summaries() if o.id == s.selected_object), None)
        return draw_hidden_panel(obj, state_transitions(s.events(), s.selected_object))

    def _open(self, kind: str, value):
        """Controller hook for commands that replace the session: the scenario is read and
        the DATs found now (a bad path fails here); in the window (``job_budget`` set)
        the DATs' directories are then read in a worker thread with a progress bar and
        Cancel (``open_later``) and the session shown stays until that ends, headless
        the new session is opened at once."""
        plan = plan_session(list(value), None) if kind == "dat" else plan_session(None, value)
        if self.job_budget is not None:
            self.open_later(plan, kind, value)
            return self.session
        return self._opened(kind, value, plan.session(plan.open_database()))

    def open_later(self, plan, kind: str, value, db=None, play: bool = True) -> None:
        """Open ``plan``'s DATs (``db``: already open, as at startup) and read their
        directories as long work after this frame (``OpenLater``), then replace the
        session; Cancel leaves the current one (or none) in place."""
        self.controller.view.export_requests.append(OpenLater(plan, kind, value, db, play))

    def _open_job(self, req: OpenLater) -> ThreadJob:
        """The worker reads the directories (viewer.dat reports its progress through a
        callback), the frame loop's thread builds the session from them."""
        def work(report):
            def progress(fraction: float, entries: int) -> None:
                report(round(fraction * 1000), 1000, f"{entries} files, {fraction:.0%}")
            if req.db is None:
                return req.plan.open_database(progress)
            read_index(req.db, progress)
            return req.db

        def done(db) -> None:
            self.session = self._opened(req.kind, req.value, req.plan.session(db), req.play)

        names = ", ".join(Path(p).name for p in req.plan.paths)
        return ThreadJob(f"Opening {names}: reading the directory", work, on_done=done,
                         discard=lambda db: db.close())

    def _opened(self, kind: str, value, session, play: bool = True):
        """A newly opened session becomes the one shown."""
        if kind == "dat":
            for p in value:
                self.recent.add(str(p))
        elif kind == "scenario":
            # as at startup: playing, and the camera frames the scenario's objects
            if play:
                session.playback.play()
            bounds = session.scene_bounds()
            if bounds is not None:
                view = self.controller.view
                view.camera = view.camera.framed(*bounds)
            self.recent_dirs.add(str(Path(value).resolve().parent))
        elif play:   # "startup": the command line's DAT and scenario
            session.playback.play()
        self.session = session
        return session

    def _main_menu(self) -> None:
        if imgui.begin_main_menu_bar():
            if imgui.begin_menu("File"):
                for label, kind in (("Open DAT...", "dat"), ("Load scenario...", "load"),
                                    ("Save scenario...", "save"),
                                    ("Load reference recording...", "reference")):
                    if imgui.menu_item(label, "", False)[0]:
                        self.file_dialog = (kind, self._default_path(kind))
                if imgui.menu_item("Audit open DATs", "", False)[0]:
                    self.controller.apply(c.RunAudit(), "Audit")
                imgui.separator()
                if imgui.menu_item("Quit", "Ctrl+Q", False)[0]:
                    self.request_quit()
                imgui.end_menu()
            if imgui.begin_menu("Edit"):
                h = None if self.session is None else self.session.history
                undo = h.undo_label() if h is not None else None
                redo = h.redo_label() if h is not None else None
                if imgui.menu_item(f"Undo {undo or ''}".strip(), "Ctrl+Z", False,
                                   undo is not None)[0]:
                    self.controller.apply(c.Undo(), "Undo")
                if imgui.menu_item(f"Redo {redo or ''}".strip(), "Ctrl+Shift+Z", False,
                                   redo is not None)[0]:
                    self.controller.apply(c.Redo(), "Redo")
                imgui.end_menu()
            if imgui.begin_menu("View"):
                for name in ("perspective", "front", "side", "top"):
                    if imgui.menu_item(f"Camera: {name}", "", False)[0]:
                        self.controller.apply(c.CameraPreset(name))
                if imgui.menu_item("Camera: retail", "", False)[0]:
                    self.controller.apply(c.CameraRetail())
                self._view_debug_menus()
                if imgui.menu_item("Reset layout", "", False)[0]:
                    self._layout_done, self._reset_layout = False, True
                _, self.show_demo = imgui.menu_item("ImGui demo", "", self.show_demo)
                imgui.end_menu()
            imgui.end_main_menu_bar()
        if self.file_dialog is not None:
            self._file_path_popup()

    def _view_debug_menus(self) -> None:
        """View > Overlays and View > Particle colour (emitter debugging): view settings."""
        if imgui.begin_menu("Overlays"):
            for name, label in OVERLAYS:
                _, self.overlays[name] = imgui.menu_item(label, "", self.overlays[name])
            imgui.end_menu()
        if imgui.begin_menu("Particle colour"):
            for mode in PARTICLE_COLOURS:
                if imgui.menu_item(mode, "", self.particle_colour == mode)[0]:
                    self.particle_colour = mode
            imgui.end_menu()

    def _default_path(self, kind: str) -> str:
        """Where the path dialog starts: the scenario's own file (Save), the last DAT
        opened (Open DAT), else the folder used last (its scenario.json for Save), else
        the working folder."""
        s = self.session
        if kind == "save" and s is not None and s.scenario.path is not None:
            return str(s.scenario.path)
        if kind == "dat" and self.recent.items:
            return self.recent.items[0]
        name = "scenario.json" if kind in ("load", "save") else ""
        if kind != "dat" and self.recent_dirs.items:
            folder = self.recent_dirs.items[0]
            return str(Path(folder) / name) if name else folder + os.sep
        return name

    def _file_browser(self, kind: str, text: str) -> str:
        """Recent folders, and the matching files of the typed path's folder; a click puts
        the folder or file into the path. Returns the (maybe changed) path text."""
        folder, listing = browse_folder(text, FILE_KINDS[kind])
        if self.recent_dirs.items and imgui.begin_combo("##recent", "Recent folders"):
            for d in self.recent_dirs.items:
                if imgui.selectable(d, False)[0]:
                    text = str(Path(d) / Path(text).name) if kind == "save" else d + os.sep
            imgui.end_combo()
        if listing:
            imgui.begin_child("##files", imgui.ImVec2(0, min(160, 18 * len(listing) + 8)),
                              imgui.ChildFlags_.borders)
            for name, is_dir in listing:
                if imgui.selectable(name + (os.sep if is_dir else ""), False)[0]:
                    text = str(folder / name) + (os.sep if is_dir else "")
            imgui.end_child()
        return text

    def _file_path_popup(self) -> None:
        """A small window asking for a path (no native dialog needed)."""
        kind, text = self.file_dialog
        title = {"dat": "Open DAT", "load": "Load scenario", "save": "Save scenario",
                 "reference": "Load reference recording"}[kind]
        imgui.set_next_window_size(imgui.ImVec2(460, 0), imgui.Cond_.first_use_ever)
        _, keep = imgui.begin(f"{title}###filepath", True)
        try:
            imgui.set_next_item_width(-1)
            if imgui.is_window_appearing():
                imgui.set_keyboard_focus_here()   # type the path at once; Enter is OK
            entered, text = imgui.input_text("##path", text,
                                             imgui.InputTextFlags_.enter_returns_true)
            text = self._file_browser(kind, text)
            self.file_dialog = (kind, text)
            if (imgui.button("OK") or entered) and text.strip():
                path = str(Path(text.strip()).expanduser())
                cmd = {"dat": lambda p: c.OpenDat((p,)), "load": c.LoadScenario,
                       "save": c.SaveScenario, "reference": c.LoadReference}[kind](path)
                if self.controller.apply(cmd, title):
                    self.recent_dirs.add(str(Path(path).resolve().parent))
                keep = False
                if kind == "save" and self._after_save is not None and not self.modified:
                    self._proceed(self._after_save)
            imgui.same_line()
            if imgui.button("Cancel"):
                keep = False
        finally:
            imgui.end()
        if not keep:
            self.file_dialog = None
            self._after_save = None

    # --- capture / teardown -----------------------------------------------------------------
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
        self.grid.release()
        self.controller.view.compare.forget_reading()
        self._readback.release()
        self.viewport.release()
        if self._composer is not None:
            self._composer.release()   # owns the composite texture it shows
        elif self.compare_texture is not None:
            self.compare_texture.release()
        self.renderer.shutdown()
        implot.destroy_context(self.implot_context)
        imgui.destroy_context(self.imgui_context)


class _Is:
    """A key part equal only to another for the very same object (a world, a session: no
    field-by-field comparison), kept alive while the key is."""

    __slots__ = ("obj",)

    def __init__(self, obj) -> None:
        self.obj = obj

    def __eq__(self, other) -> bool:
        return isinstance(other, _Is) and other.obj is self.obj

    __hash__ = None


def _going_on(then) -> str:
    """What the unsaved-changes prompt holds back, in words."""
    if then == "quit":
        return "quitting"
    if isinstance(then, c.OpenDat):
        return "opening " + ", ".join(Path(p).name for p in then.paths)
    return f"loading {Path(then.path).name}"


@dataclass(frozen=True)
class OpenLater:
    """A queued open (ViewerApp.open_later): run as long work after the frame."""
    plan: object          # viewer.ui.session.SessionPlan
    kind: str             # "dat", "scenario" or "startup"
    value: object
    db: object = None     # the DATs, already open (startup checks them before the window)
    play: bool = True


def _capture_events(path) -> list[dict]:
    """The object events of a packet capture (viewer.wire.replay) for lining a recording up
    on a PlayScript."""
    return replay_events(path)["events"]


# what the file dialog lists beside folders, per kind (None: every file)
FILE_KINDS = {"dat": (".dat",), "load": (".json",), "save": (".json",), "reference": None}


def browse_folder(text: str, suffixes) -> tuple[Path, list[tuple[str, bool]]]:
    """The folder of a typed path (the path itself when it ends with a separator or names
    a folder) and its entries: sub-folders first, then files with ``suffixes`` (None: all),
    hidden ones left out, at most 200. An unreadable folder lists nothing."""
    raw = Path(text.strip() or ".").expanduser()
    folder = raw if text.endswith(("/", os.sep)) or raw.is_dir() else raw.parent
    try:
        entries = sorted(folder.iterdir(), key=lambda p: (not p.is_dir(), p.name.lower()))
    except OSError:
        return folder, []
    out = [(p.name, p.is_dir()) for p in entries if not p.name.startswith(".")
           and (p.is_dir() or suffixes is None or p.suffix.lower() in suffixes)]
    return folder, out[:200]


def recording_aspect(cmp) -> float | None:
    """The shape (w / h) of the recording as compared: its crop, else its frames. In a
    comparison view the 3D view is rendered at this shape so both frame the same scene."""
    track = cmp.track
    if track is None or not len(track.frames):
        return None
    if track.crop is not None:
        w, h = track.crop.w, track.crop.h
    else:
        h, w = track.frames[0].shape[:2]
    return w / h if w > 0 and h > 0 else None


@contextmanager
def paused_playback(pb) -> Iterator:
    """Pause ``pb`` for a re-simulating walk over its frames (the body seeks where it
    likes), then come back to the frame shown, and to playing if it was."""
    here, playing = pb.frame, pb.playing
    pb.pause()
    try:
        yield pb
    finally:
        pb.seek_frame(here)
        pb.playing = playing


@contextmanager
def _offscreen(ctx: moderngl.Context, size) -> Iterator[OffscreenTarget]:
    """A scratch offscreen target, released on the way out."""
    target = OffscreenTarget(ctx, size)
    try:
        yield target
    finally:
        target.release()


# --- headless ------------------------------------------------------------------------------
def create_headless_context() -> moderngl.Context:
    return moderngl.create_standalone_context(backend="egl", require=330)


def render_headless(size=(1280, 720), frames: int = 4, session=None,
                    setup=None, actions=(), errors: list | None = None) -> np.ndarray:
    """The whole viewer (3D view and panels) rendered on EGL, as HxWx4 uint8. ``errors``
    receives the error panel's lines."""
    ctx = create_headless_context()
    try:
        app = ViewerApp(ctx, display_size=size, ini_path=None, session=session)
        try:
            if setup is not None:
                setup(app)
            return app.capture(size, frames=frames, actions=actions)
        finally:
            if errors is not None:
                errors.extend(e.line() for e in app.errors.entries)
            app.release()
    finally:
        ctx.release()


# --- window --------------------------------------------------------------------------------
def load_actions(path) -> list[tuple[int, object]]:
    """An ``--actions`` file (JSON, see ``parse_actions``); no path gives no actions."""
    if not path:
        return []
    text = read_text_capped(path, ACTIONS_MAX_BYTES, ScenarioError, "actions")
    try:
        return parse_actions(read_json(text, str(path), "actions"))
    except ScenarioError as err:
        raise err.located(file=str(path)) from None


def parse_actions(data) -> list[tuple[int, object]]:
    """``[{"frame": N, "command": "Seek", "t": 0.5}, ...]`` -> [(frame, Command)]; strings
    "0x..." become ints. Drives the real window from tests and scripts."""
    if not isinstance(data, list):
        raise ScenarioError("actions: expected a JSON list of {frame, command, ...}")
    out = []
    for i, item in enumerate(data):
        try:
            item = dict(item)
            frame = item.pop("frame")
            # a frame the viewer reaches: the run lasts one frame past the last action
            if isinstance(frame, bool) or not isinstance(frame, int) \
                    or not 0 <= frame < VIEWER_FRAMES.hi:
                raise ValueError(f"frame must be an integer in 0..{VIEWER_FRAMES.hi - 1}, "
                                 f"not {frame!r}")
            cls = getattr(c, item.pop("command"))
            args = {k: int(v, 16) if isinstance(v, str) and v.lower().startswith("0x") else v
                    for k, v in item.items()}
            bad = command_args_problem(cls, args)
            if bad is not None:
                raise ScenarioError(f"actions[{i}].{bad[0]}: {bad[1]}")
            out.append((frame, cls(**args)))
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ScenarioError(f"actions[{i}]: {err}") from None
    return out


def session_state(app: ViewerApp) -> dict:
    """What the viewer shows now, for --dump-state."""
    s = app.session
    out = {"frames": app.frame_count, "errors": [e.line() for e in app.errors.entries],
           "camera": {"target": list(app.controller.view.camera.target),
                      "distance": app.controller.view.camera.distance}}
    cmp = app.controller.view.compare
    cmp.collect(wait=True)
    out["compare"] = {"mode": cmp.mode, "figures": len(cmp.figures),
                      "reference": cmp.settings_json(),
                      "frames": 0 if cmp.track is None else len(cmp.track.frames)}
    out["title"] = app.title()
    out["quit_prompt"] = app.quit_prompt
    out["open_prompt"] = app.open_prompt is not None
    out["front_tabs"] = layout.front_tabs()
    if s is not None:
        out.update(s.stats())
        out["modified"] = s.modified
        out["undo"] = len(s.history.undo_stack)
        out["playing"] = s.playback.playing
        out["objects"] = sorted(inspect.owners(s.world))
        out["events"] = len(s.events())
    return out


def run_window(size=(1400, 860), *, session=None, screenshot: str | None = None,
               screenshot_after: int = 30, setup=None, window_backend: str = "pyglet",
               actions=(), dump_state: str | None = None, opening=None) -> int:
    """Open the real window (moderngl-window, pyglet by default) and run until closed.

    ``screenshot``: after ``screenshot_after`` frames, save the window's framebuffer to this
    PNG and exit (used by the Xvfb test; also ``VFXVIEWER_SCREENSHOT`` /
    ``VFXVIEWER_SCREENSHOT_AFTER``). ``opening``: (SessionPlan, its opened DATs, play) to
    read and show once the window is up (``ViewerApp.open_later``: progress, Cancel);
    ``actions`` wait while it (or any long work) runs."""
    window_cls = mglw.get_local_window_cls(window_backend)
    wnd = window_cls(title="AC VFX Viewer", size=size, resizable=True, vsync=True,
                     gl_version=(3, 3), aspect_ratio=None)
    mglw.activate_context(window=wnd)
    extra = None
    if window_backend == "pyglet":
        # pyglet is the default window backend's toolkit, loaded only when that backend
        # opens a real window (headless runs and the other backends never need it)
        import pyglet.window.key as extra
    app = ViewerApp(wnd.ctx, display_size=wnd.size, ini_path=layout.default_ini_path(),
                    session=session, keymap=build_keymap(wnd.keys, extra))
    app.job_budget = 0.05   # the window keeps drawing (progress, Cancel) during long work
    if setup is not None:
        setup(app)
    if opening is not None:
        plan, db, play = opening
        app.open_later(plan, "startup", None, db=db, play=play)
    _bind_window_events(wnd, app)
    last = time.perf_counter()
    rc = 0
    pending = sorted(actions, key=lambda a: a[0])
    min_dt = _frame_interval(os.environ.get("VFXVIEWER_MAX_FPS"))
    title = None
    try:
        while not wnd.is_closing and not app.should_close:
            now = time.perf_counter()
            if now - last < min_dt:          # VFXVIEWER_MAX_FPS: a slow machine, for tests
                time.sleep(min_dt - (now - last))
                now = time.perf_counter()
            dt, last = now - last, now
            if app.title() != title:
                title = wnd.title = app.title()
            while pending and pending[0][0] <= app.frame_count and app.job is None \
                    and not app.controller.view.export_requests:
                app.controller.apply(pending.pop(0)[1], "actions")
            wnd.use()
            app.frame(dt, display_size=wnd.size, target=wnd.fbo,
                      framebuffer_scale=wnd.pixel_ratio)
            if screenshot and app.frame_count >= screenshot_after:
                data = wnd.fbo.read(viewport=(0, 0, *wnd.buffer_size), components=3)
                img = np.frombuffer(data, np.uint8).reshape(wnd.buffer_size[1],
                                                            wnd.buffer_size[0], 3)[::-1]
                Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                Image.fromarray(np.ascontiguousarray(img), "RGB").save(screenshot)
                wnd.close()
                break
            wnd.swap_buffers()
    finally:
        if dump_state:
            Path(dump_state).write_text(json.dumps(session_state(app), indent=1))
        app.release()
        wnd.destroy()
    return rc


def _frame_interval(max_fps) -> float:
    """Seconds per frame at most ``max_fps`` (env VFXVIEWER_MAX_FPS; unset: no limit)."""
    try:
        fps = float(max_fps) if max_fps else 0.0
    except ValueError:
        raise ScenarioError(f"VFXVIEWER_MAX_FPS must be a number, not {max_fps!r}") from None
    return 1.0 / fps if fps > 0 and math.isfinite(fps) else 0.0


def _bind_window_events(wnd, app: ViewerApp) -> None:
    inp = app.input
    # Esc never closes the viewer, and the close button asks first when there are unsaved
    # changes (ViewerApp.request_quit).
    wnd.exit_key = None
    native = getattr(wnd, "_window", None)
    if native is not None and hasattr(native, "push_handlers"):   # pyglet
        def on_close():
            app.request_quit()
            return True   # pyglet.event.EVENT_HANDLED: the window stays open
        native.push_handlers(on_close=on_close)
    buttons = {wnd.mouse.left: 0, wnd.mouse.right: 1, wnd.mouse.middle: 2}

    def mods():
        m = wnd.modifiers
        inp.modifiers(m.ctrl, m.shift, m.alt)

    def key_event(key, action, modifiers):
        inp.modifiers(modifiers.ctrl, modifiers.shift, modifiers.alt)
        inp.key(key, action == wnd.keys.ACTION_PRESS)

    def mouse_pos(x, y, dx, dy):
        inp.mouse_pos(x, y)

    def mouse_press(x, y, button):
        mods()
        inp.mouse_pos(x, y)
        if button in buttons:
            inp.mouse_button(buttons[button], True)

    def mouse_release(x, y, button):
        mods()
        inp.mouse_pos(x, y)
        if button in buttons:
            inp.mouse_button(buttons[button], False)

    wnd.key_event_func = key_event
    wnd.mouse_position_event_func = mouse_pos
    wnd.mouse_drag_event_func = mouse_pos
    wnd.mouse_press_event_func = mouse_press
    wnd.mouse_release_event_func = mouse_release
    wnd.mouse_scroll_event_func = lambda dx, dy: inp.wheel(dx, dy)
    wnd.unicode_char_entered_func = lambda ch: inp.char(ch)
    wnd.resize_func = lambda w, h: None   # the frame reads wnd.size every frame
