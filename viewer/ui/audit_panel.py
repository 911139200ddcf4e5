"""Audit window: the open DATs checked against the retail facts (``vfxviewer audit``).

File > "Audit open DATs" (or the ``RunAudit`` command) runs the same engine as the command
line (``viewer.sim.audit``) on the session's DATs and shows its table: one row per check,
PASS / FAIL / MISSING, and what was found. ``AuditModel`` is the GL-free model; the window
only draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.sim.audit import FAIL, MISSING, PASS, Check, check_plan, iter_audit
from viewer.ui import commands as c

STATUS_COLOURS = {PASS: (0.45, 0.85, 0.45), FAIL: (1.0, 0.45, 0.35),
                  MISSING: (1.0, 0.75, 0.3)}


@dataclass
class AuditModel:
    checks: tuple[Check, ...] | None = None
    source: str = ""
    open: bool = False
    show_passed: bool = True

    def run(self, collection) -> None:
        """Audit the open DATs (a DatCollection, or None: every check MISSING)."""
        for _ in self.steps(collection):
            pass

    def steps(self, collection):
        """``run`` one check at a time: a generator of (checks done, total) for the
        viewer's progress bar (a progress.Job); the table fills in when all are done."""
        self.open = True
        total = len(check_plan())
        checks = []
        for check in iter_audit(collection):
            checks.append(check)
            yield len(checks), total
        self.checks = tuple(checks)
        self.source = "" if collection is None else collection.name

    def counts(self) -> dict[str, int]:
        out = {PASS: 0, FAIL: 0, MISSING: 0}
        for ch in self.checks or ():
            out[ch.status] += 1
        return out

    def summary(self) -> str:
        if self.checks is None:
            return "not run"
        n = self.counts()
        return f"{n[PASS]} passed, {n[FAIL]} failed, {n[MISSING]} missing"

    def rows(self) -> list[tuple[str, str, str]]:
        """(status, check, detail) in the engine's order, passed ones hidden on request."""
        return [(ch.status, ch.check, ch.detail) for ch in self.checks or ()
                if self.show_passed or ch.status != PASS]


def draw_audit_panel(model: AuditModel) -> list[c.Command]:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    imgui.set_next_window_size(imgui.ImVec2(720, 420), imgui.Cond_.first_use_ever)
    imgui.set_next_window_bg_alpha(1.0)   # floats over the panels: nothing shows through
    visible, keep = imgui.begin("Audit", True)
    try:
        if not keep:
            model.open = False
        if not visible:
            return out
        if imgui.button("Run again"):
            out.append(c.RunAudit())
        imgui.same_line()
        _, model.show_passed = imgui.checkbox("show passed", model.show_passed)
        imgui.same_line()
        imgui.text(model.summary())
        if model.source:
            imgui.text_disabled(model.source)
        flags = (imgui.TableFlags_.borders_inner_h | imgui.TableFlags_.row_bg
                 | imgui.TableFlags_.resizable | imgui.TableFlags_.scroll_y)
        if imgui.begin_table("audit", 3, flags):
            imgui.table_setup_column("status", imgui.TableColumnFlags_.width_fixed, 64)
            imgui.table_setup_column("check", imgui.TableColumnFlags_.width_stretch, 1.0)
            imgui.table_setup_column("found", imgui.TableColumnFlags_.width_stretch, 1.4)
            imgui.table_headers_row()
            for status, check, detail in model.rows():
                imgui.table_next_row()
                imgui.table_next_column()
                imgui.text_colored(imgui.ImVec4(*STATUS_COLOURS[status], 1.0), status)
                imgui.table_next_column()
                imgui.text_wrapped(check)
                imgui.table_next_column()
                imgui.text_wrapped(detail)
            imgui.end_table()
    finally:
        imgui.end()
    return out
