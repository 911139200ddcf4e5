"""ImGui plumbing: a moderngl renderer for ImGui draw data and full input forwarding.

moderngl-window 3.1.1's own integration forwards only a dozen special keys (no letters, no
modifiers), never updates ``io.delta_time`` and has fixed-size vertex buffers. This module
keeps its shader/draw approach (we subclass its ``ModernGLRenderer``) but:

- grows the vertex and index buffers to fit any frame, draws from each command's
  ``idx_offset``, and skips (rather than raises on) a texture released mid-frame;
- maps every key moderngl-window knows (letters, digits, F-keys, keypad, punctuation,
  modifiers) to ``imgui.Key`` by name and sends the ``mod_*`` keys on every event;
- uses ImGui's event queue (``add_mouse_pos_event``, ``add_mouse_button_event``...) so fast
  clicks between two frames are not lost; a press at a position ImGui has not had for a
  frame yet waits one frame (``ImGuiInput.begin_frame``), so the item under the mouse is
  hovered before it is clicked (a dock tab or any item that allows overlap ignores a click
  that arrives with the move onto it: at a slow frame rate a quick move-and-click was
  lost, e.g. a cut dock tab was highlighted but not selected).

It never touches the window library directly: :class:`ImGuiInput` takes plain values, and
``viewer/app.py`` calls it from the window callbacks (or from tests).
"""

from __future__ import annotations

import ctypes
import warnings

import moderngl
import numpy as np
from imgui_bundle import imgui

from viewer.ui.shortcuts import KeyPress

with warnings.catch_warnings():
    # moderngl_window's package import pulls in its scene module, which imports PyGLM by
    # its deprecated name; not our code.
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    from moderngl_window.integrations.imgui_bundle import ModernGLRenderer

# moderngl-window key attribute name -> imgui.Key attribute name.
_KEY_NAMES: dict[str, str] = {
    "ESCAPE": "escape", "SPACE": "space", "ENTER": "enter", "PAGE_UP": "page_up",
    "PAGE_DOWN": "page_down", "LEFT": "left_arrow", "RIGHT": "right_arrow",
    "UP": "up_arrow", "DOWN": "down_arrow", "LEFT_SHIFT": "left_shift",
    "RIGHT_SHIFT": "right_shift", "LEFT_CTRL": "left_ctrl", "RIGHT_CTRL": "right_ctrl",
    "LEFT_ALT": "left_alt", "RIGHT_ALT": "right_alt", "TAB": "tab", "COMMA": "comma",
    "MINUS": "minus", "PERIOD": "period", "SLASH": "slash", "SEMICOLON": "semicolon",
    "EQUAL": "equal", "LEFT_BRACKET": "left_bracket", "RIGHT_BRACKET": "right_bracket",
    "BACKSLASH": "backslash", "BACKSPACE": "backspace", "INSERT": "insert",
    "DELETE": "delete", "HOME": "home", "END": "end", "CAPS_LOCK": "caps_lock",
}
_KEY_NAMES.update({f"F{i}": f"f{i}" for i in range(1, 13)})
_KEY_NAMES.update({f"NUMBER_{i}": f"_{i}" for i in range(10)})
_KEY_NAMES.update({f"NUMPAD_{i}": f"keypad{i}" for i in range(10)})
_KEY_NAMES.update({chr(c): chr(c).lower() for c in range(ord("A"), ord("Z") + 1)})

# Extra pyglet key names (pyglet.window.key) that moderngl-window's Keys lacks.
PYGLET_EXTRA: dict[str, str] = {
    "RCTRL": "right_ctrl", "LALT": "left_alt", "RALT": "right_alt", "LMETA": "left_super",
    "RMETA": "right_super", "LWINDOWS": "left_super", "RWINDOWS": "right_super",
    "APOSTROPHE": "apostrophe", "GRAVE": "grave_accent", "NUM_ENTER": "keypad_enter",
    "NUM_ADD": "keypad_add", "NUM_SUBTRACT": "keypad_subtract",
    "NUM_MULTIPLY": "keypad_multiply", "NUM_DIVIDE": "keypad_divide",
    "NUM_DECIMAL": "keypad_decimal", "BRACKETLEFT": "left_bracket",
    "BRACKETRIGHT": "right_bracket",
}


