"""The "Viewport" window: shows the 3D view's offscreen texture and turns mouse input over
it into camera commands (left drag orbit, right or middle drag pan, wheel zoom; with the
viewport focused W/A/S/D/Q/E fly, F frames the selection)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.ui.commands import (
    CameraFly,
    CameraFrameSelected,
    CameraOrbit,
    CameraPan,
    CameraZoom,
    Command,
    SetWipeSplit,
)

WIPE_GRAB_PX = 6.0
WIPE_COLOUR = (1.0, 1.0, 0.0, 1.0)


def wipe_grabbed(split: float, x: float, width: float, tolerance: float = WIPE_GRAB_PX) -> bool:
    """Does a press at viewport x grab the wipe line (within ``tolerance`` pixels)?"""
    return abs(x - split * width) <= tolerance


def wipe_split_at(x: float, width: float) -> float:
    """The split (0..1) that puts the wipe line under viewport x."""
    return min(max(x / max(width, 1.0), 0.0), 1.0)


@dataclass
class ViewportInput:
    """What the view saw this frame (filled from ImGui, or by tests)."""
    hovered: bool = False
    focused: bool = False
    drag_left: tuple[float, float] = (0.0, 0.0)
    drag_right: tuple[float, float] = (0.0, 0.0)
    drag_middle: tuple[float, float] = (0.0, 0.0)
    wheel: float = 0.0
    keys: frozenset = frozenset()   # lower-case letters held while focused
    pressed: frozenset = frozenset()  # lower-case letters pressed this frame
    height_px: float = 1.0
    dt: float = 0.0
    fly_speed: float = 4.0          # metres per second


def camera_commands(inp: ViewportInput) -> list[Command]:
    """Pure mapping from viewport input to camera commands (tested without GL)."""
    out: list[Command] = []
    if inp.hovered or inp.focused:
        if inp.drag_left != (0.0, 0.0):
            out.append(CameraOrbit(*inp.drag_left))
        pan = (inp.drag_right[0] + inp.drag_middle[0], inp.drag_right[1] + inp.drag_middle[1])
        if pan != (0.0, 0.0):
            out.append(CameraPan(pan[0], pan[1], inp.height_px))
    if inp.hovered and inp.wheel:
        out.append(CameraZoom(inp.wheel))
    if inp.focused:
        step = inp.fly_speed * inp.dt
        fwd = ("w" in inp.keys) - ("s" in inp.keys)
        right = ("d" in inp.keys) - ("a" in inp.keys)
        up = ("e" in inp.keys) - ("q" in inp.keys)
        if fwd or right or up:
            out.append(CameraFly(fwd * step, right * step, up * step))
        if "f" in inp.pressed:
            out.append(CameraFrameSelected())
    return out


def project(camera, size, position) -> tuple[float, float] | None:
    """World position -> viewport pixels (x right, y down), or None behind the eye."""
    return project_many(camera, size, [position])[0]


def project_many(camera, size, positions) -> list[tuple[float, float] | None]:
    """``project`` of each of ``positions`` with one view-projection matrix for all (the
    selected emitter's particle rings: up to HIGHLIGHT_MAX points a frame)."""
    import numpy as np

    w, h = size
    pts = np.asarray(positions, np.float64).reshape(-1, 3)
    clip = np.concatenate([pts, np.ones((len(pts), 1))], axis=1) @ \
        camera.view_projection(w / max(h, 1)).T
    ahead = clip[:, 3] > 1e-9
    with np.errstate(divide="ignore", invalid="ignore"):
        ndc = clip[:, :3] / clip[:, 3:4]
    xs = ((ndc[:, 0] + 1) / 2 * w).tolist()
    ys = ((1 - ndc[:, 1]) / 2 * h).tolist()
    return [(x, y) if a else None for x, y, a in zip(xs, ys, ahead.tolist(), strict=True)]


def mesh_extent(gfxobj, degrade_mode: int = 1) -> tuple:
    """(centre, half diagonal, degrade mode) of a GfxObj's vertices' box, in its own
    units: where a particle drawn with it appears around its position (a unit quad from
    its corner spans (0, 0)..(1, 1): drawn half a metre off its position)."""
    verts = () if gfxobj is None or gfxobj.vertex_array is None else \
        gfxobj.vertex_array.vertices
    if not verts:
        return (0.0, 0.0, 0.0), 0.0, int(degrade_mode)
    lo = [min(v.origin[k] for v in verts) for k in range(3)]
    hi = [max(v.origin[k] for v in verts) for k in range(3)]
    centre = tuple((a + b) / 2.0 for a, b in zip(lo, hi))
    return centre, math.dist(lo, hi) / 2.0, int(degrade_mode)


def drawn_centre(p, extents, eye=None) -> tuple[float, float, float]:
    """Where particle row ``p`` is drawn: its position plus its mesh's centre, turned and
    scaled as the particle vertex shader turns its corners (pos + R * corner * scale: R
    its orientation, or for a billboard, degrade mode 2, its heading away from ``eye``,
    Frame::set_vector_heading); ``extents``: {GfxObj DID: mesh_extent}, its position
    when its mesh is unknown."""
    ext = None if extents is None else extents.get(getattr(p, "gfxobj", 0))
    if ext is None:
        return tuple(p.position)
    local = tuple(c * p.scale for c in ext[0])
    if len(ext) > 2 and ext[2] == 2 and eye is not None:
        from viewer.render.degrade import heading_rotation
        off = heading_rotation([p.position[k] - eye[k] for k in range(3)]) @ local
    else:
        from viewer.sim.frame import quat_rotate
        off = quat_rotate(p.orientation, local)
    return tuple(float(p.position[k] + off[k]) for k in range(3))


def pick_particle(emitters, camera, size, click, radius_px: float = 8.0, extents=None):
    """The (handle, slot) of the live particle drawn nearest to ``click`` (viewport
    pixels): its drawn centre (``drawn_centre``) within ``radius_px`` or within its drawn
    mesh's reach on screen; nearer the eye wins a tie. None when nothing is close."""
    import numpy as np

    rows = [(em.handle, p) for em in emitters for p in em.particles]
    if not rows:
        return None
    centres = [drawn_centre(p, extents, camera.eye()) for _, p in rows]
    right = camera.right()
    reach = [0.0 if extents is None or extents.get(getattr(p, "gfxobj", 0)) is None
             else extents[p.gfxobj][1] * abs(p.scale) for _, p in rows]
    points = project_many(camera, size, centres + [tuple(np.add(ctr, right * r))
                                                   for ctr, r in zip(centres, reach)])
    n = len(rows)
    best, best_key = None, None
    eye = camera.eye()
    for k, ((handle, p), xy) in enumerate(zip(rows, points[:n])):
        if xy is None:
            continue
        edge = points[n + k]
        limit = radius_px if edge is None else max(radius_px, math.dist(xy, edge))
        d = math.hypot(xy[0] - click[0], xy[1] - click[1])
        if d > limit:
            continue
        key = (round(d, 3), float(np.linalg.norm(np.asarray(centres[k]) - eye)))
        if best_key is None or key < best_key:
            best, best_key = (handle, p.slot), key
    return best


_press: dict[str, tuple[float, float]] = {}   # UI-only: where the left button went down

SELECTED_PARTICLE = (1.0, 1.0, 0.2, 1.0)
SELECTED_EMITTER = (0.3, 0.9, 1.0, 1.0)
SELECTED_OBJECT = (1.0, 0.5, 0.9, 1.0)


def _rings(overlay):
    """Overlay rings: None, one (x, y) (the selected particle), or ((x, y), radius, rgba)s."""
    if overlay is None:
        return []
    if len(overlay) == 2 and not isinstance(overlay[0], (tuple, list)):
        return [(tuple(overlay), 7.0, SELECTED_PARTICLE)]
    return list(overlay)


def pick_object(objects, camera, size, click, radius_px: float = 24.0):
    """The id of the object whose origin is drawn nearest to ``click``, within
    ``radius_px``, or None."""
    best, best_d = None, radius_px
    for o in objects:
        xy = project(camera, size, o.position)
        if xy is None:
            continue
        d = math.hypot(xy[0] - click[0], xy[1] - click[1])
        if d <= best_d:
            best, best_d = o.id, d
    return best


def fit_aspect(avail: tuple[int, int], aspect: float | None) -> tuple[int, int]:
    """The largest ``aspect`` (w / h) area inside ``avail`` (None: all of it)."""
    w, h = max(1, int(avail[0])), max(1, int(avail[1]))
    if aspect is None or not aspect > 0 or not math.isfinite(aspect):
        return w, h
    if w / h > aspect:
        return max(1, round(h * aspect)), h
    return w, max(1, round(w / aspect))


def draw_viewport_panel(texture_id: int | None, overlay=None, wipe_split: float | None = None,
                        aspect: float | None = None, legend=None
                        ) -> tuple[list[Command], tuple[int, int], tuple[float, float] | None]:
    """Returns (commands, the content size the 3D view should have next frame, a left
    click without drag in viewport pixels or None). ``overlay``: viewport pixels of the
    selected particle, ringed. ``wipe_split``: the comparison wipe is shown; a left drag
    that starts on its line moves it (instead of orbiting). ``aspect``: show the image at
    this shape, centred (a comparison at the recording's shape), else fill the panel.
    ``legend``: (particle colour mode, ``colour_legend.legend_entries``) drawn in the
    view's top-left corner."""
    from imgui_bundle import imgui

    imgui.push_style_var(imgui.StyleVar_.window_padding, imgui.ImVec2(0, 0))
    visible, _ = imgui.begin("Viewport", flags=imgui.WindowFlags_.no_scrollbar
                             | imgui.WindowFlags_.no_scroll_with_mouse)
    imgui.pop_style_var()
    commands: list[Command] = []
    size = (1, 1)
    click = None
    try:
        if visible:
            avail = imgui.get_content_region_avail()
            size = fit_aspect((avail.x, avail.y), aspect)
            pos = imgui.get_cursor_pos()
            imgui.set_cursor_pos(imgui.ImVec2(pos.x + (avail.x - size[0]) // 2,
                                              pos.y + (avail.y - size[1]) // 2))
            top_left, local = _view_area(imgui, texture_id, size)
            click, wiping = _mouse_press(imgui, local, size, wipe_split, commands)
            _decorations(imgui, top_left, size, wipe_split, overlay)
            if legend is not None:
                from viewer.ui.colour_legend import draw_legend
                draw_legend(imgui, top_left, *legend)
            commands = commands + camera_commands(_viewport_input(imgui, size, wiping))
    finally:
        imgui.end()
    return commands, size, click


def _view_area(imgui, texture_id: int | None, size: tuple[int, int]):
    """The 3D view's image under an invisible button that owns the mouse (drags that start
    on the view keep going outside it and never move the window). Returns the area's
    top-left in screen pixels and the mouse in viewport pixels."""
    origin = imgui.get_cursor_pos()
    if texture_id is not None:
        # GL textures are bottom-up: flip V.
        imgui.image(imgui.ImTextureRef(texture_id), imgui.ImVec2(*size), imgui.ImVec2(0, 1),
                    imgui.ImVec2(1, 0))
    imgui.set_cursor_pos(origin)
    imgui.invisible_button("##viewport_area", imgui.ImVec2(*size),
                           imgui.ButtonFlags_.mouse_button_left
                           | imgui.ButtonFlags_.mouse_button_right
                           | imgui.ButtonFlags_.mouse_button_middle)
    io = imgui.get_io()
    top_left = imgui.get_item_rect_min()
    return top_left, (io.mouse_pos.x - top_left.x, io.mouse_pos.y - top_left.y)


def _mouse_press(imgui, local, size, wipe_split: float | None, commands: list[Command]):
    """A left press on the view: a drag of the wipe line (SetWipeSplit commands) when it
    started on the line, else a click when released within 3 px. Returns (click or None,
    whether the wipe is being dragged)."""
    click = None
    if imgui.is_item_activated() and imgui.is_mouse_down(imgui.MouseButton_.left):
        _press["left"] = local
        if wipe_split is not None and wipe_grabbed(wipe_split, local[0], size[0]):
            _press["wipe"] = local
    wiping = "wipe" in _press and wipe_split is not None
    if wiping and imgui.is_item_active():
        split = wipe_split_at(local[0], size[0])
        if abs(split - wipe_split) > 1e-6:
            commands.append(SetWipeSplit(split))
    if imgui.is_item_deactivated():
        _press.pop("wipe", None)
    if imgui.is_item_deactivated() and "left" in _press:
        px, py = _press.pop("left")
        if math.hypot(local[0] - px, local[1] - py) <= 3.0 and not wiping:
            click = local
    return click, wiping


def _decorations(imgui, top_left, size, wipe_split: float | None, overlay) -> None:
    """The wipe's handle (a grip at mid-height) and the selection rings."""
    dl = imgui.get_window_draw_list()
    if wipe_split is not None:
        x = top_left.x + wipe_split * size[0]
        y = top_left.y + size[1] / 2
        dl.add_rect_filled(imgui.ImVec2(x - 3, y - 12), imgui.ImVec2(x + 3, y + 12),
                           imgui.get_color_u32(imgui.ImVec4(*WIPE_COLOUR)))
    for (x, y), radius, rgba in _rings(overlay):
        dl.add_circle(imgui.ImVec2(top_left.x + x, top_left.y + y), radius,
                      imgui.get_color_u32(imgui.ImVec4(*rgba)), 20, 2.0)


def _viewport_input(imgui, size, wiping: bool) -> ViewportInput:
    """This frame's mouse drags, wheel and fly keys over the view (the camera's input)."""
    io = imgui.get_io()
    active = imgui.is_item_active()
    hovered = imgui.is_item_hovered()
    focused = imgui.is_window_focused()
    inp = ViewportInput(hovered=hovered or active, focused=focused,
                        height_px=size[1], dt=io.delta_time)
    if active and not wiping:
        d = (io.mouse_delta.x, io.mouse_delta.y)
        if imgui.is_mouse_down(imgui.MouseButton_.left):
            inp.drag_left = d
        elif imgui.is_mouse_down(imgui.MouseButton_.right):
            inp.drag_right = d
        elif imgui.is_mouse_down(imgui.MouseButton_.middle):
            inp.drag_middle = d
    if hovered:
        inp.wheel = io.mouse_wheel
    if focused and not io.want_text_input:
        inp.keys, inp.pressed = _fly_keys(imgui)
    return inp


def _fly_keys(imgui) -> tuple[frozenset, frozenset]:
    """(held, pressed this frame) of the fly keys W A S D Q E and F."""
    held, pressed = set(), set()
    for ch in "wasdqef":
        key = getattr(imgui.Key, ch)
        if imgui.is_key_down(key):
            held.add(ch)
        if imgui.is_key_pressed(key, repeat=False):
            pressed.add(ch)
    return frozenset(held), frozenset(pressed)
