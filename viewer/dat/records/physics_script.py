"""PhysicsScript (0x33) and PhysicsScriptTable (0x34): PhysicsScript::UnPack 0x005218B0 and
PhysicsScriptTable::UnPack 0x005220E0."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.common import PlayScript, as_enum
from viewer.dat.records.crt_qsort import qsort_order
from viewer.dat.records.hooks import AnimationHook, NullHook, UnknownHooks, write_hook

#: The most hooks one PhysicsScript may hold (ours, not retail's: retail's scripts hold tens).
#: Each hook is a few hundred bytes of Python objects however few bytes it takes on disk, so
#: the count, not only the record's bytes, bounds the memory and the unpack sort's work.
MAX_SCRIPT_HOOKS = 65536


@dataclass(frozen=True, slots=True)
class PhysicsScriptData:
    """One timed hook of a PhysicsScript (start_time is an f64 on disk). PhysicsScript::UnPack
    0x005218B0 keeps an entry whose hook UnPackHook left NULL (a ``NullHook`` here)."""

    start_time: float
    hook: AnimationHook | NullHook


def physics_script_data_sort(a: PhysicsScriptData, b: PhysicsScriptData) -> int:
    """PhysicsScriptData::Sort 0x00521600: -1, or 1 when ``a.start_time >= b.start_time``
    (never 0; a NaN compares as -1)."""
    return 1 if a.start_time >= b.start_time else -1


def runtime_order(stored) -> tuple:
    """The hook order the runtime uses: retail's qsort of the stored entries
    (``crt_qsort.msvc70_qsort`` with ``physics_script_data_sort``, computed by
    ``crt_qsort.qsort_order`` in O(n log n) whatever the ties)."""
    items = list(stored)
    return tuple(items[i] for i in qsort_order([d.start_time for d in items]))


@dataclass(frozen=True, slots=True)
class PhysicsScript:
    """A timed list of hooks.

    ``script_data`` is in the order the runtime uses: sorted by start_time at unpack
    (PhysicsScript::UnPack 0x005218B0 -> _qsort with PhysicsScriptData::Sort 0x00521600),
    with retail's own (unstable) qsort, so equal start times come out as they do in retail
    (see ``crt_qsort``). ``stored_script_data`` keeps the file order, which ``encode`` writes.
    """

    id: int
    script_data: tuple[PhysicsScriptData, ...]
    stored_script_data: tuple[PhysicsScriptData, ...]

    @classmethod
    def from_hooks(cls, id: int, data) -> PhysicsScript:
        """Build from entries in stored order (sorts them the way unpack does)."""
        stored = tuple(data)
        return cls(id, runtime_order(stored), stored)

    @property
    def length(self) -> float:
        """Start time of the last sorted entry, 0 if empty (tail of 0x005218B0)."""
        return self.script_data[-1].start_time if self.script_data else 0.0

    @classmethod
    def read(cls, r: Reader) -> PhysicsScript:
        id_ = r.u32("id")
        at = r.pos
        n = r.u32("num_script_data")
        if n > MAX_SCRIPT_HOOKS:
            raise r.error(f"script_data count {n} is more than the {MAX_SCRIPT_HOOKS} hooks "
                          f"a PhysicsScript may hold", at)
        r.count(n, 16, "script_data")
        stored = []
        with UnknownHooks().naming(r) as unknown:
            for i in range(n):
                t = r.f64("start_time")
                stored.append(PhysicsScriptData(t, unknown.read(r, f"hook {i}")))
            r.align4()
        return cls.from_hooks(id_, stored)

    def write(self, w: Writer) -> None:
        w.u32(self.id)
        w.u32(len(self.stored_script_data))
        for d in self.stored_script_data:
            w.f64(d.start_time)
            write_hook(w, d.hook)
        w.align4()


@dataclass(frozen=True, slots=True)
class ScriptAndModData:
    mod: float
    script_id: int


@dataclass(frozen=True, slots=True)
class PhysicsScriptTableData:
    """Entries in stored order; PhysicsScriptTableData::GetScript 0x00521A20 walks them."""

    scripts: tuple[ScriptAndModData, ...]


@dataclass(frozen=True, slots=True)
class PhysicsScriptTable:
    """play_script -> PhysicsScriptTableData, both levels kept in stored order."""

    id: int
    entries: tuple[tuple[PlayScript | int, PhysicsScriptTableData], ...]

    def get(self, play_script: int) -> PhysicsScriptTableData | None:
        """The data for one PlayScript type (exact key), or None."""
        for key, data in self.entries:
            if key == play_script:
                return data
        return None

    @classmethod
    def read(cls, r: Reader) -> PhysicsScriptTable:
        # PhysicsScriptTable::UnPack 0x005220E0, PhysicsScriptTableData::UnPack 0x00521DC0
        id_ = r.u32("id")
        n = r.count(r.u32("num_entries"), 8, "entries")
        entries = []
        for _ in range(n):
            key = as_enum(PlayScript, r.u32("play_script"))
            m = r.count(r.u32("count"), 8, "scripts")
            scripts = tuple(ScriptAndModData(*r.fmt("fI", "ScriptAndModData")) for _ in range(m))
            entries.append((key, PhysicsScriptTableData(scripts)))
        return cls(id_, tuple(entries))

    def write(self, w: Writer) -> None:
        w.u32(self.id)
        w.u32(len(self.entries))
        for key, data in self.entries:
            w.u32(int(key))
            w.u32(len(data.scripts))
            for s in data.scripts:
                w.fmt("fI", s.mod, s.script_id)
