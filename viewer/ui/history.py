"""Undo / redo of scenario edits, and whether the scenario has unsaved changes.

Every scenario edit goes through ``Session.apply`` (the commands in
``viewer/ui/commands.py``); before an edit the session hands the scenario as it was to
:meth:`History.push`. The history keeps whole scenario states (a scenario is a few
kilobytes of events, so a copy per edit is cheap and an undo is exact: no inverse command
can drift from its forward one). Each state carries a revision number; the scenario is
modified when its revision differs from the one last saved (or loaded). An edit made by
dragging (the reference offset) sends a command every frame: pushes with ``coalesce`` of
the same label less than ``COALESCE_SECONDS`` apart, with nothing else between, make one
undo step (the state before the drag began). GL-free.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass

HISTORY_LIMIT = 200   # states kept for undo (the oldest go first)
COALESCE_SECONDS = 1.0   # a drag's edits this close together are one undo step


@dataclass(frozen=True)
class State:
    """One scenario state: the scenario (a private copy), its revision, the selected
    object then, and what the edit that left it was called (for the menu)."""
    scenario: object
    revision: int
    selected_object: int | None
    label: str


class History:
    def __init__(self, limit: int = HISTORY_LIMIT, clock=time.monotonic) -> None:
        self.limit = int(limit)
        self.clock = clock
        self._coalescing: tuple[str, int, float] | None = None   # (label, revision, when)
        self.undo_stack: list[State] = []
        self.redo_stack: list[State] = []
        self.revision = 0          # the revision shown now
        self.saved_revision = 0    # the revision last saved or loaded
        self._next = 1

    # -- reading -----------------------------------------------------------------------
    @property
    def modified(self) -> bool:
        return self.revision != self.saved_revision

    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def undo_label(self) -> str | None:
        return self.undo_stack[-1].label if self.undo_stack else None

    def redo_label(self) -> str | None:
        return self.redo_stack[-1].label if self.redo_stack else None

    # -- changing ----------------------------------------------------------------------
    def push(self, scenario, selected_object, label: str, *, coalesce: bool = False) -> None:
        """Record ``scenario`` (a copy the caller hands over, taken before the edit) as the
        state before an edit named ``label``; the edit's result gets a new revision and
        the redo stack is dropped. ``coalesce``: when the previous push was a coalescing
        one of the same label, under ``COALESCE_SECONDS`` ago, and nothing moved the
        history since, the two are one step (the older state before stays)."""
        now = self.clock()
        last = self._coalescing
        joined = (coalesce and last is not None and last[:2] == (label, self.revision)
                  and now - last[2] < COALESCE_SECONDS)
        if not joined:
            self.undo_stack.append(State(scenario, self.revision, selected_object, label))
            del self.undo_stack[:-self.limit]
        self.redo_stack.clear()
        self.revision = self._next
        self._next += 1
        self._coalescing = (label, self.revision, now) if coalesce else None

    def undo(self, scenario, selected_object) -> State | None:
        """The state to go back to (``scenario`` now goes on the redo stack), or None."""
        return self._move(self.undo_stack, self.redo_stack, scenario, selected_object)

    def redo(self, scenario, selected_object) -> State | None:
        """The state an undo left (``scenario`` now goes back on the undo stack), or None."""
        return self._move(self.redo_stack, self.undo_stack, scenario, selected_object)

    def _move(self, source: list, dest: list, scenario, selected_object) -> State | None:
        if not source:
            return None
        state = source.pop()
        dest.append(State(copy.deepcopy(scenario), self.revision, selected_object,
                          state.label))
        self.revision = state.revision
        return state

    def mark_saved(self) -> None:
        self.saved_revision = self.revision


__all__ = ["COALESCE_SECONDS", "HISTORY_LIMIT", "History", "State"]
