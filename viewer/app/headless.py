"""The viewer without a window: the headless GL context, the whole viewer rendered to an
image (``vfxviewer screenshot``), scripted actions (``--actions``) and the state dump
(``--dump-state``).
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.app.viewer_app import ViewerApp
from viewer.bounds import VIEWER_FRAMES
from viewer.errors import ScenarioError
from viewer.inputs import ACTIONS_MAX_BYTES, read_text_capped
from viewer.render.context import headless_context
from viewer.sim import inspect
from viewer.sim.scenario import read_json
from viewer.ui import layout
from viewer.ui.action_args import parse_action


def create_headless_context() -> moderngl.Context:
    """The platform's headless context (``viewer.render.context``: EGL on Linux, WGL /
    CGL on Windows / macOS, ``VIEWER_GL_BACKEND`` overrides)."""
    return headless_context()


def render_headless(size=(1280, 720), frames: int = 4, session=None,
                    setup=None, actions=(), errors: list | None = None) -> np.ndarray:
    """The whole viewer (3D view and panels) rendered headless, as HxWx4 uint8. ``errors``
    receives the error panel's lines."""
    ctx = create_headless_context()
    try:
        app = ViewerApp(ctx, display_size=size, ini_path=None, session=session)
        try:
            if setup is not None:
                setup(app)
            return app.capture(size, frames=frames, actions=actions)
        finally:
            if errors is not None:
                errors.extend(e.line() for e in app.errors.entries)
            app.release()
    finally:
        ctx.release()


def load_actions(path) -> list[tuple[int, object]]:
    """An ``--actions`` file (JSON, see ``parse_actions``); no path gives no actions."""
    if not path:
        return []
    text = read_text_capped(path, ACTIONS_MAX_BYTES, ScenarioError, "actions")
    try:
        return parse_actions(read_json(text, str(path), "actions"))
    except ScenarioError as err:
        raise err.located(file=str(path)) from None


def parse_actions(data) -> list[tuple[int, object]]:
    """``[{"frame": N, "command": "Seek", "t": 0.5}, ...]`` -> [(frame, Command)]; strings
    "0x..." become ints. Drives the real window from tests and scripts."""
    if not isinstance(data, list):
        raise ScenarioError("actions: expected a JSON list of {frame, command, ...}")
    # each entry checked and named: viewer.ui.action_args.parse_action
    return [parse_action(item, f"actions[{i}]", VIEWER_FRAMES.hi)
            for i, item in enumerate(data)]


def object_states(world) -> list[dict]:
    """Each live object as the window shows it, by id: state bits (hex), hidden, position
    and live emitters (the same values ``trace`` prints as state and emitter events)."""
    emitters: dict[int, int] = {}
    for em in inspect.live_emitters(world):
        emitters[em.owner] = emitters.get(em.owner, 0) + 1
    return [{"id": o.id, "state": f"0x{o.state:08X}", "hidden": bool(o.hidden),
             "position": [float(v) for v in o.position], "emitters": emitters.get(o.id, 0)}
            for o in sorted(inspect.object_summaries(world), key=lambda o: o.id)]


def session_state(app: ViewerApp) -> dict:
    """What the viewer shows now, for --dump-state."""
    s = app.session
    out = {"frames": app.frame_count, "errors": [e.line() for e in app.errors.entries],
           "camera": {"target": list(app.controller.view.camera.target),
                      "distance": app.controller.view.camera.distance}}
    cmp = app.controller.view.compare
    cmp.collect(wait=True)
    out["compare"] = {"mode": cmp.mode, "figures": len(cmp.figures),
                      "reference": cmp.settings_json(),
                      "frames": 0 if cmp.track is None else len(cmp.track.frames)}
    out["title"] = app.title()
    out["quit_prompt"] = app.quit_prompt
    out["open_prompt"] = app.open_prompt is not None
    out["front_tabs"] = layout.front_tabs()
    if s is not None:
        out.update(s.stats())
        out["modified"] = s.modified
        out["undo"] = len(s.history.undo_stack)
        out["playing"] = s.playback.playing
        out["objects"] = object_states(s.world)
        out["events"] = len(s.events())
    return out
