"""Long work in steps: Capture, Find offset and the audit run as a ``Job`` (a generator that
yields ``(done, total)`` after each unit of work), stepped a few milliseconds per frame by
the app so the window keeps drawing a progress bar with Cancel. Cancel closes the
generator: its ``finally`` / ``with`` blocks clean up (a half-written capture is removed, the
playback comes back to the frame shown).

Work that is one long call (opening a DAT: reading its whole directory) runs as a
``ThreadJob`` instead: in a worker thread (no GL, no ImGui there) that reports its progress,
while the window keeps drawing; the result is taken in the frame loop's thread. GL-free."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator


class Job:
    def __init__(self, label: str, steps: Iterator[tuple[int, int]]) -> None:
        self.label = label
        self._steps = steps
        self.done, self.total = 0, 0
        self.finished = False
        self.cancelled = False

    @property
    def fraction(self) -> float:
        return 0.0 if self.total <= 0 else min(1.0, self.done / self.total)

    @property
    def status(self) -> str:
        """The text on the progress bar."""
        return f"{self.done} / {self.total}" if self.total else ""

    def step(self, budget_s: float | None) -> bool:
        """Run steps for about ``budget_s`` seconds (None: to the end); True when the job
        has finished. An error in the work propagates (the job is then finished)."""
        end = None if budget_s is None else time.perf_counter() + budget_s
        try:
            while True:
                self.done, self.total = next(self._steps)
                if end is not None and time.perf_counter() >= end:
                    return False
        except StopIteration:
            self.finished = True
            return True
        except BaseException:
            self.finished = True
            raise

    def cancel(self) -> None:
        """Stop now; the work's cleanup runs (generator close)."""
        if not self.finished:
            self._steps.close()
            self.finished = self.cancelled = True


class Cancelled(Exception):
    """Raised inside a ThreadJob's work by its ``report`` once Cancel was asked."""


class ThreadJob:
    """``work(report)`` in a worker thread; ``report(done, total, status="")`` records its
    progress (and raises Cancelled once ``cancel`` was called: the work stops at its next
    report). The same face as ``Job`` for the app's loop and ``draw_progress``.

    ``on_done(result)`` runs in the thread that calls ``step`` once the work has ended;
    an error the work raised propagates from ``step`` instead. A result that arrives after
    Cancel goes to ``discard(result)`` (say, closing the files it opened) and nothing else
    changes."""

    def __init__(self, label: str, work: Callable, on_done: Callable | None = None,
                 discard: Callable | None = None) -> None:
        self.label = label
        self.done, self.total, self._status = 0, 0, ""
        self.finished = False
        self.cancelled = False
        self._on_done, self._discard = on_done, discard
        self._cancel = threading.Event()
        self._ended = threading.Event()
        self._lock = threading.Lock()
        self._result = self._error = None
        self._thread = threading.Thread(target=self._run, args=(work,), name=label,
                                        daemon=True)
        self._thread.start()

    fraction = Job.fraction

    @property
    def status(self) -> str:
        return self._status or Job.status.fget(self)

    def report(self, done: int, total: int, status: str = "") -> None:
        self.done, self.total, self._status = int(done), int(total), status
        if self._cancel.is_set():
            raise Cancelled(self.label)
        time.sleep(0)   # let the frame loop's thread run between two steps of the work

    def _run(self, work: Callable) -> None:
        result = error = None
        try:
            result = work(self.report)
        except Cancelled:
            pass
        except BaseException as err:  # noqa: BLE001 - handed to step() in the app's thread
            error = err
        with self._lock:
            if self._cancel.is_set():
                if result is not None and self._discard is not None:
                    self._discard(result)
            else:
                self._result, self._error = result, error
            self._ended.set()

    def step(self, budget_s: float | None) -> bool:
        """Wait for the work up to ``budget_s`` seconds (None: until it ends); True when it
        has ended (``on_done`` has run, or its error is raised here)."""
        if self.finished:
            return True
        if not self._ended.wait(budget_s):
            return False
        self.finished = True
        if self._error is not None:
            raise self._error
        if self._on_done is not None:
            self._on_done(self._result)
        return True

    def cancel(self) -> None:
        """Stop now: the work stops at its next report; a result it still produces is
        discarded."""
        if self.finished:
            return
        with self._lock:
            self._cancel.set()
            if self._ended.is_set() and self._result is not None \
                    and self._discard is not None:
                self._discard(self._result)
            self._result = None
        self.finished = self.cancelled = True


def draw_progress(job: Job | ThreadJob) -> bool:
    """A modal with the job's progress bar and Cancel; True when Cancel was pressed."""
    from imgui_bundle import imgui

    if not imgui.is_popup_open("Working###job"):
        imgui.open_popup("Working###job")
    cancel = False
    if imgui.begin_popup_modal("Working###job", None,
                               imgui.WindowFlags_.always_auto_resize)[0]:
        try:
            imgui.text(job.label)
            imgui.progress_bar(job.fraction, imgui.ImVec2(320, 0), job.status)
            if imgui.button("Cancel (Esc)"):
                cancel = True
            if job.finished:
                imgui.close_current_popup()
        finally:
            imgui.end_popup()
    return cancel


__all__ = ["Cancelled", "Job", "ThreadJob", "draw_progress"]
