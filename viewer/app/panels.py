"""The panels' wiring: the dockspace and its default layout, the key presses of the frame,
and each panel's view-model (what it reads of the session, handed over as frozen values)
with the commands it returns applied by the controller in one place.
"""

from __future__ import annotations

from dataclasses import replace

from imgui_bundle import imgui

from viewer.app.scene_view import BACKGROUND
from viewer.errors import ViewerError
from viewer.sim import inspect, presets
from viewer.sim.inspect import live_emitters, object_summaries, state_transitions
from viewer.ui import commands as c
from viewer.ui import layout
from viewer.ui.assets_panel import AssetIndex, AssetsState, draw_assets_panel
from viewer.ui.audit_panel import draw_audit_panel
from viewer.ui.camera_panel import CameraPanelState, draw_camera_panel
from viewer.ui.capture_panel import CapturePanelState, draw_capture_panel
from viewer.ui.colour_legend import legend_entries
from viewer.ui.compare_panel import (
    ReferencePanelState,
    draw_reference_panel,
    panel_view,
    scenario_play_events,
)
from viewer.ui.emitter_plot import EmitterCounts, draw_counts_plot
from viewer.ui.emitters_panel import draw_emitters_panel, emitters_view
from viewer.ui.error_panel import draw_error_panel, draw_toasts
from viewer.ui.events_panel import EventsPanelState, draw_events_panel
from viewer.ui.hidden_panel import draw_hidden_panel
from viewer.ui.launch_panel import LaunchPanelState, LaunchView, draw_launch_panel
from viewer.ui.object_panel import ObjectPanelState, draw_object_panel
from viewer.ui.particle_history import draw_particle_history
from viewer.ui.progress import draw_progress
from viewer.ui.script_table_panel import ScriptTableView, draw_script_table_panel
from viewer.ui.shortcuts import (
    ESCAPE,
    QUIT,
    SAVE,
    focused_window,
    held_repeats,
    press_actions,
)
from viewer.ui.stats_panel import draw_stats_panel
from viewer.ui.timeline import draw_timeline
from viewer.ui.viewport_panel import (
    SELECTED_EMITTER,
    SELECTED_OBJECT,
    SELECTED_PARTICLE,
    draw_viewport_panel,
    drawn_centre,
    mesh_extent,
    pick_object,
    pick_particle,
    project,
    project_many,
)

HIGHLIGHT_MAX = 400   # particles of the selected emitter ringed in the view


