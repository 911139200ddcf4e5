"""Setup (0x02): CSetup::UnPack 0x00520C50 (re-based)."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.animation import AnimationFrame
from viewer.dat.records.common import (
    CylSphere,
    Frame,
    ParentLocation,
    Placement,
    SetupFlags,
    Sphere,
    Vec3,
    as_enum,
)


@dataclass(frozen=True, slots=True)
class LocationType:
    part_id: int
    frame: Frame


@dataclass(frozen=True, slots=True)
class LightInfo:
    """LIGHTINFO: ``type`` is the leading i32, ``offset`` the local frame (CSetup::UnPack).

    ``cone_angle`` can be uninitialised retail memory (0xCDCDCDCD = -431602080.0).
    """

    type: int
    offset: Frame
    color: int  # ColorARGB 0xAARRGGBB
    intensity: float
    falloff: float
    cone_angle: float


@dataclass(frozen=True, slots=True)
class Setup:
    id: int
    flags: SetupFlags
    parts: tuple[int, ...]
    parent_index: tuple[int, ...] | None          # flags & HasParent
    default_scale: tuple[Vec3, ...] | None        # flags & HasDefaultScale
    holding_locations: tuple[tuple[ParentLocation | int, LocationType], ...]
    connection_points: tuple[tuple[ParentLocation | int, LocationType], ...]
    placement_frames: tuple[tuple[Placement | int, AnimationFrame], ...]
    cylspheres: tuple[CylSphere, ...]
    spheres: tuple[Sphere, ...]
    height: float
    radius: float
    step_up_height: float
    step_down_height: float
    sorting_sphere: Sphere
    selection_sphere: Sphere
    lights: tuple[LightInfo, ...]
    default_animation: int
    default_script: int
    default_motion_table: int
    default_sound_table: int
    default_script_table: int

    @property
    def num_parts(self) -> int:
        return len(self.parts)

    def placement_frame(self, key: int) -> AnimationFrame | None:
        for k, f in self.placement_frames:
            if k == key:
                return f
        return None

    @classmethod
    def read(cls, r: Reader) -> Setup:
        id_ = r.u32("id")
        flags = SetupFlags(r.u32("flags"))
        n = r.count(r.u32("num_parts"), 4, "parts")
        parts = r.fmt(f"{n}I", "parts")
        parent_index = r.fmt(f"{n}I", "parent_index") if flags & SetupFlags.HasParent else None
        default_scale = None
        if flags & SetupFlags.HasDefaultScale:
            v = r.fmt(f"{3 * n}f", "default_scale")
            default_scale = tuple(v[i:i + 3] for i in range(0, 3 * n, 3))

        def locations(what):
            m = r.count(r.u32(f"num_{what}"), 36, what)
            out = []
            for _ in range(m):
                key, part = r.fmt("ii", what)   # LocationType.part_id is an i32
                out.append((as_enum(ParentLocation, key), LocationType(part, Frame.read(r))))
            return tuple(out)

        holding = locations("holding_locations")
        connection = locations("connection_points")
        m = r.count(r.u32("num_placement_frames"), 8, "placement_frames")
        placements = []
        for _ in range(m):
            key = as_enum(Placement, r.u32("placement key"))
            placements.append((key, AnimationFrame.read(r, n)))
        m = r.count(r.u32("num_cylspheres"), 20, "cylspheres")
        cyl = tuple(CylSphere.read(r) for _ in range(m))
        m = r.count(r.u32("num_spheres"), 16, "spheres")
        spheres = tuple(Sphere.read(r) for _ in range(m))
        height, radius, step_up, step_down = r.fmt("4f", "heights")
        sorting = Sphere.read(r)
        selection = Sphere.read(r)
        m = r.count(r.u32("num_lights"), 48, "lights")
        lights = []
        for _ in range(m):
            t = r.i32("light type")
            frame = Frame.read(r)
            color, intensity, falloff, cone = r.fmt("I3f", "LightInfo")
            lights.append(LightInfo(t, frame, color, intensity, falloff, cone))
        dids = r.fmt("5I", "default DIDs")
        r.align4()
        return cls(id_, flags, parts, parent_index, default_scale, holding, connection,
                   tuple(placements), cyl, spheres, height, radius, step_up, step_down,
                   sorting, selection, tuple(lights), *dids)

    def write(self, w: Writer) -> None:
        n = len(self.parts)
        if bool(self.flags & SetupFlags.HasParent) != (self.parent_index is not None):
            raise ValueError("Setup: parent_index must be present exactly when HasParent")
        if bool(self.flags & SetupFlags.HasDefaultScale) != (self.default_scale is not None):
            raise ValueError("Setup: default_scale must be present exactly when "
                             "HasDefaultScale")
        w.u32(self.id)
        w.u32(int(self.flags))
        w.u32(n)
        w.fmt(f"{n}I", *self.parts)
        if self.parent_index is not None:
            if len(self.parent_index) != n:
                raise ValueError("Setup: parent_index length differs from parts")
            w.fmt(f"{n}I", *self.parent_index)
        if self.default_scale is not None:
            if len(self.default_scale) != n:
                raise ValueError("Setup: default_scale length differs from parts")
            for s in self.default_scale:
                w.vec3(s)
        for locs in (self.holding_locations, self.connection_points):
            w.u32(len(locs))
            for key, loc in locs:
                w.i32(int(key))
                w.i32(loc.part_id)
                loc.frame.write(w)
        w.u32(len(self.placement_frames))
        for key, frame in self.placement_frames:
            w.u32(int(key))
            if len(frame.frames) != n:
                raise ValueError("Setup: a placement frame has the wrong number of parts")
            frame.write(w)
        w.u32(len(self.cylspheres))
        for c in self.cylspheres:
            c.write(w)
        w.u32(len(self.spheres))
        for s in self.spheres:
            s.write(w)
        w.fmt("4f", self.height, self.radius, self.step_up_height, self.step_down_height)
        self.sorting_sphere.write(w)
        self.selection_sphere.write(w)
        w.u32(len(self.lights))
        for light in self.lights:
            w.i32(light.type)
            light.offset.write(w)
            w.fmt("I3f", light.color, light.intensity, light.falloff, light.cone_angle)
        w.fmt("5I", self.default_animation, self.default_script, self.default_motion_table,
              self.default_sound_table, self.default_script_table)
        w.align4()
