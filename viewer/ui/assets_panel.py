"""Asset browser: open DAT files (file dialog, typed path, recent list), filter by type,
search by DID (prefix or full, ``0x`` optional), by PlayScript name, by hook type or by a
DID used (``uses:0x32000101``), the Uses / Used by pane of the cross-reference index
(``viewer/ui/xref_panel.py``), and double-click to load a Setup or play a script.

``AssetIndex`` (the index, built in the background), ``search_dids`` and ``describe`` are
GL-free and tested directly; ``draw_assets_panel`` is the view.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from viewer.dat.names import (
    TYPE_NAMES,
    emitter_type_label,
    hook_type_label,
    hook_types_named,
    particle_type_label,
    play_script_label,
    play_scripts_named,
    type_name,
)
from viewer.errors import ViewerError, format_did
from viewer.ui import commands as c
from viewer.ui.widgets import (
    button_width,
    same_line_if_fits,
    text_wrapped,
    text_wrapped_disabled,
)

EFFECT_TYPES = (0x02, 0x32, 0x33, 0x34)
__all__ = ["TYPE_NAMES", "AssetIndex", "AssetsState", "RecentFiles", "activate", "describe",
           "draw_assets_panel", "filter_dids", "hex_query_problem", "hook_summary",
           "name_search", "parse_hex_query", "search_dids", "type_name"]


def parse_hex_query(text: str) -> str:
    """The hex digits of a DID search ('0x3300', '33000719', ' 719 ') upper-cased."""
    t = text.strip().upper()
    t = t.removeprefix("0X")
    return "".join(ch for ch in t if ch in "0123456789ABCDEF")


def hex_query_problem(text: str) -> str | None:
    """Why a DID search is no DID (None when it is one): anything but hex digits (after an
    optional ``0x``), or more than 8 digits."""
    t = text.strip()
    skip = 2 if t.lower().startswith("0x") else 0
    body = t[skip:]
    for k, ch in enumerate(body):
        if ch.upper() not in "0123456789ABCDEF":   # the first one, where it stands
            return (f"'{t}' is not a DID: {ch!r} (character {skip + k + 1}) is not a hex "
                    f"digit (0-9, A-F)")
    if len(body) > 8:
        return f"'{t}' is not a DID: more than 8 hex digits"
    return None


def filter_dids(dids, type_prefix: int | None = None, query: str = "",
                limit: int | None = None) -> list[int]:
    """DIDs of ``type_prefix`` (None: all) whose 8-digit hex contains the query digits; a
    query typed with ``0x`` must match from the start; a query that is no DID
    (``hex_query_problem``) matches nothing."""
    if hex_query_problem(query) is not None:
        return []
    digits = parse_hex_query(query)
    anchored = query.strip().lower().startswith("0x")
    out = []
    for did in dids:
        if type_prefix is not None and (did >> 24) & 0xFF != type_prefix:
            continue
        text = f"{did & 0xFFFFFFFF:08X}"
        if digits and not (text.startswith(digits) if anchored else digits in text):
            continue
        out.append(did)
        if limit is not None and len(out) >= limit:
            break
    return out


class AssetIndex:
    """The cross-reference index of one database's DATs (``viewer.dat.xref``), loaded
    from the user's cache or built in a worker thread (``build``: started by the first
    frame the Assets panel shows), shared with every database over the same files
    (``viewer.ui.xref_panel.build_for``)."""

    def __init__(self, db) -> None:
        self.db = db
        self._build = None

    def build(self):
        """The build (started now if it was not)."""
        if self._build is None:
            from viewer.ui.xref_panel import build_for
            self._build = build_for(self.db)
        return self._build

    def ready(self):
        """The XrefIndex once built, else None (starting the build)."""
        return self.build().poll()

    def wait(self, timeout: float | None = None):
        """Block until the index is built (tests, headless); the XrefIndex or None."""
        return self.build().wait(timeout)


def name_search(index, query: str) -> tuple[list[int], str]:
    """Records a name search finds, and what it matched: a PlayScript name (``Launch``,
    ``AttribUp``: the tables with such an entry and the scripts those entries name), a
    hook type (``CallPES``: the scripts and Animations holding one), ``uses:DID`` (the
    records naming that DID: an emitter's scripts); ``ps:`` and ``hook:`` pick one kind.
    Exact names win over prefixes; ``([], why)`` when nothing is named."""
    text = query.strip()
    kind, _, rest = text.partition(":")
    if rest and kind.lower() == "uses":
        if hex_query_problem(rest) is not None or not parse_hex_query(rest):
            return [], f"'{rest.strip()}' is not a DID"
        did = int(parse_hex_query(rest), 16)
        return index.users(did), f"records using {format_did(did)}"
    want_ps, want_hook = (kind.lower() in ("", "ps"), kind.lower() in ("", "hook")) \
        if rest else (True, True)
    name = rest if rest else text
    ps = play_scripts_named(name) if want_ps else []
    hooks = hook_types_named(name) if want_hook else []
    exact_ps = [p for p in ps if play_script_label(p).lower().startswith(name.lower() + " ")]
    exact_hooks = [h for h in hooks if hook_type_label(h).lower().startswith(
        name.lower().removesuffix("hook") + " ")]
    if exact_ps or exact_hooks:
        ps, hooks = exact_ps, exact_hooks
    found: set[int] = set()
    said = []
    if ps:
        tables, scripts = index.table_entries(ps)
        found.update(tables + scripts)
        said.append(", ".join(play_script_label(p) for p in ps[:4]) +
                    (f" +{len(ps) - 4}" if len(ps) > 4 else ""))
    if hooks:
        found.update(index.records_with_hook(hooks))
        said.append("hooks " + ", ".join(hook_type_label(h) for h in hooks[:4]))
    if not said:
        return [], (f"'{text}' is not a DID, a PlayScript name or a hook type "
                    f"(uses:DID lists what uses a record)")
    return sorted(found), "; ".join(said)


def search_dids(dids, index, query: str, type_prefix: int | None = None
                ) -> tuple[list[int], str | None, str | None]:
    """(the DIDs a search lists, a problem or None, a note on what a name matched or
    None). A hex query filters by DID (``filter_dids``); anything else is a name search
    (``name_search``) over the cross-reference index (``index``: None while it is built,
    said as a problem)."""
    if hex_query_problem(query) is None:
        return filter_dids(dids, type_prefix, query), None, None
    if index is None:
        return [], "the cross-reference index is being built: name searches wait for it", None
    found, note = name_search(index, query)
    if not found and note.startswith("'"):
        return [], note, None
    held = set(dids)
    listed = [d for d in found if d in held and
              (type_prefix is None or (d >> 24) & 0xFF == type_prefix)]
    return listed, None, note


def hook_summary(hook) -> str:
    """A hook's type with its number (``CallPES (19)``) and the fields that say what it
    does (DIDs as DID strings)."""
    number = getattr(hook, "type_number", None)
    name = hook_type_label(int(hook.hook_type) if number is None else number)
    parts = []
    for f in dataclasses.fields(hook):
        field_name, value = f.name, getattr(hook, f.name)
        if field_name in ("direction", "hook_type", "type_number"):
            continue
        if isinstance(value, int) and not isinstance(value, bool) and \
                (field_name.endswith("_id") and value > 0xFFFF):
            parts.append(f"{field_name} {format_did(value)}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f"{field_name} {value:g}")
    return name + (": " + ", ".join(parts) if parts else "")


def describe(db, did: int) -> list[str]:
    """A few lines about one record for the browser's detail view (PlayScript, hook,
    emitter and particle types by name with their numbers)."""
    rec = db.get(did)
    kind = (did >> 24) & 0xFF
    lines = [f"{format_did(did)} {type_name(did)}"]
    if kind == 0x33:
        lines.append(f"{len(rec.script_data)} hooks, length {rec.length:g} s")
        for i, d in enumerate(rec.script_data):
            lines.append(f"  {i:2d} {d.start_time:7.3f} s  {hook_summary(d.hook)}")
    elif kind == 0x34:
        for key, data in rec.entries:
            pairs = ", ".join(f"{e.mod:g}->{format_did(e.script_id)}" for e in data.scripts)
            lines.append(f"  {play_script_label(key)}: {pairs}")
    elif kind == 0x32:
        lines.append(f"  type {emitter_type_label(rec.emitter_type)}, "
                     f"particle {particle_type_label(rec.particle_type)}")
        lines.append(f"  birthrate {rec.birthrate:g}, max {rec.max_particles}, "
                     f"total {rec.total_particles}, lifespan {rec.lifespan:g}")
        lines.append(f"  hw_gfxobj {format_did(rec.hw_gfxobj_id)}")
    elif kind == 0x02:
        lines.append(f"  {len(rec.parts)} parts, table {format_did(rec.default_script_table)}, "
                     f"default script {format_did(rec.default_script)}")
        lines.append(f"  {len(rec.lights)} lights, motion table "
                     f"{format_did(rec.default_motion_table)}")
    return lines


class RecentFiles:
    """Recently opened DAT paths (newest first), kept in the user config dir."""

    def __init__(self, path: Path | None, limit: int = 10) -> None:
        self.path = path
        self.limit = limit
        self.items: list[str] = []
        if path is not None and path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.items = [str(p) for p in data if isinstance(p, str)][:limit]
            except (OSError, ValueError):
                self.items = []

    def add(self, item: str) -> None:
        self.items = [item] + [p for p in self.items if p != item]
        del self.items[self.limit:]
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.path.write_text(json.dumps(self.items, indent=1), encoding="utf-8")
            except OSError:
                pass


@dataclass
class AssetsState:
    """UI-only state of the browser (text boxes, selection)."""
    type_index: int = 0            # index into the filter combo (0 = effects)
    query: str = ""
    path_text: str = ""
    selected: int | None = None
    details: list[str] = field(default_factory=list)
    problem: str | None = None     # why the search lists nothing
    note: str | None = None        # what a name search matched
    _cache_key: tuple | None = None
    _cache: list[int] = field(default_factory=list)

    def listing(self, db, prefix: int | None, index: AssetIndex | None = None) -> list[int]:
        """The DIDs the type and the search pick (``search_dids``), recomputed only when
        the database, type, query or index changes (a retail portal.dat has ~80,000
        files). A name search starts the index's build and lists once it is ready."""
        xi = None
        if index is not None and hex_query_problem(self.query) is not None:
            xi = index.ready()
        key = (id(db), prefix, self.query, id(xi))
        if key != self._cache_key:
            dids = db.dids(prefix) if prefix is not None else db.dids()
            self._cache, self.problem, self.note = search_dids(dids, xi, self.query)
            self._cache_key = key
        return self._cache


