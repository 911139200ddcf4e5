"""Retail DAT containers: header, block chains, B-tree directory (BTree::Search 0x006731C0).

``DatFile(path)`` memory-maps one file and reads nothing but the 400-byte header until
asked: a lookup reads only the B-tree nodes on its path (O(log n) node reads, nodes cached)
and the record's own block chain. ``DatCollection`` opens several files as one with
retail's lookup order: a DID present in client_highres.dat is read from there, everything
else from the other files in the order given (CLCache::GetDiskController).

Every inconsistency -- wrong magic, a truncated file, a block chain that loops, runs past
the end or into a free block, a node with more than 61 entries, a record size that does not
fit -- raises :class:`viewer.errors.DatError` naming the file, the DID and the offset.

Memory stays bounded by the input: a compressed record's u32 size prefix is checked before
anything is inflated -- it must be at most ``MAX_INFLATED_SIZE`` (64 MiB, far above any
retail record: the largest are textures of a few MiB) and no more than its zlib stream could
possibly produce (deflate cannot expand more than ``MAX_DEFLATE_RATIO`` to one) -- and
inflation stops one byte past the declared size.
"""

from __future__ import annotations

import bisect
import mmap
import os
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from viewer.errors import DatError
from viewer.inputs import open_input

HEADER_OFFSET = 0x140
MAGIC = 0x00005442
NODE_SIZE = 1716                  # 62 branches + count + 61 entries
MAX_ENTRIES = 61
MAX_BRANCHES = 62
ITERATION_DID = 0xFFFF0001
HIGHRES_SUBSET = 0x69466948       # "HiFi"
DATA_SET_NAMES = {1: "PORTAL", 2: "CELL", 3: "LOCAL"}

_HEADER = struct.Struct("<IIIIIiiIiIIBxxxIII16sI")   # 0x140 .. 0x190
_BRANCHES = struct.Struct("<62I")
_ENTRY = struct.Struct("<IIiIIi")
_U32 = struct.Struct("<I")
_MAX_DEPTH = 64                   # a 61-entry B-tree of 2**32 keys is 6 levels deep
#: The most a compressed record may declare as its inflated size (bytes).
MAX_INFLATED_SIZE = 64 << 20
#: Deflate's ceiling: a 2-bit code for a 258-byte match gives at most 1032 bytes per byte.
MAX_DEFLATE_RATIO = 1032


@dataclass(frozen=True, slots=True)
class DatHeader:
    """DiskFileInfo_t at 0x140."""

    magic: int
    block_size: int
    file_size: int
    data_set: int
    data_subset: int
    first_free: int
    final_free: int
    free_count: int
    btree_root: int
    young_lru: int
    old_lru: int
    use_lru: int
    master_map_id: int
    engine_pack_version: int
    game_pack_version: int
    version_major: bytes
    version_minor: int


@dataclass(frozen=True, slots=True)
class DatEntry:
    """BTEntry: one directory entry (24 bytes)."""

    did: int
    offset: int
    size: int          # as stored (compressed size when ``compressed``)
    bitfield: int
    date: int
    iteration: int

    @property
    def compressed(self) -> bool:
        return bool(self.bitfield & 1)

    @property
    def version(self) -> int:
        return self.bitfield >> 16


class _Node:
    __slots__ = ("branches", "entries", "ids", "offset")

    def __init__(self, offset: int, branches: tuple, ids: list, entries: list) -> None:
        self.offset = offset
        self.branches = branches
        self.ids = ids
        self.entries = entries

    @property
    def is_leaf(self) -> bool:
        return self.branches[0] == 0


