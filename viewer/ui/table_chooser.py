"""The Object panel's table chooser: which PhysicsScriptTable a scenario object has (its
Setup's default, none, or any 0x34 DID, searchable), and which retail rule gives it.

Retail's rules (viewer/sim/world.py ``create_object``):

- an object the server creates takes the table of its PhysicsDesc and drops the Setup's,
  none when the description names none (``CPhysicsObj::set_description`` 0x00514F40);
  a scenario object is such an object unless it says ``"desc": false``;
- ``"desc": false``: no description; the Setup's DefaultPhysicsScriptTable stays
  (``CPhysicsObj::InitDefaults`` 0x005139D0);
- a static object (landblock data, the Static state bit) gets no description either: its
  Setup's table stays unless the scenario names one.

The choice is a scenario edit (``SetObjectTable``: undoable, saved as the object's
``"table"`` / ``"desc"``). GL-free model; ``draw_table_chooser`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.errors import format_did
from viewer.ui import commands as c

SETUP, NONE, DID = "setup", "none", "did"
LIST_MAX = 200   # DIDs listed under the search at once


@dataclass(frozen=True)
class TableChoice:
    """What the chooser shows for one object."""

    object: int
    setup_table: int          # the Setup's DefaultPhysicsScriptTable (0: none)
    kind: str                 # SETUP, NONE or DID: what the scenario says now
    table: int                # the DID when kind is DID
    static: bool              # the Static state bit: no description (landblock data)
    editable: bool            # an ``objects`` entry (not made by a create event)
    tables: tuple[int, ...]   # every 0x34 DID of the open DATs

    @property
    def rule(self) -> str:
        """Which retail rule gives the object its table, in words."""
        if self.static:
            return ("Static (landblock data): no description; the Setup's table stays "
                    "unless one is named (InitDefaults 0x005139D0)")
        if self.kind == SETUP:
            return ("No description (\"desc\": false): the Setup's table stays "
                    "(InitDefaults 0x005139D0)")
        return ("Server-created: the description's table replaces the Setup's, none if it "
                "names none (set_description 0x00514F40)")

    def label(self) -> str:
        if self.kind == DID:
            return format_did(self.table)
        if self.kind == SETUP:
            return f"Setup's ({format_did(self.setup_table) if self.setup_table else 'none'})"
        return "none"


def choice_of(obj, setup_table: int, tables, *, editable: bool = True) -> TableChoice:
    """The chooser for scenario object ``obj`` (a ``ScenarioObject``)."""
    static = obj.state is not None and bool(obj.state & 0x1)   # PhysicsState.Static
    if obj.table:
        kind = DID
    elif obj.extra.get("desc") is False or static:
        kind = SETUP
    else:
        kind = NONE
    return TableChoice(obj.id, int(setup_table or 0), kind, int(obj.table or 0), static,
                       editable, tuple(tables))


def matching(tables, query: str) -> list[int]:
    """The DIDs whose hex spelling contains ``query`` (``0x`` optional, any case)."""
    q = query.strip().lower().removeprefix("0x")
    return [d for d in tables if q in f"{d:08x}"][:LIST_MAX] if q else list(tables)[:LIST_MAX]


def draw_table_chooser(imgui, choice: TableChoice, state) -> list[c.Command]:
    """The "Table" combo: Setup's, none, or a DID found by the search above the list.
    ``state`` keeps the search text (``table_query``)."""
    from viewer.ui.widgets import text_wrapped_disabled

    out: list[c.Command] = []
    if not choice.editable:
        text_wrapped_disabled(imgui, "Made by a create event: its table is that event's.")
        return out
    imgui.set_next_item_width(-1)
    if imgui.begin_combo("##table", f"Set table: {choice.label()}"):
        setup = f"Setup's ({format_did(choice.setup_table) if choice.setup_table else 'none'})"
        if imgui.selectable(setup, choice.kind == SETUP)[0]:
            out.append(c.SetObjectTable(choice.object, None, setup_default=True))
        if not choice.static and imgui.selectable("none", choice.kind == NONE)[0]:
            out.append(c.SetObjectTable(choice.object, None))
        imgui.set_next_item_width(-1)
        _, state.table_query = imgui.input_text_with_hint("##tq", "search 0x34...",
                                                          state.table_query)
        for did in matching(choice.tables, state.table_query):
            chosen = choice.kind == DID and did == choice.table
            if imgui.selectable(format_did(did), chosen)[0]:
                out.append(c.SetObjectTable(choice.object, did))
        imgui.end_combo()
    text_wrapped_disabled(imgui, choice.rule)
    return out
