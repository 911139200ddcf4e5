"""The cross-reference index (viewer.dat.xref) and ``vfxviewer xref`` (docs/cli.md section 11):
both directions on the synthetic library and on the retail-shaped DAT, a corrupt record
noted and skipped, the on-disk cache and its invalidation."""

from __future__ import annotations

import json
import os

import pytest

from viewer import synthetic as S
from viewer.cli import main
from viewer.dat import records as R
from viewer.dat import retail_facts as F
from viewer.dat.container import DatCollection
from viewer.dat.names import (
    hook_type_label,
    hook_type_label_of,
    hook_types_named,
    play_script_label,
    play_scripts_named,
    type_name,
)
from viewer.dat.writer import write_dat
from viewer.dat.xref import FORMAT, build_index, cache_path, load_or_build
from viewer.synthetic.retail_shaped import retail_shaped_bytes, write_retail_shaped_dat


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Never touch the user's cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def synthetic():
    with DatCollection([S.SYNTHETIC_DAT]) as c:
        yield build_index(c)


@pytest.fixture(scope="module")
def shaped(tmp_path_factory):
    path = tmp_path_factory.mktemp("shaped") / "client_portal.dat"
    write_retail_shaped_dat(path)
    with DatCollection([path]) as c:
        yield path, build_index(c)


def lines(refs) -> list[str]:
    return [r.line() for r in refs]


def test_names_with_numbers_beside():
    assert play_script_label(0x04) == "Launch (0x04)"
    assert play_script_label(0x10) == "AttribUpPurple (0x10)"
    assert play_script_label(0x1234) == "PlayScript 0x1234"
    assert hook_type_label(19) == "CallPES (19)" and hook_type_label(99) == \
        "AnimationHookType 99"
    assert hook_type_label_of("CreateParticle") == "CreateParticle (13)"
    assert hook_type_label_of("SomethingElse") == "SomethingElse"
    assert type_name(0x34000101) == "PhysicsScriptTable" and type_name(0x07000001) == \
        "RenderSurface" and type_name(0x0D000001) == "type 0x0D"
    assert play_scripts_named("launch") == [0x04]
    assert play_scripts_named("AttribUp") == [0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10]
    assert hook_types_named("callpes") == [19] and hook_types_named("CallPESHook") == [19]
    assert hook_types_named("CreateP") == [13] and hook_types_named("nothing") == []


def test_table_uses_scripts_as_type_mod_in_stored_order_and_setup_uses_table(synthetic):
    assert lines(synthetic.uses(S.PST_FLAME)) == [
        "0x33000107 PhysicsScript ProjectileCollision (0x5A) #0 mod 1",
        "0x33000101 PhysicsScript Launch (0x04) #0 mod 0",
        "0x33000102 PhysicsScript Launch (0x04) #1 mod 0.5",
        "0x33000103 PhysicsScript Launch (0x04) #2 mod 1",
        "0x33000104 PhysicsScript Explode (0x05) #0 mod 0",
        "0x33000105 PhysicsScript Explode (0x05) #1 mod 0.5",
        "0x33000106 PhysicsScript Explode (0x05) #2 mod 1"]
    assert lines(synthetic.used_by(S.PST_FLAME)) == ["0x02000102 Setup default table"]
    # the other direction of the same references
    assert lines(synthetic.used_by(S.PES_LAUNCH_TRAIL)) == [
        "0x34000101 PhysicsScriptTable Launch (0x04) #1 mod 0.5",
        "0x34000104 PhysicsScriptTable Launch (0x04) #2 mod 0.5"]


def test_setup_uses_script_table_motion_sound_parts(synthetic):
    uses = lines(synthetic.uses(S.SETUP_HUMANOID))
    assert uses[:3] == ["0x34000103 PhysicsScriptTable default table",
                        "0x09000101 MotionTable motion table",
                        "0x20000101 SoundTable sound table"]
    assert uses[3] == "0x01000301 GfxObj part 0" and len(uses) == 3 + 7
    assert uses[6] == "0x01000304 GfxObj part 3; part 5"     # one line per related record
    assert "0x02000103 Setup motion table" in lines(synthetic.used_by(S.MTABLE_HUMANOID))


