"""Long work in steps: Capture, Find offset and the audit run as a ``Job`` (a generator that
yields ``(done, total)`` after each unit of work), stepped a few milliseconds per frame by
the app so the window keeps drawing a progress bar with Cancel. Cancel closes the
generator: its ``finally`` / ``with`` blocks clean up (a half-written capture is removed, the
playback comes back to the frame shown). GL-free."""

from __future__ import annotations

import time
from collections.abc import Iterator


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


def draw_progress(job: Job) -> bool:
    """A modal with the job's progress bar and Cancel; True when Cancel was pressed."""
    from imgui_bundle import imgui

    if not imgui.is_popup_open("Working###job"):
        imgui.open_popup("Working###job")
    cancel = False
    if imgui.begin_popup_modal("Working###job", None,
                               imgui.WindowFlags_.always_auto_resize)[0]:
        try:
            imgui.text(job.label)
            imgui.progress_bar(job.fraction, imgui.ImVec2(320, 0),
                               f"{job.done} / {job.total}" if job.total else "")
            if imgui.button("Cancel (Esc)"):
                cancel = True
            if job.finished:
                imgui.close_current_popup()
        finally:
            imgui.end_popup()
    return cancel


__all__ = ["Job", "draw_progress"]