FILTERS: list[tuple[str, int | None]] = [
    ("PhysicsScript (0x33)", 0x33), ("PhysicsScriptTable (0x34)", 0x34),
    ("ParticleEmitterInfo (0x32)", 0x32), ("Setup (0x02)", 0x02), ("GfxObj (0x01)", 0x01),
    ("Animation (0x03)", 0x03), ("All", None)]


def activate(did: int, object_id: int | None) -> list[c.Command]:
    """What double-clicking an asset does."""
    kind = (did >> 24) & 0xFF
    if kind == 0x02:
        return [c.LoadSetup(did)]
    if kind == 0x33 and object_id is not None:
        return [c.PlayScript(object_id, did)]
    return [c.Select("asset", did)]


def draw_assets_panel(db, index: AssetIndex | None, state: AssetsState, recent: RecentFiles,
                      object_id: int | None, dat_paths=()) -> list[c.Command]:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Assets", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        _open_row(imgui, state, recent, dat_paths, out)
        if db is None:
            imgui.text_disabled("No DAT open.")
            return out
        if index is not None:
            index.build()   # in the background from the first frame the panel shows
        _asset_list(imgui, db, index, state, object_id, out)
        imgui.separator()
        for line in state.details:
            text_wrapped(imgui, line)
        if state.selected is not None and (state.selected >> 24) == 0x02:
            _setup_buttons(imgui, state.selected, out)
        _uses_pane(imgui, db, index, state, object_id, out)
    finally:
        imgui.end()
    return out


