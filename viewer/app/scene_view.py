"""The 3D view and its comparison composite: the viewport's offscreen target, the scene
renderer for the open DATs, the View menu's overlays and particle colour, and the composite
with a reference recording (``vfxviewer compare``'s picture, drawn on the GPU when it can).

Reads the session through ``viewer.sim.inspect`` and the renderer; never changes the
simulation: a view setting changes only what is drawn.
"""

from __future__ import annotations

from dataclasses import replace

import moderngl
import numpy as np

from viewer.render.composite import reference_texels
from viewer.render.framebuffer import OffscreenTarget, PixelReadback
from viewer.render.grid import GridPass
from viewer.render.particle_debug import particle_bounds, velocity_lines
from viewer.render.renderer import SceneRenderer
from viewer.render.world_adapter import build_scene_input
from viewer.ui.emitter_filter import filter_particles

BACKGROUND = (0.11, 0.12, 0.14, 1.0)
# View > Overlays: RenderSettings flags and their menu labels
OVERLAYS = (("show_spheres", "Bounds (Setup and emitter spheres)"),
            ("show_emitter_anchors", "Emitter anchors"), ("show_part_axes", "Part axes"),
            ("show_collision", "Collision shapes"),
            ("show_velocities", "Velocities (selected emitter's particles)"),
            ("show_particle_bounds", "Particle bounds (selected emitter's, else every emitter's)"))


