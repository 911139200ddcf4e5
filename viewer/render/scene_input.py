"""What the renderer draws: a small, explicit, GL-free snapshot of the runtime.

The renderer never reads the runtime's objects directly while drawing; it reads one
``SceneInput`` built by ``scene_input_from_world(world)`` (or by hand in tests and benches).
That keeps the render layer read-only with respect to the simulation (DEVELOPING.md layers)
and lets the passes be tested without a World.

Conventions: world is Z up; matrices are 4x4 float32, row-major numpy,
acting on column vectors (translation in the last column); quaternions are (w, x, y, z).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# PhysicsState bits the renderer honours.
NODRAW = 0x20
LIGHTING_ON = 0x800
HIDDEN = 0x4000
CLOAKED = 0x100000


@dataclass(frozen=True)
class MeshInstance:
    """One drawn part: a GfxObj at a world matrix with its per-part material overrides.

    ``translucency`` / ``luminosity`` / ``diffuse`` are the part's private-material values;
    ``None`` means the default (luminosity 0, diffuse 1). How they combine
    with the surface: ``viewer.render.materials`` (diffuse_alpha, emissive, diffuse_rgb).
    ``uv_offset`` is the accumulated TextureVelocity offset (CPhysics::UpdateTexVelocity
    0x00509820).
    """

    gfxobj: int
    world: np.ndarray                      # 4x4, part frame (origin, rotation) only
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    translucency: float = 0.0
    luminosity: float | None = None
    diffuse: float | None = None
    uv_offset: tuple[float, float] = (0.0, 0.0)
    owner: int = 0
    part: int = -1
    hidden: bool = False                   # Hidden/NoDraw object or draw_state bit: not drawn
    # an ObjDesc's private surfaces by surface index (inspect.part_surfaces), or None: the
    # GfxObj's own (CPhysicsPart::Draw 0x0050D7A0 draws any degrade level with them)
    surfaces: tuple | None = None


@dataclass(frozen=True)
class ParticleArrays:
    """Every live particle of every emitter, as the runtime's pooled arrays (one row each).

    ``gfxobj`` is the particle's HwGfxObjId; ``emitter`` indexes ``emitter_origins`` (the
    emitter physics object's world origin, used for the shared CYpt / heading of far
    emitters). Rows are in emitter-then-slot order, which is
    retail's insertion order for equal sort keys.
    """

    positions: np.ndarray                  # (N, 3) float
    orientations: np.ndarray               # (N, 4) float (w, x, y, z); identity unless GR types
    scales: np.ndarray                     # (N,) float, gfxobj_scale (uniform)
    translucencies: np.ndarray             # (N,) float, 0 opaque .. 1 not drawn
    gfxobj: np.ndarray                     # (N,) uint32
    emitter: np.ndarray                    # (N,) int32 index into emitter_origins
    emitter_origins: np.ndarray            # (E, 3) float
    tints: np.ndarray | None = None        # (N, 3) float: View > Particle colour, else None

    @property
    def count(self) -> int:
        return int(self.positions.shape[0])

    @staticmethod
    def empty() -> ParticleArrays:
        return ParticleArrays(np.zeros((0, 3), np.float32), np.zeros((0, 4), np.float32),
                              np.zeros(0, np.float32), np.zeros(0, np.float32),
                              np.zeros(0, np.uint32), np.zeros(0, np.int32),
                              np.zeros((0, 3), np.float32))


@dataclass(frozen=True)
class SceneLight:
    """A world light. kind: 0 point, 1 directional, 2 spot."""

    kind: int
    position: tuple[float, float, float]
    direction: tuple[float, float, float]  # local +Y of the light frame
    color: tuple[float, float, float]      # 0..1, re-quantised to 8 bits
    intensity: float
    falloff: float
    cone_angle: float = 0.0
    owner: int = 0


@dataclass(frozen=True)
class SphereOverlay:
    center: tuple[float, float, float]
    radius: float
    kind: str = "sorting"                  # sorting / collision / selection / shell


@dataclass
class Overlays:
    """Debug drawing, each list toggled by the renderer's settings."""

    spheres: list[SphereOverlay] = field(default_factory=list)
    part_axes: list[np.ndarray] = field(default_factory=list)     # 4x4 part frames
    emitter_anchors: list[tuple[float, float, float]] = field(default_factory=list)
    # the projectile harness's world shapes, CollisionWorld.describe() plain dicts
    # (kind plane / box / sphere / cylinder, viewer/sim/collision.py)
    collision: list[dict] = field(default_factory=list)
    # the selected emitter's particles: (N, 2, 3) segments along their velocity (the app
    # fills it, particle_debug.velocity_lines) or None
    velocities: np.ndarray | None = None
    # live particles' bounding boxes, one per emitter: (E, 2, 3) min / max corners (the app
    # fills it, particle_debug.particle_bounds) or None
    particle_boxes: np.ndarray | None = None


@dataclass
class SceneInput:
    meshes: list[MeshInstance] = field(default_factory=list)
    particles: ParticleArrays = field(default_factory=ParticleArrays.empty)
    lights: list[SceneLight] = field(default_factory=list)
    overlays: Overlays = field(default_factory=Overlays)
    time: float = 0.0
    # CPhysics::UpdateTexVelocity 0x00509820: accumulated UV offset per GfxObj DID
    texture_offsets: dict[int, tuple[float, float]] = field(default_factory=dict)
    # the GPU particle path's input instead of ``particles`` (particles_gpu.ParticleSnapshot:
    # only the slots changed since the previous snapshot, plus the emitter table)
    particle_snapshot: object | None = None


def frame_matrix(origin, orientation) -> np.ndarray:
    """4x4 matrix of a Frame (origin, quaternion (w, x, y, z))."""
    w, x, y, z = (float(c) for c in orientation)
    m = np.eye(4, dtype=np.float64)
    m[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                 [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                 [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    m[:3, 3] = [float(c) for c in origin]
    return m.astype(np.float32)


def scene_input_from_world(world, *, gpu_particles: bool = False) -> SceneInput:
    """Snapshot the sim World for drawing (read only; see viewer/render/world_adapter.py).
    ``gpu_particles``: carry a particle snapshot for the GPU path (the renderer's
    ``gpu_particles``) instead of CPU-evaluated arrays."""
    from viewer.render.world_adapter import build_scene_input
    return build_scene_input(world, gpu_particles=gpu_particles)