def _open_row(imgui, state: AssetsState, recent: RecentFiles, dat_paths,
              out: list[c.Command]) -> None:
    """Open a DAT: a typed path, the file dialog, the recent list; the DATs open now."""
    imgui.set_next_item_width(-70)
    _, state.path_text = imgui.input_text("##datpath", state.path_text)
    imgui.same_line()
    if imgui.button("Open") and state.path_text.strip():
        out.append(c.OpenDat((state.path_text.strip(),)))
    if imgui.button("Browse..."):
        picked = _file_dialog()
        if picked:
            out.append(c.OpenDat(tuple(picked)))
    if recent.items:
        imgui.same_line()
        if imgui.begin_combo("##recent", "Recent", imgui.ComboFlags_.no_preview):
            for p in recent.items:
                if imgui.selectable(p, False)[0]:
                    out.append(c.OpenDat((p,)))
            imgui.end_combo()
    if dat_paths:
        text_wrapped_disabled(imgui, ", ".join(Path(p).name for p in dat_paths))


def _asset_list(imgui, db, index: AssetIndex | None, state: AssetsState,
                object_id: int | None, out: list[c.Command]) -> None:
    """The type filter, the search (DID, PlayScript name, hook type, uses:DID) and the
    clipped list of matching DIDs (a click selects, a double click activates)."""
    imgui.set_next_item_width(170)
    _, state.type_index = imgui.combo("##type", state.type_index, [n for n, _ in FILTERS])
    imgui.same_line()
    imgui.set_next_item_width(-1)
    _, state.query = imgui.input_text_with_hint("##q", "DID, PlayScript, hook type, uses:DID",
                                                state.query)
    prefix = FILTERS[state.type_index][1]
    dids = state.listing(db, prefix, index)
    if state.problem is not None:   # wrapped at the dock's edge, never cut
        text_wrapped(imgui, state.problem, imgui.ImVec4(1.0, 0.6, 0.3, 1.0))
    else:
        text_wrapped_disabled(imgui, f"{len(dids)} files"
                              + (f": {state.note}" if state.note else ""))
    imgui.begin_child("list", imgui.ImVec2(0, imgui.get_content_region_avail().y * 0.55))
    clipper = imgui.ListClipper()
    clipper.begin(len(dids))
    while clipper.step():   # only the rows on screen are submitted
        for row in range(clipper.display_start, clipper.display_end):
            did = dids[row]
            clicked, _ = imgui.selectable(f"{format_did(did)}  {type_name(did)}",
                                          did == state.selected,
                                          imgui.SelectableFlags_.allow_double_click)
            if not clicked:
                continue
            if state.selected != did:
                state.selected = did
                out.append(c.Select("asset", did))
                _refresh_details(db, index, state)
            if imgui.is_mouse_double_clicked(imgui.MouseButton_.left):
                out.extend(activate(did, object_id))
    clipper.end()
    imgui.end_child()


