"""PhysicsScriptTable resolution (GetScript 0x00521E40 /
PhysicsScriptTableData::GetScript 0x00521A20, x86 at 0x00521A3B)."""

import math

import pytest
from sim_builders import table

from viewer.sim.script_table import get_script, play_script_number

LAUNCH = 4
T = table(0x34000005, {LAUNCH: [(0.0, 0x3300011B), (0.5, 0x3300011C), (1.0, 0x3300011D)],
                       5: [(1.0, 0x3300011E), (0.2, 0x3300011F)]})


@pytest.mark.parametrize("intensity, expected", [
    (0.0, 0x3300011B), (0.25, 0x3300011C), (0.5, 0x3300011C), (0.75, 0x3300011D),
    (1.0, 0x3300011D)])
def test_GetScript_0x00521A20_first_stored_entry_with_intensity_le_mod(intensity, expected):
    assert get_script(T, LAUNCH, intensity) == expected


def test_GetScript_0x00521A20_equality_matches():
    assert get_script(T, LAUNCH, 0.5) == 0x3300011C
    assert get_script(T, LAUNCH, 1.0) == 0x3300011D


def test_GetScript_0x00521A20_stored_order_not_sorted():
    # entry (1.0) stored before (0.2): intensity 0.1 takes the FIRST match, 0x3300011E
    assert get_script(T, 5, 0.1) == 0x3300011E


def test_GetScript_0x00521A20_above_every_threshold_is_none_no_fallback():
    assert get_script(T, LAUNCH, 1.5) == 0


def test_GetScript_0x00521A3B_nan_selects_none():
    assert get_script(T, LAUNCH, math.nan) == 0


def test_GetScript_0x00521A20_negative_infinity_selects_first_entry():
    assert get_script(T, LAUNCH, -math.inf) == 0x3300011B


def test_GetScript_0x00521A20_positive_infinity_selects_none():
    assert get_script(T, LAUNCH, math.inf) == 0


def test_GetScript_0x00521E40_absent_type_or_table_is_none():
    assert get_script(T, 0x76, 1.0) == 0
    assert get_script(None, LAUNCH, 0.0) == 0


def test_GetScript_intensity_is_compared_as_f32():
    t = table(1, {LAUNCH: [(0.3, 0x33000001)]})  # stored f32 0.30000001192...
    assert get_script(t, LAUNCH, 0.3) == 0x33000001
    assert get_script(t, LAUNCH, 0.3000001) == 0


def test_PhysicsScriptTable_UnPack_0x005220E0_duplicate_type_first_wins():
    from viewer.dat.records.physics_script import (
        PhysicsScriptTable,
        PhysicsScriptTableData,
        ScriptAndModData,
    )
    t = PhysicsScriptTable(1, (
        (LAUNCH, PhysicsScriptTableData((ScriptAndModData(1.0, 0x33000001),))),
        (LAUNCH, PhysicsScriptTableData((ScriptAndModData(1.0, 0x33000002),)))))
    assert get_script(t, LAUNCH, 1.0) == 0x33000001


def test_play_script_number_accepts_names_and_numbers():
    assert play_script_number("Launch") == 4
    assert play_script_number("hidden") == 0x76
    assert play_script_number("0x75") == 0x75
    assert play_script_number(5) == 5
    with pytest.raises(ValueError):
        play_script_number("NoSuchEffect")
