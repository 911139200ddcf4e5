"""Cross-reference index over the open DATs: what each record uses and what uses it.

Built once by decoding every record that can name another (``build_index``), kept in numpy
arrays (one row per reference: source DID, target DID, how) and cached on disk in a
folder the caller names (``load_or_build``; the user's cache folder for the commands and
the viewer), keyed by each DAT's path, size, modification time
and header, so a second open of the same DATs loads it in milliseconds and a changed DAT
rebuilds it. The references, each in the order the record stores them:

- Setup: default script, default PhysicsScriptTable, MotionTable, SoundTable, default
  Animation, each part's GfxObj;
- PhysicsScriptTable: every (PlayScript type, #, mod, script) entry;
- PhysicsScript: each hook (in the runtime's order, sorted by start time) that names a
  record: CreateParticle / CreateBlockingParticle (emitter), Sound / SoundTweaked (Wave),
  CallPES (another script), ReplaceObject (GfxObj);
- Animation: the same hooks, by frame;
- MotionTable: every Animation of its cycles, modifiers and links;
- ParticleEmitterInfo: its GfxObj and hardware GfxObj;
- GfxObj: its Surfaces and GfxObjDegradeInfo; GfxObjDegradeInfo: its GfxObjs;
- Surface: its SurfaceTexture and Palette; SurfaceTexture: its RenderSurfaces;
- SoundTable: its Waves.

A record that does not decode is one ``XrefError`` (file, DID, file offset of the failing
byte, message) and the build goes on; a broken directory ends that file's walk only.
GL-free; no sim.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import json
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from viewer.dat import records as R
from viewer.dat.container import DatCollection, DatEntry, DatFile
from viewer.dat.names import hook_type_label, play_script_label, type_name
from viewer.dat.verify import Failure, decode_failure, directory_failure
from viewer.errors import DatError, format_did

#: Bump when the arrays or their meaning change: an old cache is then rebuilt.
FORMAT = 1
#: at most this many "how" texts are joined on one line; the rest are counted
HOW_SHOWN = 4


class How(enum.IntEnum):
    """How a record uses another; ``a``, ``b``, ``f`` of a reference as noted."""

    DEFAULT_SCRIPT = 1
    SCRIPT_TABLE = 2
    MOTION_TABLE = 3
    SOUND_TABLE = 4
    DEFAULT_ANIMATION = 5
    PART = 6              # a: part index
    TABLE_ENTRY = 7       # a: PlayScript, b: position in its list, f: mod
    SCRIPT_HOOK = 8       # a: hook index (runtime order), b: hook type, f: start time
    ANIM_HOOK = 9         # a: frame, b: hook type
    MOTION_CYCLE = 10     # a: motion key
    MOTION_MODIFIER = 11  # a: motion key
    MOTION_LINK = 12      # a: from key, b: to key
    EMITTER_GFXOBJ = 13
    EMITTER_HW_GFXOBJ = 14
    GFXOBJ_SURFACE = 15   # a: surface index
    GFXOBJ_DEGRADE = 16
    DEGRADE_LEVEL = 17    # a: level
    SURFACE_TEXTURE = 18
    SURFACE_PALETTE = 19
    TEXTURE_LEVEL = 20    # a: level
    SOUND_ENTRY = 21      # a: Sound key of the table node (0 for the root)


_PLAIN = {How.DEFAULT_SCRIPT: "default script", How.SCRIPT_TABLE: "default table",
          How.MOTION_TABLE: "motion table", How.SOUND_TABLE: "sound table",
          How.DEFAULT_ANIMATION: "default animation", How.EMITTER_GFXOBJ: "gfxobj",
          How.EMITTER_HW_GFXOBJ: "hw gfxobj", How.GFXOBJ_DEGRADE: "degrade info",
          How.SURFACE_TEXTURE: "texture", How.SURFACE_PALETTE: "palette"}


def how_text(kind: int, a: int, b: int, f: float) -> str:
    """One reference in words (``default table``, ``Launch (0x04) #0 mod 0.5``,
    ``hook 2 CreateParticle (13) at 0.25 s``)."""
    kind = How(kind)
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind is How.TABLE_ENTRY:
        return f"{play_script_label(a)} #{b} mod {f:g}"
    if kind is How.SCRIPT_HOOK:
        return f"hook {a} {hook_type_label(b)} at {f:g} s"
    if kind is How.ANIM_HOOK:
        return f"frame {a} {hook_type_label(b)}"
    if kind is How.MOTION_LINK:
        return f"link 0x{a & 0xFFFFFFFF:08X} -> 0x{b & 0xFFFFFFFF:08X}"
    word = {How.PART: "part", How.MOTION_CYCLE: "cycle", How.MOTION_MODIFIER: "modifier",
            How.GFXOBJ_SURFACE: "surface", How.DEGRADE_LEVEL: "level",
            How.TEXTURE_LEVEL: "level", How.SOUND_ENTRY: "sound"}[kind]
    if kind in (How.MOTION_CYCLE, How.MOTION_MODIFIER):
        return f"{word} 0x{a & 0xFFFFFFFF:08X}"
    if kind is How.SOUND_ENTRY:
        return f"{word} 0x{a & 0xFFFFFFFF:X}"
    return f"{word} {a}"


@dataclass(frozen=True)
class Ref:
    """One related record: its DID, its type's name, how the two are related (several
    references between the same two records joined by ``; ``), whether an open DAT holds
    it."""

    did: int
    type: str
    how: str
    held: bool = True

    def line(self) -> str:
        return f"{format_did(self.did)} {self.type} {self.how}"

    def as_json(self) -> dict:
        out = {"did": format_did(self.did), "type": self.type, "how": self.how}
        if not self.held:
            out["missing"] = True
        return out


#: A record the index could not read: file, DID, file offset of the failing byte, message
#: (``dat verify``'s failure, made the same way).
XrefError = Failure


# --------------------------------------------------------------------------------------------
# What one record names
# --------------------------------------------------------------------------------------------

Row = tuple[int, int, int, int, float]    # (target, how, a, b, f)


def _hook_target(hook) -> int:
    """The DID a hook names (0: none): the hooks whose Execute loads a record."""
    if isinstance(hook, (R.CreateParticleHook, R.CreateBlockingParticleHook)):
        return hook.emitter_info_id
    if isinstance(hook, (R.SoundHook, R.SoundTweakedHook)):
        return hook.wave_id
    if isinstance(hook, R.CallPESHook):
        return hook.pes_id
    if isinstance(hook, R.ReplaceObjectHook):
        return hook.gfxobj_id
    return 0


def _hook_type(hook) -> int:
    return int(hook.type_number if isinstance(hook, R.NullHook) else hook.hook_type)


def _setup_rows(rec: R.Setup) -> list[Row]:
    rows = [(rec.default_script, How.DEFAULT_SCRIPT, 0, 0, 0.0),
            (rec.default_script_table, How.SCRIPT_TABLE, 0, 0, 0.0),
            (rec.default_motion_table, How.MOTION_TABLE, 0, 0, 0.0),
            (rec.default_sound_table, How.SOUND_TABLE, 0, 0, 0.0),
            (rec.default_animation, How.DEFAULT_ANIMATION, 0, 0, 0.0)]
    rows += [(gfx, How.PART, i, 0, 0.0) for i, gfx in enumerate(rec.parts)]
    return rows


def _table_rows(rec: R.PhysicsScriptTable) -> list[Row]:
    return [(e.script_id, How.TABLE_ENTRY, int(key), i, float(e.mod))
            for key, data in rec.entries for i, e in enumerate(data.scripts)]


def _script_rows(rec: R.PhysicsScript) -> list[Row]:
    return [(_hook_target(d.hook), How.SCRIPT_HOOK, i, _hook_type(d.hook), d.start_time)
            for i, d in enumerate(rec.script_data)]


def _animation_rows(rec: R.Animation) -> list[Row]:
    return [(_hook_target(h), How.ANIM_HOOK, k, _hook_type(h), 0.0)
            for k, frame in enumerate(rec.part_frames) for h in frame.hooks]


def _motion_rows(rec: R.MotionTable) -> list[Row]:
    rows: list[Row] = []
    for kind, table in ((How.MOTION_CYCLE, rec.cycles), (How.MOTION_MODIFIER, rec.modifiers)):
        rows += [(ad.anim_id, kind, key, 0, 0.0) for key, md in table for ad in md.anims]
    rows += [(ad.anim_id, How.MOTION_LINK, key, to, 0.0)
             for key, inner in rec.links for to, md in inner for ad in md.anims]
    return rows


def _sound_rows(node: R.SoundTableData) -> list[Row]:
    rows = [(e.wave_id, How.SOUND_ENTRY, node.key, 0, 0.0) for e in node.entries]
    for child in node.children:
        rows += _sound_rows(child)
    return rows


#: DID top byte -> the references a record of that type makes
_ROWS = {
    0x02: _setup_rows, 0x34: _table_rows, 0x33: _script_rows, 0x03: _animation_rows,
    0x09: _motion_rows,
    0x32: lambda r: [(r.gfxobj_id, How.EMITTER_GFXOBJ, 0, 0, 0.0),
                     (r.hw_gfxobj_id, How.EMITTER_HW_GFXOBJ, 0, 0, 0.0)],
    0x01: lambda r: [(s, How.GFXOBJ_SURFACE, i, 0, 0.0) for i, s in enumerate(r.surfaces)]
    + [(r.did_degrade or 0, How.GFXOBJ_DEGRADE, 0, 0, 0.0)],
    0x11: lambda r: [(d.gfxobj_id, How.DEGRADE_LEVEL, i, 0, 0.0)
                     for i, d in enumerate(r.degrades)],
    0x08: lambda r: [(r.orig_texture_id or 0, How.SURFACE_TEXTURE, 0, 0, 0.0),
                     (r.orig_palette_id or 0, How.SURFACE_PALETTE, 0, 0, 0.0)],
    0x05: lambda r: [(t, How.TEXTURE_LEVEL, i, 0, 0.0) for i, t in enumerate(r.textures)],
    0x20: lambda r: _sound_rows(r.root),
}
#: DID top bytes whose records can name other records (the rest are only targets).
SCANNED = tuple(sorted(_ROWS))


def record_rows(did: int, rec) -> list[Row]:
    """Every reference ``rec`` makes, in stored order (targets 0 included: the caller
    drops them, after noting the hook types)."""
    fn = _ROWS.get((did >> 24) & 0xFF)
    return [] if fn is None else fn(rec)


# --------------------------------------------------------------------------------------------
# The index
# --------------------------------------------------------------------------------------------

def _span(sorted_u32: np.ndarray, did: int) -> tuple[int, int]:
    """[lo, hi) of ``did`` in an ascending uint32 array: the key as a uint32 scalar, so
    the search never converts the array (a Python int would make it copy all of it)."""
    key = np.uint32(did & 0xFFFFFFFF)
    return (int(sorted_u32.searchsorted(key, "left")),
            int(sorted_u32.searchsorted(key, "right")))


_ARRAYS = ("dids", "src", "dst", "kind", "a", "b", "f", "by_dst", "hook_src", "hook_type")


class XrefIndex:
    """The references of every record (``uses``) and to it (``used_by``), both looked up by
    binary search; ``records_with_hook`` and ``table_entries`` serve name searches."""

    def __init__(self, arrays: dict[str, np.ndarray], errors: list[XrefError],
                 key: dict | None = None) -> None:
        for name in _ARRAYS:
            setattr(self, name, arrays[name])
        self.errors = errors
        self.key = key
        self._dst_sorted = self.dst[self.by_dst]

    # -- lookups -------------------------------------------------------------------------
    def holds(self, did: int) -> bool:
        """Whether an open DAT holds ``did``."""
        lo, hi = _span(self.dids, did)
        return hi > lo

    def _refs(self, rows: np.ndarray, other: np.ndarray) -> list[Ref]:
        """One Ref per related record, in the order of its first reference."""
        grouped: dict[int, list[str]] = {}
        for r in rows.tolist():
            grouped.setdefault(int(other[r]), []).append(
                how_text(int(self.kind[r]), int(self.a[r]), int(self.b[r]), float(self.f[r])))
        out = []
        for did, hows in grouped.items():
            text = "; ".join(hows[:HOW_SHOWN])
            if len(hows) > HOW_SHOWN:
                text += f"; +{len(hows) - HOW_SHOWN} more"
            out.append(Ref(did, type_name(did), text, self.holds(did)))
        return out

    def uses(self, did: int) -> list[Ref]:
        """What ``did`` names, in the order its record stores them."""
        lo, hi = _span(self.src, did)
        return self._refs(np.arange(lo, hi), self.dst)

    def used_by(self, did: int) -> list[Ref]:
        """Every record naming ``did``, by DID (each in its stored order)."""
        lo, hi = _span(self._dst_sorted, did)
        return self._refs(self.by_dst[lo:hi], self.src)

    def users(self, did: int) -> list[int]:
        """The DIDs of the records naming ``did``, ascending."""
        lo, hi = _span(self._dst_sorted, did)
        return sorted({int(v) for v in self.src[self.by_dst[lo:hi]].tolist()})

    def records_with_hook(self, hook_types) -> list[int]:
        """Scripts and Animations holding a hook of one of ``hook_types``, ascending."""
        mask = np.isin(self.hook_type, np.asarray(list(hook_types), np.int64))
        return sorted({int(v) for v in self.hook_src[mask].tolist()})

    def table_entries(self, play_scripts) -> tuple[list[int], list[int]]:
        """(tables with an entry of one of ``play_scripts``, the scripts those entries
        name), each ascending."""
        mask = (self.kind == How.TABLE_ENTRY) & np.isin(
            self.a, np.asarray(list(play_scripts), np.int64))
        return (sorted({int(v) for v in self.src[mask].tolist()}),
                sorted({int(v) for v in self.dst[mask].tolist()}))

    @property
    def references(self) -> int:
        return len(self.src)

    # -- files ---------------------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> None:
        """Write the index (atomically: a reader never sees half a file), making its
        folder where needed."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {"key": self.key, "errors": [dataclasses.asdict(e) for e in self.errors]}
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8),
                     **{n: getattr(self, n) for n in _ARRAYS})
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike) -> XrefIndex:
        """Read a saved index; DatError naming the file when it is no index."""
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(z["meta"].tobytes().decode())
                arrays = {n: z[n] for n in _ARRAYS}
            errors = [XrefError(**e) for e in meta.get("errors", [])]
            return cls(arrays, errors, meta.get("key"))
        except (OSError, ValueError, KeyError, EOFError, TypeError, AttributeError,
                zipfile.BadZipFile) as exc:
            raise DatError(f"not a cross-reference index: {exc}", file=str(path)) from exc


