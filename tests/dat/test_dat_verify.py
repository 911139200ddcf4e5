"""``vfxviewer dat verify`` (docs/cli.md section 10): every record decoded, every byte
accounted for, failures named by file, DID and file offset, and the run goes on."""

from __future__ import annotations

import json
import shutil
import struct

import pytest

from viewer import synthetic as S
from viewer.cli import main
from viewer.dat import records as R
from viewer.dat.container import DatFile
from viewer.dat.verify import verify
from viewer.dat.writer import write_dat


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _entry(path, did):
    with DatFile(path) as dat:
        return dat.entry(did), dat.block_size


def _patch(path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as fh:
        fh.seek(offset)
        fh.write(data)


def _set_entry_size(path, did: int, size: int) -> None:
    """Rewrite the directory entry's size field (a record cut short)."""
    raw = bytearray(path.read_bytes())
    with DatFile(path) as dat:
        e = dat.entry(did)
    old = struct.pack("<IIiIIi", e.bitfield, e.did, e.offset, e.size, e.date, e.iteration)
    at = raw.find(old)
    assert at > 0 and raw.find(old, at + 1) < 0
    _patch(path, at + 12, struct.pack("<I", size))


def test_synthetic_library_verifies_with_zero_failures(capsys):
    rc, out, err = run(capsys, "dat", "verify", str(S.SYNTHETIC_DAT))
    assert rc == 0, out
    assert err == ""                      # not a terminal: no progress line
    with DatFile(S.SYNTHETIC_DAT) as dat:
        n = len(dat)
    assert out.splitlines()[-1].startswith(f"{n} records, ")
    assert out.splitlines()[-1].endswith(", 0 failed")
    assert "0x33 PhysicsScript" in out and "failed 0" in out


def test_json_shape_counts_every_type(capsys):
    rc, out, _ = run(capsys, "dat", "verify", str(S.SYNTHETIC_DAT), "--json")
    assert rc == 0
    doc = json.loads(out)
    assert set(doc) >= {"types", "failures"}
    assert doc["failures"] == []
    with DatFile(S.SYNTHETIC_DAT) as dat:
        want: dict[str, int] = {}
        for did in dat:
            key = f"0x{did >> 24:02X}"
            want[key] = want.get(key, 0) + 1
    got = {t["type"]: t["count"] for t in doc["types"]}
    assert got == want
    for t in doc["types"]:
        assert set(t) >= {"type", "count", "ok", "failed"}
        assert t["ok"] == t["count"] and t["failed"] == 0


def test_type_filter_keeps_one_type(capsys):
    rc, out, _ = run(capsys, "dat", "verify", str(S.SYNTHETIC_DAT), "--type", "0x34", "--json")
    assert rc == 0
    assert [t["type"] for t in json.loads(out)["types"]] == ["0x34"]


@pytest.fixture
def corrupt(tmp_path):
    """A copy of the synthetic library with three broken records."""
    path = tmp_path / "corrupt.dat"
    shutil.copy(S.SYNTHETIC_DAT, path)
    e, bs = _entry(path, S.PES_SOUND)
    # 1. PhysicsScript: the first hook's type (record byte 16) becomes 99 (unknown hook):
    #    CAnimHook::UnPackHook 0x005271D0 reads its header only, so the stored payload is
    #    read as the next entries and 24 of the 80 bytes are left over: the failure names
    #    the unknown hook (hook 0, record byte 16), not the left-over bytes
    _patch(path, e.offset + 4 + 16, struct.pack("<I", 99))
    # 2. PhysicsScriptTable: the entry count becomes huge
    e2, _ = _entry(path, S.PST_ARROW)
    _patch(path, e2.offset + 4 + 4, struct.pack("<I", 0x7FFFFFF0))
    # 3. Setup cut 4 bytes short (the directory says so): the codec runs off the end
    e3, _ = _entry(path, S.SETUP_ARROW)
    _set_entry_size(path, S.SETUP_ARROW, e3.size - 4)
    return path, {S.PES_SOUND: e.offset + 4 + 16, S.PST_ARROW: e2.offset + 4 + 4}


def test_corrupt_copy_lists_each_failure_with_file_did_offset_and_continues(corrupt, capsys):
    path, offsets = corrupt
    rc, out, _ = run(capsys, "dat", "verify", str(path), "--json")
    assert rc == 1
    doc = json.loads(out)
    fails = {f["did"]: f for f in doc["failures"]}
    assert set(fails) == {f"0x{d:08X}" for d in (S.PES_SOUND, S.PST_ARROW, S.SETUP_ARROW)}
    for f in doc["failures"]:
        assert f["file"] == str(path)
        assert isinstance(f["offset"], int) and f["message"]
    # offsets are file offsets of the failing byte
    assert fails[f"0x{S.PES_SOUND:08X}"]["offset"] == offsets[S.PES_SOUND]
    assert "record byte 16" in fails[f"0x{S.PES_SOUND:08X}"]["message"]
    assert "hook 0: unknown hook type 99" in fails[f"0x{S.PES_SOUND:08X}"]["message"]
    assert fails[f"0x{S.PST_ARROW:08X}"]["offset"] == offsets[S.PST_ARROW] + 4
    assert "truncated" in fails[f"0x{S.SETUP_ARROW:08X}"]["message"]
    # the run continued: every other record decoded
    with DatFile(S.SYNTHETIC_DAT) as dat:
        n = len(dat)
    counts = {t["type"]: t for t in doc["types"]}
    assert sum(t["count"] for t in doc["types"]) == n
    assert sum(t["ok"] for t in doc["types"]) == n - 3
    assert counts["0x33"]["failed"] == 1 and counts["0x34"]["failed"] == 1
    assert counts["0x02"]["failed"] == 1


def test_plain_failure_lines_name_file_did_offset(corrupt, capsys):
    path, offsets = corrupt
    rc, out, _ = run(capsys, "dat", "verify", str(path))
    assert rc == 1
    fails = [line for line in out.splitlines() if line.startswith("FAIL ")]
    assert len(fails) == 3
    line = next(x for x in fails if f"DID 0x{S.PES_SOUND:08X}" in x)
    assert str(path) in line and f"offset {offsets[S.PES_SOUND]} " in line
    assert out.splitlines()[-1].endswith(", 3 failed")


def test_trailing_bytes_fail_exact_accounting(tmp_path):
    """A record that decodes but leaves bytes over is a failure (Reader.finish)."""
    rec = R.encode(R.PhysicsScript.from_hooks(0x33000001, ())) + b"\0\0\0\0"
    path = tmp_path / "t.dat"
    write_dat(path, {0x33000001: rec})
    report = verify([path])
    assert [f.did for f in report.failures] == [0x33000001]
    assert "trailing" in report.failures[0].message


def test_unopenable_file_is_one_failure_and_others_still_verify(tmp_path, capsys):
    bad = tmp_path / "bad.dat"
    bad.write_bytes(b"\0" * 1024)
    rc, out, _ = run(capsys, "dat", "verify", str(bad), str(S.SYNTHETIC_DAT), "--json")
    assert rc == 1
    doc = json.loads(out)
    assert [f["file"] for f in doc["failures"]] == [str(bad)]
    assert doc["failures"][0]["did"] is None
    assert sum(t["ok"] for t in doc["types"]) > 300


def test_block_chain_break_is_a_failure_with_its_file_offset(tmp_path):
    path = tmp_path / "chain.dat"
    big = R.encode(R.PhysicsScript.from_hooks(0x33000001, tuple(
        R.PhysicsScriptData(float(i), R.NoOpHook(R.AnimationHookDir.Both)) for i in range(200))))
    write_dat(path, {0x33000001: big, 0x33000002: R.encode(
        R.PhysicsScript.from_hooks(0x33000002, ()))})
    e, bs = _entry(path, 0x33000001)
    _patch(path, e.offset, struct.pack("<I", 0))        # the chain ends after one block
    report = verify([path])
    assert [f.did for f in report.failures] == [0x33000001]
    assert report.failures[0].offset == e.offset
    assert report.types[0x33].ok == 1


def test_no_codec_types_are_skipped_not_failed(tmp_path):
    path = tmp_path / "x.dat"
    write_dat(path, {0x0E000001: b"\1\2\3\4"})
    report = verify([path])
    assert report.ok and report.types[0x0E].skipped == 1 and report.types[0x0E].ok == 0


def test_progress_line_goes_to_stderr_only_on_a_terminal(monkeypatch, capsys):
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self):
            return True

    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    rc = main(["dat", "verify", str(S.SYNTHETIC_DAT)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "dat verify" in fake.getvalue() and "rec" in fake.getvalue()
    assert "dat verify" not in out


def test_broken_directory_is_one_failure_naming_the_node_and_other_files_go_on(tmp_path):
    """A B-tree node with more than 61 entries (BTree::Search 0x006731C0 bounds) ends the
    walk of that file only."""
    path = tmp_path / "dir.dat"
    shutil.copy(S.SYNTHETIC_DAT, path)
    with DatFile(path) as dat:
        root = dat.header.btree_root
    _patch(path, root + 4 + 248, struct.pack("<I", 99))
    report = verify([path, S.SYNTHETIC_DAT])
    assert len(report.failures) == 1
    f = report.failures[0]
    assert f.file == str(path) and f.did is None and f.offset == root
    assert f.message.startswith("directory: ") and "61" in f.message
    with DatFile(S.SYNTHETIC_DAT) as dat:
        assert report.records == len(dat)          # the second file was verified whole
