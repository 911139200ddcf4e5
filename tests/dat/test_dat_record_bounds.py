"""Issue 26, classes 1 and 3: what one DAT record may claim is bounded, and retail's hook
order is computed without the quadratic sort.

- PhysicsScript::UnPack 0x005218B0 sorts its hooks with the CRT qsort and
  PhysicsScriptData::Sort 0x00521600, which never returns 0: a run of equal start times made
  the port quadratic (4,194,303 equal hooks: past 60 s at 740 MB). ``qsort_order`` gives the
  very same permutation in O(n log n) (checked against the port on random inputs full of
  ties), and a script holds at most ``MAX_SCRIPT_HOOKS`` hooks.
- The iteration record (DiskController::LoadIterationList 0x00670DE0): a run token of 8
  bytes stood for up to 2**31 numbers (a 12-byte record took ``dat show`` to 1.17 GB); the
  count is at most ``MAX_ITERATIONS``.

The reproductions rebuild the synthetic library with one record changed and run the real
command line in a child process under an address-space limit (``tests/bounded.py``).
"""

from __future__ import annotations

import math
import random
import struct

import pytest

from tests.bounded import MiB, run_bounded
from viewer import synthetic as S
from viewer.dat.binary import MAX_RECORD_ITEMS, Reader
from viewer.dat.container import DatFile
from viewer.dat.records.crt_qsort import CUTOFF, msvc70_qsort, qsort_order
from viewer.dat.records.iteration import ITERATION_DID, MAX_ITERATIONS, Iteration
from viewer.dat.records.physics_script import MAX_SCRIPT_HOOKS, PhysicsScript
from viewer.dat.writer import build_dat
from viewer.errors import DatError

SCRIPT_DID = 0x33000101          # a PhysicsScript of the synthetic library
ANIMATION_DID = 0x03000101       # an Animation of the synthetic library
LIMIT = 400 * MiB                # each command below needs under 200 MiB
NAN = float("nan")


def reference_order(keys) -> list[int]:
    """The port of the CRT qsort itself, comparing with PhysicsScriptData::Sort."""
    items = list(range(len(keys)))
    msvc70_qsort(items, lambda a, b: 1 if keys[a] >= keys[b] else -1)
    return items


# --- the sort: the same permutation as the port, in O(n log n) -------------------------------
@pytest.mark.parametrize("pool", [
    [0.0], [0.0, 1.0], [0.0, 0.5, 1.0], [0.25, 0.5, 0.75, 1.0, 2.0],
    [0.0, -0.0, 1.0, NAN], [NAN, 1.0], [NAN], [-math.inf, 0.0, math.inf, NAN],
], ids=lambda p: "/".join(map(str, p)))
def test_qsort_order_is_the_CRT_qsort_permutation_on_random_ties(pool):
    rng = random.Random(len(pool) * 7919)
    for _ in range(400):
        keys = [rng.choice(pool) for _ in range(rng.randrange(0, 70))]
        expect = reference_order(keys)
        assert qsort_order(keys) == expect, keys
        assert qsort_order(keys, small=CUTOFF) == expect, keys   # the tree down to shortsort