class _Builder:
    """Collects references row by row into growing lists, then arrays."""

    def __init__(self) -> None:
        self.cols: tuple[list, ...] = ([], [], [], [], [], [])   # src dst kind a b f
        self.hooks: dict[tuple[int, int], None] = {}
        self.errors: list[XrefError] = []

    def add(self, did: int, rec) -> None:
        src, dst, kind, a, b, f = self.cols
        for target, how, x, y, z in record_rows(did, rec):
            if how in (How.SCRIPT_HOOK, How.ANIM_HOOK):
                self.hooks[(did, y)] = None
            if not target:
                continue
            src.append(did)
            dst.append(target & 0xFFFFFFFF)
            kind.append(int(how))
            a.append(x & 0xFFFFFFFF if how in _UNSIGNED_A else x)
            b.append(y & 0xFFFFFFFF if how is How.MOTION_LINK else y)
            f.append(z)

    def index(self, dids: list[int], key: dict | None) -> XrefIndex:
        src, dst, kind, a, b, f = self.cols
        dst_arr = np.asarray(dst, np.uint32)
        hooks = list(self.hooks)
        arrays = {
            "dids": np.asarray(dids, np.uint32), "src": np.asarray(src, np.uint32),
            "dst": dst_arr, "kind": np.asarray(kind, np.uint8),
            "a": np.asarray(a, np.int64), "b": np.asarray(b, np.int64),
            "f": np.asarray(f, np.float64),
            "by_dst": np.argsort(dst_arr, kind="stable").astype(np.int64),
            "hook_src": np.asarray([d for d, _ in hooks], np.uint32),
            "hook_type": np.asarray([t for _, t in hooks], np.int64)}
        return XrefIndex(arrays, self.errors, key)


