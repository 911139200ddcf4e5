"""Script table inspector model: stored order, retail's pick highlighted, or none and why
(PhysicsScriptTable::GetScript 0x00521E40 / PhysicsScriptTableData::GetScript 0x00521A20)."""

from __future__ import annotations

import math

import pytest

from viewer.dat.records.common import PlayScript
from viewer.dat.records.physics_script import (
    PhysicsScriptTable,
    PhysicsScriptTableData,
    ScriptAndModData,
)
from viewer.ui.script_table_panel import format_intensity, inspect_table, parse_intensity

LAUNCH = int(PlayScript.Launch)
HIDDEN = int(PlayScript.Hidden)


def table(*entries):
    return PhysicsScriptTable(0x34000005, tuple(
        (key, PhysicsScriptTableData(tuple(ScriptAndModData(m, s) for m, s in scripts)))
        for key, scripts in entries))


# Stored order deliberately not sorted by mod: retail walks it as stored.
T = table((LAUNCH, [(0.5, 0x33000002), (0.2, 0x33000001), (1.0, 0x33000003)]),
          (HIDDEN, [(1.0, 0x33000010)]))


def picked_rows(insp):
    return [(r.play_script, r.index) for r in insp.rows if r.picked]


def test_rows_are_every_entry_in_stored_order():
    insp = inspect_table(T, LAUNCH, 0.1)
    assert [(r.play_script, r.index, r.script_id) for r in insp.rows] == [
        (LAUNCH, 0, 0x33000002), (LAUNCH, 1, 0x33000001), (LAUNCH, 2, 0x33000003),
        (HIDDEN, 0, 0x33000010)]
    assert insp.rows[0].name == "Launch (0x04)"   # the name with the number beside


def test_GetScript_0x00521A20_first_stored_entry_with_mod_ge_intensity_wins():
    insp = inspect_table(T, LAUNCH, 0.1)   # 0.5 >= 0.1 comes first in stored order
    assert insp.picked_index == 0 and insp.script_id == 0x33000002
    assert picked_rows(insp) == [(LAUNCH, 0)]
    assert "entry 0" in insp.reason


def test_GetScript_0x00521A20_equality_matches():
    insp = inspect_table(T, LAUNCH, 0.5)
    assert insp.picked_index == 0


def test_GetScript_0x00521A20_above_every_mod_selects_none_no_fallback():
    insp = inspect_table(T, LAUNCH, 1.5)
    assert insp.script_id == 0 and insp.picked_index is None and picked_rows(insp) == []
    assert "above every entry" in insp.reason and "none" in insp.reason


def test_GetScript_0x00521A3B_nan_selects_none():
    insp = inspect_table(T, LAUNCH, math.nan)
    assert insp.script_id == 0 and picked_rows(insp) == []
    assert "NaN" in insp.reason


def test_GetScript_0x00521A20_inf_selects_none_and_minus_inf_the_first():
    assert inspect_table(T, LAUNCH, math.inf).script_id == 0
    insp = inspect_table(T, LAUNCH, -math.inf)
    assert insp.picked_index == 0 and insp.script_id == 0x33000002


def test_GetScript_0x00521E40_missing_type_selects_none():
    insp = inspect_table(T, int(PlayScript.Fizzle), 0.5)
    assert insp.script_id == 0 and "no entry for Fizzle (0x51)" in insp.reason


def test_intensity_is_rounded_to_f32_as_the_client_holds_it():
    t = table((LAUNCH, [(0.1, 0x33000001)]))      # mod is an f32 on disk
    x = 0.1000000001                                # rounds to the f32 0.1
    insp = inspect_table(t, LAUNCH, x)
    assert insp.intensity_f32 == pytest.approx(0.1, abs=1e-8)


def test_duplicate_script_ids_do_not_confuse_the_highlight():
    t = table((LAUNCH, [(0.2, 0x33000001), (0.9, 0x33000001)]))
    assert inspect_table(t, LAUNCH, 0.5).picked_index == 1


def test_zero_script_id_entry_is_shown_but_returns_none():
    t = table((LAUNCH, [(0.9, 0)]))
    insp = inspect_table(t, LAUNCH, 0.5)
    assert insp.picked_index == 0 and insp.script_id == 0


def test_duplicate_type_key_first_stored_wins():
    t = table((LAUNCH, [(1.0, 0x33000001)]), (LAUNCH, [(1.0, 0x33000002)]))
    insp = inspect_table(t, LAUNCH, 0.5)
    assert insp.script_id == 0x33000001 and picked_rows(insp) == [(LAUNCH, 0)]
    assert sum(r.picked for r in insp.rows) == 1


def test_no_table_says_so():
    insp = inspect_table(None, LAUNCH, 0.5)
    assert insp.rows == () and insp.script_id == 0 and "no PhysicsScriptTable" in insp.reason


@pytest.mark.parametrize("text,want", [("0.5", 0.5), (" nan ", math.nan), ("inf", math.inf),
                                       ("-INF", -math.inf), ("Infinity", math.inf),
                                       ("1e-3", 0.001)])
def test_parse_intensity_accepts_nan_and_inf(text, want):
    got = parse_intensity(text)
    assert (math.isnan(got) and math.isnan(want)) or got == want


def test_parse_intensity_rejects_garbage_and_format_round_trips():
    assert parse_intensity("abc") is None and parse_intensity("") is None
    for x in (0.25, math.nan, math.inf, -math.inf):
        back = parse_intensity(format_intensity(x))
        assert (math.isnan(x) and math.isnan(back)) or back == x


def test_slider_shows_the_exact_value_typed_issue_28():
    from viewer.ui.script_table_panel import slider_shows
    assert slider_shows(0.5) == (0.5, "%.4f")
    assert slider_shows(float("nan")) == (0.0, "nan")          # not "0.0000"
    assert slider_shows(float("inf")) == (1.0, "inf")
    assert slider_shows(float("-inf")) == (0.0, "-inf")
    assert slider_shows(1e-9) == (1e-9, "1e-09")
    assert slider_shows(0.123456) == (0.123456, "0.123456")


def test_play_on_object_says_what_it_played_and_what_retail_picked():
    from viewer.ui.script_table_panel import played_notice
    insp = inspect_table(T, LAUNCH, float("nan"))
    text = played_notice(insp, 1, 0.5)
    assert text.startswith("Played Launch (0x04) on object 1 at intensity nan, t = 0.500 s")
    assert "retail picks none" in text and "NaN" in text
