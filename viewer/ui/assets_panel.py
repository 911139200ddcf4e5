"""Asset browser: open DAT files (file dialog, typed path, recent list), filter by type,
search by hex DID, PlayScript names of tables, reverse references (which scripts create
this emitter, which tables use this script, which Setups use this table), and
double-click to load a Setup or play a script.

``AssetIndex`` (the reverse references) and ``filter_dids`` are GL-free and tested
directly; ``draw_assets_panel`` is the view.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from dataclasses import dataclass, field
from pathlib import Path

from viewer.dat.records.hooks import CallPESHook, CreateBlockingParticleHook, CreateParticleHook
from viewer.errors import ViewerError, format_did
from viewer.ui import commands as c
from viewer.ui.widgets import text_wrapped, text_wrapped_disabled

TYPE_NAMES: dict[int, str] = {
    0x01: "GfxObj", 0x02: "Setup", 0x03: "Animation", 0x04: "Palette",
    0x05: "SurfaceTexture", 0x06: "RenderSurface", 0x08: "Surface", 0x09: "MotionTable",
    0x0A: "Wave", 0x11: "GfxObjDegradeInfo", 0x13: "Region", 0x20: "SoundTable",
    0x32: "ParticleEmitterInfo", 0x33: "PhysicsScript", 0x34: "PhysicsScriptTable",
}
EFFECT_TYPES = (0x02, 0x32, 0x33, 0x34)


def _ps_name(number: int) -> str:
    from viewer.sim.script_table import play_script_name
    return play_script_name(number) or f"PlayScript {number}"


def type_name(did: int) -> str:
    return TYPE_NAMES.get((did >> 24) & 0xFF, f"type 0x{(did >> 24) & 0xFF:02X}")


def parse_hex_query(text: str) -> str:
    """The hex digits of a DID search ('0x3300', '33000719', ' 719 ') upper-cased."""
    t = text.strip().upper()
    t = t.removeprefix("0X")
    return "".join(ch for ch in t if ch in "0123456789ABCDEF")


def hex_query_problem(text: str) -> str | None:
    """Why a DID search is no DID (None when it is one): anything but hex digits (after an
    optional ``0x``), or more than 8 digits."""
    t = text.strip()
    body = t[2:] if t.lower().startswith("0x") else t
    bad = sorted({ch for ch in body if ch.upper() not in "0123456789ABCDEF"})
    if bad:
        return f"'{t}' is not a DID: {''.join(bad)!r} is not a hex digit (0-9, A-F)"
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


@dataclass
class AssetIndex:
    """Reverse references over one database, built per kind on first use. Records that
    fail to decode are skipped and listed in ``errors`` (the viewer keeps going)."""

    db: object
    errors: list[ViewerError] = field(default_factory=list)
    _creators: dict[int, list[int]] | None = None       # emitter -> scripts
    _table_users: dict[int, list[tuple[int, int, float]]] | None = None  # script -> entries
    _setup_users: dict[int, list[int]] | None = None    # table -> setups
    _pes_callers: dict[int, list[int]] | None = None    # script -> scripts (CallPES)

    def _records(self, prefix: int):
        for did in self.db.dids(prefix):
            try:
                yield did, self.db.get(did)
            except ViewerError as err:
                self.errors.append(err)

    def _scan_scripts(self) -> None:
        self._creators, self._pes_callers = {}, {}
        for did, script in self._records(0x33):
            for data in script.script_data:
                hook = data.hook
                if isinstance(hook, (CreateParticleHook, CreateBlockingParticleHook)) \
                        and hook.emitter_info_id:
                    lst = self._creators.setdefault(int(hook.emitter_info_id), [])
                    if did not in lst:
                        lst.append(did)
                if isinstance(hook, CallPESHook) and hook.pes_id:
                    lst = self._pes_callers.setdefault(int(hook.pes_id), [])
                    if did not in lst:
                        lst.append(did)

    def scripts_creating(self, emitter: int) -> list[int]:
        if self._creators is None:
            self._scan_scripts()
        return list(self._creators.get(emitter, []))

    def scripts_calling(self, script: int) -> list[int]:
        if self._pes_callers is None:
            self._scan_scripts()
        return list(self._pes_callers.get(script, []))

    def tables_using(self, script: int) -> list[int]:
        return list(dict.fromkeys(t for t, _, _ in self.table_entries_using(script)))

    def table_entries_using(self, script: int) -> list[tuple[int, int, float]]:
        """(table, PlayScript, mod) of every table entry naming ``script``."""
        if self._table_users is None:
            self._table_users = {}
            for did, table in self._records(0x34):
                for key, data in table.entries:
                    for entry in data.scripts:
                        self._table_users.setdefault(int(entry.script_id), []).append(
                            (did, int(key), float(entry.mod)))
        return list(self._table_users.get(script, []))

    def setups_using(self, table: int) -> list[int]:
        if self._setup_users is None:
            self._setup_users = {}
            for did, setup in self._records(0x02):
                t = int(setup.default_script_table or 0)
                if t:
                    self._setup_users.setdefault(t, []).append(did)
        return list(self._setup_users.get(table, []))

    def references(self, did: int) -> list[tuple[str, list[int]]]:
        """(label, DIDs) reverse references that make sense for ``did``'s type."""
        kind = (did >> 24) & 0xFF
        if kind == 0x32:
            return [("scripts creating it", self.scripts_creating(did))]
        if kind == 0x33:
            return [("tables using it", self.tables_using(did)),
                    ("as", [f"{format_did(t)} {_ps_name(k)} mod {m:g}"
                            for t, k, m in self.table_entries_using(did)]),
                    ("scripts calling it (CallPES)", self.scripts_calling(did))]
        if kind == 0x34:
            return [("Setups using it", self.setups_using(did))]
        return []


