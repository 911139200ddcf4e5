"""README's panel list names the viewer's controls (issue 19): each View > Overlays entry,
each particle colour, and the menus and buttons of the working-day tools."""

from __future__ import annotations

from pathlib import Path

from viewer.app import OVERLAYS
from viewer.render.particle_debug import PARTICLE_COLOURS

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_names_every_overlay_colour_mode_and_working_day_control():
    text = " ".join(README.read_text(encoding="utf-8").split()).lower()
    for _, label in OVERLAYS:
        assert label.split(" (")[0].lower() in text, label
    for mode in PARTICLE_COLOURS:
        assert mode in text, mode
    for control in ("View > Overlays", "View > Particle colour", "View > Reset layout",
                    "Edit > Undo / Redo", "Ctrl+Z", "Solo", "Mute", "Counts over time",
                    "Emitter counts",
                    "Cancel", "Recent folders", "Show Errors", "Save / Discard / Cancel",
                    "Esc never quits", "Find offset", "Audit open DATs",
                    # issue 28: the Events panel, loop markers, Stats' split, the particle
                    # history, the colour legend
                    "**Events**", "Jump to", "Apply JSON", "**In** / **Out**",
                    "simulation, render and UI", "Particle history", "legend",
                    "0xFFFF0000 (anonymous)", "Play on object"):
        assert control.lower() in text, control