class SceneView:
    """The viewer's 3D view (``ViewerApp.scene_view``): drawn into ``viewport`` each frame
    something it shows changed, composed with the reference recording when a comparison
    view is on."""

    def __init__(self, app) -> None:
        self.app = app
        ctx = app.ctx
        self.viewport = OffscreenTarget(ctx, (640, 480))
        app.renderer.register_texture(self.viewport.color)
        self.grid = GridPass(ctx)
        self.scene_renderer = None   # viewer.render.renderer.SceneRenderer for session.db
        self._scene_db = None
        self.use_scene_renderer = True
        self.compare_texture: moderngl.Texture | None = None   # the comparison composite
        self.compare_shown = False
        self._read_back = None    # (frame, t, view tag, fbo): the 3D view to read back
        self._readback = PixelReadback(ctx)
        self._composer = None          # viewer.render.composite.CompositePass (GPU views)
        self._composed = None          # what the composer's texture was composed from
        self._composer_tried = False
        self.want_viewport = self.viewport.size   # the Viewport panel's size last frame
        self.view_drawn = None      # view_key of the image in the viewport (None: none)
        self.view_opaque = False    # the 3D view's texture has alpha 255 everywhere
        # View > Overlays: the renderer's debug overlays (view settings only)
        self.overlays = {name: False for name, _ in OVERLAYS}
        # View > Particle colour: emitter debugging tint (particle_debug.PARTICLE_COLOURS)
        self.particle_colour = "none"

    def resize(self) -> None:
        old = self.viewport.color
        if self.viewport.resize(self.want_viewport):
            self.app.renderer.unregister_texture(old)
            self.app.renderer.register_texture(self.viewport.color)

    def render(self) -> None:
        """The 3D view into the viewport; when nothing it is drawn from changed
        (_view_key: paused, or playing faster than the scenario's frame rate between two
        simulated frames), the image drawn last stays as it is."""
        key = self.view_key()
        if key is not None and key == self.view_drawn:
            return
        self.view_drawn = None
        self.draw(self.viewport)
        self.view_drawn = self.view_key()    # the first view's eye may rebuild the world

    def view_key(self) -> tuple | None:
        """Everything the 3D view's image is drawn from (None: no session): the renderer
        and its settings with the overlays and particle colour, the session and its
        scenario's generation, the world shown and its frame, the camera, the viewport's
        size and framebuffer, the selection (velocity and bounds overlays), solo / mute,
        and the count of commands applied (whatever a command changes)."""
        s = self.app.session
        if s is None:
            return None
        renderer = self.scene_renderer_for(s)
        return (self.view_tag(), _Is(renderer),
                None if renderer is None else renderer.gpu_particles,
                _Is(s), _Is(s.playback.world), s.playback.frame, _Is(self.viewport.fbo),
                self.app.controller.applied)

    def view_tag(self) -> tuple:
        """What the 3D view's image of a frame is drawn with, beside the frame itself: the
        session and its scenario's generation, the renderer's settings with the overlays
        and particle colour, the camera, the viewport's size, the selection and solo /
        mute. A frame's comparison figures hold for its image drawn with the same tag."""
        s = self.app.session
        view = self.app.controller.view
        renderer = self.scene_renderer_for(s)
        flt = view.emitter_filter
        return (None if s is None else (s.serial, s.generation),
                None if renderer is None else self.view_settings(renderer),
                view.camera, self.viewport.size, view.selection, flt.solo,
                frozenset(flt.muted))

    def view_settings(self, renderer):
        """The renderer's settings with the View menu's overlays and particle colour, grid,
        axes and background (none of the grid or axes in a comparison view)."""
        view = self.app.controller.view
        return replace(renderer.settings, **self.overlays, particle_colour=self.particle_colour,
                       **view.options.render_overrides(view.compare.active))

    def draw(self, target: OffscreenTarget, transparent: bool = False) -> None:
        """The 3D view into ``target``. ``transparent``: no grid, and alpha stays 0 where
        nothing is drawn (exports); otherwise the view is opaque."""
        if target is self.viewport:
            self.view_opaque = False   # until the alpha clear below makes it so
        camera = self.app.controller.view.camera
        session = self.app.session
        renderer = self.scene_renderer_for(session)
        if renderer is not None:
            settings = self.view_settings(renderer)
            if transparent:
                settings = replace(settings, background=(*settings.background[:3], 0.0),
                                   show_grid=False, show_axes=False)
            # the distance cull's viewer and the sound listener, as render does
            session.set_viewer(camera.eye(), camera.forward())
            flt = self.app.controller.view.emitter_filter
            # solo / mute and particle colours: the CPU particle arrays, filtered and
            # tinted (view settings only)
            scene = build_scene_input(session.world,
                                      gpu_particles=renderer.gpu_particles and not flt.active,
                                      particle_colour=self.particle_colour)
            if settings.show_velocities:
                scene.overlays.velocities = self.selected_velocities()
            if settings.show_particle_bounds:
                scene.overlays.particle_boxes = self.particle_boxes()
            if flt.active:
                scene.particles = filter_particles(scene.particles,
                                                   session.world.pool.row_emitter, flt)
            info = renderer.render(scene, camera, target, settings=settings) or {}
            self.app.stats.draw_calls = int(info.get("draw_calls", 0)) + 1
            self.app.stats.instances = int(info.get("instances", 0))
            if not transparent:
                # The view is shown as an opaque image: whatever alpha the passes left goes.
                target.fbo.color_mask = (False, False, False, True)
                target.fbo.clear(0.0, 0.0, 0.0, 1.0)
                target.fbo.color_mask = (True, True, True, True)
                self.view_opaque = target is self.viewport
            return
        target.use()
        view = self.app.controller.view
        shown = view.options.render_overrides(view.compare.active)
        if transparent:
            target.clear((*BACKGROUND[:3], 0.0))
        else:
            # (no scene renderer: the window's own dark grey stands for "dark")
            target.clear(BACKGROUND if view.options.background == "dark"
                         else shown["background"])
            self.grid.draw(camera.view_projection(target.aspect), camera.eye(),
                           grid=shown["show_grid"], axes=shown["show_axes"])
        self.app.stats.draw_calls, self.app.stats.instances = 1, 0

    def composite(self) -> None:
        """When a comparison view is on: measure the shown frame against the recording and
        put the composite (viewer.compare.views, as ``vfxviewer compare``) in a texture the
        Viewport shows instead of the plain view."""
        cmp = self.app.controller.view.compare
        s = self.app.session
        if not cmp.active or s is None:
            return
        t, frame = s.playback.time, s.playback.frame
        tag = self.view_tag()
        composer = self.composite_pass()
        if composer is None:   # no GLSL 4.00: numpy composes a read-back view
            rendered = self.viewport.read_rgba()
            cmp.measure_later(frame, t, rendered, tag)   # MAD / SSIM in a worker thread
            self._upload_composite(cmp.compose(rendered, t, frame))
            self.compare_shown = True
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
        composed = (self.view_drawn, key, cmp.mode, cmp.opacity, cmp.split,
                    cmp.generation, frame)
        if self.view_drawn is None or composed != self._composed or composer.texture is None:
            self._composed = None
            tex = composer.compose(cmp.mode, self.viewport.fbo, self.viewport.color,
                                   frame=frame, opacity=cmp.opacity, split=cmp.split,
                                   generation=cmp.generation)
            self._composed = composed
        else:
            tex = composer.texture
        self._show_composite(tex)
        self.compare_shown = True

    def read_back(self) -> None:
        """Queue the read-back of the 3D view _composite asked for into a pixel buffer;
        the figures worker gets it at the next frame's collect (CompareModel.measure_after),
        as the frame it was rendered for."""
        want, self._read_back = self._read_back, None
        if want is None:
            return
        frame, t, tag, fbo = want
        if fbo is not self.viewport.fbo:   # reallocated since (never within a frame)
            return
        cmp = self.app.controller.view.compare
        cmp.collect()                     # fetches an earlier read-back still waiting
        self._readback.issue(fbo, self.viewport.size)
        cmp.measure_after(frame, t, self._readback.fetch, tag)

    def composite_pass(self):
        if not self._composer_tried:
            self._composer_tried = True
            from viewer.render.composite import CompositePass
            self._composer = CompositePass.create(self.app.ctx)
        return self._composer

    def _show_composite(self, tex) -> None:
        """Show the GPU composite's texture (registered with ImGui when it changes)."""
        for old in self._composer.take_retired():
            self.app.renderer.unregister_texture(old)
            old.release()
        if tex is not self.compare_texture:
            self.compare_texture = tex
            self.app.renderer.register_texture(tex)

    def _upload_composite(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        rgba = np.empty((h, w, 4), np.uint8)
        rgba[..., :3] = image[..., :3]
        rgba[..., 3] = 255
        data = np.ascontiguousarray(rgba[::-1]).tobytes()   # GL rows are bottom-up
        tex = self.compare_texture
        if tex is None or tex.size != (w, h):
            if tex is not None:
                self.app.renderer.unregister_texture(tex)
                tex.release()
            tex = self.compare_texture = self.app.ctx.texture((w, h), 4, data)
            tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self.app.renderer.register_texture(tex)
        else:
            tex.write(data)

    def scene_renderer_for(self, session):
        """The scene renderer for the session's database (rebuilt when it changes)."""
        if session is None or not self.use_scene_renderer:
            return None
        if self.scene_renderer is None or self._scene_db is not session.db:
            self.scene_renderer = SceneRenderer(self.app.ctx, session.db, grid=self.grid)
            self._scene_db = session.db
        return self.scene_renderer

    def _selected_row(self) -> int | None:
        """The pool row of the selected emitter (or of the selected particle's emitter);
        None when none is selected or it is gone."""
        sel = self.app.controller.view.selection
        if sel is None or sel[0] not in ("emitter", "particle"):
            return None
        handle = sel[1] if sel[0] == "emitter" else sel[1][0]
        pool = self.app.session.world.pool
        rows = [r for r, em in enumerate(pool.row_emitter)
                if em is not None and em.handle == handle]
        return rows[0] if rows else None

    def selected_velocities(self):
        """Velocity segments of the selected emitter's particles (None: no emitter)."""
        row = self._selected_row()
        return None if row is None else velocity_lines(self.app.session.world.pool, row)

    def particle_boxes(self):
        """The live particles' box of the selected emitter, else of every emitter."""
        row = self._selected_row()
        return particle_bounds(self.app.session.world.pool, None if row is None else [row])

    def release(self) -> None:
        self.grid.release()
        self._readback.release()
        self.viewport.release()
        if self._composer is not None:
            self._composer.release()   # owns the composite texture it shows
        elif self.compare_texture is not None:
            self.compare_texture.release()


class _Is:
    """A key part equal only to another for the very same object (a world, a session: no
    field-by-field comparison), kept alive while the key is."""

    __slots__ = ("obj",)

    def __init__(self, obj) -> None:
        self.obj = obj

    def __eq__(self, other) -> bool:
        return isinstance(other, _Is) and other.obj is self.obj

    __hash__ = None


