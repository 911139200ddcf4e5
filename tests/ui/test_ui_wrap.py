"""Wrapped text breaks at spaces only and keeps a number with its unit (issue 28, item 5):
ImGui's own wrap broke "0.5" after its '.' and "60 m" between number and unit; the hex
search message names the first bad character where it stands, wrapped at the dock edge."""

from __future__ import annotations

from viewer.ui.assets_panel import hex_query_problem
from viewer.ui.widgets import wrap_lines


def measure(s: str) -> float:
    return 7.0 * len(s)     # a fixed-width font, 7 px a character


def test_numbers_are_never_split_and_stay_with_their_units():
    text = "entry 0: the first in stored order with mod 0.5 >= 0.5 (0x00521A20)"
    for width in range(70, 500, 7):
        lines = wrap_lines(text, width, measure)
        words = " ".join(lines).split(" ")
        assert "0.5" in words and ">=" in words, (width, lines)
        assert all(not ln.endswith(".") for ln in lines if ln.rstrip(".").endswith("0"))
    detail = "viewer distance (CYpt) 12.00 m, degrade distance 60 m, drawn"
    for width in range(70, 450, 7):
        lines = wrap_lines(detail, width, measure)
        assert any("60 m," in ln for ln in lines), (width, lines)
        assert any("12.00 m," in ln for ln in lines), (width, lines)
        assert " ".join(lines) == detail


def test_lines_fit_the_width_and_a_long_word_is_cut_where_it_must():
    lines = wrap_lines("aaa bbb ccc dddddddddddd e", 7 * 7, measure)
    assert lines == ["aaa bbb", "ccc", "ddddddd", "ddddd e"]
    # a path breaks after a separator; every line fits (the layout check's "saved <path>")
    path = "saved /home/someone/Documents/vfxviewer/scenario_0001.json"
    lines = wrap_lines(path, 20 * 7, measure)
    assert "".join(lines).replace(" ", "") == path.replace(" ", "")
    assert all(measure(ln) <= 20 * 7 for ln in lines), lines
    assert lines[1] == "/home/someone/", lines
    # a number is never cut, even wider than the region
    assert wrap_lines("x 123456789.25 m", 3 * 7, measure) == ["x", "123456789.25 m"]
    assert wrap_lines("one\ntwo three", 1000, measure) == ["one", "two three"]
    assert wrap_lines("", 50, measure) == [""]


def test_hex_search_message_quotes_the_first_bad_character():
    msg = hex_query_problem("0x33z!00")
    assert "'z' (character 5)" in msg and "'!z'" not in msg and "'z!'" not in msg
    assert "'!' (character 1)" in hex_query_problem("!z")
    assert hex_query_problem("0x3300ABCD") is None
