"""Contract section 3: ``vfxviewer resolve DAT TABLE_DID PLAYSCRIPT INTENSITY`` resolves as
PhysicsScriptTableData::GetScript 0x00521A20: the first stored entry
with intensity <= mod; NaN and above-every-threshold give ``none``; -inf the first entry."""

from __future__ import annotations

import pytest

from viewer import synthetic as S

from .conftest import DID_RE, SYN, assert_input_failure, assert_usage_error

FLAME = f"0x{S.PST_FLAME:08X}"
UNSORTED = f"0x{S.PST_UNSORTED:08X}"


def _resolve(cli, table, play, intensity):
    r = cli("resolve", SYN, table, play, intensity)
    assert r.rc == 0 and r.err == "", r
    assert len(r.lines) == 1
    line = r.lines[0]
    assert line == "none" or DID_RE.match(line), line
    return line


@pytest.mark.parametrize("intensity,want", [
    ("0", S.PES_LAUNCH_SMALL), ("0.5", S.PES_LAUNCH_TRAIL), ("0.25", S.PES_LAUNCH_TRAIL),
    ("1", S.PES_LAUNCH_LARGE), ("0.75", S.PES_LAUNCH_LARGE), ("-1", S.PES_LAUNCH_SMALL),
])
def test_resolve_first_stored_entry_with_intensity_at_most_mod(cli, intensity, want):
    assert _resolve(cli, FLAME, "Launch", intensity) == f"0x{want:08X}"


def test_resolve_equality_matches(cli):
    assert _resolve(cli, FLAME, "Explode", "0.5") == f"0x{S.PES_EXPLODE_MEDIUM:08X}"


def test_resolve_above_every_threshold_is_none(cli):
    assert _resolve(cli, FLAME, "Launch", "1.5") == "none"


@pytest.mark.parametrize("spelling", ["nan", "NaN", "NAN"])
def test_resolve_nan_selects_no_script_0x00521A3B(cli, spelling):
    assert _resolve(cli, FLAME, "Launch", spelling) == "none"


def test_resolve_inf_selects_none_and_minus_inf_the_first_entry(cli):
    assert _resolve(cli, FLAME, "Launch", "inf") == "none"
    assert _resolve(cli, FLAME, "Launch", "-inf") == f"0x{S.PES_LAUNCH_SMALL:08X}"


def test_resolve_stored_order_not_sorted_by_mod(cli):
    """PST_UNSORTED stores Launch as (1.0, LARGE), (0.25, SMALL), (0.5, TRAIL): 0.3 takes the
    first stored entry it fits, LARGE; sorting by mod would give TRAIL."""
    assert _resolve(cli, UNSORTED, "Launch", "0.3") == f"0x{S.PES_LAUNCH_LARGE:08X}"
    assert _resolve(cli, UNSORTED, "Launch", "0.1") == f"0x{S.PES_LAUNCH_LARGE:08X}"


def test_resolve_infinite_stored_mod_takes_every_finite_intensity(cli):
    assert _resolve(cli, UNSORTED, "Test1", "-inf") == f"0x{S.PES_LUMINOUS:08X}"
    assert _resolve(cli, UNSORTED, "Test1", "1e30") == f"0x{S.PES_DIFFUSE:08X}"
    assert _resolve(cli, UNSORTED, "Test1", "inf") == f"0x{S.PES_DIFFUSE:08X}"


def test_resolve_type_absent_from_table_is_none(cli):
    assert _resolve(cli, FLAME, "Hidden", "1") == "none"
    assert _resolve(cli, UNSORTED, "Test2", "0") == "none"  # present, no entries


@pytest.mark.parametrize("play", ["Launch", "launch", "LAUNCH", "4", "0x4", "0X04", "004"])
def test_resolve_playscript_by_name_or_number_decimal_or_hex(cli, play):
    assert _resolve(cli, FLAME, play, "0.5") == f"0x{S.PES_LAUNCH_TRAIL:08X}"


def test_resolve_names_of_the_hidden_unhide_pair(cli):
    table = f"0x{S.PST_HUMANOID:08X}"
    assert _resolve(cli, table, "Hidden", "1") == f"0x{S.PES_HIDDEN:08X}"
    assert _resolve(cli, table, "UnHide", "1") == f"0x{S.PES_UNHIDE:08X}"


def test_resolve_unknown_playscript_number_is_none(cli):
    """An unknown raw type value resolves like any other (GetScript 0x00521E40): none."""
    assert _resolve(cli, FLAME, "0xA5A5A5A5", "0.5") == "none"


@pytest.mark.parametrize("spelling", [FLAME, str(S.PST_FLAME), f"0{S.PST_FLAME}",
                                      FLAME.lower()])
def test_resolve_table_DID_decimal_or_hex(cli, spelling):
    assert _resolve(cli, spelling, "Launch", "0") == f"0x{S.PES_LAUNCH_SMALL:08X}"


# --- failures -------------------------------------------------------------------------------
def test_resolve_unknown_table_names_file_and_DID(cli):
    assert_input_failure(cli("resolve", SYN, "0x34009999", "Launch", "0.5"),
                         "synthetic_portal.dat", "0x34009999")


def test_resolve_DID_that_is_not_a_table_is_input_failure(cli):
    assert_input_failure(cli("resolve", SYN, f"0x{S.PES_EMPTY:08X}", "Launch", "0.5"),
                         "synthetic_portal.dat", f"0x{S.PES_EMPTY:08X}")


def test_resolve_missing_DAT_names_the_file(cli, tmp_path):
    assert_input_failure(cli("resolve", tmp_path / "nope.dat", FLAME, "Launch", "0.5"),
                         "nope.dat")


@pytest.mark.parametrize("argv", [
    [FLAME, "Bogus", "0.5"],            # unknown PlayScript name
    [FLAME, "-4", "0.5"],               # not a u32
    [FLAME, "0x100000000", "0.5"],      # not a u32
    [FLAME, "Launch", "abc"],           # not a float
    [FLAME, "Launch", ""],
    ["0xZZ", "Launch", "0.5"],          # not a DID
    ["0x1FFFFFFFF", "Launch", "0.5"],
    [FLAME, "Launch"],                  # missing INTENSITY
])
def test_resolve_bad_arguments_are_usage_errors(cli, argv):
    assert_usage_error(cli("resolve", SYN, *argv))
