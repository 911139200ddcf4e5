"""Write retail-layout DAT files for synthetic assets and tests.

``write_dat(path_or_file, {did: bytes}, ...)`` lays every record out as a contiguous block
chain from offset 1024, then bulk-builds the B-tree (at most 61 entries per node, a
non-leaf with exactly n+1 children, so large inputs get a multi-level tree) and writes the
nodes children-first. ``build_dat`` returns the bytes instead. What it writes,
``viewer.dat.container.DatFile`` reads back identically.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Iterable, Mapping
from typing import BinaryIO

from viewer.dat.container import (
    HEADER_OFFSET,
    HIGHRES_SUBSET,
    ITERATION_DID,
    MAGIC,
    MAX_ENTRIES,
    NODE_SIZE,
)
from viewer.errors import DatError

DATA_START = 1024
PORTAL, CELL, LOCAL = 1, 2, 3
_HEADER = struct.Struct("<IIIIIiiIiIIBxxxIII16sI")
_ENTRY = struct.Struct("<IIiIIi")


class _Tree:
    __slots__ = ("entries", "kids", "offset")

    def __init__(self, entries: list[int], kids: list[_Tree]) -> None:
        self.entries = entries        # DIDs in this node
        self.kids = kids
        self.offset = 0


def _build(dids: list[int], max_entries: int) -> _Tree:
    """Bulk-build a B-tree over sorted DIDs (the node layout BTree::Search 0x006731C0 reads)."""
    n = len(dids)
    if n <= max_entries:
        return _Tree(dids, [])
    fan = max_entries + 1
    c = min(fan, -(-(n + 1) // fan))
    c = max(c, 2)
    rest = n - (c - 1)
    sizes = [rest // c + (1 if j < rest % c else 0) for j in range(c)]
    kids, seps, i = [], [], 0
    for j, s in enumerate(sizes):
        kids.append(_build(dids[i:i + s], max_entries))
        i += s
        if j < c - 1:
            seps.append(dids[i])
            i += 1
    return _Tree(seps, kids)


def _postorder(t: _Tree, out: list[_Tree]) -> None:
    stack = [(t, False)]
    while stack:
        node, done = stack.pop()
        if done or not node.kids:
            out.append(node)
            continue
        stack.append((node, True))
        for k in reversed(node.kids):
            stack.append((k, False))


def build_dat(records: Mapping[int, bytes], *, block_size: int = 1024, data_set: int = PORTAL,
              data_subset: int = 0, version: int = 2, date: int = 0, entry_iteration: int = 1,
              iteration: int | None = None, compressed: Iterable[int] = (),
              max_entries: int = MAX_ENTRIES, version_string: bytes = b"") -> bytes:
    """The bytes of a retail-layout DAT holding ``records``.

    ``iteration``: when given (and 0xFFFF0001 is not in ``records``) adds the iteration
    record ``[iteration, iteration]`` written with entry version 1, which is the only one
    the client loads (DiskController::LoadIterationList 0x00670DE0). ``compressed``: DIDs
    to store zlib-compressed (u32 size + zlib stream). ``max_entries`` below 61 builds
    deeper trees from fewer records (tests).
    """
    if block_size < 16 or block_size % 4:
        raise DatError(f"block_size {block_size} must be a multiple of 4 and >= 16")
    if not 1 <= max_entries <= MAX_ENTRIES:
        raise DatError(f"max_entries {max_entries} must be 1..61")
    stored = _stored_records(records, iteration, set(compressed), version)
    bs = block_size
    dids = sorted(stored)
    offsets, root, nodes, file_size = _layout(stored, dids, bs, max_entries)
    buf = bytearray(file_size)
    for did in dids:
        data = stored[did][0]
        if data:
            _put_chain(buf, offsets[did], data, bs)
    for node in nodes:
        _put_chain(buf, node.offset, _node_bytes(node, stored, offsets, date, entry_iteration),
                   bs)
    vs = version_string[:256]
    buf[0:len(vs)] = vs
    _HEADER.pack_into(buf, HEADER_OFFSET, MAGIC, bs, file_size, data_set, data_subset,
                      0, 0, 0, root.offset if root is not None else 0, 0, 0, 0,
                      0x25000000 if data_set == PORTAL else 0, 110 if data_set != CELL else 22,
                      0, b"\0" * 16, 6657)
    return bytes(buf)


def _stored_records(records: Mapping[int, bytes], iteration: int | None, comp: set[int],
                    version: int) -> dict[int, tuple[bytes, int]]:
    """DID -> (stored bytes, entry bits): the iteration record added when asked, the
    ``comp`` DIDs zlib-compressed (u32 size + stream, bit 0 set)."""
    recs: dict[int, bytes] = {}
    for did, data in records.items():
        if not 0 <= did <= 0xFFFFFFFF:
            raise DatError(f"DID {did} is not an unsigned 32-bit value")
        recs[did] = bytes(data)
    if iteration is not None and ITERATION_DID not in recs:
        recs[ITERATION_DID] = struct.pack("<ii", 1, iteration)
    stored: dict[int, tuple[bytes, int]] = {}
    for did, data in recs.items():
        bits = (version & 0xFFFF) << 16
        if did == ITERATION_DID:
            bits = 1 << 16
        if did in comp:
            data = struct.pack("<I", len(data)) + zlib.compress(data, 9)
            bits |= 1
        stored[did] = (data, bits)
    return stored


def _layout(stored: dict[int, tuple[bytes, int]], dids: list[int], bs: int,
            max_entries: int) -> tuple[dict[int, int], _Tree | None, list[_Tree], int]:
    """Records in DID order, then the tree nodes children-first: (record offsets, root,
    nodes in write order, file size)."""
    per = bs - 4
    offsets: dict[int, int] = {}
    pos = DATA_START
    for did in dids:
        size = len(stored[did][0])
        if size == 0:
            offsets[did] = 0
            continue
        offsets[did] = pos
        pos += bs * (-(-size // per))
    root = _build(dids, max_entries) if dids else None
    nodes: list[_Tree] = []
    if root is not None:
        _postorder(root, nodes)
    node_blocks = -(-NODE_SIZE // per)
    for node in nodes:
        node.offset = pos
        pos += bs * node_blocks
    return offsets, root, nodes, pos


def _put_chain(buf: bytearray, off: int, data: bytes, bs: int) -> None:
    """``data`` as a chain of blocks from ``off``: each block starts with the next one's
    offset (0 ends the chain)."""
    per = bs - 4
    nblocks = -(-len(data) // per)
    for i in range(nblocks):
        b = off + i * bs
        nxt = b + bs if i < nblocks - 1 else 0
        struct.pack_into("<I", buf, b, nxt)
        chunk = data[i * per:(i + 1) * per]
        buf[b + 4:b + 4 + len(chunk)] = chunk


def _node_bytes(node: _Tree, stored, offsets: dict[int, int], date: int,
                entry_iteration: int) -> bytes:
    """One B-tree node: child offsets, entry count, then the entries."""
    raw = bytearray(NODE_SIZE)
    for j, kid in enumerate(node.kids):
        struct.pack_into("<I", raw, 4 * j, kid.offset)
    struct.pack_into("<I", raw, 248, len(node.entries))
    for j, did in enumerate(node.entries):
        data, bits = stored[did]
        _ENTRY.pack_into(raw, 252 + 24 * j, bits, did, offsets[did], len(data), date,
                         entry_iteration)
    return bytes(raw)


def write_dat(path_or_file: str | os.PathLike | BinaryIO, records: Mapping[int, bytes],
              **options) -> int:
    """Write a DAT file (see ``build_dat`` for the options); returns its size in bytes."""
    data = build_dat(records, **options)
    if hasattr(path_or_file, "write"):
        path_or_file.write(data)
    else:
        with open(path_or_file, "wb") as fh:
            fh.write(data)
    return len(data)


def write_highres_dat(path_or_file, records: Mapping[int, bytes], **options) -> int:
    """A client_highres.dat-style file (data_subset "HiFi")."""
    options.setdefault("data_subset", HIGHRES_SUBSET)
    return write_dat(path_or_file, records, **options)
