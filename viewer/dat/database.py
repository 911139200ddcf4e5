"""AssetDatabase: typed, cached access to DAT records.

``AssetDatabase(paths | DatCollection | DatFile)`` (a folder among the paths stands for the
retail DAT set in it: ``viewer.dat.dat_set``); ``get(did)`` decodes once and caches
the immutable record; a missing DID raises DatError naming it. The typed helpers
(``setup``, ``physics_script`` ...) also check that the DID is of the expected type.
``AssetDatabase.from_records({did: record_or_bytes})`` builds a tiny in-memory database
through the real encode -> write -> read path, for tests in every layer.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from viewer.dat import records as R
from viewer.dat.container import DatCollection, DatFile
from viewer.dat.dat_set import DatSet, open_collection
from viewer.dat.writer import build_dat
from viewer.errors import DatError


class AssetDatabase:
    def __init__(self, source: str | os.PathLike | Iterable | DatCollection | DatFile,
                 *, highres_first: bool = True) -> None:
        self.dat_set: DatSet | None = None   # what the paths given stood for (folders)
        if isinstance(source, DatCollection):
            self.collection = source
        elif isinstance(source, DatFile):
            self.collection = DatCollection([source], highres_first=highres_first)
        else:   # paths: a folder stands for the retail DAT set in it (viewer.dat.dat_set)
            paths = [source] if isinstance(source, (str, os.PathLike)) else list(source)
            self.collection, self.dat_set = open_collection(paths,
                                                            highres_first=highres_first)
        self._cache: dict[int, object] = {}

    @classmethod
    def from_records(cls, records: Mapping[int, object], *, block_size: int = 1024,
                     highres: Mapping[int, object] | None = None) -> AssetDatabase:
        """An in-memory database holding ``records`` (records are encoded; bytes are kept).

        ``highres`` optionally adds a second, high-res file (retail lookup order applies).
        """
        def to_bytes(recs):
            return {did: (bytes(r) if isinstance(r, (bytes, bytearray)) else R.encode(r))
                    for did, r in recs.items()}

        files = [DatFile(data=build_dat(to_bytes(records), block_size=block_size),
                         name="<memory>")]
        if highres:
            files.append(DatFile(data=build_dat(to_bytes(highres), block_size=block_size,
                                                data_subset=0x69466948),
                                 name="<memory highres>"))
        return cls(DatCollection(files))

    # -- raw access ----------------------------------------------------------------------
    def close(self) -> None:
        self._cache.clear()
        self.collection.close()

    def __enter__(self) -> AssetDatabase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __contains__(self, did: int) -> bool:
        return did in self._cache or did in self.collection

    def raw(self, did: int) -> bytes:
        return self.collection.read(did)

    def read_index(self, progress=None) -> list[int]:
        """Read the whole directory of every file now (``DatCollection.read_index``:
        ``progress(fraction, entries)``, an exception from it stops the reading)."""
        return self.collection.read_index(progress)

    def dids(self, type_prefix: int | None = None) -> list[int]:
        """Every DID (ascending), optionally only those whose top byte is ``type_prefix``."""
        ids = self.collection.dids()
        if type_prefix is None:
            return ids
        return [d for d in ids if (d >> 24) == type_prefix]

    # -- typed access --------------------------------------------------------------------
    def get(self, did: int):
        """The decoded record for a DID (cached). DatError if missing or malformed."""
        rec = self._cache.get(did)
        if rec is not None:
            return rec
        hit = self.collection.locate(did)
        if hit is None:
            raise DatError("DID not found in any DAT", file=self.collection.name, did=did)
        f, entry = hit
        rec = R.decode(did, f.read_entry(entry), file=f.name)
        self._cache[did] = rec
        return rec

    def cached_records(self) -> list:
        """Every record decoded so far (what ``get`` hands out: shared, never modified)."""
        return list(self._cache.values())

    def try_get(self, did: int):
        """The record, or None when the DID is 0 or absent (malformed records still raise)."""
        if not did or did not in self:
            return None
        return self.get(did)

    def typed(self, did: int, cls: type, *, by: int | None = None):
        """The record for a DID that must be a ``cls`` (its type is its DID's top byte):
        ``DID X is a Y, not a Z (named by ...)`` (``by``: the record that named it) when
        it is of another type, before anything is read."""
        if R.record_class(did) is not cls:
            raise R.wrong_type(did, R.type_name(did), cls, by=by, file=self.collection.name)
        return self.get(did)

    def setup(self, did: int, *, by: int | None = None) -> R.Setup:
        return self.typed(did, R.Setup, by=by)

    def gfxobj(self, did: int, *, by: int | None = None) -> R.GfxObj:
        return self.typed(did, R.GfxObj, by=by)

    def animation(self, did: int, *, by: int | None = None) -> R.Animation:
        return self.typed(did, R.Animation, by=by)

    def motion_table(self, did: int, *, by: int | None = None) -> R.MotionTable:
        return self.typed(did, R.MotionTable, by=by)

    def physics_script(self, did: int, *, by: int | None = None) -> R.PhysicsScript:
        return self.typed(did, R.PhysicsScript, by=by)

    def physics_script_table(self, did: int, *, by: int | None = None) -> R.PhysicsScriptTable:
        return self.typed(did, R.PhysicsScriptTable, by=by)

    def emitter_info(self, did: int, *, by: int | None = None) -> R.ParticleEmitterInfo:
        return self.typed(did, R.ParticleEmitterInfo, by=by)

    def surface(self, did: int, *, by: int | None = None) -> R.Surface:
        return self.typed(did, R.Surface, by=by)

    def render_surface(self, did: int, *, by: int | None = None) -> R.RenderSurface:
        return self.typed(did, R.RenderSurface, by=by)

    def palette(self, did: int, *, by: int | None = None) -> R.Palette:
        return self.typed(did, R.Palette, by=by)

    def sound_table(self, did: int, *, by: int | None = None) -> R.SoundTable:
        return self.typed(did, R.SoundTable, by=by)

    def wave(self, did: int, *, by: int | None = None) -> R.Wave:
        return self.typed(did, R.Wave, by=by)

    def region(self, did: int, *, by: int | None = None) -> R.Region:
        return self.typed(did, R.Region, by=by)

    # -- pixels --------------------------------------------------------------------------
    def render_surface_rgba(self, did: int, palette_id: int | None = None):
        """RGBA8 (h, w, 4) uint8 of a RenderSurface; P8/INDEX16 use ``palette_id`` or the
        surface's default palette."""
        from viewer.dat.pixels import decode_render_surface
        rs = self.render_surface(did)
        pal = None
        pid = palette_id or rs.default_palette_id
        if rs.default_palette_id is not None or palette_id:
            if not pid:
                raise DatError("indexed RenderSurface has no palette", did=did)
            pal = self.palette(pid, by=did)
        return decode_render_surface(rs, pal)
