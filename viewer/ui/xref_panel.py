"""The Uses / Used by pane of the Assets panel: the cross-reference index
(``viewer.dat.xref``) of the DATs open, loaded from the user's cache or built in a worker
thread with its progress shown, and the selected record's references as clickable DIDs.

``XrefBuild`` and ``build_for`` are GL-free (a build is shared by every database over the
same files and a new one cancels the builds of other files); ``draw_xref_pane`` is the
view, plain ImGui text, selectables and buttons.
"""

from __future__ import annotations

import threading

from viewer.dat.container import DatCollection
from viewer.errors import format_did
from viewer.ui import commands as c
from viewer.ui.progress import ThreadJob
from viewer.ui.widgets import same_line_if_fits, text_wrapped, text_wrapped_disabled

#: at most this many references of one kind are listed (then a count)
LISTED = 200


class XrefBuild:
    """One index being loaded or built in a worker thread (``ThreadJob``). The worker
    opens its own handles on the DAT files (the session's stay the frame loop's)."""

    def __init__(self, collection: DatCollection, paths: tuple[str, ...] | None) -> None:
        self.paths = paths
        self.index = None
        self.cached = False
        self.error: str | None = None
        self._shown: tuple | None = None

        def work(report):
            from viewer.dat.xref import load_or_build
            from viewer.userdirs import cache_dir

            def progress(done: int, total: int) -> None:
                report(done, total, f"{done:,} / {total:,} records")
            own = DatCollection(paths) if paths is not None else collection
            try:
                return load_or_build(own, cache_dir(), progress=progress)
            finally:
                if paths is not None:
                    own.close()

        self.job = ThreadJob("Cross-reference index", work, on_done=self._done)

    def _done(self, result) -> None:
        self.index, self.cached = result

    def poll(self):
        """The index once ready (None while building or after an error)."""
        if self.index is None and self.error is None and not self.job.finished:
            try:
                self.job.step(0)
            except Exception as err:  # noqa: BLE001 - shown in the pane, the viewer goes on
                self.error = str(err)
        return self.index

    def wait(self, timeout: float | None = None):
        """Block until the build ends (tests, headless); the index or None."""
        if not self.job.finished:
            try:
                self.job.step(timeout)
            except Exception as err:  # noqa: BLE001 - shown in the pane, the viewer goes on
                self.error = str(err)
        return self.index

    def cancel(self) -> None:
        self.job.cancel()

    def refs(self, did: int) -> tuple[list, list]:
        """(uses, used by) of ``did``, kept for the DID shown (the pane draws every frame;
        a GfxObj thousands of emitters name would be regrouped each time)."""
        if self._shown is None or self._shown[0] != did:
            self._shown = (did, self.index.uses(did), self.index.used_by(did))
        return self._shown[1], self._shown[2]


_LOCK = threading.Lock()
_BUILDS: dict[object, XrefBuild] = {}


def _paths(collection: DatCollection) -> tuple[str, ...] | None:
    if any(f.path is None for f in collection.files):
        return None
    return tuple(str(f.path) for f in collection.files)


def build_for(db) -> XrefBuild:
    """The build for ``db``'s DAT files: the one already under way or done for the same
    files, else a new one (which cancels builds of other files still running)."""
    collection = db.collection
    paths = _paths(collection)
    key = paths if paths is not None else id(collection)
    with _LOCK:
        build = _BUILDS.get(key)
        if build is not None and not build.job.cancelled:
            return build
        for other in _BUILDS.values():
            other.cancel()
        _BUILDS.clear()
        build = _BUILDS[key] = XrefBuild(collection, paths)
        return build


def draw_xref_pane(imgui, build: XrefBuild | None, did: int | None,
                   object_id: int | None) -> tuple[list[c.Command], int | None]:
    """(commands, the DID clicked to open, or None). A click on a related record opens it
    in the Assets panel, a double click activates it (a Setup loads, a script plays) and a
    script's Play button plays it on the selected object."""
    out: list[c.Command] = []
    if did is None or build is None:
        return out, None
    index = build.poll()
    imgui.separator()
    text_wrapped(imgui, f"Uses / Used by {format_did(did)}")
    if build.error is not None:
        text_wrapped(imgui, build.error, imgui.ImVec4(1.0, 0.5, 0.4, 1.0))
        return out, None
    if index is None:
        imgui.progress_bar(build.job.fraction, imgui.ImVec2(-1, 0),
                           build.job.status or "reading the DATs")
        return out, None
    opened = None
    for label, refs in zip(("uses", "used by"), build.refs(did)):
        imgui.text_disabled(f"{label}: {len(refs)}")
        for ref in refs[:LISTED]:
            hit = _ref_row(imgui, ref, label, object_id, out)
            opened = hit if hit is not None else opened
        if len(refs) > LISTED:
            imgui.text_disabled(f"  ... {len(refs) - LISTED} more")
    if index.errors:
        text_wrapped_disabled(imgui, f"{len(index.errors)} records could not be read "
                                     f"(not indexed)")
    return out, opened


def _ref_row(imgui, ref, label: str, object_id: int | None,
             out: list[c.Command]) -> int | None:
    from viewer.ui.assets_panel import activate

    if (ref.did >> 24) == 0x33 and object_id is not None:
        if imgui.small_button(f"Play##{label}{ref.did}"):
            out.append(c.PlayScript(object_id, ref.did))
        imgui.same_line()
    did = format_did(ref.did)
    clicked, _ = imgui.selectable(f"{did}##{label}{ref.did}", False,
                                  imgui.SelectableFlags_.allow_double_click,
                                  imgui.ImVec2(imgui.calc_text_size(did).x, 0))
    kind = ref.type + ("" if ref.held else " (missing)")
    same_line_if_fits(imgui, imgui.calc_text_size(kind).x)
    imgui.text(kind)
    imgui.indent()
    text_wrapped_disabled(imgui, ref.how)   # wrapped: a narrow dock shows it whole
    imgui.unindent()
    if not clicked or not ref.held:
        return None
    if imgui.is_mouse_double_clicked(imgui.MouseButton_.left):
        out.extend(activate(ref.did, object_id))
    return ref.did


__all__ = ["XrefBuild", "build_for", "draw_xref_pane"]