_UNSIGNED_A = (How.MOTION_CYCLE, How.MOTION_MODIFIER, How.MOTION_LINK, How.SOUND_ENTRY)


def _winning_entries(collection: DatCollection, builder: _Builder
                     ) -> tuple[list[int], list[tuple[DatFile, DatEntry]]]:
    """Every DID held (ascending) and, for the scanned types, the entry retail's lookup
    order reads (``DatCollection.locate``). A broken directory is one error; the entries
    walked before it are kept."""
    held: set[int] = set()
    winners: dict[int, tuple[DatFile, DatEntry]] = {}
    for f in collection.search_order:
        try:
            for e in f.entries(cache=False):
                held.add(e.did)
                if (e.did >> 24) in _ROWS and e.did not in winners:
                    winners[e.did] = (f, e)
        except DatError as err:
            builder.errors.append(directory_failure(f, err))
    return sorted(held), [winners[d] for d in sorted(winners)]


def _decode(f: DatFile, e: DatEntry, builder: _Builder):
    """The record, or None after noting why it could not be read (the file offset of the
    failing byte, through the block chain, where the codec knows its position)."""
    try:
        data = f.read_entry(e)
    except DatError as err:
        builder.errors.append(XrefError(f.name, e.did, err.offset, err.message))
        return None
    try:
        return R.decode(e.did, data, file=f.name)
    except DatError as err:
        builder.errors.append(decode_failure(f, e, err))
        return None