class PanelWiring:
    """Every panel of the window (``ViewerApp.wiring``) and the UI state they keep (text
    boxes, tree state: never simulation state)."""

    def __init__(self, app) -> None:
        self.app = app
        self.table_state: dict = {}
        self.assets_state = AssetsState()
        self.object_state = ObjectPanelState()
        self.camera_state = CameraPanelState()
        self.reference_state = ReferencePanelState()
        self.capture_state = CapturePanelState()
        self.launch_state = LaunchPanelState()
        self.events_state = EventsPanelState()
        self.emitter_counts = EmitterCounts()   # the Emitters panel's counts over time
        self._asset_index: AssetIndex | None = None
        self._asset_index_db = None
        self._focus_defaults = 0
        self._front = layout.FRONT
        self._emitters_memo = None   # (key, live_emitters) of this frame (live_emitters)
        self._summaries_memo = None  # (key, object_summaries) of this frame (_summaries)
        self._legend_memo = None     # (mode, live_emitters' list, colour_legend())
        self._extents: tuple = (None, {})   # (db, {GfxObj DID: mesh_extent}) (picking)
        self.layout_done = False
        self.reset_layout = False
        self.show_demo = False
        # Fold the dockspace host's full-screen background into the clear (clear_colour),
        # draw the docked windows' backgrounds and the 3D view's image without blending:
        # the same pixels, less llvmpipe fill (False: all drawn as ImGui gives it, tests)
        self.fold_backgrounds = True
        self._dock_host_bg: int | None = None   # packed ImU32 folded into the clear
        self._dock_node = None                  # the dockspace's root node this frame
        self._folded_bg: dict = {}    # clear_colour's and docked_recolour's cache

    def clear_colour(self) -> tuple:
        """BACKGROUND, or (when the dockspace's host window drew no background this frame)
        the exact colour its background drawn over BACKGROUND gave: one full-screen blended
        layer fewer for the rasteriser (on llvmpipe ~3 ms a frame at 1280x720), the same
        pixels (the menu bar above it is opaque)."""
        col = self._dock_host_bg
        if col is None:
            return BACKGROUND
        folded = self._folded_bg.get(col)
        if folded is None:
            folded = self._folded_bg[col] = self.app.renderer.blended(col, BACKGROUND)
        return folded

    def docked_recolour(self) -> tuple | None:
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
            rgba = self.app.renderer.blended(col, self.clear_colour())
            r, g, b, a = (round(v * 255) for v in rgba)
            packed = self._folded_bg[key] = r | g << 8 | b << 16 | a << 24
        return node.host_window.draw_list, col, packed

    def build(self) -> None:
        self._dock_host_bg = self._dock_node = None
        if self.app.only_panel is not None:
            for name, panel in self.panels():
                if name == self.app.only_panel:
                    imgui.set_next_window_pos(imgui.ImVec2(0, 0))
                    imgui.set_next_window_size(imgui.ImVec2(*self.app.display_size))
                    self._run_panel(name, panel)
            return
        self.app.menus.draw()
        # The dockspace's host window covers the display below the menu bar: its
        # background is folded into the frame's clear (_clear_colour) instead of drawn.
        if self.fold_backgrounds:
            self._dock_host_bg = imgui.get_color_u32(imgui.Col_.window_bg)
            imgui.set_next_window_bg_alpha(0.0)
        dock_id = imgui.dock_space_over_viewport()
        self._dock_node = (imgui.internal.dock_builder_get_node(dock_id)
                           if self.fold_backgrounds else None)
        if not self.layout_done:
            node = imgui.internal.dock_builder_get_node(dock_id)
            self._front = layout.SAVED_FRONT   # a saved layout: the Timeline in front
            if self.reset_layout or node is None or not node.is_split_node():
                layout.build_default_layout(dock_id, self.app.display_size)
                self._front = layout.FRONT
            self._focus_defaults = 2
            self.layout_done = True
            self.reset_layout = False
        for name, panel in self.panels():
            self._run_panel(name, panel)
        if self._focus_defaults:
            imgui.set_window_focus("Viewport")   # the layout settles with the view focused
        self.keys()
        self.app.prompts.quit_popup()
        jobs = self.app.jobs
        if jobs.job is not None and not jobs.stepping and draw_progress(jobs.job):
            jobs.cancel()
        self.app.toasts.update(self.app.errors, imgui.get_io().delta_time)
        if draw_toasts(self.app.toasts, self.app.display_size):
            layout.bring_to_front(["###Errors"])
        if self._focus_defaults:
            # A fresh layout shows the main tab of each dock node.
            self._focus_defaults -= 1
            if self._focus_defaults == 0:
                layout.bring_to_front(self._front)
        if self.show_demo:
            self.show_demo = imgui.show_demo_window(True) or False

    def keys(self) -> None:
        """The key presses queued since the last frame, one action each, in order."""
        io = imgui.get_io()
        focus = focused_window()
        actions = press_actions(self.app.input.take_presses(), text_input=io.want_text_input,
                                focus=focus)
        actions += held_repeats(text_input=io.want_text_input, focus=focus)
        if self.app.jobs.job is not None:   # long work: only Esc (cancel) counts
            if ESCAPE in actions:
                self.app.jobs.cancel()
            return
        for action in actions:
            if action == SAVE:
                self.app.prompts.save_or_ask()
            elif action == QUIT:
                self.app.prompts.request_quit()
            elif action == ESCAPE:
                self.app.prompts.escape()
            elif self.app.session is not None:
                self.app.controller.apply(action, "shortcut")

    def _run_panel(self, name, panel) -> None:
        try:
            commands = panel()
        except Exception as err:  # noqa: BLE001 - a broken panel must not stop the viewer
            self.app.errors.report(err, f"panel {name}")
            return
        self.app.controller.apply_all(commands, f"panel {name}")

    def panels(self):
        """(name, callable returning commands) for every panel, in draw order."""
        yield "Viewport", self._viewport_panel
        yield "Timeline", self._timeline_panel
        yield "Assets", self._assets_panel
        yield "Object", self._object_panel
        yield "Camera", lambda: draw_camera_panel(
            self.app.controller.view.camera, list(self.app.controller.view.bookmarks.saved),
            self.camera_state, self.app.controller.view.options)
        yield "Script Table", self._script_table_panel
        yield "Emitters", self._emitters_panel
        yield "Hidden / UnHide", self._hidden_panel
        yield "Stats", lambda: draw_stats_panel(self.app.stats)
        yield "Reference", self._reference_panel
        yield "Capture", lambda: draw_capture_panel(
            None if self.app.session is None else self.app.session.playback.duration,
            self.capture_state, self.app.controller.view.compare.track is not None)
        yield "Launch", self._launch_panel
        yield "Errors", lambda: draw_error_panel(self.app.errors)
        yield "Events", self._events_panel
        if self.app.controller.view.audit.open:
            yield "Audit", lambda: draw_audit_panel(self.app.controller.view.audit)

    def _timeline_panel(self):
        if self.app.session is None:
            return draw_timeline(None)
        view = self.app.session.timeline_view()
        handles = self._plotted_emitters()

        def counts(duration):
            draw_counts_plot(self.emitter_counts, handles, view.time,
                             title="Emitter counts", height=120, duration=duration)
        return draw_timeline(replace(view, reference=self.app.controller.view.compare.lane(),
                                     counts=counts))

    def _events_panel(self):
        s = self.app.session
        return draw_events_panel(None if s is None else s.scenario,
                                 0.0 if s is None else s.playback.time, self.events_state,
                                 None if s is None else (s.serial, s.generation,
                                                         id(s.scenario)))

    def _plotted_emitters(self) -> list[int]:
        """The emitters the counts plots draw: the selected one (or the selected
        particle's), else every one recorded."""
        sel = self.app.controller.view.selection
        if sel is not None and sel[0] in ("emitter", "particle"):
            return [sel[1] if sel[0] == "emitter" else sel[1][0]]
        return sorted(self.emitter_counts.series)

    def _reference_panel(self):
        s = self.app.session
        view = panel_view(self.app.controller.view.compare, 0.0 if s is None else s.playback.time,
                          None if s is None else s.playback.frame,
                          () if s is None else scenario_play_events(s.scenario),
                          self.app.scene_view.viewport.aspect, self.app.scene_view.view_tag())
        return draw_reference_panel(view, self.reference_state)

    def _launch_panel(self):
        s = self.app.session
        view = None
        if s is not None:
            origin = inspect.object_origin(s.world, s.selected_object)
            view = LaunchView(tuple(sorted(inspect.owners(s.world))), s.next_object_id(),
                              None if origin is None else (s.selected_object, origin),
                              self.assets_state.selected, presets.status(s.db))
        return draw_launch_panel(view, self.launch_state)

    def _viewport_panel(self):
        cmp = self.app.controller.view.compare
        view = self.app.scene_view
        shown = view.compare_shown and view.compare_texture is not None
        texture = view.compare_texture.glo if shown else view.viewport.color.glo
        aspect = recording_aspect(cmp) if cmp.active else None
        side = cmp.active and cmp.mode == "side_by_side"
        commands, size, click = draw_viewport_panel(
            texture, self.selection_rings(),
            wipe_split=cmp.split if shown and cmp.mode == "wipe" else None,
            aspect=None if aspect is None else aspect * (2 if side else 1),
            legend=self.colour_legend())
        if side:
            # the 3D view takes the left half; the recording the right (2 px apart)
            size = (max(1, (size[0] - 2) // 2), size[1])
        view.want_viewport = size
        if click is not None and self.app.session is not None:
            # A click picks the particle under the mouse, else the nearest object.
            emitters = live_emitters(self.app.session.world, with_particles=True)
            picked = pick_particle(emitters, self.app.controller.view.camera, size, click,
                                   extents=self.particle_extents(emitters))
            if picked is not None:
                commands.append(c.Select("particle", picked))
            else:
                obj = pick_object(object_summaries(self.app.session.world),
                                  self.app.controller.view.camera, size, click)
                if obj is not None:
                    commands.append(c.Select("object", obj))
        return commands

    def _shown_emitter(self):
        """The emitter whose particle rows the Emitters panel lists (the selected one, or
        the selected particle's), else False."""
        selection = self.app.controller.view.selection
        if selection is not None and selection[0] == "emitter":
            return selection[1]
        if selection is not None and selection[0] == "particle":
            return selection[1][0]
        return False

    def colour_legend(self):
        """(mode, rows) of View > Particle colour's legend, or None in retail's colours:
        the live emitters' hues, or the ParticleTypes shown, or the age ramp."""
        mode = self.app.scene_view.particle_colour
        s = self.app.session
        if mode == "none" or s is None:
            return None
        live = self.live_emitters(self._shown_emitter())   # the Emitters panel's rows
        memo = self._legend_memo   # built again with the rows (once per simulated frame)
        if memo is not None and memo[0] == mode and memo[1] is live:
            return memo[2]
        handles = {em.handle for em in live}
        rows = [(em.row, em.handle) for em in s.world.pool.row_emitter
                if em is not None and em.handle in handles]
        types = [em.info.particle_type for em in live if em.info is not None and em.alive]
        legend = mode, legend_entries(mode, rows, types)
        self._legend_memo = (mode, live, legend)
        return legend

    def live_emitters(self, handle):
        """``inspect.live_emitters`` with one emitter's particle rows, built once per
        simulated frame for the rings and the Emitters panel alike (per-emitter Python: a
        scene of hundreds of emitters paid it every viewer frame, paused too); a new sim
        frame, a seek, an edit, another world, another selected emitter or a moved viewer
        (the detail's viewer distance) builds it again."""
        s = self.app.session
        key = (s, s.world, s.playback.frame, s.playback.time, s.generation, handle,
               s.viewer_eye, s.viewer_forward)   # the objects, not ids: never reused
        if self._emitters_memo is None or self._emitters_memo[0] != key:
            self._emitters_memo = (key, live_emitters(s.world, with_particles=handle))
        return self._emitters_memo[1]

    def particle_extents(self, emitters) -> dict:
        """{GfxObj DID: (centre, half diagonal)} of the meshes ``emitters``' particles are
        drawn with (read once per DAT set): a particle is picked and ringed where it is
        drawn, not at its position (a mesh off its origin draws beside it)."""
        s = self.app.session
        if self._extents[0] is not s.db:
            self._extents = (s.db, {})
        known = self._extents[1]
        for em in emitters:
            for p in em.particles[:1]:
                if p.gfxobj and p.gfxobj not in known:
                    known[p.gfxobj] = self._mesh_extent(s.db, p.gfxobj)
        return known

    @staticmethod
    def _mesh_extent(db, did: int):
        """mesh_extent of GfxObj ``did`` with the degrade mode of its first level (a
        billboard turns to the eye); a damaged or absent record: its position stands."""
        try:
            rec = db.try_get(did)
            rec = rec if hasattr(rec, "vertex_array") else None
            info = db.try_get(rec.did_degrade) if rec is not None and rec.did_degrade else None
        except ViewerError:
            return None
        levels = getattr(info, "degrades", ())
        return mesh_extent(rec, levels[0].degrade_mode if levels else 1)

    def _summaries(self):
        """``inspect.object_summaries`` built once per frame for the Object and Hidden
        panels alike (per-object Python: the stress scene's 50 objects paid it twice)."""
        s = self.app.session
        key = (self.app.frame_count, id(s.world), s.playback.frame, s.generation)
        if self._summaries_memo is None or self._summaries_memo[0] != key:
            self._summaries_memo = (key, object_summaries(s.world))
        return self._summaries_memo[1]

    def selection_rings(self):
        """Rings over the viewport for the selected particle (yellow), emitter (cyan) and
        object (pink), in viewport pixels."""
        s = self.app.session
        if s is None:
            return None
        cam, size = self.app.controller.view.camera, self.app.scene_view.viewport.size
        rings = []
        sel = self.app.controller.view.selection
        if sel is not None and sel[0] == "particle":
            xy = self._selected_particle_screen()
            if xy is not None:
                rings.append((xy, 7.0, SELECTED_PARTICLE))
        elif sel is not None and sel[0] == "emitter":
            for em in self.live_emitters(sel[1]):
                if em.handle == sel[1]:
                    # the emitter, and the emitter debugger's highlight: a small ring on
                    # each of its particles (one emitter's, at most HIGHLIGHT_MAX)
                    shown = em.particles[:HIGHLIGHT_MAX]
                    extents, eye = self.particle_extents([em]), cam.eye()
                    points = project_many(cam, size, [em.origin, *(
                        drawn_centre(p, extents, eye) for p in shown)])
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
        sel = self.app.controller.view.selection
        if self.app.session is None or sel is None or sel[0] != "particle":
            return None
        handle, slot = sel[1]
        for em in self.live_emitters(handle):
            if em.handle == handle:
                for p in em.particles:
                    if p.slot == slot:   # where it is drawn (its mesh's centre)
                        return project(self.app.controller.view.camera,
                                       self.app.scene_view.viewport.size,
                                       drawn_centre(p, self.particle_extents([em]),
                                                    self.app.controller.view.camera.eye()))
        return None

    def _assets_panel(self):
        s = self.app.session
        db = None if s is None else s.db
        if db is not None and self._asset_index_db is not db:
            self._asset_index, self._asset_index_db = AssetIndex(db), db
        return draw_assets_panel(db, self._asset_index, self.assets_state, self.app.prompts.recent,
                                 None if s is None else s.selected_object,
                                 () if s is None else s.dat_paths)

    def _object_panel(self):
        s = self.app.session
        objs = [] if s is None else self._summaries()
        return draw_object_panel(objs, None if s is None else s.selected_object,
                                 self.object_state,
                                 None if s is None else s.table_choice(s.selected_object))

    def _script_table_panel(self):
        s = self.app.session
        table = obj_id = None
        if s is not None and s.selected_object in inspect.owners(s.world):
            obj_id = s.selected_object
            table = inspect.script_table(s.world, obj_id)
        kind = 0x04 if s is None else s.play_script_type
        keys = [int(k) for k, _ in table.entries] if table is not None else []
        if keys and kind not in keys:
            kind = keys[0]   # the selected object's table lacks the type: show its first
        view = ScriptTableView(table, kind, self.app.controller.view.intensity, obj_id,
                               time=0.0 if s is None else s.playback.time)
        out = draw_script_table_panel(view, self.table_state)
        played = self.table_state.pop("toast", None)
        if played is not None:   # said at once, beside the event's mark on the Timeline
            self.app.toasts.say("Played", played)
        return out

    def _emitters_panel(self):
        s = self.app.session
        selection = self.app.controller.view.selection
        handle = self._shown_emitter()
        live = [] if s is None else self.live_emitters(handle)
        if s is None:
            return draw_emitters_panel(emitters_view(live, None, selection))
        pb = s.playback
        self.emitter_counts.record((id(s), s.generation), pb.frame, pb.time, live)
        shown = [handle] if handle is not False else [em.handle for em in live]
        return draw_emitters_panel(
            emitters_view(live, s.tracks, selection, now=pb.time),
            plot=lambda: draw_counts_plot(self.emitter_counts, shown, pb.time),
            emitter_filter=self.app.controller.view.emitter_filter,
            particle_plot=lambda key: draw_particle_history(s.world, key))

    def _hidden_panel(self):
        s = self.app.session
        if s is None:
            return draw_hidden_panel(None, [])
        obj = next((o for o in self._summaries() if o.id == s.selected_object), None)
        return draw_hidden_panel(obj, state_transitions(s.events(), s.selected_object))


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
