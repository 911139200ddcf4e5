"""ImGui plumbing: our moderngl renderer for ImGui draw data and full input forwarding.

The renderer (:class:`ImGuiRenderer`) is ours, on moderngl: its own shader programs, buffers
and textures. It implements Dear ImGui 1.92's texture protocol (``RendererHasTextures``):
ImGui owns the pixels of its textures (the font atlas, baked glyph by glyph at whatever size
text is drawn) and asks the renderer, through ``ImDrawData.textures``, to create, update or
destroy the GPU copy (:meth:`ImGuiRenderer.update_textures`); draw commands name their
texture by ``ImDrawCmd.get_tex_id()``, which is a GL texture name: one of those textures or
one the app registered (:meth:`ImGuiRenderer.register_texture`: the 3D view, the comparison
composite). It also

- grows the vertex and index buffers to fit any frame, draws from each command's
  ``idx_offset``, and skips (rather than raises on) a texture released mid-frame;
- draws large opaque solid fills and alpha-255 images of opaque textures unblended, and an
  image placed texel for pixel with NEAREST sampling (the same pixels, less rasteriser work).

Input: :class:`ImGuiInput`

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

import moderngl
import numpy as np
from imgui_bundle import imgui

from viewer.ui.shortcuts import KeyPress

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


VERTEX_SHADER = """
    #version 330
    uniform mat4 ProjMtx;
    in vec2 Position;
    in vec2 UV;
    in vec4 Color;
    out vec2 Frag_UV;
    out vec4 Frag_Color;
    void main() {
        Frag_UV = UV;
        Frag_Color = Color;
        gl_Position = ProjMtx * vec4(Position.xy, 0, 1);
    }
"""
FRAGMENT_SHADER = """
    #version 330
    uniform sampler2D Texture;
    in vec2 Frag_UV;
    in vec4 Frag_Color;
    out vec4 Out_Color;
    void main() {
        Out_Color = Frag_Color * texture(Texture, Frag_UV.st);
    }