def build_keymap(keys_namespace, extra_module=None) -> dict:
    """{backend key code: imgui.Key} from a moderngl-window ``Keys`` class (and optionally
    the window library's own key module, e.g. ``pyglet.window.key``)."""
    keymap = {}
    for attr, imgui_name in _KEY_NAMES.items():
        code = getattr(keys_namespace, attr, None)
        if code is not None:
            keymap[code] = getattr(imgui.Key, imgui_name)
    if extra_module is not None:
        for attr, imgui_name in PYGLET_EXTRA.items():
            code = getattr(extra_module, attr, None)
            if code is not None and code not in keymap:
                keymap[code] = getattr(imgui.Key, imgui_name)
    return keymap


class ImGuiInput:
    """Forwards input to the current ImGui context's IO event queue."""

    def __init__(self, keymap: dict | None = None) -> None:
        self.keymap = keymap or {}
        # every key press since the app last took them, in order, with its modifiers
        # (viewer/ui/shortcuts.py: one action per press whatever the frame rate)
        self.presses: list = []
        self._mods = (False, False, False)
        # mouse events held back until ImGui has had the new position for a frame
        self._held: list[tuple] = []
        self._hold_until = 0
        self._frame = 0
        self._pos: tuple[float, float] | None = None    # the last position sent or held
        self._seen: tuple[float, float] | None = None   # the position ImGui has had

    def begin_frame(self) -> None:
        """Call before each ``imgui.new_frame``: sends the mouse events held back once a
        frame has passed with the position they happen at."""
        self._frame += 1
        if self._held and self._frame > self._hold_until:
            held, self._held = self._held, []
            io = imgui.get_io()
            for kind, *args in held:
                getattr(io, kind)(*args)
        if not self._held:
            self._seen = self._pos

    def _mouse(self, kind: str, *args) -> None:
        if self._held:
            self._held.append((kind, *args))
        else:
            getattr(imgui.get_io(), kind)(*args)

    def take_presses(self) -> list:
        out, self.presses = self.presses, []
        return out

    def modifiers(self, ctrl: bool, shift: bool, alt: bool, super_: bool = False) -> None:
        self._mods = (bool(ctrl), bool(shift), bool(alt))
        io = imgui.get_io()
        io.add_key_event(imgui.Key.mod_ctrl, bool(ctrl))
        io.add_key_event(imgui.Key.mod_shift, bool(shift))
        io.add_key_event(imgui.Key.mod_alt, bool(alt))
        io.add_key_event(imgui.Key.mod_super, bool(super_))

    def key(self, code, down: bool) -> bool:
        """Send a backend key; returns False for keys ImGui has no name for."""
        key = code if isinstance(code, imgui.Key) else self.keymap.get(code)
        if key is None:
            return False
        imgui.get_io().add_key_event(key, bool(down))
        if down:
            self.presses.append(KeyPress(key.name, *self._mods))
        return True

    @staticmethod
    def char(text: str) -> None:
        io = imgui.get_io()
        for ch in text:
            io.add_input_character(ord(ch))

    def mouse_pos(self, x: float, y: float) -> None:
        self._pos = (float(x), float(y))
        self._mouse("add_mouse_pos_event", *self._pos)

    def mouse_button(self, index: int, down: bool) -> None:
        """index: 0 left, 1 right, 2 middle (ImGui's order). A press where ImGui has not
        had the mouse for a frame yet waits one frame (and every mouse event after it)."""
        if down and not self._held and self._pos != self._seen:
            self._held.append(("add_mouse_button_event", int(index), True))
            self._hold_until = self._frame + 1
            return
        self._mouse("add_mouse_button_event", int(index), bool(down))

    def wheel(self, dx: float, dy: float) -> None:
        self._mouse("add_mouse_wheel_event", float(dx), float(dy))

    @staticmethod
    def focus(focused: bool) -> None:
        imgui.get_io().add_focus_event(bool(focused))


