"""SceneRenderer: the one place that owns GL state for drawing a SceneInput.

Used by the window (viewport target) and headless ``vfxviewer render`` alike:
``SceneRenderer(ctx, db).render(scene_input, camera, target)``. It reads the SceneInput and
never changes the runtime.

Order (docs/retail-rules.md, Rendering): grid; unblended subsets of parts and particles
(depth write on); then the deferred *clip* list, then the deferred *alpha* list, each sorted
far to near by CYpt with a stable sort (retail sorts parts far to near, then flushes each
deferred list in insertion order); overlays last.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import moderngl
import numpy as np

from viewer.render import degrade, materials
from viewer.render.grid import GridPass
from viewer.render.lights import apply_lights, select_lights
from viewer.render.meshes import MeshCache
from viewer.render.overlays import OverlayPass
from viewer.render.particles import ParticlePass, _Draw, facing_view, prepare
from viewer.render.particles_gpu import SOFTWARE_RENDERERS, software_rasteriser, warn_if_stale
from viewer.render.programs import load_program, set_uniform
from viewer.render.scene_input import SceneInput, SceneLight
from viewer.render.world_adapter import particle_arrays


@dataclass
class RenderSettings:
    """Plain settings the UI edits; the renderer reads them each frame."""

    background: tuple[float, float, float, float] = (0.08, 0.08, 0.10, 1.0)
    ambient: tuple[float, float, float] = (0.45, 0.45, 0.45)
    sun_direction: tuple[float, float, float] | None = (-0.4, 0.3, -0.85)
    sun_color: tuple[float, float, float] = (0.55, 0.55, 0.55)
    lighting: bool = True
    show_grid: bool = True
    # the world axes at the origin; None: drawn with the grid (the viewer sets it apart)
    show_axes: bool | None = None
    show_spheres: bool = False
    show_part_axes: bool = False
    show_emitter_anchors: bool = False
    show_collision: bool = False      # world collision shapes (planes, boxes, spheres, cylinders)
    show_velocities: bool = False     # the selected emitter's particles' velocity lines
    show_particle_bounds: bool = False   # live particles' box per emitter (Overlays)
    cull_backfaces: bool = True
    degrade_mul: float = 1.0          # steady state m = +1
    # evaluate and sort particles on the GPU (compute shaders, GL 4.3) when the scene
    # carries a particle snapshot; False or unavailable: the CPU path (particles.prepare).
    # "auto": the GPU, except on a software rasteriser: llvmpipe runs compute shaders on
    # the same CPU cores, slower than numpy in wall time (bench/particles.py --pass)
    gpu_particles: bool | str = "auto"
    max_dynamic_lights: int = 10      # 7 + 3m at m = +1
    # View > Particle colour (emitter debugging): "none" | "emitter" | "age" | "type"
    # (particle_debug.PARTICLE_COLOURS); any but "none" draws through the CPU path
    particle_colour: str = "none"


@dataclass
class _Frame:
    """One render call's inputs and the draws deferred to the clip / alpha lists."""

    scene: SceneInput
    eye: np.ndarray
    sun: list[SceneLight]
    settings: RenderSettings
    deferred: list = field(default_factory=list)   # (draw_list, depth, seq, item)
    mesh_draws: int = 0

    def defer(self, draw_list: int, depth: float, item) -> None:
        self.deferred.append((draw_list, depth, len(self.deferred), item))


def _mat_bytes(m) -> bytes:
    return np.ascontiguousarray(np.asarray(m, np.float32).T).tobytes()


