"""Prompts and dialogs: the unsaved-changes prompt (before quitting, opening a DAT or
loading a scenario), Esc, and the path dialog (Open DAT, Load / Save scenario, Load
reference recording) with its folder listing and recent folders.
"""

from __future__ import annotations

import os
from pathlib import Path

from imgui_bundle import imgui

from viewer.dat.dat_set import install_folders
from viewer.ui import commands as c
from viewer.ui.assets_panel import RecentFiles
from viewer.ui.save_target import make_folder, refusal, save_as_start
from viewer.ui.widgets import text_wrapped


class Prompts:
    """The viewer's prompts and path dialog (``ViewerApp.prompts``)."""

    def __init__(self, app, ini_path) -> None:
        self.app = app
        self.file_dialog: tuple[str, str] | None = None   # (kind, path text) while open
        self.install_folders: list[str] = []   # retail installs found (Open DAT dialog)
        self.recent = RecentFiles(None if ini_path is None
                                  else Path(ini_path).parent / "recent.json")
        # folders the file dialog opened or saved in (newest first), kept beside the layout
        self.recent_dirs = RecentFiles(None if ini_path is None
                                       else Path(ini_path).parent / "recent_dirs.json")
        # quitting: the window's close button / Ctrl+Q / File > Quit ask first when the
        # scenario has unsaved changes (save / discard / cancel); Esc never quits
        self.should_close = False
        self.quit_prompt = False
        # Open DAT / Load scenario over unsaved changes asks the same first: the command
        # held back while the prompt shows, and the one the user let through
        self.open_prompt: c.Command | None = None
        self._confirmed: c.Command | None = None
        self._after_save = None   # "quit" or a held-back command: once the Save dialog saved

    def open_dialog(self, kind: str) -> None:
        """Show the path dialog of ``kind`` (FILE_KINDS), starting at its default path; Open
        DAT also offers the usual retail install folders that exist here."""
        self.file_dialog = (kind, self.default_path(kind))
        self.install_folders = [str(p) for p in install_folders()] if kind == "dat" else []

    def escape(self) -> None:
        """Esc: close the quit prompt, else the file dialog, else give the keyboard back to
        the 3D view (the timeline keys act again); never quits."""
        if self.quit_prompt or self.open_prompt is not None:
            self.quit_prompt, self.open_prompt, self._after_save = False, None, None
        elif self.file_dialog is not None:
            self.file_dialog = None
        else:
            imgui.set_window_focus("Viewport")

    def request_quit(self) -> None:
        """The window's close button, Ctrl+Q, File > Quit: close now, or ask first when
        the scenario has unsaved changes."""
        if self.app.modified:
            self.quit_prompt = True
        else:
            self.should_close = True

    def save_or_ask(self) -> bool:
        """Ctrl+S: save to the scenario's file; with none yet, or one Save may not write
        (shipped with the viewer, read-only: save_target.refusal), open the Save dialog at
        a new file. True when saved now."""
        s = self.app.session
        if s is not None and s.file is not None and refusal(s.file) is None:
            return self.save_to(str(s.file))
        self.open_dialog("save")
        return False

    def save_to(self, path: str) -> bool:
        """Save the scenario to ``path`` (its missing folders made), say "Saved <path>"
        (a toast) and remember the folder; a failure is one line in the Errors panel."""
        ctl = self.app.controller
        try:
            made = make_folder(path)
        except Exception as err:  # noqa: BLE001 - one line in the Errors panel
            ctl.errors.report(err, "Save scenario")
            return False
        if not ctl.apply(c.SaveScenario(path), "Save scenario"):
            return False
        self.app.toasts.say("Saved", f"Saved {path}" + (f" (made the folder {made})"
                                                        if made is not None else ""))
        self.recent_dirs.add(str(Path(path).resolve().parent))
        return True

    def save_name(self) -> tuple[str, str | None]:
        """The scenario the unsaved-changes prompt names (its file, or what it was read
        from) and, when Save cannot write there, why (Save then writes a new file)."""
        s = self.app.session
        path = None if s is None else (s.file or s.scenario.path)
        if path is None:
            return "the untitled scenario", None
        why = refusal(path)
        return (Path(path).name, None) if why is None else \
            (f"{Path(path).name} (as a new file)", why)

    def before_replacing(self, cmd) -> bool:
        """Controller hook before Open DAT / Load scenario replace the session: go on (True),
        or hold the command back and ask first when the scenario has unsaved changes."""
        if not self.app.modified or cmd is self._confirmed:
            return True
        self.open_prompt = cmd
        return False

    def proceed(self, then) -> None:
        """Go on with what the unsaved-changes prompt held back: quit, or the open."""
        self._after_save = None
        if then == "quit":
            self.should_close = True
        elif then is not None:
            self._confirmed = then
            try:
                self.app.controller.apply(then, "open")
            finally:
                self._confirmed = None

    def quit_popup(self) -> None:
        """Unsaved changes, before quitting or before an open replaces the scenario: Save
        (then go on), Discard (go on), Cancel."""
        asking = self.quit_prompt or self.open_prompt is not None
        if asking and not imgui.is_popup_open("Unsaved changes"):
            imgui.open_popup("Unsaved changes")
        if not imgui.begin_popup_modal("Unsaved changes", None,
                                       imgui.WindowFlags_.always_auto_resize)[0]:
            return
        try:
            if not asking:
                imgui.close_current_popup()
                return
            then = "quit" if self.quit_prompt else self.open_prompt
            name, why = self.save_name()
            imgui.text(f"Save the changes to {name} before {_going_on(then)}?")
            if why is not None:
                imgui.text_disabled(f"Save writes a new file: {why}.")
            choice = None
            if imgui.button("Save"):
                choice = "save"
            imgui.same_line()
            if imgui.button("Discard"):
                choice = "discard"
            imgui.same_line()
            if imgui.button("Cancel"):
                choice = "cancel"
            if choice is not None:
                self.quit_prompt, self.open_prompt = False, None
                imgui.close_current_popup()
            if choice == "save":
                if self.save_or_ask():
                    if not self.app.modified:
                        self.proceed(then)
                else:
                    self._after_save = then    # the Save dialog goes on once it saved
            elif choice == "discard":
                self.proceed(then)
        finally:
            imgui.end_popup()

    def default_path(self, kind: str) -> str:
        """Where the path dialog starts: the scenario's own file when Save may write it,
        else a new file in the folder saved in last or the user's documents
        (save_target.save_as_start: never the shipped library), the last DAT opened (Open
        DAT), else the folder used last, else the working folder."""
        s = self.app.session
        if kind == "save" and s is not None:
            own = s.file or s.scenario.path
            if own is not None and refusal(own) is None:
                return str(own)
            return str(save_as_start(own, self.recent_dirs.items))
        if kind == "dat" and self.recent.items:
            return self.recent.items[0]
        name = "scenario.json" if kind in ("load", "save") else ""
        if kind != "dat" and self.recent_dirs.items:
            folder = self.recent_dirs.items[0]
            return str(Path(folder) / name) if name else folder + os.sep
        return name

    def _file_browser(self, kind: str, text: str) -> str:
        """Recent folders, and the matching files of the typed path's folder; a click puts
        the folder or file into the path. Returns the (maybe changed) path text."""
        folder, listing = browse_folder(text, FILE_KINDS[kind])
        # Open DAT: a folder opens the retail DAT set in it (client_portal.dat, ...)
        if (kind == "dat" and self.install_folders
                and imgui.begin_combo("##installs", "Retail installs")):
            for d in self.install_folders:
                if imgui.selectable(d, False)[0]:
                    text = d
            imgui.end_combo()
        if self.recent_dirs.items and imgui.begin_combo("##recent", "Recent folders"):
            for d in self.recent_dirs.items:
                if imgui.selectable(d, False)[0]:
                    text = str(Path(d) / Path(text).name) if kind == "save" else d + os.sep
            imgui.end_combo()
        if listing:
            imgui.begin_child("##files", imgui.ImVec2(0, min(160, 18 * len(listing) + 8)),
                              imgui.ChildFlags_.borders)
            for name, is_dir in listing:
                if imgui.selectable(name + (os.sep if is_dir else ""), False)[0]:
                    text = str(folder / name) + (os.sep if is_dir else "")
            imgui.end_child()
        return text

    def file_path_popup(self) -> None:
        """A small window asking for a path (no native dialog needed)."""
        kind, text = self.file_dialog
        title = {"dat": "Open DAT", "load": "Load scenario", "save": "Save scenario as",
                 "reference": "Load reference recording"}[kind]
        imgui.set_next_window_size(imgui.ImVec2(460, 0), imgui.Cond_.first_use_ever)
        imgui.set_next_window_bg_alpha(1.0)   # floats over the panels: nothing shows through
        _, keep = imgui.begin(f"{title}###filepath", True)
        try:
            imgui.set_next_item_width(-1)
            if imgui.is_window_appearing():
                imgui.set_keyboard_focus_here()   # type the path at once; Enter is OK
            entered, text = imgui.input_text("##path", text,
                                             imgui.InputTextFlags_.enter_returns_true)
            text = self._file_browser(kind, text)
            self.file_dialog = (kind, text)
            path = str(Path(text.strip()).expanduser()) if text.strip() else ""
            why = self._save_note(path) if kind == "save" and path else None
            # an existing file other than the scenario's own: only the Replace button
            # writes over it (Enter in the path field does not)
            clicked = imgui.button("Replace" if why == "replace" else "OK")
            if (clicked or (entered and why in (None, "folder"))) and path and why != "refused":
                if kind == "save":
                    keep = not self.save_to(path)
                    if not keep and self._after_save is not None and not self.app.modified:
                        self.proceed(self._after_save)
                else:
                    cmd = {"dat": lambda p: c.OpenDat((p,)), "load": c.LoadScenario,
                           "reference": c.LoadReference}[kind](path)
                    if self.app.controller.apply(cmd, title):
                        self.recent_dirs.add(str(Path(path).resolve().parent))
                    keep = False
            imgui.same_line()
            if imgui.button("Cancel"):
                keep = False
        finally:
            imgui.end()
        if not keep:
            self.file_dialog = None
            self._after_save = None

    def _save_note(self, path: str) -> str | None:
        """The Save dialog's line under the path, for ``path``: why Save may not write it
        ("refused"), an existing file that is not the scenario's own ("replace": the button
        says Replace), a folder that will be made ("folder"); None: nothing to say."""
        s = self.app.session
        why = refusal(path)
        if why is not None:
            imgui.text_colored(imgui.ImVec4(1.0, 0.45, 0.4, 1.0), "Cannot save here:")
            text_wrapped(imgui, why)
            return "refused"
        p = Path(path)
        own = s is not None and s.file is not None and Path(s.file).resolve() == p.resolve()
        if p.exists() and not own:
            text_wrapped(imgui, f"{p.name} exists: Replace writes over it")
            return "replace"
        if not p.parent.is_dir():
            text_wrapped(imgui, f"The folder {p.parent} will be made")
            return "folder"
        return None