SOLID_FRAGMENT_SHADER = """
    #version 330
    in vec2 Frag_UV;
    in vec4 Frag_Color;
    out vec4 Out_Color;
    void main() {
        Out_Color = Frag_Color;
    }
"""
_VERTEX = np.dtype([("pos", "<f4", 2), ("uv", "<f4", 2), ("col", "<u4")])   # ImDrawVert
_INDEX = np.uint16 if imgui.INDEX_SIZE == 2 else np.uint32
OPAQUE_MIN_AREA = 4096.0   # px: a solid triangle this large is drawn without blending


def _opaque_triangles(vtx: np.ndarray, idx: np.ndarray, white: np.ndarray):
    """Per triangle of a draw list: a solid fill (every vertex at the atlas's white texel)
    of alpha 255 at least OPAQUE_MIN_AREA large; None when there is none."""
    solid = (vtx["col"] >> 24 == 255) & (vtx["uv"] == white).all(axis=1)
    if not solid.any():
        return None
    tri = idx[: len(idx) // 3 * 3].reshape(-1, 3)
    mask = solid[tri].all(axis=1)
    if not mask.any():
        return None
    p = vtx["pos"][tri[mask]]
    area = 0.5 * np.abs((p[:, 1, 0] - p[:, 0, 0]) * (p[:, 2, 1] - p[:, 0, 1])
                        - (p[:, 2, 0] - p[:, 0, 0]) * (p[:, 1, 1] - p[:, 0, 1]))
    mask[mask] = area >= OPAQUE_MIN_AREA
    return mask if mask.any() else None


def _texel_aligned(used: np.ndarray, texture) -> bool:
    """Whether the vertices of an image (an axis-aligned quad) put every pixel centre on a
    texel centre: integer corners, one texel per pixel."""
    pos, uv = used["pos"], used["uv"]
    if not (pos == np.round(pos)).all():
        return False
    span = pos.max(axis=0) - pos.min(axis=0)
    texels = (uv.max(axis=0) - uv.min(axis=0)) * np.array(texture.size, np.float32)
    return bool((span > 0).all() and (np.abs(texels - span) < 1e-3).all())


def _runs(opaque: np.ndarray):
    """(start, stop, opaque) runs of a command's triangles; None when none is opaque."""
    if not opaque.any():
        return None
    edges = np.flatnonzero(np.diff(opaque.view(np.int8))) + 1
    bounds = [0, *edges.tolist(), len(opaque)]
    return [(a, b, bool(opaque[a])) for a, b in zip(bounds[:-1], bounds[1:])]


class ImGuiRenderer(ModernGLRenderer):
    """Draws ImGui draw data into whatever framebuffer is bound, growing its buffers."""

    def __init__(self, ctx: moderngl.Context, display_size=(1280, 720)) -> None:
        super().__init__(ctx=ctx, display_size=display_size)
        self._vtx_capacity = self._vertex_buffer.size
        self._idx_capacity = self._index_buffer.size
        self.opaque_draws = self.nearest_draws = 0
        # Solid fills (every vertex at the atlas's white texel, which samples as exactly
        # 1.0) leave Frag_Color unchanged: the same vertex shader with a fragment shader
        # that does not sample gives the same pixels for less llvmpipe work per pixel.
        self._solid_prog = ctx.program(vertex_shader=self.VERTEX_SHADER_SRC,
                                       fragment_shader=SOLID_FRAGMENT_SHADER)
        self._solid_vao = self._solid_vertex_array()
        self._nearest = ctx.sampler(filter=(moderngl.NEAREST, moderngl.NEAREST),
                                    repeat_x=False, repeat_y=False)

    def _solid_vertex_array(self) -> moderngl.VertexArray:
        return self.ctx.vertex_array(
            self._solid_prog, [(self._vertex_buffer, "2f 8x 4f1", "Position", "Color")],
            index_buffer=self._index_buffer, index_element_size=imgui.INDEX_SIZE)

    def _invalidate_device_objects(self) -> None:
        for obj in (getattr(self, "_solid_vao", None), getattr(self, "_solid_prog", None),
                    getattr(self, "_nearest", None)):
            if obj is not None:
                obj.release()
        self._solid_vao = self._solid_prog = self._nearest = None
        super()._invalidate_device_objects()

    def unregister_texture(self, texture: moderngl.Texture) -> None:
        """Forget a texture given to ``register_texture`` (nothing when it was not)."""
        self._textures.pop(texture.glo, None)

    def _ensure_capacity(self, vtx_bytes: int, idx_bytes: int) -> None:
        if vtx_bytes <= self._vtx_capacity and idx_bytes <= self._idx_capacity:
            return
        self._vao.release()
        if vtx_bytes > self._vtx_capacity:
            self._vertex_buffer.release()
            self._vtx_capacity = max(vtx_bytes, self._vtx_capacity * 2)
            self._vertex_buffer = self.ctx.buffer(reserve=self._vtx_capacity)
        if idx_bytes > self._idx_capacity:
            self._index_buffer.release()
            self._idx_capacity = max(idx_bytes, self._idx_capacity * 2)
            self._index_buffer = self.ctx.buffer(reserve=self._idx_capacity)
        self._vao = self.ctx.vertex_array(
            self._prog, [(self._vertex_buffer, "2f 2f 4f1", "Position", "UV", "Color")],
            index_buffer=self._index_buffer, index_element_size=imgui.INDEX_SIZE)
        self._solid_vao.release()
        self._solid_vao = self._solid_vertex_array()

    def _set_blending(self) -> None:
        self.ctx.enable_only(moderngl.BLEND)
        self.ctx.blend_equation = moderngl.FUNC_ADD
        # Colour blends by alpha; destination alpha accumulates coverage, so an opaque
        # background stays opaque and PNG captures have alpha 255.
        self.ctx.blend_func = (moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA,
                               moderngl.ONE, moderngl.ONE_MINUS_SRC_ALPHA)

    def blended(self, col: int, under: tuple[float, float, float, float]) -> tuple:
        """The RGBA (0..1, each an exact 8-bit level) that drawing a solid ImGui colour
        ``col`` (packed ImU32) over a framebuffer cleared to ``under`` leaves, drawn by
        this renderer's own shader and blending on this context: a clear to it gives the
        very pixels the drawn layer would (the app folds the dockspace's full-screen
        background into its clear this way)."""
        ctx = self.ctx
        bound, viewport, scissor = ctx.fbo, ctx.viewport, ctx.scissor
        u, v = self.io.fonts.tex_uv_white_pixel
        vtx = np.zeros(4, np.dtype([("pos", "<f4", 2), ("uv", "<f4", 2), ("col", "<u4")]))
        vtx["pos"] = [(0, 0), (1, 0), (1, 1), (0, 1)]
        vtx["uv"] = (u, v)
        vtx["col"] = col
        idx = np.array([0, 1, 2, 0, 2, 3], np.uint16 if imgui.INDEX_SIZE == 2 else np.uint32)
        tex = ctx.texture((1, 1), 4)
        fbo = ctx.framebuffer(color_attachments=[tex])
        vbo, ibo = ctx.buffer(vtx.tobytes()), ctx.buffer(idx.tobytes())
        vao = ctx.vertex_array(self._prog, [(vbo, "2f 2f 4f1", "Position", "UV", "Color")],
                               index_buffer=ibo, index_element_size=imgui.INDEX_SIZE)
        try:
            fbo.use()
            ctx.viewport, ctx.scissor = (0, 0, 1, 1), None
            fbo.clear(*under)
            self.projMat.value = (2.0, 0.0, 0.0, 0.0, 0.0, -2.0, 0.0, 0.0,
                                  0.0, 0.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0)
            self._set_blending()
            self._font_texture.use(0)
            vao.render(moderngl.TRIANGLES)
            rgba = fbo.read(components=4, alignment=1)
        finally:
            for obj in (vao, vbo, ibo, fbo, tex):
                obj.release()
            bound.use()
            ctx.viewport, ctx.scissor = viewport, scissor
        return tuple(b / 255.0 for b in rgba)

    def render(self, draw_data, recolour: tuple | None = None,
               opaque_textures: set | frozenset = frozenset()) -> None:
        """Draw ``draw_data`` into the bound framebuffer. ``recolour``: (the draw list
        whose vertices to change, packed colour from, packed colour to), applied before
        the upload (the app makes the docked windows' translucent backgrounds the opaque
        colour they blend to). Large solid triangles of alpha 255 (window backgrounds)
        are drawn without blending: an alpha-255 blend replaces the pixel exactly, so
        the result is the same, and llvmpipe shades them without reading the framebuffer
        and drops what they cover in each whole tile. ``opaque_textures``: GL names of
        textures whose alpha is 255 everywhere (the 3D view): an image of one drawn with
        an alpha-255 tint is drawn without blending too."""
        io = self.io
        display_w, display_h = io.display_size
        scale_x, scale_y = io.display_framebuffer_scale
        fb_w, fb_h = int(display_w * scale_x), int(display_h * scale_y)
        if fb_w <= 0 or fb_h <= 0:
            return
        self.projMat.value = self._solid_prog["ProjMtx"].value = (
            2.0 / display_w, 0.0, 0.0, 0.0, 0.0, -2.0 / display_h, 0.0, 0.0,
            0.0, 0.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0)
        draw_data.scale_clip_rects(imgui.ImVec2(scale_x, scale_y))
        self._set_blending()
        self.opaque_draws = 0   # draw calls made without blending (tests)
        self.nearest_draws = 0   # images drawn texel for pixel with NEAREST (tests)
        white = np.array(io.fonts.tex_uv_white_pixel, np.float32)
        font = self._font_texture.glo
        for cmd_list in draw_data.cmd_lists:
            vtx_bytes = cmd_list.vtx_buffer.size() * imgui.VERTEX_SIZE
            idx_bytes = cmd_list.idx_buffer.size() * imgui.INDEX_SIZE
            self._ensure_capacity(vtx_bytes, idx_bytes)
            vtx_mem = (ctypes.c_byte * vtx_bytes).from_address(cmd_list.vtx_buffer.data_address())
            idx_mem = (ctypes.c_byte * idx_bytes).from_address(cmd_list.idx_buffer.data_address())
            vtx = np.frombuffer(vtx_mem, _VERTEX)
            if recolour is not None and recolour[0] is not None \
                    and recolour[0].vtx_buffer.data_address() == cmd_list.vtx_buffer.data_address():
                cols = vtx["col"]
                cols[cols == recolour[1]] = recolour[2]
            self._vertex_buffer.write(vtx_mem)
            self._index_buffer.write(idx_mem)
            opaque = _opaque_triangles(vtx, np.frombuffer(idx_mem, _INDEX), white)
            for cmd in cmd_list.cmd_buffer:
                texture = self._textures.get(cmd.texture_id)
                if texture is None:
                    continue  # a texture released since the UI was built: skip, not crash
                texture.use(0)
                x0, y0, x1, y1 = cmd.clip_rect
                if x1 <= x0 or y1 <= y0:
                    continue
                self.ctx.scissor = (int(x0), int(fb_h - y1), int(x1 - x0), int(y1 - y0))
                first, count = cmd.idx_offset, cmd.elem_count
                runs, vao, nearest = None, self._vao, False
                if opaque is not None and cmd.texture_id == font:
                    runs = _runs(opaque[first // 3:(first + count) // 3])
                    vao = self._solid_vao
                elif cmd.texture_id in opaque_textures:
                    used = vtx[np.frombuffer(idx_mem, _INDEX)[first:first + count]]
                    if (used["col"] >> 24 == 255).all():
                        runs = [(0, count // 3, True)]
                        if (scale_x, scale_y) == (1.0, 1.0) and _texel_aligned(used, texture):
                            # each pixel centre on a texel centre: LINEAR samples exactly
                            # that texel, as NEAREST does with less work
                            self._nearest.use(0)
                            nearest = True
                            self.nearest_draws += 1
                if runs is None:
                    self._vao.render(moderngl.TRIANGLES, vertices=count, first=first)
                    continue
                for start, stop, solid in runs:
                    if solid:
                        self.opaque_draws += 1
                        self.ctx.disable(moderngl.BLEND)
                    (vao if solid else self._vao).render(
                        moderngl.TRIANGLES, vertices=3 * (stop - start), first=first + 3 * start)
                    if solid:
                        self.ctx.enable(moderngl.BLEND)
                if nearest:
                    self._nearest.clear(0)
        self.ctx.scissor = None