class SceneRenderer:
    def __init__(self, ctx, db, settings: RenderSettings | None = None, *,
                 allow_compressed: bool = True, grid: GridPass | None = None) -> None:
        """``grid``: a GridPass to draw the ground grid with (the window shares its own);
        without one the renderer makes one on first use and releases it."""
        self.ctx = ctx
        self.db = db
        self.settings = settings or RenderSettings()
        self.meshes = MeshCache(ctx, db, allow_compressed=allow_compressed)
        self.mesh_prog = load_program(ctx, "mesh")
        self.particle_prog = load_program(ctx, "particle")
        self.particles = ParticlePass(ctx, self.meshes, self.particle_prog)
        self._gpu = None          # GpuParticlePass, compiled on first use
        self._cpu_last = None     # (arrays, (eye, m), prepared) of the last CPU-path upload
        self._gpu_failed = False
        self.grid = grid
        self._owns_grid = False
        self._overlays = None
        lin = (moderngl.LINEAR, moderngl.LINEAR)
        self._samplers = {True: ctx.sampler(filter=lin, repeat_x=True, repeat_y=True),
                          False: ctx.sampler(filter=lin, repeat_x=False, repeat_y=False)}
        self.last_stats: dict = {}

    # --- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _sun(s: RenderSettings) -> list[SceneLight]:
        if s.sun_direction is None:
            return []
        return [SceneLight(1, (0.0, 0.0, 0.0), tuple(s.sun_direction), tuple(s.sun_color),
                           1.0, 0.0)]

    def _set_material(self, prog, mat, *, luminosity, diffuse, alpha_ref,
                      wrap: bool = False, opaque: bool = False) -> None:
        set_uniform(prog, "u_textured", mat.texture is not None)
        if mat.texture is not None:
            mat.texture.use(0)
            self._samplers[bool(wrap)].use(0)
            set_uniform(prog, "u_tex", 0)
        set_uniform(prog, "u_color", tuple(mat.color))   # solid texel, alpha 1 - translucency
        set_uniform(prog, "u_alpha_ref", float(-1.0 if alpha_ref is None else alpha_ref))
        set_uniform(prog, "u_opaque", bool(opaque))
        set_uniform(prog, "u_emissive", (luminosity,) * 3)
        set_uniform(prog, "u_diffuse", (diffuse,) * 3)

    def _gpu_wanted(self, s: RenderSettings) -> bool:
        if s.gpu_particles is False or self._gpu_failed:
            return False
        if getattr(self.ctx, "version_code", 0) < 430:
            return False   # no compute shaders
        if s.gpu_particles == "auto":
            return not software_rasteriser(self.ctx, SOFTWARE_RENDERERS)
        return True

    @property
    def gpu_particles(self) -> bool:
        """Whether scenes for this renderer should carry a particle snapshot (GPU path)
        rather than CPU-evaluated arrays (``build_scene_input(world, gpu_particles=...)``)."""
        return self._gpu_wanted(self.settings)

    def _gpu_pass(self):
        if self._gpu is None and not self._gpu_failed:
            from viewer.render.particles_gpu import GpuParticlePass
            self._gpu = GpuParticlePass.create(self.ctx, self.meshes)
            self._gpu_failed = self._gpu is None
        return self._gpu

    def _prepare_particles(self, scene: SceneInput, eye, s: RenderSettings):
        """This frame's particle batches: on the GPU from the scene's snapshot, or on the
        CPU from its arrays (a snapshot without a GPU pass is evaluated on the CPU)."""
        snap = scene.particle_snapshot
        use = snap is not None and self._gpu_wanted(s) and s.particle_colour == "none"
        gpu = self._gpu_pass() if use else None
        if gpu is not None:
            prepared = gpu.prepare(snap, eye, m=s.degrade_mul)
            if prepared.batches:
                self.particles.use_buffer(gpu.instances, prepared.count)
            return prepared
        arrays = scene.particles
        if snap is not None:  # the pool as it is now: the snapshot must be current
            warn_if_stale(snap)
            arrays = particle_arrays(snap.pool, s.particle_colour)
        # the same arrays seen from the same eye (a paused frame): the rows uploaded last
        # frame are this frame's; nothing is prepared or uploaded again
        key = (eye.tobytes(), float(s.degrade_mul))
        last = self._cpu_last
        if last is not None and last[0] is arrays and last[1] == key and \
                self.particles.uploaded is last[2]:
            return last[2]
        prepared = prepare(arrays, eye, self.meshes, m=s.degrade_mul)
        self.particles.upload(prepared)
        self._cpu_last = (arrays, key, prepared)
        return prepared

    # --- the frame ------------------------------------------------------------------------------
    def render(self, scene: SceneInput, camera, target, *, clear: bool = True,
               settings: RenderSettings | None = None) -> dict:
        """Draw ``scene`` into ``target`` (an OffscreenTarget). ``clear=False`` draws over
        what the target holds (the window clears it and draws its own grid first).
        ``settings`` replace ``self.settings`` for this frame only (an export's transparent
        background). Returns the frame's figures (draw calls, instances)."""
        ctx, s = self.ctx, settings or self.settings
        target.use()
        if clear:
            target.clear(s.background)
        self._fbo = target.fbo
        proj, view = camera.projection_matrix(target.aspect), camera.view_matrix()
        view_proj = proj @ view
        eye = np.asarray(camera.eye(), np.float64)
        self._begin_frame(s, view_proj, eye, grid=s.show_grid and clear,
                          axes=(s.show_grid if s.show_axes is None else s.show_axes) and clear)
        # particle rows outside the view and billboards' culled triangles may be left out
        # of the draws (particles.row_classes: the same pixels)
        self.particles.set_view(facing_view(proj, view, ctx.viewport[2:], eye,
                                            s.cull_backfaces))
        frame = _Frame(scene, eye, self._sun(s), s)
        self._tex_offsets = scene.texture_offsets
        self._draw_parts(frame)
        prepared = self._draw_particle_pass(frame)
        self._flush_deferred(frame)
        ctx.disable(moderngl.BLEND)
        ctx.disable(moderngl.CULL_FACE)
        ctx.clear_samplers(0, 1)  # leave unit 0 to whoever draws next (the UI)
        self._fbo.depth_mask = True
        if (s.show_spheres or s.show_part_axes or s.show_emitter_anchors or s.show_collision
                or s.show_velocities or s.show_particle_bounds):
            if self._overlays is None:
                self._overlays = OverlayPass(ctx)
            self._overlays.draw(scene.overlays, s, view_proj)
        self.last_stats = {"mesh_draws": frame.mesh_draws,
                           "particle_draws": self.particles.draw_calls,
                           "particle_batches": len(prepared.batches),
                           "particles_drawn": prepared.count,
                           "draw_calls": frame.mesh_draws + self.particles.draw_calls,
                           "instances": prepared.count}
        return self.last_stats

    def _begin_frame(self, s: RenderSettings, view_proj, eye, *, grid: bool,
                     axes: bool = False) -> None:
        """Depth on, blending off; the grid and / or the axes (blended) when asked; the
        cull mode; the camera uniforms of both programs."""
        ctx = self.ctx
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.disable(moderngl.BLEND)
        self._fbo.depth_mask = True
        if grid or axes:
            if self.grid is None:
                self.grid, self._owns_grid = GridPass(ctx), True
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = (moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA,
                              moderngl.ONE, moderngl.ONE_MINUS_SRC_ALPHA)
            self.grid.draw(view_proj, eye, grid=grid, axes=axes)
            ctx.disable(moderngl.BLEND)
        if s.cull_backfaces:
            # RenderMeshSubset 0x0059CA10: CULLMODE_CW on every subset; retail's unmirrored
            # view makes that "draw the side the vertices run counter-clockwise around"
            # (meshes.py docstring), which a right-handed GL camera keeps with ccw = front
            ctx.enable(moderngl.CULL_FACE)
            ctx.front_face = "ccw"
        else:
            ctx.disable(moderngl.CULL_FACE)
        vp = _mat_bytes(view_proj)
        for prog in (self.mesh_prog, self.particle_prog):
            prog["u_view_proj"].write(vp)
        set_uniform(self.particle_prog, "u_eye", tuple(float(c) for c in eye))

    def _draw_parts(self, frame: _Frame) -> None:
        """Opaque subsets of every drawn part now; clip / alpha subsets to the deferred
        lists."""
        for inst in frame.scene.meshes:
            if inst.hidden or inst.translucency == 1.0:  # SetTranslucency 0x0050E670
                continue
            mesh, world, depth = self._degraded(inst, frame.eye, frame.settings)
            origin = world[:3, 3]
            part_translucent = inst.translucency > 0.0
            for sub in self.meshes.subsets(mesh, inst.surfaces):
                state = sub.material.blend(part_translucent=part_translucent)
                item = ("mesh", inst, mesh, sub, state, origin, world)
                if state.draw_list == materials.LIST_OPAQUE:
                    self._draw_mesh(item, frame)
                else:
                    frame.defer(state.draw_list, depth, item)

    def _draw_particle_pass(self, frame: _Frame):
        """Particles: prepared (GPU or numpy), one draw per batch and subset; blended
        batches go to the deferred lists."""
        s, eye = frame.settings, frame.eye
        self.particles.draw_calls = 0
        prepared = self._prepare_particles(frame.scene, eye, s)
        if prepared.batches:
            apply_lights(self.particle_prog, frame.sun + select_lights(
                frame.scene.lights, eye, eye, 1e9, max_dynamic=s.max_dynamic_lights)[:7],
                lighting=s.lighting, ambient=s.ambient)
        for draw_list, depth, draw in self.particles.draw_items(prepared):
            if draw_list == materials.LIST_OPAQUE:
                self._draw_particles(draw)
            else:
                frame.defer(draw_list, depth, draw)
        return prepared

    def _flush_deferred(self, frame: _Frame) -> None:
        """The clip list, then the alpha list; each far to near, stable."""
        for wanted in (materials.LIST_CLIP, materials.LIST_ALPHA):
            items = [d for d in frame.deferred if d[0] == wanted]
            items.sort(key=lambda d: (-d[1], d[2]))
            for _, _, _, item in items:
                if isinstance(item, _Draw):
                    self._draw_particles(item)
                else:
                    self._draw_mesh(item, frame)

    def _degraded(self, inst, eye, s: RenderSettings):
        """(drawn mesh, draw matrix, CYpt) of a part: its GfxObj's degrade entry for the
        viewer distance and that entry's degrade mode (GfxObjDegradeInfo::get_degrade
        0x0051E4B0)."""
        mesh = self.meshes.mesh(inst.gfxobj)
        world = np.asarray(inst.world, np.float64)
        # CPhysicsPart::UpdateViewerDistance 0x0050E030: CYpt from pos + sort_center * scale
        centre = world[:3, 3] + world[:3, :3] @ (np.asarray(mesh.sort_center) *
                                                   np.asarray(inst.scale, np.float64))
        cypt = float(np.linalg.norm(centre - eye))
        if not mesh.degrade:
            return mesh, world, cypt
        entry = mesh.degrade[degrade.select_level(mesh.degrade, cypt, float(inst.scale[2]),
                                                  s.degrade_mul)]
        drawn = self.meshes.mesh(int(entry.gfxobj_id)) if entry.gfxobj_id else mesh
        mode = int(entry.degrade_mode)
        if mode != 1:
            world = world.copy()
            world[:3, :3] = degrade.draw_rotation(mode, world[:3, :3], centre - eye)
        return drawn, world, cypt

    def _draw_mesh(self, item, frame: _Frame) -> None:
        _, inst, mesh, sub, state, origin, world = item
        scene, s = frame.scene, frame.settings
        frame.mesh_draws += 1
        prog = self.mesh_prog
        materials.apply_blend(self.ctx, self._fbo, state)
        scale = tuple(float(c) for c in inst.scale)
        lights = select_lights(scene.lights, frame.eye, origin, mesh.radius * max(scale),
                               max_dynamic=s.max_dynamic_lights)
        apply_lights(prog, (frame.sun + lights)[:8], lighting=s.lighting, ambient=s.ambient)
        mat = sub.material
        # RenderMeshSubset 0x0059CA10: surface luminosity > 0 wins over the part's material
        lum = materials.emissive(mat.luminosity, inst.luminosity)
        dif = materials.diffuse_rgb(inst.diffuse)
        self._set_material(prog, mat, luminosity=lum, diffuse=dif, alpha_ref=state.alpha_ref,
                           wrap=sub.wrap, opaque=state.blend is None)
        # vertex alpha, or the private material's 1 - t replacing it (materials.diffuse_alpha)
        set_uniform(prog, "u_diffuse_alpha", materials.diffuse_alpha(
            mat.vertex_alpha(), inst.translucency, inst.luminosity, inst.diffuse))
        prog["u_model"].write(_mat_bytes(world))
        set_uniform(prog, "u_scale", scale)
        uv = inst.uv_offset
        if uv == (0.0, 0.0):
            uv = scene.texture_offsets.get(mesh.did, uv)
        set_uniform(prog, "u_uv_offset", tuple(float(c) for c in uv))
        vao = mesh.vaos.get("mesh")
        if vao is None:
            vao = mesh.vaos["mesh"] = self.ctx.vertex_array(
                prog, [(mesh.vbo, "3f 3f 2f", "in_position", "in_normal", "in_uv")])
        vao.render(moderngl.TRIANGLES, vertices=sub.count, first=sub.first)

    def _draw_particles(self, draw: _Draw) -> None:
        materials.apply_blend(self.ctx, self._fbo, draw.state)
        mat = draw.sub.material
        # particle parts get no luminosity / diffuse of their own (only translucency)
        self._set_material(self.particle_prog, mat, luminosity=materials.emissive(mat.luminosity),
                           diffuse=materials.diffuse_rgb(), alpha_ref=draw.state.alpha_ref,
                           wrap=draw.sub.wrap, opaque=draw.state.blend is None)
        # particles without a private material (t == 0) light with the vertex alpha
        set_uniform(self.particle_prog, "u_vertex_alpha", mat.vertex_alpha())
        set_uniform(self.particle_prog, "u_uv_offset",
                    tuple(float(c) for c in self._tex_offsets.get(draw.mesh.did, (0.0, 0.0))))
        self.particles.render_batch(draw.mesh, draw.sub, draw.batch)

    def release(self) -> None:
        for sampler in self._samplers.values():
            sampler.release()
        self.ctx.clear_samplers(0, 1)
        self.meshes.release()
        self.particles.release()
        self._cpu_last = None
        if self._gpu is not None:
            self._gpu.release()
        if self.grid is not None and self._owns_grid:
            self.grid.release()
        if self._overlays is not None:
            self._overlays.release()

