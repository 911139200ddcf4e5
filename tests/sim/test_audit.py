"""``vfxviewer audit`` (docs/cli.md section 9) against the End-of-Retail DAT facts.

The retail-shaped synthetic DAT reproduces every structural fact the audit checks, so every
structural check passes on it. Its record identities cannot match retail's (the records
carry synthetic content), so those checks FAIL with the found length and SHA-256 -- except
the Flame table 0x34000005, whose 88 bytes are nothing but the pinned entries: our table
encoder reproduces retail's record exactly, and its identity check passes. Each variant
breaks one fact and must fail exactly its own check.
"""

from __future__ import annotations

import hashlib
import json
import struct

import pytest

from viewer import synthetic as S
from viewer.cli import main
from viewer.dat import retail_facts as F
from viewer.dat.container import DatCollection
from viewer.sim.audit import (
    FAIL,
    MISSING,
    PASS,
    audit,
    audit_collection,
    check_plan,
    raw_create_blocking_offsets,
)
from viewer.synthetic.retail_shaped import (
    OTHER_ANIMATION,
    VARIANTS,
    retail_shaped_bytes,
    write_retail_shaped_dat,
)

IDENTITY = "identity "
#: identities whose bytes the pinned facts fully determine (see the module docstring)
DETERMINED = {0x34000005}


def _non_pass(checks) -> dict[str, str]:
    return {c.check: c.status for c in checks
            if c.status != PASS and not c.check.startswith(IDENTITY)}


@pytest.fixture(scope="module")
def shaped(tmp_path_factory):
    path = tmp_path_factory.mktemp("shaped") / "client_portal.dat"
    write_retail_shaped_dat(path)
    return path


def test_retail_shaped_dat_passes_every_structural_check(shaped):
    checks = audit([shaped])
    assert len(checks) == 1 + len(check_plan())
    assert _non_pass(checks) == {}


def test_identity_checks_fail_honestly_with_found_length_and_hash(shaped):
    data = retail_shaped_bytes()
    by_name = {c.check: c for c in audit([shaped])}
    for ident in F.RECORD_IDENTITIES:
        c = by_name[f"identity {ident.name} 0x{ident.did:08X}"]
        mine = data[ident.did]
        digest = hashlib.sha256(mine).hexdigest().upper()
        if ident.did in DETERMINED:
            assert c.status == PASS and len(mine) == ident.length
            continue
        assert c.status == FAIL
        assert f"found length {len(mine)}, SHA-256 {digest}" in c.detail
        assert f"retail has length {ident.length}, SHA-256 {ident.sha256}" in c.detail


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_broken_variant_fails_exactly_its_check(variant, tmp_path):
    path = tmp_path / "v.dat"
    write_retail_shaped_dat(path, variant)
    expected, _ = VARIANTS[variant]
    got = _non_pass(audit([path]))
    assert set(got) == set(expected), got
    want_status = MISSING if variant == "missing_setup" else FAIL
    assert set(got.values()) == {want_status}


def test_variant_details_say_what_was_found(tmp_path):
    path = tmp_path / "v.dat"
    write_retail_shaped_dat(path, "moved_frame16_hook")
    c = next(c for c in audit([path]) if c.check.startswith("recall emitter"))
    assert "frame 17: 0x3200078E part -1 id 19" in c.detail
    write_retail_shaped_dat(path, "blocking_in_animation")
    c = next(c for c in audit([path]) if c.check == "CreateBlocking inventory")
    assert f"Animations 0x{OTHER_ANIMATION:08X}" in c.detail


def _naive_hook_walk(data: bytes, start: int, count: int) -> list[int]:
    """Hook types as a defective decoder reads them: CreateBlocking (26) with NO payload
    (the known DatReaderWriter defect); every other hook with its real size."""
    sizes = {0: 0, 1: 4, 2: 4, 13: 40, 14: 4, 15: 4, 19: 8, 21: 16, 26: 0}
    pos, types = start, []
    for _ in range(count):
        t = struct.unpack_from("<I", data, pos)[0]
        types.append(t)
        if t not in sizes:
            break
        pos += 8 + sizes[t]
    return types


def test_raw_scan_finds_the_hook_a_naive_decoder_misaligns():
    """Variant blocking_in_animation: one frame, CreateBlocking then SoundTweaked."""
    data = retail_shaped_bytes("blocking_in_animation")[OTHER_ANIMATION]
    # id, flags, num_parts 1, num_frames 1, one Frame (28 bytes), num_hooks
    hooks_at = 16 + 28 + 4
    assert struct.unpack_from("<I", data, hooks_at - 4)[0] == 2
    naive = _naive_hook_walk(data, hooks_at, 2)
    assert naive[0] == 26 and naive[1] != 21          # misaligned: reads the emitter DID
    assert naive[1] >> 24 == 0x32
    assert raw_create_blocking_offsets(data) == [hooks_at]


