"""Long work in steps (viewer/ui/progress.py): Capture and Find offset run as a Job stepped
after each frame, with progress and Cancel; cancelling removes the half-written file and
comes back to the frame shown."""

from __future__ import annotations

import pytest
import ui_fixtures as F

from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.progress import Job
from viewer.ui.session import Session

SIZE = (480, 320)


def test_job_steps_reports_progress_and_cancel_runs_cleanup():
    cleaned = []

    def work():
        try:
            for k in range(5):
                yield k + 1, 5
        finally:
            cleaned.append(True)

    job = Job("w", work())
    assert not job.step(0.0) and (job.done, job.total) == (1, 5)
    assert job.fraction == pytest.approx(0.2)
    job.cancel()
    assert job.cancelled and job.finished and cleaned == [True]
    job = Job("w", work())
    assert job.step(None) and job.done == 5 and not job.cancelled


@pytest.fixture
def app(gl_ctx):
    a = ViewerApp(gl_ctx, display_size=SIZE,
                  session=Session(F.database(), Scenario.from_json(F.scenario_json())))
    a.use_scene_renderer = False          # the grid is enough: keep the scene tiny
    target = OffscreenTarget(gl_ctx, SIZE)
    a.test_target = target
    yield a
    a.release()
    target.release()


def _frame(app):
    app.frame(1 / 60, display_size=SIZE, target=app.test_target.fbo)


def test_capture_runs_in_steps_with_progress_and_cancels_cleanly(app, tmp_path):
    app.job_budget = 0.0                  # one frame of work per viewer frame
    app.controller.apply(c.Seek(0.2))
    out = tmp_path / "cap.gif"
    app.controller.apply(c.ExportCapture(str(out), 0.0, 1.0))
    _frame(app)
    _frame(app)
    job = app.job
    assert job is not None and 0 < job.done < job.total == 31
    app.cancel_job()
    assert app.job is None and not out.exists() and "cancelled" in app.capture_state.last
    assert app.session.playback.frame == 6          # back at the frame shown
    app.job_budget = None                           # headless: to the end at once
    app.controller.apply(c.ExportCapture(str(out), 0.0, 0.2))
    _frame(app)
    assert app.job is None and out.exists() and app.errors.entries == []
    assert app.session.playback.frame == 6


def test_esc_cancels_the_running_job(app, tmp_path):
    from viewer.ui.shortcuts import KeyPress

    app.job_budget = 0.0
    app.controller.apply(c.ExportCapture(str(tmp_path / "cap.gif"), 0.0, 1.0))
    _frame(app)
    assert app.job is not None
    app.input.presses.append(KeyPress("escape"))
    _frame(app)
    assert app.job is None and not (tmp_path / "cap.gif").exists()


def test_the_audit_runs_as_a_job_with_progress(app):
    from viewer.sim.audit import check_plan

    app.job_budget = 0.0
    app.controller.apply(c.RunAudit())
    audit = app.controller.view.audit
    assert audit.open and audit.checks is None        # not run yet: queued as long work
    _frame(app)
    assert app.job is not None and app.job.total == len(check_plan())
    assert 0 < app.job.done < app.job.total
    app.job_budget = None
    _frame(app)
    assert app.job is None and len(audit.checks) == len(check_plan())


def _gated_work(started, gate):
    def work(report):
        report(1, 4, "one of four")
        started.set()
        gate.wait(10)
        report(2, 4)              # raises Cancelled once cancel() was asked
        return "result"
    return work


def test_thread_job_runs_in_a_worker_reports_progress_and_hands_the_result_over():
    import threading

    from viewer.ui.progress import ThreadJob

    started, gate, done = threading.Event(), threading.Event(), []
    job = ThreadJob("w", _gated_work(started, gate), on_done=done.append)
    assert started.wait(10)
    assert not job.step(0.0) and not job.step(0.01)     # the caller is never blocked
    assert (job.done, job.total, job.status) == (1, 4, "one of four")
    assert job.fraction == pytest.approx(0.25) and done == []
    gate.set()
    assert job.step(None) and done == ["result"] and not job.cancelled
    assert job.step(None) and done == ["result"]          # once


def test_thread_job_cancel_stops_the_work_and_discards_a_late_result():
    import threading

    from viewer.errors import DatError
    from viewer.ui.progress import ThreadJob

    started, gate, done, dropped = threading.Event(), threading.Event(), [], []
    job = ThreadJob("w", _gated_work(started, gate), on_done=done.append,
                    discard=dropped.append)
    assert started.wait(10)
    job.cancel()
    gate.set()
    job._thread.join(10)
    assert job.finished and job.cancelled and job.step(None)
    assert done == [] and dropped == []                   # stopped at its next report
    job = ThreadJob("w", lambda report: "late", on_done=done.append,
                    discard=dropped.append)
    job._thread.join(10)
    job.cancel()                                          # ended, not taken: discarded
    assert job.step(None) and done == [] and dropped == ["late"]

    def fails(report):
        raise DatError("bad node", file="x.dat", offset=0x400)
    job = ThreadJob("w", fails, on_done=done.append)
    with pytest.raises(DatError, match="x.dat"):
        job.step(None)
    assert job.finished and done == []
