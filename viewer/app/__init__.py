"""The interactive viewer (the ``app`` layer): ``ViewerApp`` and its parts, the real
window and the headless viewer. See ``viewer/app/viewer_app.py`` for how it is put together.
"""

from viewer.app.headless import (
    create_headless_context,
    load_actions,
    parse_actions,
    render_headless,
    session_state,
)
from viewer.app.jobs import OpenLater, capture_events, paused_playback
from viewer.app.panels import recording_aspect
from viewer.app.prompts import FILE_KINDS, browse_folder
from viewer.app.scene_view import BACKGROUND, OVERLAYS
from viewer.app.viewer_app import HEADLESS_DT, ViewerApp
from viewer.app.window import run_window

__all__ = [
    "BACKGROUND",
    "FILE_KINDS",
    "HEADLESS_DT",
    "OVERLAYS",
    "OpenLater",
    "ViewerApp",
    "browse_folder",
    "capture_events",
    "create_headless_context",
    "load_actions",
    "parse_actions",
    "paused_playback",
    "recording_aspect",
    "render_headless",
    "run_window",
    "session_state",
]