def test_script_hooks_name_emitters_and_callpes_targets_both_ways(synthetic):
    assert lines(synthetic.uses(S.PES_CALLPES_CHAIN)) == [
        "0x32000205 ParticleEmitterInfo hook 0 CreateParticle (13) at 0 s",
        "0x33000F09 PhysicsScript hook 1 CallPES (19) at 0 s",
        "0x3300010A PhysicsScript hook 2 CallPES (19) at 0.1 s"]
    assert "0x33000108 PhysicsScript hook 2 CallPES (19) at 0.1 s" in \
        lines(synthetic.used_by(S.PES_CHAIN_LINK_B))
    assert S.PES_CALLPES_CHAIN in synthetic.users(S.EMIT_COLLISION_FLASH)


def test_animation_hooks_and_motion_table_to_animation(synthetic):
    assert lines(synthetic.uses(S.ANIM_HUMANOID_RECALL)) == [
        "0x32000206 ParticleEmitterInfo frame 16 CreateParticle (13)",
        "0x0A000101 Wave frame 16 SoundTweaked (21); frame 24 SoundTweaked (21)",
        "0x0A000113 Wave frame 32 SoundTweaked (21)"]
    assert lines(synthetic.used_by(S.ANIM_HUMANOID_RECALL)) == [
        "0x09000101 MotionTable link 0x003D0003 -> 0x10000153"]
    assert S.ANIM_HUMANOID_RECALL in [r.did for r in synthetic.uses(S.MTABLE_HUMANOID)]


def test_emitter_to_gfxobj_to_surface_to_texture_chain(synthetic):
    assert lines(synthetic.uses(S.EMIT_EXPLODE_SPARKS))[0].endswith("gfxobj; hw gfxobj")
    gfx = synthetic.uses(S.EMIT_EXPLODE_SPARKS)[0].did
    assert S.EMIT_EXPLODE_SPARKS in synthetic.users(gfx)
    surface = next(r.did for r in synthetic.uses(gfx) if r.type == "Surface")
    texture = next(r.did for r in synthetic.uses(surface) if r.type == "SurfaceTexture")
    level = synthetic.uses(texture)[0]
    assert level.type == "RenderSurface" and level.how == "level 0" and level.held
    assert surface in [r.did for r in synthetic.used_by(texture)]


def test_retail_shaped_recall_chain_and_hidden_tables_both_ways(shaped):
    _, ix = shaped
    rc = F.RECALL
    assert lines(ix.uses(rc.motion_table)) == [
        "0x03000C34 Animation cycle 0x003D0003",
        "0x030009BF Animation link 0x003D0003 -> 0x10000153"]
    assert lines(ix.used_by(rc.emitter)) == [
        "0x030009BF Animation frame 16 CreateParticle (13)"]
    waves = ix.uses(rc.animation)[1]
    assert waves.how.startswith("frame 16 SoundTweaked (21); frame 46 SoundTweaked (21)")
    assert waves.how.endswith("frame 116 SoundTweaked (21)")
    table, (unhide, hidden) = next(iter(F.HIDDEN_UNHIDE_PAIRS.items()))
    assert lines(ix.uses(table))[1:] == [
        f"0x{unhide:08X} PhysicsScript UnHide (0x75) #0 mod 1",
        f"0x{hidden:08X} PhysicsScript Hidden (0x76) #0 mod 1"]
    users = ix.users(hidden)
    assert table in users and set(users) >= {t for t, (_, h) in F.HIDDEN_UNHIDE_PAIRS.items()
                                             if h == hidden}
    blocking = F.CREATE_BLOCKING_SCRIPTS[0]
    assert lines(ix.uses(blocking))[0].endswith("hook 0 CreateBlockingParticle (26) at 0 s")