def hook_summary(hook) -> str:
    """A hook's type and the fields that say what it does (DIDs as DID strings)."""
    name = type(hook).__name__.removesuffix("Hook")
    parts = []
    for f in dataclasses.fields(hook):
        field_name, value = f.name, getattr(hook, f.name)
        if field_name in ("direction", "hook_type"):
            continue
        if isinstance(value, int) and not isinstance(value, bool) and \
                (field_name.endswith("_id") and value > 0xFFFF):
            parts.append(f"{field_name} {format_did(value)}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f"{field_name} {value:g}")
    return name + (" (" + ", ".join(parts) + ")" if parts else "")


def _enum_name(value) -> str:
    """An enum member's name; a value the enum does not know (kept as an int) as a number."""
    return value.name if isinstance(value, enum.Enum) else str(value)


def describe(db, did: int) -> list[str]:
    """A few lines about one record for the browser's detail view."""
    from viewer.sim.script_table import play_script_name

    rec = db.get(did)
    kind = (did >> 24) & 0xFF
    lines = [f"{format_did(did)} {type_name(did)}"]
    if kind == 0x33:
        lines.append(f"{len(rec.script_data)} hooks, length {rec.length:g} s")
        for i, d in enumerate(rec.script_data):
            lines.append(f"  {i:2d} {d.start_time:7.3f} s  {hook_summary(d.hook)}")
    elif kind == 0x34:
        for key, data in rec.entries:
            name = play_script_name(int(key)) or str(int(key))
            pairs = ", ".join(f"{e.mod:g}->{format_did(e.script_id)}" for e in data.scripts)
            lines.append(f"  {name} (0x{int(key):02X}): {pairs}")
    elif kind == 0x32:
        lines.append(f"  type {_enum_name(rec.emitter_type)}, "
                     f"particle {_enum_name(rec.particle_type)}")
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
    refs: list[tuple[str, list[int]]] = field(default_factory=list)
    _cache_key: tuple | None = None
    _cache: list[int] = field(default_factory=list)

    def listing(self, db, prefix: int | None) -> list[int]:
        """The filtered DIDs, recomputed only when the database, type or query changes
        (a retail portal.dat has ~80,000 files)."""
        key = (id(db), prefix, self.query)
        if key != self._cache_key:
            self._cache = filter_dids(db.dids(prefix) if prefix is not None else db.dids(),
                                      None, self.query)
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
        _asset_list(imgui, db, index, state, object_id, out)
        imgui.separator()
        for line in state.details:
            text_wrapped(imgui, line)
        _references(imgui, db, index, state)
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
    """The type filter, the hex search and the clipped list of matching DIDs (a click
    selects, a double click activates)."""
    imgui.set_next_item_width(170)
    _, state.type_index = imgui.combo("##type", state.type_index, [n for n, _ in FILTERS])
    imgui.same_line()
    imgui.set_next_item_width(-1)
    _, state.query = imgui.input_text_with_hint("##q", "hex DID", state.query)
    prefix = FILTERS[state.type_index][1]
    dids = state.listing(db, prefix)
    problem = hex_query_problem(state.query)
    if problem is not None:
        imgui.text_colored(imgui.ImVec4(1.0, 0.6, 0.3, 1.0), problem)
    else:
        imgui.text_disabled(f"{len(dids)} files")
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


def _references(imgui, db, index: AssetIndex | None, state: AssetsState) -> None:
    """Reverse references of the selected asset (decoding every script / table / Setup
    once: on request); a DID button selects that asset."""
    if state.selected is not None and index is not None and not state.refs \
            and (state.selected >> 24) & 0xFF in (0x32, 0x33, 0x34) \
            and imgui.button("Find references"):
        state.refs = index.references(state.selected)
    for label, refs in state.refs:
        text_wrapped(imgui, f"{label}: {len(refs)}")
        for r in refs[:50]:
            if isinstance(r, str):
                text_wrapped_disabled(imgui, f"  {r}")
                continue
            if imgui.small_button(f"{format_did(r)}##{label}"):
                state.selected = r
                _refresh_details(db, index, state)
                break


def _refresh_details(db, index, state: AssetsState) -> None:
    state.refs = []
    try:
        state.details = describe(db, state.selected)
    except ViewerError as err:
        state.details = [f"cannot decode: {err}"]
        state.refs = []


def _file_dialog() -> list[str]:
    try:
        from imgui_bundle import portable_file_dialogs as pfd
        return list(pfd.open_file("Open DAT", "", ["DAT files", "*.dat", "All", "*"],
                                  pfd.opt.multiselect).result())
    except Exception:  # noqa: BLE001 - no dialog helper on this desktop: type the path
        return []