def test_raw_scan_ignores_a_payload_word_of_26_without_emitter_prefix():
    data = struct.pack("<6I", 0x33000001, 1, 26, 0, 0x01000001, 0)
    assert raw_create_blocking_offsets(data) == []
    assert raw_create_blocking_offsets(struct.pack("<3I", 26, 0xFFFFFFFF, 0x3200000A)) == [0]
    assert raw_create_blocking_offsets(struct.pack("<3I", 26, 5, 0x3200000A)) == []


def test_folder_means_its_dat_files_and_an_empty_folder_is_missing(shaped, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.txt").write_text("no DATs here")
    rc = main(["audit", str(empty)])
    out = capsys.readouterr().out
    assert rc == 1
    lines = out.splitlines()
    assert lines[0] == f"MISSING DAT files: no DAT files in folder {empty}"
    assert len(lines) == 1 + len(check_plan())
    assert all(line.startswith("MISSING ") for line in lines)
    rc = main(["audit", str(shaped.parent), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1                                   # the identity checks fail
    assert doc[0] == {"check": "DAT files", "status": "PASS", "detail": str(shaped)}
    assert all(set(c) == {"check", "status", "detail"} for c in doc)
    assert {c["status"] for c in doc} == {"PASS", "FAIL"}


def test_plain_lines_pass_fail_missing(shaped, capsys):
    rc = main(["audit", str(shaped)])
    lines = capsys.readouterr().out.splitlines()
    assert rc == 1
    assert "PASS sphere Force Bolt 0x0200087D" in lines
    fail = next(x for x in lines if x.startswith("FAIL identity Arrow Setup 0x02000124: "))
    assert "found length" in fail and "SHA-256" in fail
    for line in lines:
        assert line.split(" ", 1)[0] in {"PASS", "FAIL", "MISSING"}


def test_not_a_dat_is_reported_and_the_rest_audited(shaped, tmp_path):
    bad = tmp_path / "bad.dat"
    bad.write_bytes(b"\0" * 1000)
    checks = audit([bad, shaped])
    assert checks[0].status == FAIL and str(bad) in checks[0].detail
    assert _non_pass(checks[1:]) == {}


def test_synthetic_library_standins_pass_the_projectile_checks():
    with DatCollection([S.SYNTHETIC_DAT]) as coll:
        checks = {c.check: c for c in audit_collection(coll)}
    for name, c in checks.items():
        if name.split(" ")[0] in ("projectile", "sphere", "table") or name.startswith(
                "default script"):
            assert c.status == PASS, (name, c.detail)
    # the library holds no recall chain at the retail DIDs: honest MISSING
    assert checks["recall link 0x09000001 0x10000153"].status == MISSING


def test_audit_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["audit"])
    assert exc.value.code == 2


def _without(tmp_path, *dids):
    from viewer.dat.writer import write_dat
    recs = {d: b for d, b in retail_shaped_bytes().items() if d not in dids}
    path = tmp_path / "lacking.dat"
    write_dat(path, recs, date=0, iteration=1)
    return path


def test_inventories_say_MISSING_for_pinned_records_the_DATs_lack(tmp_path):
    """The two inventories agree: records not in the DATs are MISSING, never FAIL (a DAT
    that simply lacks some of retail's CreateBlocking scripts or Hidden/UnHide tables)."""
    lost_script, lost_table = F.CREATE_BLOCKING_SCRIPTS[2], sorted(F.HIDDEN_UNHIDE_PAIRS)[1]
    by = {c.check: c for c in audit([_without(tmp_path, lost_script, lost_table)])}
    for name, lost in (("CreateBlocking inventory", lost_script),
                       ("hidden/unhide inventory", lost_table)):
        assert by[name].status == MISSING, by[name]
        assert f"not in the DATs: 0x{lost:08X}" in by[name].detail


def test_inventories_agree_on_the_synthetic_library():
    """The synthetic library holds none of retail's pinned scripts or tables (its own
    stand-ins at other DIDs are another set's): both MISSING."""
    with DatCollection([S.SYNTHETIC_DAT]) as coll:
        by = {c.check: c for c in audit_collection(coll)}
    assert by["CreateBlocking inventory"].status == MISSING
    assert by["hidden/unhide inventory"].status == MISSING


def test_inventories_FAIL_only_for_records_present_and_wrong(tmp_path):
    """A pinned script there without its CreateBlocking hook is FAIL, even beside an
    absent one (present and wrong wins)."""
    from viewer.dat.writer import write_dat
    recs = retail_shaped_bytes("blocking_script_lost")
    del recs[F.CREATE_BLOCKING_SCRIPTS[0]]
    path = tmp_path / "v.dat"
    write_dat(path, recs, date=0, iteration=1)
    c = next(c for c in audit([path]) if c.check == "CreateBlocking inventory")
    assert c.status == FAIL
    assert f"in the DATs without it: 0x{F.CREATE_BLOCKING_SCRIPTS[3]:08X}" in c.detail