def _going_on(then) -> str:
    """What the unsaved-changes prompt holds back, in words."""
    if then == "quit":
        return "quitting"
    if isinstance(then, c.OpenDat):
        return "opening " + ", ".join(Path(p).name for p in then.paths)
    return f"loading {Path(then.path).name}"


# what the file dialog lists beside folders, per kind (None: every file)
FILE_KINDS = {"dat": (".dat",), "load": (".json",), "save": (".json",), "reference": None}


def browse_folder(text: str, suffixes) -> tuple[Path, list[tuple[str, bool]]]:
    """The folder of a typed path (the path itself when it ends with a separator or names
    a folder) and its entries: sub-folders first, then files with ``suffixes`` (None: all),
    hidden ones left out, at most 200. An unreadable folder lists nothing."""
    raw = Path(text.strip() or ".").expanduser()
    folder = raw if text.endswith(("/", os.sep)) or raw.is_dir() else raw.parent
    try:
        entries = sorted(folder.iterdir(), key=lambda p: (not p.is_dir(), p.name.lower()))
    except OSError:
        return folder, []
    out = [(p.name, p.is_dir()) for p in entries if not p.name.startswith(".")
           and (p.is_dir() or suffixes is None or p.suffix.lower() in suffixes)]
    return folder, out[:200]