class DatFile:
    """One retail DAT file, memory-mapped and read lazily."""

    def __init__(self, path: str | os.PathLike | None = None, *, data: bytes | None = None,
                 name: str | None = None) -> None:
        if (path is None) == (data is None):
            raise TypeError("DatFile needs exactly one of path or data")
        self.path = None if path is None else Path(path)
        self.name = name or (str(self.path) if self.path is not None else "<memory>")
        self._fh = None
        self._mm: mmap.mmap | None = None
        if data is not None:
            self._buf = data
        else:
            # never blocks: a named pipe, a device or a folder is refused unread
            self._fh = open_input(self.path, DatError, "DAT", self.name)
            size = os.fstat(self._fh.fileno()).st_size
            if size < HEADER_OFFSET + _HEADER.size:
                self._fh.close()
                raise DatError(f"file is {size} bytes, too short for a DAT header "
                               f"({HEADER_OFFSET + _HEADER.size})", file=self.name, offset=0)
            self._mm = mmap.mmap(self._fh.fileno(), 0, access=mmap.ACCESS_READ)
            self._buf = self._mm
        self._len = len(self._buf)
        self._nodes: dict[int, _Node] = {}
        self._count: int | None = None
        self.header = self._read_header()
        self.block_size = self.header.block_size

    # -- lifetime ------------------------------------------------------------------------
    def close(self) -> None:
        self._nodes.clear()
        if self._mm is not None:
            self._mm.close()
            self._mm = None
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self) -> DatFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"DatFile({self.name!r})"

    # -- header --------------------------------------------------------------------------
    def _err(self, message: str, *, did: int | None = None,
             offset: int | None = None) -> DatError:
        return DatError(message, file=self.name, did=did, offset=offset)

    def _read_header(self) -> DatHeader:
        if self._len < HEADER_OFFSET + _HEADER.size:
            raise self._err(f"file is {self._len} bytes, too short for a DAT header", offset=0)
        h = DatHeader(*_HEADER.unpack_from(self._buf, HEADER_OFFSET))
        if h.magic != MAGIC:
            raise self._err(f"not a DAT file: magic 0x{h.magic:08X} (expected 0x00005442)",
                            offset=HEADER_OFFSET)
        bs = h.block_size
        if bs < 16 or bs > (1 << 20) or bs % 4:
            raise self._err(f"implausible block_size {bs}", offset=HEADER_OFFSET + 4)
        if self._len < h.file_size:
            raise self._err(f"file truncated: header says {h.file_size} bytes, only "
                            f"{self._len} present", offset=HEADER_OFFSET + 8)
        if h.btree_root < 0 or (h.btree_root and h.btree_root + 4 > self._len):
            raise self._err(f"btree_root 0x{h.btree_root & 0xFFFFFFFF:X} lies outside the "
                            f"file", offset=HEADER_OFFSET + 0x20)
        return h

    @property
    def is_highres(self) -> bool:
        return self.header.data_subset == HIGHRES_SUBSET

    # -- block chains (CLBlockAllocator::Load_Data 0x006744E0) ---------------------------
    def read_chain(self, offset: int, size: int, *, did: int | None = None,
                   what: str = "record") -> bytes:
        if size == 0:
            return b""
        bs = self.block_size
        per = bs - 4
        if size < 0 or size > self._len:
            raise self._err(f"{what} size {size} does not fit in a {self._len}-byte file",
                            did=did, offset=offset)
        need_blocks = -(-size // per)
        buf = self._buf
        out = bytearray()
        off = offset
        seen: set[int] = set()
        for _ in range(need_blocks):
            if off == 0:
                raise self._err(f"{what} block chain ends after {len(out)} of {size} bytes",
                                did=did, offset=offset)
            if off & 0x80000000:
                raise self._err(f"{what} block chain runs into a free block "
                                f"(next 0x{off:08X})", did=did, offset=offset)
            if off < HEADER_OFFSET + _HEADER.size or off + 4 > self._len:
                raise self._err(f"{what} block at 0x{off:X} lies outside the data area "
                                f"(file is {self._len} bytes)", did=did, offset=off)
            if off in seen:
                raise self._err(f"{what} block chain loops back to 0x{off:X}", did=did,
                                offset=off)
            seen.add(off)
            nxt = _U32.unpack_from(buf, off)[0]
            take = min(per, size - len(out))
            if off + 4 + take > self._len:
                raise self._err(f"{what} block at 0x{off:X} runs past the end of the file",
                                did=did, offset=off)
            out += buf[off + 4:off + 4 + take]
            last = off
            off = nxt
        if off != 0:
            # the client requires the last block used to end the chain
            raise self._err(f"{what} block chain continues past its {size} bytes "
                            f"(next 0x{off:08X})", did=did, offset=last)
        return bytes(out)

    # -- B-tree (BTree::Search 0x006731C0, HasEntry 0x00671D80) --------------------------
    def _node(self, offset: int, cache: bool = True) -> _Node:
        node = self._nodes.get(offset)
        if node is not None:
            return node
        raw = self.read_chain(offset, NODE_SIZE, what="B-tree node")
        branches = _BRANCHES.unpack_from(raw, 0)
        n = _U32.unpack_from(raw, 248)[0]
        if n > MAX_ENTRIES:
            raise self._err(f"B-tree node has {n} entries (at most 61)", offset=offset)
        entries = [DatEntry(e[1], e[2], e[3], e[0], e[4], e[5])
                   for e in struct.iter_unpack("<IIiIIi", raw[252:252 + 24 * n])]
        ids = [e.did for e in entries]
        if any(ids[i] >= ids[i + 1] for i in range(len(ids) - 1)):
            raise self._err("B-tree node entries are not in ascending DID order",
                            offset=offset)
        node = _Node(offset, branches, ids, entries)
        if cache:
            self._nodes[offset] = node
        return node

    def entry(self, did: int) -> DatEntry | None:
        """The directory entry for a DID, or None."""
        did &= 0xFFFFFFFF
        off = self.header.btree_root
        depth = 0
        while off != 0:
            depth += 1
            if depth > _MAX_DEPTH:
                raise self._err("B-tree deeper than 64 levels: the directory loops",
                                did=did, offset=off)
            node = self._node(off)
            ids = node.ids
            i = bisect.bisect_left(ids, did)
            if i < len(ids) and ids[i] == did:
                return node.entries[i]
            if node.is_leaf:
                return None
            off = node.branches[i]   # child i holds ids between entries i-1 and i
        return None

    def __contains__(self, did: int) -> bool:
        return self.entry(did) is not None

    def read(self, did: int) -> bytes:
        """The record bytes for a DID (decompressed); DatError when absent or corrupt."""
        e = self.entry(did)
        if e is None:
            raise self._err("DID not found in this DAT", did=did)
        return self.read_entry(e)

    def get(self, did: int) -> bytes | None:
        e = self.entry(did)
        return None if e is None else self.read_entry(e)

    def read_entry(self, e: DatEntry) -> bytes:
        if e.size and (e.offset <= 0 or e.offset >= self._len):
            # the stored offset is no place in the file: say what it holds, point nowhere
            # (a negative offset would print as "0x-1000")
            raise self._err(f"record offset {e.offset} (0x{e.offset & 0xFFFFFFFF:08X}) lies "
                            f"outside the {self._len}-byte file", did=e.did)
        raw = self.read_chain(e.offset, e.size, did=e.did)
        if not e.compressed:
            return raw
        # u32 uncompressed size + zlib stream
        if len(raw) < 4:
            raise self._err("compressed record shorter than its size prefix", did=e.did,
                            offset=e.offset)
        want = _U32.unpack_from(raw, 0)[0]
        if want > MAX_INFLATED_SIZE:
            raise self._err(f"compressed record declares {want} bytes inflated, more than "
                            f"the {MAX_INFLATED_SIZE} a record may hold", did=e.did,
                            offset=e.offset)
        if want > MAX_DEFLATE_RATIO * (len(raw) - 4) + 64:
            raise self._err(f"compressed record declares {want} bytes inflated, more than "
                            f"its {len(raw) - 4}-byte zlib stream can hold", did=e.did,
                            offset=e.offset)
        try:
            d = zlib.decompressobj()
            out = d.decompress(raw[4:], want + 1)
        except zlib.error as exc:
            raise self._err(f"compressed record is corrupt: {exc}", did=e.did,
                            offset=e.offset) from exc
        if len(out) != want or not d.eof:
            raise self._err(f"compressed record inflates to {len(out)} bytes, its prefix says "
                            f"{want}", did=e.did, offset=e.offset)
        return out

    def file_offset(self, e: DatEntry, pos: int) -> int | None:
        """The file offset of byte ``pos`` of an entry's record, following its block chain
        (a position at the very end maps just past the last byte). None for a compressed
        record or when the chain breaks before that block."""
        if e.compressed or pos < 0 or e.offset <= 0:
            return None
        per = self.block_size - 4
        block, within = divmod(pos, per)
        if pos and within == 0 and pos >= e.size:
            block, within = block - 1, per            # the end of a full last block
        off = e.offset
        for _ in range(block):
            if off <= 0 or off + 4 > self._len:
                return None
            off = _U32.unpack_from(self._buf, off)[0]
        if off <= 0 or off & 0x80000000 or off + 4 > self._len:
            return None
        return off + 4 + within

    def entries(self, *, cache: bool = True,
                progress: Callable[[float], None] | None = None) -> Iterator[DatEntry]:
        """Every entry in ascending DID order (in-order walk with an explicit stack).

        ``cache=False`` keeps no node once the walk has left it, so a walk over a DAT of any
        size holds only the nodes on the current path (``dat verify``). ``progress`` is
        called after each leaf node with the fraction of the tree walked (0..1, by the
        branch taken at each level); an exception it raises stops the walk."""
        root = self.header.btree_root
        if root == 0:
            return
        seen: set[int] = set()
        # stack items: [node, phase]; phase j even = child j/2, odd = entry j/2
        stack: list[list] = []

        def push(off: int) -> None:
            if off in seen:
                raise self._err("B-tree directory loops (a node is its own descendant)",
                                offset=off)
            if len(stack) >= _MAX_DEPTH:
                raise self._err("B-tree deeper than 64 levels", offset=off)
            seen.add(off)
            stack.append([self._node(off, cache), 0])

        push(root)
        last = -1
        while stack:
            top = stack[-1]
            node, j = top
            if node.is_leaf:
                stack.pop()
                for e in node.entries:
                    if e.did <= last:
                        raise self._err("B-tree entries out of order", did=e.did,
                                        offset=node.offset)
                    last = e.did
                    yield e
                if progress is not None:
                    progress(_walked(stack))
                continue
            n = len(node.entries)
            if j > 2 * n:
                stack.pop()
                continue
            top[1] = j + 1
            if j % 2 == 0:               # child j/2 first, then entry j/2 (BTree::Search order)
                push(node.branches[j // 2])
            else:
                e = node.entries[j // 2]
                if e.did <= last:
                    raise self._err("B-tree entries out of order", did=e.did,
                                    offset=node.offset)
                last = e.did
                yield e

    def dids(self) -> list[int]:
        return [e.did for e in self.entries()]

    def read_index(self, progress: Callable[[float, int], None] | None = None) -> list[int]:
        """Walk the whole directory once (caching its nodes, so later lookups read no
        node again) and return every DID, ascending. ``progress(fraction, entries)`` is
        called as the walk goes (after each leaf node, and at the end with 1.0); an
        exception it raises stops the walk (how the viewer cancels). A retail portal.dat's
        directory takes seconds: the viewer runs this in a worker thread."""
        dids: list[int] = []
        step = None if progress is None else (lambda f: progress(f, len(dids)))
        for e in self.entries(progress=step):
            dids.append(e.did)
        self._count = len(dids)
        if progress is not None:
            progress(1.0, len(dids))
        return dids

    def __len__(self) -> int:
        if self._count is None:
            self._count = sum(1 for _ in self.entries())
        return self._count

    def __iter__(self) -> Iterator[int]:
        return (e.did for e in self.entries())


def _walked(stack: list[list]) -> float:
    """How far an in-order walk is once a leaf node is done, from the stack of its
    ancestors' [node, phase] (phase 2k + 1: child k is being walked): children 0..k-1 of
    each ancestor are done, and the leaf is its parent's child k."""
    done, share = 0.0, 1.0
    for node, phase in stack:
        branches = len(node.entries) + 1
        done += share * ((phase - 1) // 2) / branches
        share /= branches
    return min(done + share, 1.0)


class DatCollection:
    """Several DAT files as one, with retail's lookup order.

    ``highres_first=True`` (retail, CLCache::GetDiskController): any DID present in a
    high-res file (data_subset "HiFi") comes from there. ``False`` is the ACViewer / DRW
    policy: other files first, high-res as fallback. Otherwise files are searched in the
    order given.
    """

    def __init__(self, files: Iterable[str | os.PathLike | DatFile], *,
                 highres_first: bool = True) -> None:
        opened: list[DatFile] = []
        try:
            for f in files:
                opened.append(f if isinstance(f, DatFile) else DatFile(f))
        except DatError:
            for f in opened:
                f.close()
            raise
        self.files = opened
        self.highres_first = highres_first
        self._dids: list[int] | None = None   # the merged directory, once read
        hi = [f for f in opened if f.is_highres]
        lo = [f for f in opened if not f.is_highres]
        self.search_order = hi + lo if highres_first else lo + hi

    @property
    def name(self) -> str:
        return ", ".join(f.name for f in self.files)

    def close(self) -> None:
        for f in self.files:
            f.close()

    def __enter__(self) -> DatCollection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def locate(self, did: int) -> tuple[DatFile, DatEntry] | None:
        for f in self.search_order:
            e = f.entry(did)
            if e is not None:
                return f, e
        return None

    def __contains__(self, did: int) -> bool:
        return self.locate(did) is not None

    def read(self, did: int) -> bytes:
        hit = self.locate(did)
        if hit is None:
            raise DatError("DID not found in any DAT", file=self.name, did=did)
        f, e = hit
        return f.read_entry(e)

    def get(self, did: int) -> bytes | None:
        hit = self.locate(did)
        return None if hit is None else hit[0].read_entry(hit[1])

    def file_of(self, did: int) -> DatFile | None:
        hit = self.locate(did)
        return None if hit is None else hit[0]

    def entries(self) -> Iterator[DatEntry]:
        """Every DID once, ascending, as the file that wins the lookup has it."""
        import heapq

        def keyed(rank: int, f: DatFile):
            for e in f.entries():
                yield e.did, rank, e

        streams = [keyed(rank, f) for rank, f in enumerate(self.search_order)]
        last = None
        for did, _rank, e in heapq.merge(*streams):
            if did != last:
                last = did
                yield e

    def dids(self) -> list[int]:
        """Every DID once, ascending (the directories are walked once, then kept)."""
        if self._dids is None:
            self._dids = [e.did for e in self.entries()]
        return list(self._dids)

    def read_index(self, progress: Callable[[float, int], None] | None = None) -> list[int]:
        """Read every file's directory (``DatFile.read_index``), each file's share of the
        progress by its size, and keep the merged DID list for ``dids``.
        ``progress(fraction, entries)``; an exception it raises stops the reading."""
        total = sum(f._len for f in self.files) or 1
        before, entries = 0, 0
        merged: set[int] = set()
        for f in self.files:
            def step(fraction, n, _f=f, _before=before, _entries=entries):
                if progress is not None:
                    progress((_before + fraction * _f._len) / total, _entries + n)
            ids = f.read_index(step)
            merged.update(ids)
            before += f._len
            entries += len(ids)
        self._dids = sorted(merged)
        return list(self._dids)