def build_index(collection: DatCollection,
                progress: Callable[[int, int], None] | None = None,
                key: dict | None = None) -> XrefIndex:
    """Decode every record that can name another, one at a time (none is kept), and index
    their references. ``progress(done, total)`` is called every 256 records and at the
    end; an exception it raises stops the build (how the viewer cancels)."""
    builder = _Builder()
    held, entries = _winning_entries(collection, builder)
    total = len(entries)
    for n, (f, e) in enumerate(entries):
        if progress is not None and n % 256 == 0:
            progress(n, total)
        rec = _decode(f, e, builder)
        if rec is not None:
            builder.add(e.did, rec)
    if progress is not None:
        progress(total, total)
    return builder.index(held, key)


# --------------------------------------------------------------------------------------------
# The cache
# --------------------------------------------------------------------------------------------

def cache_key(collection: DatCollection) -> dict | None:
    """What the cached index depends on: for each DAT (in the order given) its resolved
    path, size, modification time and a hash of its header; None when a DAT has no path
    (an in-memory DAT is never cached)."""
    files = []
    for f in collection.files:
        if f.path is None:
            return None
        st = os.stat(f.path)
        header = json.dumps(dataclasses.astuple(f.header), default=bytes.hex).encode()
        files.append({"path": str(f.path.resolve()), "size": st.st_size,
                      "mtime_ns": st.st_mtime_ns,
                      "header": hashlib.sha256(header).hexdigest()})
    return {"format": FORMAT, "highres_first": collection.highres_first, "files": files}


