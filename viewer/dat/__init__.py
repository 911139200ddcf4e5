"""The DAT layer: retail End-of-Retail DAT files, read and written exactly.

- ``container``: ``DatFile`` (one memory-mapped file, lazy B-tree lookups) and
  ``DatCollection`` (several files, retail's high-res-first lookup order).
- ``writer``: ``write_dat`` / ``build_dat`` make retail-layout files from ``{did: bytes}``.
- ``records``: immutable typed records, ``decode(did, data)`` / ``encode(record)``; its
  docstring lists every record class and DID range.
- ``database``: ``AssetDatabase`` (typed, cached ``get(did)``; ``from_records`` for tests).
- ``pixels``: RenderSurface pixel formats to RGBA8; ``jsonable``: records to JSON values.
- ``samples``: one example record of every type, built in code.

Never imports GL, ImGui, sim or wire (docs/DEVELOPING.md).
"""
