"""Emitter inspector: every emitter (live, and finished ones from the event log), the
selected one's ParticleEmitterInfo fields, owner, part, offset, logical id, state
(running / stopped / finished), alive / emitted / total counts, and its particle table
(age, lifespan, position, scale, translucency) with click-to-select."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.names import emitter_type_label, particle_type_label
from viewer.errors import format_did
from viewer.sim.inspect import EmitterView, emitter_info_fields
from viewer.sim.particles import FIRST_AUTO_EMITTER_ID
from viewer.ui import commands as c
from viewer.ui.widgets import button_width, same_line_if_fits, text_wrapped


def emitter_id_label(logical_id: int) -> str:
    """An emitter's logical id as the Emitters table shows it: a script's own id as a
    number; an id the manager gave an emitter created without one (counting up from
    0xFFFF0000, ParticleManager::ParticleManager 0x0051B5D0) in hex, "anonymous"."""
    n = int(logical_id) & 0xFFFFFFFF
    if n >= FIRST_AUTO_EMITTER_ID:
        return f"0x{n:08X} (anonymous)"
    return str(n)


@dataclass(frozen=True)
class FinishedEmitter:
    handle: int
    owner: int
    info_did: int
    logical_id: int
    created: float
    finished: float
    state: str = "finished"    # or "not yet created" (the log's emitters of a later time)


@dataclass(frozen=True)
class EmittersView:
    live: tuple[EmitterView, ...]
    finished: tuple[FinishedEmitter, ...]
    selected_handle: int | None
    selected_particle: tuple[int, int] | None   # (handle, slot)


def emitters_view(live, tracks, selection, now: float | None = None) -> EmittersView:
    """Join the live emitters with the timeline's finished bars; ``selection`` is the
    controller's (kind, key). ``now``: the time shown; a bar the log holds from a later
    time (explored ahead, or shown before a scrub back) is "not yet created" then, not
    finished."""
    live_handles = {e.handle for e in live}
    finished = []
    if tracks is not None:
        for bar in tracks.bars.values():
            if bar.handle not in live_handles and bar.finished is not None:
                later = now is not None and bar.created > now
                finished.append(FinishedEmitter(
                    bar.handle, bar.owner, bar.info, bar.logical_id, bar.created,
                    bar.finished, "not yet created" if later else "finished"))
    handle = particle = None
    if selection is not None:
        kind, key = selection
        if kind == "emitter":
            handle = key
        elif kind == "particle":
            handle, particle = key[0], tuple(key)
    return EmittersView(tuple(live), tuple(finished), handle, particle)


def draw_emitters_panel(view: EmittersView, plot=None, emitter_filter=None,
                        particle_plot=None) -> list[c.Command]:
    """``plot``: drawn after the table (the counts over time, viewer/ui/emitter_plot.py);
    ``emitter_filter``: the solo / mute view settings, with buttons for the selected
    emitter and its owner; ``particle_plot``: drawn under the particle table (the
    selected particle's history, viewer/ui/particle_history.py)."""
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Emitters", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        if not view.live and not view.finished:
            imgui.text_disabled("No emitters.")
            return out
        flags = imgui.TableFlags_.borders | imgui.TableFlags_.row_bg | \
            imgui.TableFlags_.sizing_fixed_fit
        _emitter_table(imgui, view, flags, out)
        sel = next((e for e in view.live if e.handle == view.selected_handle), None)
        sel_row = next((e for e in view.live if e.handle == view.selected_handle), None)
        if emitter_filter is not None and sel_row is not None:
            _solo_mute(imgui, emitter_filter, sel_row, out)
        if plot is not None:
            plot()
        if sel is not None:
            _emitter_detail(imgui, sel, view, flags, out)
            if particle_plot is not None and view.selected_particle is not None:
                particle_plot(view.selected_particle)
    finally:
        imgui.end()
    return out


def _solo_mute(imgui, flt, em, out: list[c.Command]) -> None:
    """Solo / Mute buttons for the selected emitter and for its owner object (view only:
    the simulation never changes)."""
    for kind, key, label in (("emitter", em.handle, f"emitter {em.handle}"),
                             ("object", em.owner, f"object {em.owner}")):
        solo = flt.solo == (kind, key)
        muted = (kind, key) in flt.muted
        if imgui.small_button(f"{'Unsolo' if solo else 'Solo'} {label}##solo{kind}"):
            out.append(c.ToggleSolo(kind, key))
        mute = f"{'Unmute' if muted else 'Mute'} {label}##mute{kind}"
        same_line_if_fits(imgui, button_width(imgui, mute, small=True))
        if imgui.small_button(mute):
            out.append(c.ToggleMute(kind, key))


# Tables scroll sideways inside themselves (their own scrollbar) when the dock is narrower
# than their columns; at most this many rows show before they scroll down.
TABLE_ROWS = 10


def scrolling_table_height(imgui, rows: int) -> float:
    """Height of a table with a header row and ``rows`` rows (at most TABLE_ROWS shown),
    room for its horizontal scrollbar included."""
    row = imgui.get_text_line_height_with_spacing() + 2.0 * imgui.get_style().cell_padding.y
    return (min(max(rows, 1), TABLE_ROWS) + 1) * row + imgui.get_style().scrollbar_size + 2.0


def _scrolling(imgui):
    return imgui.TableFlags_.scroll_x | imgui.TableFlags_.scroll_y


# UI-only: the row each table last scrolled to (a selection made elsewhere, a click in the
# viewport, brings its row into view once), and each table's scroll after drawing (tests)
_scrolled: dict[str, object] = {}
TABLE_SCROLL: dict[str, float] = {}


def _selectable_row(imgui, table: str, label: str, key, selected_key, out, kind: str) -> None:
    """A row's selectable: selecting it sends Select(kind, key); the selected row, when
    the selection came from elsewhere, is scrolled into the middle of the table."""
    selected = key == selected_key
    if imgui.selectable(label, selected, imgui.SelectableFlags_.span_all_columns)[0]:
        out.append(c.Select(kind, key))
        _scrolled[table] = key      # picked here: it is in view already
    elif selected and _scrolled.get(table) != key:
        if imgui.is_item_visible():
            _scrolled[table] = key  # in view: the user scrolls freely from now on
        else:
            imgui.set_scroll_here_y(0.5)


def _emitter_table(imgui, view: EmittersView, flags, out: list[c.Command]) -> None:
    """One row per live emitter (selectable), then the finished ones greyed; the
    ParticleType by name with its number."""
    height = scrolling_table_height(imgui, len(view.live) + len(view.finished))
    if not imgui.begin_table("emitters", 7, flags | _scrolling(imgui),
                             imgui.ImVec2(0, height)):
        return
    imgui.table_setup_scroll_freeze(1, 1)
    for name in ("handle", "owner", "id", "info", "state", "alive/emitted/total",
                 "particle type"):
        imgui.table_setup_column(name)
    imgui.table_headers_row()
    for em in view.live:
        imgui.table_next_row()
        imgui.table_next_column()
        _selectable_row(imgui, "emitters", f"{em.handle}##em{em.handle}", em.handle,
                        view.selected_handle, out, "emitter")
        kind = "-" if em.info is None else particle_type_label(em.info.particle_type)
        for text in (str(em.owner), emitter_id_label(em.logical_id), format_did(em.info_did),
                     em.state, f"{em.alive}/{em.emitted}/{em.total or '-'}", kind):
            imgui.table_next_column()
            imgui.text(text)
    for em in view.finished:
        imgui.table_next_row()
        for text in (str(em.handle), str(em.owner), emitter_id_label(em.logical_id),
                     format_did(em.info_did), em.state,
                     f"{em.created:.2f}-{em.finished:.2f} s", ""):
            imgui.table_next_column()
            imgui.text_disabled(text)
    TABLE_SCROLL["emitters"] = imgui.get_scroll_y()
    imgui.end_table()


def _emitter_detail(imgui, sel, view: EmittersView, flags, out: list[c.Command]) -> None:
    """The selected emitter: where it hangs, its culling detail, its ParticleEmitterInfo
    and its particles (selectable)."""
    imgui.separator()
    text_wrapped(imgui, f"Emitter {sel.handle}: owner {sel.owner}, part {sel.part}, "
                       f"offset ({sel.offset[0]:.3f}, {sel.offset[1]:.3f}, "
                       f"{sel.offset[2]:.3f})")
    if sel.info is not None:
        text_wrapped(imgui, f"particle type {particle_type_label(sel.info.particle_type)}, "
                            f"emitter type {emitter_type_label(sel.info.emitter_type)}")
    for line in sel.detail:
        text_wrapped(imgui, line)
    if imgui.tree_node("ParticleEmitterInfo"):
        _info_table(imgui, sel.info)
        imgui.tree_pop()
    if not imgui.begin_table("particles", 7, flags | _scrolling(imgui),
                             imgui.ImVec2(0, scrolling_table_height(imgui, len(sel.particles)))):
        return
    imgui.table_setup_scroll_freeze(1, 1)
    for name in ("slot", "age", "lifespan", "x", "y", "z", "scale / trans"):
        imgui.table_setup_column(name)
    imgui.table_headers_row()
    for p in sel.particles:
        imgui.table_next_row()
        imgui.table_next_column()
        _selectable_row(imgui, "particles", f"{p.slot}##p{p.slot}", (sel.handle, p.slot),
                        view.selected_particle, out, "particle")
        for text in (f"{p.age:.3f}", f"{p.lifespan:.3f}", f"{p.position[0]:.3f}",
                     f"{p.position[1]:.3f}", f"{p.position[2]:.3f}",
                     f"{p.scale:.3f} / {p.translucency:.3f}"):
            imgui.table_next_column()
            imgui.text(text)
    TABLE_SCROLL["particles"] = imgui.get_scroll_y()
    imgui.end_table()


def _info_table(imgui, info) -> None:
    """The ParticleEmitterInfo's fields: names, and values wrapped to the panel."""
    if not imgui.begin_table("info", 2, imgui.TableFlags_.sizing_stretch_prop):
        return
    imgui.table_setup_column("field", imgui.TableColumnFlags_.width_fixed)
    imgui.table_setup_column("value", imgui.TableColumnFlags_.width_stretch)
    for name, value in emitter_info_fields(info):
        imgui.table_next_row()
        imgui.table_next_column()
        imgui.text(name)
        imgui.table_next_column()
        text_wrapped(imgui, str(value))
    imgui.end_table()