"""
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


_STATUS = imgui.ImTextureStatus
_FIRST_CAPACITY = 65536   # vertices / indices the buffers start with (grown to fit a frame)


class ImGuiRenderer:
    """Draws ImGui draw data into whatever framebuffer is bound, growing its buffers, and keeps
    the GPU copies of ImGui's own textures (ImGui 1.92's ``RendererHasTextures``)."""

    def __init__(self, ctx: moderngl.Context, display_size=(1280, 720)) -> None:
        if not imgui.get_current_context():
            raise RuntimeError("ImGuiRenderer needs a current ImGui context "
                               "(imgui.create_context)")
        self.ctx = ctx
        self.io = io = imgui.get_io()
        io.display_size = display_size
        io.delta_time = 1.0 / 60.0
        io.backend_flags |= imgui.BackendFlags_.renderer_has_textures
        platform = imgui.get_platform_io()
        platform.renderer_texture_max_width = platform.renderer_texture_max_height = \
            int(ctx.info["GL_MAX_TEXTURE_SIZE"])
        # ImTextureID (a GL texture name) -> texture: ImGui's own and those the app registers
        self._textures: dict[int, moderngl.Texture] = {}
        self._own: set[int] = set()   # the names of ImGui's own (ImTextureData) textures
        self.opaque_draws = self.nearest_draws = 0
        self._prog = ctx.program(vertex_shader=VERTEX_SHADER, fragment_shader=FRAGMENT_SHADER)
        self._prog["Texture"].value = 0
        # Solid fills (every vertex at the atlas's white texel, which samples as exactly
        # 1.0) leave Frag_Color unchanged: the same vertex shader with a fragment shader
        # that does not sample gives the same pixels for less llvmpipe work per pixel.
        self._solid_prog = ctx.program(vertex_shader=VERTEX_SHADER,
                                       fragment_shader=SOLID_FRAGMENT_SHADER)
        self._vtx_capacity = imgui.VERTEX_SIZE * _FIRST_CAPACITY
        self._idx_capacity = imgui.INDEX_SIZE * _FIRST_CAPACITY
        self._vertex_buffer = ctx.buffer(reserve=self._vtx_capacity)
        self._index_buffer = ctx.buffer(reserve=self._idx_capacity)
        self._vao = self._vertex_array(self._prog, "2f 2f 4f1", "Position", "UV", "Color")
        self._solid_vao = self._vertex_array(self._solid_prog, "2f 8x 4f1", "Position", "Color")
        self._nearest = ctx.sampler(filter=(moderngl.NEAREST, moderngl.NEAREST),
                                    repeat_x=False, repeat_y=False)

    def _vertex_array(self, prog, layout: str, *names: str) -> moderngl.VertexArray:
        return self.ctx.vertex_array(prog, [(self._vertex_buffer, layout, *names)],
                                     index_buffer=self._index_buffer,
                                     index_element_size=imgui.INDEX_SIZE)

    # --- textures ---------------------------------------------------------------------------
    def register_texture(self, texture: moderngl.Texture) -> None:
        """Let ImGui draw ``texture``: ``imgui.image(imgui.ImTextureRef(texture.glo), ...)``."""
        self._textures[texture.glo] = texture

    def unregister_texture(self, texture: moderngl.Texture) -> None:
        """Forget a texture given to ``register_texture`` (nothing when it was not); images
        of it still in this frame's draw data are skipped."""
        if texture.glo not in self._own and self._textures.get(texture.glo) is texture:
            del self._textures[texture.glo]

    def texture(self, tex_id: int) -> moderngl.Texture | None:
        """The texture a draw command's ``get_tex_id()`` names (None: none, or released)."""
        return self._textures.get(tex_id)

    def update_textures(self, textures=None) -> None:
        """Do what ImGui asks of its own textures (``ImDrawData.textures``, by default every
        texture of the current context): WantCreate -> a texture of its pixels, named to
        ImGui by its GL name; WantUpdates -> the updated rectangle uploaded; WantDestroy
        (once no frame uses it) -> released. Each is then marked done."""
        if textures is None:
            textures = imgui.get_platform_io().textures
        for tex in textures:
            status = tex.status
            if status == _STATUS.want_create:
                self._create_texture(tex)
            elif status == _STATUS.want_updates:
                self._update_texture(tex)
            elif status == _STATUS.want_destroy and tex.unused_frames > 0:
                self._destroy_texture(tex)

    def _create_texture(self, tex) -> None:
        self._release_own(tex.tex_id)
        alpha = tex.format == imgui.ImTextureFormat.alpha8
        texture = self.ctx.texture((tex.width, tex.height), 1 if alpha else 4,
                                   tex.get_pixels_array())
        texture.repeat_x = texture.repeat_y = False   # LINEAR, clamped: ImGui's sampling
        if alpha:
            texture.swizzle = "111R"   # Alpha8: white with the stored coverage as alpha
        self._textures[texture.glo] = texture
        self._own.add(texture.glo)
        tex.set_tex_id(texture.glo)
        tex.set_status(_STATUS.ok)

    def _update_texture(self, tex) -> None:
        texture = self._textures.get(tex.tex_id) if tex.tex_id in self._own else None
        if texture is None:   # never made, or released behind ImGui's back: make it whole
            self._create_texture(tex)
            return
        r = tex.update_rect
        if r.w > 0 and r.h > 0:
            pixels = tex.get_pixels_array().reshape(tex.height, tex.width, tex.bytes_per_pixel)
            texture.write(np.ascontiguousarray(pixels[r.y:r.y + r.h, r.x:r.x + r.w]),
                          viewport=(r.x, r.y, r.w, r.h))
        tex.set_status(_STATUS.ok)

    def _destroy_texture(self, tex) -> None:
        self._release_own(tex.tex_id)
        tex.set_tex_id(0)   # ImTextureID_Invalid
        tex.set_status(_STATUS.destroyed)

    def _release_own(self, tex_id: int) -> None:
        if tex_id in self._own:
            self._own.discard(tex_id)
            self._textures.pop(tex_id).release()

    # --- drawing ----------------------------------------------------------------------------
    def _ensure_capacity(self, vtx_bytes: int, idx_bytes: int) -> None:
        if vtx_bytes <= self._vtx_capacity and idx_bytes <= self._idx_capacity:
            return
        self._vao.release()
        self._solid_vao.release()
        if vtx_bytes > self._vtx_capacity:
            self._vertex_buffer.release()
            self._vtx_capacity = max(vtx_bytes, self._vtx_capacity * 2)
            self._vertex_buffer = self.ctx.buffer(reserve=self._vtx_capacity)
        if idx_bytes > self._idx_capacity:
            self._index_buffer.release()
            self._idx_capacity = max(idx_bytes, self._idx_capacity * 2)
            self._index_buffer = self.ctx.buffer(reserve=self._idx_capacity)
        self._vao = self._vertex_array(self._prog, "2f 2f 4f1", "Position", "UV", "Color")
        self._solid_vao = self._vertex_array(self._solid_prog, "2f 8x 4f1", "Position", "Color")

    def _set_blending(self) -> None:
        self.ctx.enable_only(moderngl.BLEND)
        self.ctx.blend_equation = moderngl.FUNC_ADD
        # Colour blends by alpha; destination alpha accumulates coverage, so an opaque
        # background stays opaque and PNG captures have alpha 255.
        self.ctx.blend_func = (moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA,
                               moderngl.ONE, moderngl.ONE_MINUS_SRC_ALPHA)

    def _projection(self, width: float, height: float) -> None:
        self._prog["ProjMtx"].value = self._solid_prog["ProjMtx"].value = (
            2.0 / width, 0.0, 0.0, 0.0, 0.0, -2.0 / height, 0.0, 0.0,
            0.0, 0.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0)

    def _font_texture(self):
        """(the font atlas's texture or None, its white texel's UV) as things stand now."""
        atlas = self.io.fonts.tex_data
        texture = None if atlas is None else self._textures.get(atlas.tex_id)
        return texture, np.array(self.io.fonts.tex_uv_white_pixel, np.float32)

    def blended(self, col: int, under: tuple[float, float, float, float]) -> tuple:
        """The RGBA (0..1, each an exact 8-bit level) that drawing a solid ImGui colour
        ``col`` (packed ImU32) over a framebuffer cleared to ``under`` leaves, drawn by
        this renderer's own shader and blending on this context: a clear to it gives the
        very pixels the drawn layer would (the app folds the dockspace's full-screen
        background into its clear this way)."""
        ctx = self.ctx
        self.update_textures()   # the atlas's texture exists once ImGui has asked for it
        font, white = self._font_texture()
        bound, viewport, scissor = ctx.fbo, ctx.viewport, ctx.scissor
        vtx = np.zeros(4, _VERTEX)
        vtx["pos"] = [(0, 0), (1, 0), (1, 1), (0, 1)]
        vtx["uv"] = white
        vtx["col"] = col
        idx = np.array([0, 1, 2, 0, 2, 3], _INDEX)
        tex = ctx.texture((1, 1), 4)
        fbo = ctx.framebuffer(color_attachments=[tex])
        vbo, ibo = ctx.buffer(vtx.tobytes()), ctx.buffer(idx.tobytes())
        # the textured program at the white texel; the solid one (the same pixels) before
        # ImGui has made its atlas
        prog, layout = ((self._prog, ("2f 2f 4f1", "Position", "UV", "Color")) if font
                        else (self._solid_prog, ("2f 8x 4f1", "Position", "Color")))
        vao = ctx.vertex_array(prog, [(vbo, *layout)], index_buffer=ibo,
                               index_element_size=imgui.INDEX_SIZE)
        try:
            fbo.use()
            ctx.viewport, ctx.scissor = (0, 0, 1, 1), None
            fbo.clear(*under)
            self._projection(1.0, 1.0)
            self._set_blending()
            if font is not None:
                font.use(0)
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
        """Draw ``draw_data`` into the bound framebuffer, first doing what it asks of ImGui's
        textures. ``recolour``: (the draw list whose vertices to change, packed colour
        from, packed colour to), applied before the upload (the app makes the docked
        windows' translucent backgrounds the opaque colour they blend to). Large solid
        triangles of alpha 255 (window backgrounds) are drawn without blending: an
        alpha-255 blend replaces the pixel exactly, so the result is the same, and llvmpipe
        shades them without reading the framebuffer and drops what they cover in each whole
        tile. ``opaque_textures``: GL names of textures whose alpha is 255 everywhere (the
        3D view): an image of one drawn with an alpha-255 tint is drawn without blending
        too."""
        if draw_data.textures is not None:
            self.update_textures(draw_data.textures)
        display_w, display_h = self.io.display_size
        scale_x, scale_y = self.io.display_framebuffer_scale
        fb_h = int(display_h * scale_y)
        if int(display_w * scale_x) <= 0 or fb_h <= 0:
            return
        self._projection(display_w, display_h)
        draw_data.scale_clip_rects(imgui.ImVec2(scale_x, scale_y))
        self._set_blending()
        self.opaque_draws = 0   # draw calls made without blending (tests)
        self.nearest_draws = 0   # images drawn texel for pixel with NEAREST (tests)
        font, white = self._font_texture()
        font = None if font is None else font.glo
        unscaled = (scale_x, scale_y) == (1.0, 1.0)
        for cmd_list in draw_data.cmd_lists:
            self._draw_list(cmd_list, fb_h, recolour, opaque_textures, font, white, unscaled)
        self.ctx.scissor = None

    def _draw_list(self, cmd_list, fb_h: int, recolour, opaque_textures, font, white,
                   unscaled: bool) -> None:
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
        idx = np.frombuffer(idx_mem, _INDEX)
        opaque = _opaque_triangles(vtx, idx, white) if font is not None else None
        for cmd in cmd_list.cmd_buffer:
            tex_id = cmd.get_tex_id()
            texture = self._textures.get(tex_id)
            if texture is None:
                continue  # a texture released since the UI was built: skip, not crash
            x0, y0, x1, y1 = cmd.clip_rect
            if x1 <= x0 or y1 <= y0:
                continue
            texture.use(0)
            self.ctx.scissor = (int(x0), int(fb_h - y1), int(x1 - x0), int(y1 - y0))
            first, count = cmd.idx_offset, cmd.elem_count
            runs, vao, nearest = None, self._vao, False
            if opaque is not None and tex_id == font:
                runs = _runs(opaque[first // 3:(first + count) // 3])
                vao = self._solid_vao
            elif tex_id in opaque_textures:
                used = vtx[idx[first:first + count]]
                if (used["col"] >> 24 == 255).all():
                    runs = [(0, count // 3, True)]
                    if unscaled and _texel_aligned(used, texture):
                        # each pixel centre on a texel centre: LINEAR samples exactly
                        # that texel, as NEAREST does with less work
                        self._nearest.use(0)
                        nearest = True
                        self.nearest_draws += 1
            if runs is None:
                self._vao.render(moderngl.TRIANGLES, vertices=count, first=first)
                continue
            self._draw_runs(runs, vao, first)
            if nearest:
                self._nearest.clear(0)

    def _draw_runs(self, runs, solid_vao, first: int) -> None:
        """A command's triangles in (start, stop, opaque) runs: the opaque ones unblended
        with ``solid_vao``, the rest blended as usual."""
        for start, stop, solid in runs:
            if solid:
                self.opaque_draws += 1
                self.ctx.disable(moderngl.BLEND)
            (solid_vao if solid else self._vao).render(
                moderngl.TRIANGLES, vertices=3 * (stop - start), first=first + 3 * start)
            if solid:
                self.ctx.enable(moderngl.BLEND)

    def shutdown(self) -> None:
        """Release every GPU object, ImGui's textures marked destroyed (call while the
        ImGui context is current, before destroying it)."""
        for tex in imgui.get_platform_io().textures:
            if tex.tex_id in self._own:
                self._destroy_texture(tex)
        self.io.backend_flags &= ~imgui.BackendFlags_.renderer_has_textures
        for tex_id in list(self._own):
            self._release_own(tex_id)
        self._textures.clear()
        for obj in (self._vao, self._solid_vao, self._vertex_buffer, self._index_buffer,
                    self._prog, self._solid_prog, self._nearest):
            obj.release()
