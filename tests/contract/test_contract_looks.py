"""Contract section 5 additions: ``trace --looks`` lines (owner, part, translucency,
luminosity, diffuse, scale on part -1, uv_offset, nodraw; on part lines gfxobj and
textures, the 2026-12-02 additions): one per object and part at
creation, then one per object / part whose look changed at that tick. Through the CLI on
the synthetic library."""

from __future__ import annotations

import pytest

from viewer import synthetic as S

from .conftest import SYN, assert_no_raw_nonfinite

KEYS = ["t", "event", "owner", "part", "translucency", "luminosity", "diffuse", "uv_offset",
        "nodraw"]


def _looks(cli, *args):
    r = cli("trace", SYN, "--looks", *args)
    assert r.rc == 0, r
    assert_no_raw_nonfinite(r.out)
    return r.json_lines()


def _did(d):
    return f"0x{d:08X}"


def test_looks_lines_have_the_contract_fields(cli):
    evs = _looks(cli, "--setup", _did(S.SETUP_HUMANOID), "--table", _did(S.PST_HUMANOID),
                 "--script", _did(S.PES_TRANSPARENT), "--seconds", "0.5")
    looks = [e for e in evs if e["event"] == "looks"]
    for e in looks:
        want = KEYS[:7] + (["scale"] if e["part"] == -1 else []) + KEYS[7:]
        if e["part"] != -1:
            want += ["gfxobj", "textures"]
            assert e["gfxobj"].startswith("0x01") and isinstance(e["textures"], list)
        assert list(e) == want, e
        assert type(e["owner"]) is int and type(e["part"]) is int
        assert all(isinstance(e[k], float) for k in ("translucency", "luminosity", "diffuse"))
        assert len(e["uv_offset"]) == 2 and all(isinstance(c, float) for c in e["uv_offset"])
        assert type(e["nodraw"]) is bool
    # at creation: the object and each of its 11 parts, at t = 0, with the defaults
    first = [e for e in looks if e["t"] == 0.0]
    assert [e["part"] for e in first] == list(range(-1, 11))
    assert first[0]["scale"] == 1.0
    assert all((e["translucency"], e["luminosity"], e["diffuse"], e["nodraw"])
               == (0.0, 0.0, 1.0, False) for e in first)


def test_looks_lines_follow_a_fade_and_only_report_changes(cli):
    """PES_TRANSPARENT: 0 -> 1 over 1 s from its first hook: each tick a line per object
    and part with the tweened value; at 1 the parts are not drawn (SetTranslucency
    0x0050E670 hides a part at exactly 1); nothing is repeated unchanged."""
    evs = _looks(cli, "--setup", _did(S.SETUP_MARKER), "--script", _did(S.PES_TRANSPARENT),
                 "--seconds", "1.2")
    t0 = next(e["t"] for e in evs if e["event"] == "hook")
    last = {}
    for e in evs:
        if e["event"] != "looks":
            continue
        key = (e["owner"], e["part"])
        assert last.get(key) != {k: v for k, v in e.items() if k != "t"}, "unchanged"
        last[key] = {k: v for k, v in e.items() if k != "t"}
        if e["t"] > t0:
            assert e["translucency"] == pytest.approx(min(1.0, e["t"] - t0), abs=1e-9)
    assert last[(1, 0)]["translucency"] == 1.0 and last[(1, 0)]["nodraw"] is True
    assert last[(1, -1)]["nodraw"] is False       # the object itself is not Hidden


def test_looks_nodraw_hook_and_texture_velocity(cli):
    evs = _looks(cli, "--setup", _did(S.SETUP_SCROLL_PLANE), "--script", _did(S.PES_NODRAW),
                 "--script", _did(S.PES_TEXTURE_VELOCITY), "--seconds", "2.0")
    parts = [e for e in evs if e["event"] == "looks" and e["part"] == 0]
    assert [e["nodraw"] for e in parts][:2] == [False, True]       # NoDraw hook
    assert any(not e["nodraw"] and e["t"] >= 1.0 for e in parts)   # ... and off again
    assert parts[-1]["uv_offset"][0] > 0.0 and parts[-1]["uv_offset"][1] == 0.0


def test_looks_uv_offset_stays_after_the_texture_velocity_stops(cli):
    """PES_TEXTURE_VELOCITY's (0, 0) at 4 s removes the GfxObj's velocity
    (CPhysics::AddGfxVelocity 0x00509B60) but not the offset its mesh took
    (CGfxObj::TexVelocity 0x005341D0): the last looks line keeps it, none snaps to 0."""
    evs = _looks(cli, "--setup", _did(S.SETUP_SCROLL_PLANE), "--script",
                 _did(S.PES_TEXTURE_VELOCITY), "--seconds", "5.0")
    parts = [e for e in evs if e["event"] == "looks" and e["part"] == 0]
    after = [e for e in parts if e["t"] > 4.1]
    assert parts[-1]["uv_offset"][1] < -0.4 and parts[-1]["uv_offset"][0] > 0.0
    assert not after            # unchanged after the stop: no new line
