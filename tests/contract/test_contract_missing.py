"""Absent records at run time (contract "Absent records at run time"): the synthetic library
rewritten by our DAT writer without some of its records, as an install that lacks them.
``trace`` prints one ``missing`` line naming the record and the record that names it, the
sound is not played, and ``render`` still writes its outputs, sound track included."""

from __future__ import annotations

import pytest

from viewer import synthetic as S
from viewer.dat.database import AssetDatabase
from viewer.dat.writer import build_dat

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")



def _did(d: int) -> str:
    return f"0x{d:08X}"


def _humanoid_only_part(db) -> int:
    """A GfxObj of SETUP_HUMANOID's that SETUP_MARKER does not use."""
    marker = set(db.get(S.SETUP_MARKER).parts)
    return next(g for g in db.get(S.SETUP_HUMANOID).parts if g not in marker)


@pytest.fixture(scope="module")
def lacking(tmp_path_factory):
    """The synthetic DAT without WAVE_WHOOSH (PES_SOUND's SoundTweaked names it) and
    without one of SETUP_HUMANOID's part GfxObjs; returns (path, that GfxObj)."""
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as db:
        part = _humanoid_only_part(db)
        raw = {did: db.raw(did) for did in db.dids() if did not in (S.WAVE_WHOOSH, part)}
    path = tmp_path_factory.mktemp("lacking") / "lacking.dat"
    path.write_bytes(build_dat(raw))
    return path, part


def test_trace_absent_Wave_is_one_missing_line_and_played_false(cli, lacking):
    r = cli("trace", lacking[0], "--setup", _did(S.SETUP_MARKER), "--script",
            _did(S.PES_SOUND), "--seconds", "1.0")
    assert r.rc == 0, r
    evs = r.json_lines()
    missing = [e for e in evs if e["event"] == "missing"]
    assert [(e["what"], e["did"], e["by"]) for e in missing] == [
        ("Wave", _did(S.WAVE_WHOOSH), _did(S.PES_SOUND))]
    (whoosh,) = [e for e in evs if e["event"] == "sound" and e["wave"] == _did(S.WAVE_WHOOSH)]
    assert whoosh["played"] is False and whoosh["t"] == missing[0]["t"]
    assert any(e["event"] == "sound" and e["played"] for e in evs)   # the others still play


def test_render_mp4_with_an_absent_Wave_is_written_with_its_sound_track(cli, lacking,
                                                                      tmp_path, gl_ctx):
    import av
    out = tmp_path / "x.mp4"
    r = cli("render", lacking[0], "--setup", _did(S.SETUP_MARKER), "--script", _did(S.PES_SOUND),
            "--seconds", "1.0", "--size", "32x18", "--out", out)
    assert r.rc == 0, r
    with av.open(str(out)) as c:
        assert c.streams.audio and c.streams.video


def test_absent_Setup_part_GfxObj_is_traced_by_the_Setup_and_the_picture_is_written(
        cli, lacking, tmp_path, gl_ctx):
    """CPhysicsPart::SetPart 0x0050E700 cannot load the part: one missing line at the
    object's creation naming the Setup; the render draws the other parts."""
    path, part = lacking
    r = cli("trace", path, "--setup", _did(S.SETUP_HUMANOID), "--seconds", "0.2")
    assert r.rc == 0, r
    assert [(e["what"], e["did"], e["by"]) for e in r.json_lines()
            if e["event"] == "missing"] == [("GfxObj", _did(part), _did(S.SETUP_HUMANOID))]
    out = tmp_path / "h.png"
    r = cli("render", path, "--setup", _did(S.SETUP_HUMANOID), "--seconds", "0.2",
            "--size", "48x32", "--out", out)
    assert r.rc == 0, r
    assert out.exists()
