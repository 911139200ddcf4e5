"""Reading a DAT's whole directory with progress (DatFile / DatCollection / AssetDatabase
read_index): the fraction walked is reported after each leaf node, in order, ending at 1.0;
an exception from the callback stops the walk (how the viewer cancels); the DID list is
kept, so the Assets list never walks the directory again."""

from __future__ import annotations

import pytest

from viewer.dat.container import DatCollection, DatFile
from viewer.dat.database import AssetDatabase
from viewer.dat.writer import build_dat

N = 3000   # 50 leaf nodes of our writer's B-tree: a few dozen steps, a few milliseconds


def big_dat(path, n=N, base=0x06000000, highres=False) -> str:
    """``n`` small records written by our DAT writer (no retail bytes)."""
    from viewer.dat.container import HIGHRES_SUBSET

    extra = {"data_subset": HIGHRES_SUBSET} if highres else {}
    path.write_bytes(build_dat({base + i: bytes([i & 0xFF]) * 4 for i in range(n)},
                               **extra))
    return str(path)


def test_read_index_reports_the_fraction_walked_after_each_leaf(tmp_path):
    f = DatFile(big_dat(tmp_path / "big.dat"))
    seen = []
    dids = f.read_index(lambda fraction, entries: seen.append((fraction, entries)))
    assert dids == [0x06000000 + i for i in range(N)] == f.dids()
    assert len(seen) > 20 and seen[-1] == (1.0, N)
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(seen, seen[1:]))
    for fraction, entries in seen:   # the branch-taken estimate tracks the entries read
        assert fraction == pytest.approx(entries / N, abs=0.02)
    assert len(f) == N


def test_an_exception_from_the_callback_stops_the_walk(tmp_path):
    f = DatFile(big_dat(tmp_path / "big.dat"))
    calls = []

    def stop(fraction, entries):
        calls.append(entries)
        if len(calls) == 3:
            raise KeyboardInterrupt("cancelled")

    with pytest.raises(KeyboardInterrupt):
        f.read_index(stop)
    assert len(calls) == 3 and calls[-1] < N


def test_collection_reads_every_file_and_keeps_the_merged_list(tmp_path):
    a = big_dat(tmp_path / "a.dat", n=1000)
    b = big_dat(tmp_path / "b.dat", n=1000, base=0x06000000 + 500, highres=True)
    coll = DatCollection([a, b])
    seen = []
    dids = coll.read_index(lambda fraction, entries: seen.append((fraction, entries)))
    assert dids == [0x06000000 + i for i in range(1500)]
    assert seen[-1] == (1.0, 2000)          # entries read, duplicates included
    assert all(x[0] <= y[0] for x, y in zip(seen, seen[1:]))
    coll.files[0].entries = None            # the list is kept: no walk again
    assert coll.dids() == dids
    db = AssetDatabase(big_dat(tmp_path / "c.dat", n=10))
    assert db.read_index() == db.dids() == [0x06000000 + i for i in range(10)]
