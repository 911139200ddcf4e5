"""Issue 26 class 5: a DID followed to a record of another type (a SoundTable entry naming a
PhysicsScript where a Wave belongs) was an ``AttributeError`` traceback. A record's type is
its DID's top byte, so every place that follows a DID to a typed record says, before reading
it, ``DID X is a Y, not a Z``, naming the referring record where it is known."""

from __future__ import annotations

import struct

import pytest

from tests.bounded import run_bounded
from viewer import synthetic as S
from viewer.dat import records as R
from viewer.dat.container import DatFile
from viewer.dat.database import AssetDatabase
from viewer.dat.writer import build_dat
from viewer.errors import DatError

SCRIPT = 0x33000101              # a PhysicsScript of the synthetic library
TABLE = 0x34000101               # a PhysicsScriptTable
SOUND_TABLE = 0x20000101
SURFACE = 0x08000101             # a textured Surface (its SurfaceTexture at byte 4)


def _rebuilt(tmp_path, did: int, change) -> str:
    """The synthetic library with record ``did``'s bytes changed by ``change``."""
    with DatFile(S.SYNTHETIC_DAT) as d:
        recs = {k: d.read(k) for k in d}
    recs[did] = change(recs[did])
    path = tmp_path / "wrong.dat"
    path.write_bytes(build_dat(recs))
    return str(path)


def test_the_message_names_both_types_and_the_referring_record():
    err = R.wrong_type(SCRIPT, R.PhysicsScript, R.Wave, by=SOUND_TABLE, file="x.dat")
    assert str(err) == ("x.dat: DID 0x33000101 is a PhysicsScript, not a Wave "
                        "(named by SoundTable 0x20000101)")
    assert str(R.wrong_type(0x03000101, "Animation", R.MotionTable)) == (
        "DID 0x03000101 is an Animation, not a MotionTable")
    assert R.type_name(0x77000001) == "type 0x77 record"


def test_the_typed_helpers_refuse_a_DID_of_another_type_before_reading_it():
    with AssetDatabase(S.SYNTHETIC_DAT) as db:
        with pytest.raises(DatError) as exc:
            db.wave(SCRIPT, by=SOUND_TABLE)
        assert str(exc.value).endswith("DID 0x33000101 is a PhysicsScript, not a Wave "
                                       "(named by SoundTable 0x20000101)")
        assert not db.cached_records()          # nothing was decoded
        assert isinstance(db.physics_script_table(TABLE), R.PhysicsScriptTable)


def test_resolve_with_a_script_where_the_table_belongs_is_one_line():
    r = run_bounded(["resolve", S.SYNTHETIC_DAT, f"0x{SCRIPT:08X}", "Launch", "0.5"],
                    timeout=60)
    assert r.rc == 1 and len(r.err_lines) == 1 and "Traceback" not in r.err, r
    assert r.err_lines[0] == (f"vfxviewer: {S.SYNTHETIC_DAT}: DID 0x33000101 is a "
                              f"PhysicsScript, not a PhysicsScriptTable")


def test_render_with_a_surface_naming_a_script_as_its_texture_names_the_surface(tmp_path):
    def retarget(data: bytes) -> bytes:
        assert R.decode(SURFACE, data).orig_texture_id >> 24 == 0x05
        return data[:4] + struct.pack("<I", SCRIPT) + data[8:]
    dat = _rebuilt(tmp_path, SURFACE, retarget)
    r = run_bounded(["render", dat, "--scenario", S.DEFAULT_SCENARIO, "--seconds", "1",
                     "--size", "16x16", "--out", tmp_path / "x.png"], timeout=90)
    assert r.rc == 1 and len(r.err_lines) == 1 and "Traceback" not in r.err, r
    assert r.err_lines[0].endswith("DID 0x33000101 is a PhysicsScript, not a SurfaceTexture "
                                   "(named by Surface 0x08000101)"), r.err_lines
    assert not (tmp_path / "x.png").exists()


# --- the runtime: a DID of another type named by DAT data is traced and skipped ------------------
def _u32_at(offset: int, value: int):
    return lambda data: data[:offset] + struct.pack("<I", value) + data[offset + 4:]


def _waves_to_script(data: bytes) -> bytes:
    for wave in (0x0A000101, 0x0A000102, 0x0A000103):
        data = data.replace(struct.pack("<I", wave), struct.pack("<I", SCRIPT))
    return data


def _events(out: str, kind: str) -> list[dict]:
    import json
    return [e for e in map(json.loads, out.splitlines()) if e["event"] == kind]


@pytest.mark.parametrize("did, change, missing", [
    (SOUND_TABLE, _waves_to_script,
     {"what": "Wave", "did": "0x33000101", "by": "0x20000101", "found": "PhysicsScript"}),
    (S.SETUP_HUMANOID, _u32_at(16, SCRIPT),        # part 0's GfxObj
     {"what": "GfxObj", "did": "0x33000101", "by": f"0x{S.SETUP_HUMANOID:08X}",
      "found": "PhysicsScript"}),
    (S.SETUP_HUMANOID, _u32_at(972, SCRIPT),       # its MotionTable
     {"what": "MotionTable", "did": "0x33000101", "by": f"0x{S.SETUP_HUMANOID:08X}",
      "found": "PhysicsScript"}),
], ids=["soundtable-wave", "setup-part", "setup-motion-table"])
def test_trace_names_a_wrong_typed_DID_as_missing_with_what_it_found(tmp_path, did, change,
                                                                      missing):
    """SoundManager / CPhysicsPart::SetPart / the motion table load get nothing usable:
    retail's DBObj::Get of that type finds no such object; the effect is skipped."""
    dat = _rebuilt(tmp_path, did, change)
    r = run_bounded(["trace", dat, "--scenario", S.DEFAULT_SCENARIO, "--seconds", "1"],
                    timeout=90)
    assert r.rc == 0 and "Traceback" not in r.err, r
    got = [{k: e[k] for k in missing} for e in _events(r.out, "missing")]
    assert missing in got, got
    if missing["what"] == "Wave":
        sounds = [e for e in _events(r.out, "sound") if e["wave"] == "0x33000101"]
        assert sounds and not any(e["played"] for e in sounds)


def test_render_with_a_script_where_a_wave_belongs_writes_the_video(tmp_path):
    """The issue's reproduction: an AttributeError traceback ('format_tag') before."""
    dat = _rebuilt(tmp_path, SOUND_TABLE, _waves_to_script)
    out = tmp_path / "v.mp4"
    r = run_bounded(["render", dat, "--scenario", S.DEFAULT_SCENARIO, "--seconds", "1",
                     "--size", "16x16", "--out", out], timeout=120)
    assert r.rc == 0 and "Traceback" not in r.err, r
    assert out.stat().st_size > 0


def test_a_DID_the_user_names_of_another_type_is_one_line():
    r = run_bounded(["trace", S.SYNTHETIC_DAT, "--setup", f"0x{SCRIPT:08X}", "--seconds",
                     "0.1"], timeout=60)
    assert r.rc == 1 and len(r.err_lines) == 1 and "Traceback" not in r.err, r
    assert r.err_lines[0].endswith("objects[0].setup: DID 0x33000101 is a PhysicsScript, "
                                   "not a Setup"), r.err_lines
