"""Region (0x13): only the part that reaches the sky objects.

Decoded: header, name, LandDefs, GameTime, parts_mask and, when ``parts_mask & 0x10``, the
SkyDesc with its DayGroups, SkyObjects and SkyTimeOfDays. Everything after the SkyDesc
(SoundDesc, SceneDesc, TerrainDesc, RegionMisc) is kept as raw ``tail`` bytes, so the
record still round-trips exactly and the byte count is honest.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer


@dataclass(frozen=True, slots=True)
class LandDefs:
    num_block_length: int
    num_block_width: int
    square_length: float
    lblock_length: int
    vertex_per_cell: int
    max_obj_height: float
    sky_height: float
    road_width: float
    land_height_table: tuple[float, ...]   # 256 entries


@dataclass(frozen=True, slots=True)
class TimeOfDay:
    start: float
    is_night: bool
    name: str


@dataclass(frozen=True, slots=True)
class Season:
    start_day: int
    name: str


@dataclass(frozen=True, slots=True)
class GameTime:
    zero_time_of_year: float
    zero_year: int
    day_length: float
    days_per_year: int
    year_spec: str
    times_of_day: tuple[TimeOfDay, ...]
    days_of_week: tuple[str, ...]
    seasons: tuple[Season, ...]


@dataclass(frozen=True, slots=True)
class SkyObject:
    begin_time: float
    end_time: float
    begin_angle: float
    end_angle: float
    tex_velocity_x: float
    tex_velocity_y: float
    default_gfx_object_id: int
    default_pes_object_id: int
    properties: int


@dataclass(frozen=True, slots=True)
class SkyObjectReplace:
    object_index: int
    gfx_obj_id: int
    rotate: float
    transparent: float
    luminosity: float
    max_bright: float


@dataclass(frozen=True, slots=True)
class SkyTimeOfDay:
    begin: float
    dir_bright: float
    dir_heading: float
    dir_pitch: float
    dir_color: int
    amb_bright: float
    amb_color: int
    min_world_fog: float
    max_world_fog: float
    world_fog_color: int
    world_fog: int
    sky_obj_replace: tuple[SkyObjectReplace, ...]


@dataclass(frozen=True, slots=True)
class DayGroup:
    chance_of_occur: float
    day_name: str
    sky_objects: tuple[SkyObject, ...]
    sky_time: tuple[SkyTimeOfDay, ...]


@dataclass(frozen=True, slots=True)
class SkyDesc:
    tick_size: float
    light_tick_size: float
    day_groups: tuple[DayGroup, ...]


@dataclass(frozen=True, slots=True)
class Region:
    id: int
    region_number: int
    version: int
    name: str
    land_defs: LandDefs
    game_time: GameTime
    parts_mask: int
    sky_desc: SkyDesc | None   # parts_mask & 0x10
    tail: bytes                # undecoded SoundDesc / SceneDesc / TerrainDesc / RegionMisc

    @classmethod
    def read(cls, r: Reader) -> Region:
        id_, number, version = r.fmt("III", "Region header")
        name = r.pstring16("name")
        v = r.fmt("iifiifff256f", "LandDefs")
        land = LandDefs(*v[:8], tuple(v[8:]))
        zt, zy, dl, dpy = r.fmt("dIfI", "GameTime")
        year_spec = r.pstring16("year_spec")
        n = r.count(r.u32("num times of day"), 12, "times of day")
        tods = []
        for _ in range(n):
            start, night = r.fmt("fI", "TimeOfDay")
            tods.append(TimeOfDay(start, night != 0, r.pstring16("TimeOfDay name")))
        n = r.count(r.u32("num days of week"), 4, "days of week")
        dows = tuple(r.pstring16("day of week") for _ in range(n))
        n = r.count(r.u32("num seasons"), 8, "seasons")
        seasons = []
        for _ in range(n):
            sd = r.u32("Season start_day")
            seasons.append(Season(sd, r.pstring16("Season name")))
        game_time = GameTime(zt, zy, dl, dpy, year_spec, tuple(tods), dows, tuple(seasons))
        mask = r.u32("parts_mask")
        sky = None
        if mask & 0x10:
            tick, light_tick = r.fmt("dd", "SkyDesc")
            n = r.count(r.u32("num day groups"), 12, "day groups")
            groups = []
            for _ in range(n):
                chance = r.f32("chance_of_occur")
                day_name = r.pstring16("day_name")
                m = r.count(r.u32("num sky objects"), 36, "sky objects")
                objs = []
                for _ in range(m):
                    objs.append(SkyObject(*r.fmt("6fIII", "SkyObject")))
                    r.align4()
                m = r.count(r.u32("num sky times"), 48, "sky times")
                times = []
                for _ in range(m):
                    v = r.fmt("4fIfIffII", "SkyTimeOfDay")
                    r.align4()
                    k = r.count(r.u32("num replaces"), 24, "sky object replaces")
                    reps = []
                    for _ in range(k):
                        reps.append(SkyObjectReplace(*r.fmt("II4f", "SkyObjectReplace")))
                        r.align4()
                    times.append(SkyTimeOfDay(*v, tuple(reps)))
                groups.append(DayGroup(chance, day_name, tuple(objs), tuple(times)))
            sky = SkyDesc(tick, light_tick, tuple(groups))
        tail = r.bytes(r.remaining(), "Region tail")
        return cls(id_, number, version, name, land, game_time, mask, sky, tail)

    def write(self, w: Writer) -> None:
        if bool(self.parts_mask & 0x10) != (self.sky_desc is not None):
            raise ValueError("Region: sky_desc must be present exactly when parts_mask & 0x10")
        w.fmt("III", self.id, self.region_number, self.version)
        w.pstring16(self.name)
        ld = self.land_defs
        w.fmt("iifiifff256f", ld.num_block_length, ld.num_block_width, ld.square_length,
              ld.lblock_length, ld.vertex_per_cell, ld.max_obj_height, ld.sky_height,
              ld.road_width, *ld.land_height_table)
        gt = self.game_time
        w.fmt("dIfI", gt.zero_time_of_year, gt.zero_year, gt.day_length, gt.days_per_year)
        w.pstring16(gt.year_spec)
        w.u32(len(gt.times_of_day))
        for t in gt.times_of_day:
            w.fmt("fI", t.start, 1 if t.is_night else 0)
            w.pstring16(t.name)
        w.u32(len(gt.days_of_week))
        for d in gt.days_of_week:
            w.pstring16(d)
        w.u32(len(gt.seasons))
        for s in gt.seasons:
            w.u32(s.start_day)
            w.pstring16(s.name)
        w.u32(self.parts_mask)
        if self.sky_desc is not None:
            sd = self.sky_desc
            w.fmt("dd", sd.tick_size, sd.light_tick_size)
            w.u32(len(sd.day_groups))
            for g in sd.day_groups:
                w.f32(g.chance_of_occur)
                w.pstring16(g.day_name)
                w.u32(len(g.sky_objects))
                for o in g.sky_objects:
                    w.fmt("6fIII", o.begin_time, o.end_time, o.begin_angle, o.end_angle,
                          o.tex_velocity_x, o.tex_velocity_y, o.default_gfx_object_id,
                          o.default_pes_object_id, o.properties)
                    w.align4()
                w.u32(len(g.sky_time))
                for t in g.sky_time:
                    w.fmt("4fIfIffII", t.begin, t.dir_bright, t.dir_heading, t.dir_pitch,
                          t.dir_color, t.amb_bright, t.amb_color, t.min_world_fog,
                          t.max_world_fog, t.world_fog_color, t.world_fog)
                    w.align4()
                    w.u32(len(t.sky_obj_replace))
                    for rep in t.sky_obj_replace:
                        w.fmt("II4f", rep.object_index, rep.gfx_obj_id, rep.rotate,
                              rep.transparent, rep.luminosity, rep.max_bright)
                        w.align4()
        w.bytes(self.tail)
