"""AssetDatabase: typed, cached access; in-memory databases for other layers' tests."""

from __future__ import annotations

import pytest

from viewer.dat import records as R
from viewer.dat import samples
from viewer.dat.database import AssetDatabase
from viewer.dat.writer import write_dat, write_highres_dat
from viewer.errors import DatError


@pytest.fixture(scope="module")
def db():
    return AssetDatabase.from_records(samples.sample_records())


def test_get_is_typed_and_cached(db):
    s = db.get(0x02000124)
    assert isinstance(s, R.Setup)
    assert db.get(0x02000124) is s
    assert db.setup(0x02000124) is s
    assert isinstance(db.physics_script(0x33000719), R.PhysicsScript)
    assert isinstance(db.physics_script_table(0x34000005), R.PhysicsScriptTable)
    assert isinstance(db.emitter_info(0x320009C4), R.ParticleEmitterInfo)
    assert isinstance(db.gfxobj(0x010005E8), R.GfxObj)
    assert isinstance(db.surface(0x080001B8), R.Surface)


def test_missing_DID_raises_DatError_naming_it(db):
    with pytest.raises(DatError) as ei:
        db.get(0x33000001)
    assert ei.value.did == 0x33000001 and "0x33000001" in str(ei.value)
    assert db.try_get(0x33000001) is None and db.try_get(0) is None


def test_typed_getter_refuses_the_wrong_type(db):
    with pytest.raises(DatError) as ei:
        db.setup(0x33000719)
    assert "Setup" in str(ei.value)


def test_from_records_keeps_raw_bytes_and_lists_dids():
    d = AssetDatabase.from_records({0x33000001: R.encode(samples.sample_physics_script(
        0x33000001)), 0x34000001: samples.sample_physics_script_table(0x34000001)})
    assert d.dids() == [0x33000001, 0x34000001]
    assert d.dids(0x34) == [0x34000001]
    assert d.physics_script(0x33000001).id == 0x33000001


def test_render_surface_rgba_uses_the_default_palette(db):
    img = db.render_surface_rgba(0x06007364)
    assert img.shape == (2, 4, 4)
    pal = db.palette(0x0400007E).colors
    assert img[0, 1].tolist() == [(pal[1] >> 16) & 255, (pal[1] >> 8) & 255, pal[1] & 255, 255]


def test_database_over_files_uses_retail_highres_order(tmp_path):
    portal, hires = tmp_path / "client_portal.dat", tmp_path / "client_highres.dat"
    lo = samples.sample_render_surface(0x06000001)
    hi = R.RenderSurface(0x06000001, 0, 1, 1, R.PixelFormat.R8G8B8, bytes(3), None)
    write_dat(portal, {0x06000001: R.encode(lo)})
    write_highres_dat(hires, {0x06000001: R.encode(hi)})
    with AssetDatabase([portal, hires]) as d:
        assert d.render_surface(0x06000001).width == 1
    with AssetDatabase(portal) as d:
        assert d.render_surface(0x06000001).width == 4


def test_malformed_record_error_names_file_did_and_offset(tmp_path):
    path = tmp_path / "bad.dat"
    write_dat(path, {0x33000001: b"\x01\x00\x00\x33\x05\x00\x00\x00"})   # 5 entries, no data
    with AssetDatabase(path) as d, pytest.raises(DatError) as ei:
        d.get(0x33000001)
    msg = str(ei.value)
    assert "bad.dat" in msg and "0x33000001" in msg and "offset" in msg
