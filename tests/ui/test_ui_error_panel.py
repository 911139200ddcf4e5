"""Error log model: names file, DID and offset; folds repeats; bugs show as InternalError."""

from __future__ import annotations

from viewer.errors import DatError, ScenarioError
from viewer.ui.error_panel import ErrorLog


def test_viewer_error_entry_names_file_did_offset():
    log = ErrorLog()
    e = log.report(DatError("truncated record", file="a.dat", did=0x33000719, offset=0x40),
                   "load")
    assert e.kind == "DatError"
    assert e.line() == "[load] DatError: a.dat: DID 0x33000719: offset 64 (0x40): truncated record"


def test_identical_errors_fold_with_count():
    log = ErrorLog()
    for _ in range(3):
        log.report(ScenarioError("bad event", file="s.json"), "load")
        log.report(ScenarioError("other", file="s.json"), "load")
    log.report(ScenarioError("bad event", file="s.json"), "save")
    assert [x.count for x in log.entries] == [3, 3, 1]
    assert log.entries[0].line().endswith("(x3)")


def test_non_viewer_exception_is_internal_error_with_location():
    log = ErrorLog()
    try:
        raise IndexError("list index out of range")
    except IndexError as err:
        e = log.report(err, "panel Timeline")
    assert e.kind == "InternalError" and "IndexError" in e.message
    assert "test_ui_error_panel.py" in e.message


def test_limit_keeps_newest():
    log = ErrorLog(limit=5)
    for i in range(8):
        log.report(ScenarioError(f"e{i}"))
    assert [x.message for x in log.entries] == [f"e{i}" for i in range(3, 8)]