def test_name_searches_tables_scripts_hooks(synthetic):
    tables, scripts = synthetic.table_entries(play_scripts_named("Launch"))
    assert S.PST_FLAME in tables and scripts[:3] == [S.PES_LAUNCH_SMALL, S.PES_LAUNCH_TRAIL,
                                                     S.PES_LAUNCH_LARGE]
    with_callpes = synthetic.records_with_hook(hook_types_named("CallPES"))
    assert S.PES_CALLPES_CHAIN in with_callpes and all(d >> 24 in (0x03, 0x33)
                                                       for d in with_callpes)
    # a hook naming no record (Scale) is still found by its type
    assert synthetic.records_with_hook(hook_types_named("Scale"))


def test_corrupt_record_is_an_error_with_file_did_offset_and_the_build_goes_on(tmp_path):
    recs = retail_shaped_bytes()
    bad = F.CREATE_BLOCKING_SCRIPTS[1]
    recs[bad] = recs[bad][:-6]               # truncated inside its hook
    path = tmp_path / "client_portal.dat"
    write_dat(path, recs)
    with DatCollection([path]) as c:
        ix = build_index(c)
    assert [e.did for e in ix.errors] == [bad]
    err = ix.errors[0]
    assert err.file == str(path) and err.offset is not None and "record byte" in err.message
    assert f"DID 0x{bad:08X}" in err.line() and "offset" in err.line()
    assert ix.uses(F.CREATE_BLOCKING_SCRIPTS[0]) and ix.holds(bad)
    rc = main(["xref", str(path), f"0x{bad:08X}"])
    assert rc == 1


def test_cache_is_used_then_rebuilt_when_a_dat_changes(tmp_path):
    path = tmp_path / "client_portal.dat"
    recs = retail_shaped_bytes()
    write_dat(path, recs)
    with DatCollection([path]) as c:
        first, cached = load_or_build(c, tmp_path / "cache")
        assert not cached and first.key["format"] == FORMAT
        assert cache_path(first.key, tmp_path / "cache").is_file()
        again, cached = load_or_build(c, tmp_path / "cache")
        assert cached and lines(again.uses(F.RECALL.motion_table)) == \
            lines(first.uses(F.RECALL.motion_table))
        assert [e.did for e in again.errors] == []
    # the DAT changes: another record set, another size and time
    del recs[F.RECALL.motion_table]
    write_dat(path, recs)
    os.utime(path, ns=(1, 1))
    with DatCollection([path]) as c:
        changed, cached = load_or_build(c, tmp_path / "cache")
    assert not cached and not changed.holds(F.RECALL.motion_table)
    assert changed.used_by(F.RECALL.animation) == []