def test_qsort_order_matches_the_port_on_larger_tied_and_distinct_inputs():
    rng = random.Random(26)
    for n in (9, 17, 100, 400):
        for keys in ([rng.choice((0.0, 1.0)) for _ in range(n)],
                     [float(rng.randrange(n // 3 + 1)) for _ in range(n)],
                     [rng.random() for _ in range(n)],
                     [0.5] * n):
            expect = reference_order(keys)
            assert qsort_order(keys) == expect
            assert qsort_order(keys, small=CUTOFF) == expect


def test_qsort_order_of_65536_equal_times_is_the_partition_walk():
    """Equal keys: every partition swaps the middle entry to the front and splits it off
    alone (nothing compares below it), until shortsort's 8, which it leaves in place."""
    n = MAX_SCRIPT_HOOKS
    expect, lo = list(range(n)), 0
    while n - lo > 8:
        mid = lo + (n - lo) // 2
        expect[lo], expect[mid] = expect[mid], expect[lo]
        lo += 1
    assert qsort_order([0.0] * n) == expect


def _script(n: int, times=None) -> bytes:
    times = [0.0] * n if times is None else times
    # the smallest hook: AnimationDone (type 4), nothing but its direction
    return struct.pack("<II", SCRIPT_DID, n) + b"".join(struct.pack("<dIi", t, 4, 0)
                                                       for t in times)


def test_a_script_of_MAX_SCRIPT_HOOKS_equal_hooks_unpacks_in_retail_order():
    rec = PhysicsScript.read(Reader(_script(MAX_SCRIPT_HOOKS)))
    assert len(rec.script_data) == MAX_SCRIPT_HOOKS
    assert rec.length == 0.0


def test_a_script_claiming_more_hooks_than_the_bound_is_refused_at_its_count():
    data = struct.pack("<II", SCRIPT_DID, MAX_SCRIPT_HOOKS + 1) + bytes(16 * 70000)
    with pytest.raises(DatError) as exc:
        PhysicsScript.read(Reader(data, file="x.dat", did=SCRIPT_DID))
    assert str(exc.value) == (f"x.dat: DID 0x{SCRIPT_DID:08X}: offset 4 (0x4): script_data "
                              f"count {MAX_SCRIPT_HOOKS + 1} is more than the "
                              f"{MAX_SCRIPT_HOOKS} hooks a PhysicsScript may hold")


# --- the iteration record: its count bounds every run ----------------------------------------
def test_iteration_runs_and_singles_up_to_the_bound_decode():
    data = struct.pack("<iiii", MAX_ITERATIONS, -(MAX_ITERATIONS - 1), 1, 70000)
    it = Iteration.read(Reader(data))
    assert it.iterations()[:2] == [1, 2] and len(it.iterations()) == MAX_ITERATIONS


@pytest.mark.parametrize("n", [MAX_ITERATIONS + 1, 20_000_000, 2**31 - 1])
def test_an_iteration_count_over_the_bound_is_refused_before_any_run(n):
    with pytest.raises(DatError, match=rf"offset 0 .*iteration count {n} is more than the "
                                       rf"{MAX_ITERATIONS} iterations"):
        Iteration.read(Reader(struct.pack("<iii", n, -n, 5), file="x.dat", did=ITERATION_DID))


# --- every record: the entries it claims in all ------------------------------------------------
def test_the_entries_a_record_claims_add_up_to_at_most_the_bound():
    r = Reader(bytes(8 * MAX_RECORD_ITEMS), file="x.dat", did=0x03000001)
    assert r.count(MAX_RECORD_ITEMS - 1, 4, "frames") == MAX_RECORD_ITEMS - 1
    assert r.count(5, 4, "skipped", kept=False) == 5       # read past, never kept
    assert r.count(1, 4, "hooks") == 1
    with pytest.raises(DatError, match=rf"offset 0 .*hooks count 1 takes the record past the "
                                       rf"{MAX_RECORD_ITEMS} entries a record may hold"):
        r.count(1, 4, "hooks")


def test_an_animation_of_empty_frames_is_refused_at_its_frame_count():
    from viewer.dat.records.animation import Animation
    n = MAX_RECORD_ITEMS + 1
    data = struct.pack("<IIII", 0x03000001, 0, 0, n) + bytes(4 * n)
    with pytest.raises(DatError, match=rf"offset 16 .*frames count {n} takes the record past"):
        Animation.read(Reader(data, file="x.dat", did=0x03000001))


def test_a_vertex_claiming_more_uvs_than_the_bound_is_refused():
    from viewer.dat.records.gfxobj import GfxObj
    n = 40000                                   # uvs of one vertex: 8 bytes each
    data = (struct.pack("<IIBiI", 0x01000001, 0, 0, 1, 1)   # no surfaces, one vertex
            + struct.pack("<hH6f", 0, n, 0, 0, 0, 0, 0, 1) + bytes(8 * n))
    r = Reader(data, file="x.dat", did=0x01000001)
    r.items = MAX_RECORD_ITEMS - 10
    with pytest.raises(DatError, match=rf"SWVertex uvs count {n} takes the record past"):
        GfxObj.read(r)


# --- the reproductions, as commands in a child process ----------------------------------------
def _rebuilt(path, did: int, payload: bytes, *, compressed: bool) -> str:
    with DatFile(S.SYNTHETIC_DAT) as d:
        recs = {k: d.read(k) for k in d}
    recs[did] = payload
    path.write_bytes(build_dat(recs, compressed=[did] if compressed else []))
    return str(path)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """R with 0x33000101 holding 4,194,303 equal-time hooks (compressed, under 1 MB), and
    R with the iteration record claiming 20M numbers in one run / 16,777,215 zero tokens."""
    tmp = tmp_path_factory.mktemp("records")
    n = 4_194_303
    return {
        "hooks": _rebuilt(tmp / "hooks.dat", SCRIPT_DID, struct.pack("<II", SCRIPT_DID, n)
                          + struct.pack("<dIi", 0.0, 4, 0) * n, compressed=True),
        "run": _rebuilt(tmp / "run.dat", ITERATION_DID,
                        struct.pack("<iii", 20_000_000, -20_000_000, 5), compressed=False),
        "tokens": _rebuilt(tmp / "tokens.dat", ITERATION_DID,
                           struct.pack("<i", 16_777_215) + bytes(4 * 16_777_215),
                           compressed=True),
        # 16,777,212 empty frames: 64 MiB inflated from 68 KB (an Animation of the library)
        "frames": _rebuilt(tmp / "frames.dat", ANIMATION_DID,
                           struct.pack("<IIII", ANIMATION_DID, 0, 0, 16_777_212)
                           + bytes(4 * 16_777_212), compressed=True),
    }


@pytest.mark.parametrize("which, argv, said", [
    ("hooks", ["dat", "show", "{dat}", f"0x{SCRIPT_DID:08X}"], "script_data count 4194303"),
    ("hooks", ["trace", "{dat}", "--setup", f"0x{S.SETUP_HUMANOID:08X}", "--script",
               f"0x{SCRIPT_DID:08X}", "--seconds", "0.1"], "script_data count 4194303"),
    ("run", ["dat", "show", "{dat}", "0xFFFF0001"], "iteration count 20000000"),
    ("tokens", ["dat", "show", "{dat}", "0xFFFF0001"], "iteration count 16777215"),
    ("frames", ["dat", "show", "{dat}", f"0x{ANIMATION_DID:08X}"], "frames count 16777212"),
], ids=["hooks-show", "hooks-trace", "iteration-run-show", "iteration-tokens-show",
        "animation-frames-show"])
def test_a_record_claiming_too_much_is_one_line_in_bounded_memory(hostile, which, argv, said):
    dat = hostile[which]
    r = run_bounded([a.format(dat=dat) for a in argv], memory=LIMIT, timeout=60)
    assert not r.timed_out and r.rc == 1, r
    assert len(r.err_lines) == 1 and "Traceback" not in r.err, r
    line = r.err_lines[0]
    assert dat in line and " offset " in line and said in line, line


@pytest.mark.parametrize("which, did", [("hooks", SCRIPT_DID), ("tokens", ITERATION_DID),
                                        ("frames", ANIMATION_DID)],
                         ids=["hooks", "iteration-tokens", "animation-frames"])
def test_dat_verify_names_the_record_and_stays_bounded(hostile, which, did):
    r = run_bounded(["dat", "verify", hostile[which]], memory=LIMIT, timeout=60)
    assert not r.timed_out and r.rc == 1 and "Traceback" not in r.err, r
    failures = [ln for ln in r.out.splitlines() if f"0x{did:08X}" in ln]
    assert len(failures) == 1 and ("is more than the" in failures[0]
                                   or "takes the record past" in failures[0]), r.out


def test_docs_bounds_md_gives_these_bounds():
    from tests.bounded import ROOT
    doc = (ROOT / "docs" / "bounds.md").read_text(encoding="utf-8")
    assert f"| {MAX_RECORD_ITEMS} entries |" in doc
    assert f"| {MAX_SCRIPT_HOOKS} hooks |" in doc
    assert f"| {MAX_ITERATIONS} numbers |" in doc