def cache_path(key: dict, cache_dir: str | os.PathLike) -> Path:
    """The cache file for these DATs in ``cache_dir`` (one per set of paths: a changed DAT
    overwrites it)."""
    paths = json.dumps([f["path"] for f in key["files"]]).encode()
    return Path(cache_dir) / f"xref-{hashlib.sha256(paths).hexdigest()[:20]}.npz"


def load_or_build(collection: DatCollection, cache_dir: str | os.PathLike | None,
                  progress: Callable[[int, int], None] | None = None
                  ) -> tuple[XrefIndex, bool]:
    """(index, whether it came from the cache). ``cache_dir``: the folder of the cache
    (the user's cache folder, ``viewer.userdirs.cache_dir()``, for the commands and the
    viewer; None: no cache). A cache for other sizes, times, headers or format is rebuilt
    and overwritten; a cache folder that cannot be written only costs the next open a
    rebuild."""
    key = cache_key(collection) if cache_dir is not None else None
    path = None if key is None else cache_path(key, cache_dir)
    if path is not None and path.is_file():
        try:
            index = XrefIndex.load(path)
            if index.key == key:
                return index, True
        except DatError:
            pass   # unreadable: rebuilt below
    index = build_index(collection, progress, key)
    if path is not None:
        with contextlib.suppress(OSError):
            index.save(path)
    return index, False


__all__ = ["FORMAT", "SCANNED", "How", "Ref", "XrefError", "XrefIndex", "build_index",
           "cache_key", "cache_path", "how_text", "load_or_build", "record_rows"]