def test_cache_of_same_size_and_time_but_another_header_is_rebuilt(tmp_path):
    path = tmp_path / "client_portal.dat"
    write_dat(path, retail_shaped_bytes(), iteration=1)
    st = os.stat(path)
    with DatCollection([path]) as c:
        load_or_build(c, tmp_path / "cache")
    data = bytearray(path.read_bytes())
    data[0x140 + 0x38] ^= 0x01               # a header field (the pack version) only
    path.write_bytes(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    with DatCollection([path]) as c:
        _, cached = load_or_build(c, tmp_path / "cache")
    assert not cached


def test_unwritable_cache_folder_still_gives_the_index(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with DatCollection([S.SYNTHETIC_DAT]) as c:
        ix, cached = load_or_build(c, cache_dir=blocker / "sub")
    assert not cached and ix.uses(S.PST_FLAME)


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_xref_plain_two_sections(capsys):
    rc, out, _ = run(capsys, "xref", str(S.SYNTHETIC_DAT), "0x34000101")
    assert rc == 0
    text = out.splitlines()
    assert text[0] == "uses" and text[8] == "used by"
    assert text[1] == "0x33000107 PhysicsScript ProjectileCollision (0x5A) #0 mod 1"
    assert text[9:] == ["0x02000102 Setup default table"]


def test_cli_xref_json_and_folder(tmp_path, capsys):
    path = tmp_path / "client_portal.dat"
    write_retail_shaped_dat(path)
    rc, out, _ = run(capsys, "xref", str(tmp_path), f"0x{F.RECALL.emitter:08X}", "--json")
    assert rc == 0
    obj = json.loads(out)
    assert obj["did"] == f"0x{F.RECALL.emitter:08X}" and obj["type"] == "ParticleEmitterInfo"
    assert obj["used_by"] == [{"did": "0x030009BF", "type": "Animation",
                               "how": "frame 16 CreateParticle (13)"}]
    assert [u["type"] for u in obj["uses"]] == ["GfxObj"]
    assert obj["uses"][0].get("missing") is True       # the shaped DAT has no GfxObjs


def test_cli_xref_absent_did_exit_1_naming_it_and_bad_did_exit_2(capsys):
    rc, out, err = run(capsys, "xref", str(S.SYNTHETIC_DAT), "0x32FFFFFF")
    assert rc == 1 and out == "" and "0x32FFFFFF" in err and len(err.splitlines()) == 1
    with pytest.raises(SystemExit) as exc:
        main(["xref", str(S.SYNTHETIC_DAT), "nope"])
    assert exc.value.code == 2


def test_record_rows_cover_every_hook_that_names_a_record():
    hooks = {R.CreateParticleHook: 13, R.CreateBlockingParticleHook: 26, R.SoundHook: 1,
             R.SoundTweakedHook: 21, R.CallPESHook: 19, R.ReplaceObjectHook: 5}
    from viewer.dat.xref import _hook_target
    assert all(R.HOOK_CLASSES[t] is cls for cls, t in hooks.items())
    assert _hook_target(R.CallPESHook(0, 0x33000001, 0.0)) == 0x33000001
    assert _hook_target(R.ScaleHook(0, 1.0, 0.0)) == 0


def test_cli_caches_in_the_user_cache_folder_unless_no_cache(tmp_path, capsys):
    folder = tmp_path / "cache" / "vfxviewer"         # XDG_CACHE_HOME (the fixture)
    rc, _, _ = run(capsys, "xref", str(S.SYNTHETIC_DAT), "0x34000101", "--no-cache")
    assert rc == 0 and not list(folder.glob("xref-*.npz"))
    rc, out, _ = run(capsys, "xref", str(S.SYNTHETIC_DAT), "0x34000101")
    assert rc == 0 and len(list(folder.glob("xref-*.npz"))) == 1
    assert run(capsys, "xref", str(S.SYNTHETIC_DAT), "0x34000101")[1] == out


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty"])
def test_damaged_cache_file_is_rebuilt_not_raised(tmp_path, damage):
    with DatCollection([S.SYNTHETIC_DAT]) as c:
        first, _ = load_or_build(c, tmp_path)
        path = cache_path(first.key, tmp_path)
        data = path.read_bytes()
        path.write_bytes({"truncated": data[:len(data) // 2], "garbage": b"x" * 100,
                          "empty": b""}[damage])
        again, cached = load_or_build(c, tmp_path)
        assert not cached and lines(again.uses(S.PST_FLAME)) == lines(first.uses(S.PST_FLAME))
        assert load_or_build(c, tmp_path)[1]          # rewritten whole


def test_cli_xref_index_progress_on_a_terminal_only(monkeypatch, capsys):
    """The index build shows viewer.commands.progress.terminal_bar on a terminal (the bar
    ``gallery`` and ``dat verify`` use too) and nothing on a pipe."""
    import io
    import sys

    from viewer.commands.progress import terminal_bar

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert terminal_bar("x", "rec") is None                # a pipe: nothing
    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    assert main(["xref", str(S.SYNTHETIC_DAT), f"0x{S.SETUP_HUMANOID:08X}",
                 "--no-cache"]) == 0
    assert "xref index" in fake.getvalue()
    assert "xref index" not in capsys.readouterr().out