def _setup_buttons(imgui, did: int, out: list[c.Command]) -> None:
    """A selected Setup: Load (as a double click: created as the server creates objects,
    its table the description's, none until the Object panel names one) or Load as a
    static object (landblock data: the Setup's own table kept, it does not fall)."""
    if imgui.button("Load"):
        out.append(c.LoadSetup(did))
    same_line_if_fits(imgui, button_width(imgui, "Load as static object"))
    if imgui.button("Load as static object"):
        out.append(c.LoadSetup(did, static=True))
    text_wrapped_disabled(imgui, "Load: as the server creates it (no table until the "
                                 "Object panel names one). Static: its Setup's table kept.")


def _uses_pane(imgui, db, index: AssetIndex | None, state: AssetsState,
               object_id: int | None, out: list[c.Command]) -> None:
    """The selected record's Uses / Used by (viewer/ui/xref_panel.py); a related record
    clicked there becomes the selection."""
    from viewer.ui.xref_panel import draw_xref_pane

    if state.selected is None or index is None:
        return
    cmds, opened = draw_xref_pane(imgui, index.build(), state.selected, object_id)
    out.extend(cmds)
    if opened is not None and opened != state.selected:
        state.selected = opened
        out.append(c.Select("asset", opened))
        _refresh_details(db, index, state)


def _refresh_details(db, index, state: AssetsState) -> None:
    try:
        state.details = describe(db, state.selected)
    except ViewerError as err:
        state.details = [f"cannot decode: {err}"]


def _file_dialog() -> list[str]:
    try:
        from imgui_bundle import portable_file_dialogs as pfd
        return list(pfd.open_file("Open DAT", "", ["DAT files", "*.dat", "All", "*"],
                                  pfd.opt.multiselect).result())
    except Exception:  # noqa: BLE001 - no dialog helper on this desktop: type the path
        return []
