"""The comparison views (side by side, overlay, wipe, onion skin, difference) composed on
the GPU: ``shaders/composite.frag.glsl`` computes ``viewer.compare.views.compose`` bit for bit
from the 3D view's texture and the reference frame, so the viewer's frame needs no read back
and no numpy pass over the picture (the headless ``vfxviewer compare`` and exports keep the
numpy functions; tests hold the two equal).

Onion skin ghosts the rendered frames just before the shown one: ``CompositePass`` keeps
GPU copies of the views it has composed (by frame number, the same gap rule as
``CompareModel.previous``).
"""

from __future__ import annotations

import numpy as np

from viewer.render.programs import load_program

MODES = {"side_by_side": 0, "overlay": 1, "wipe": 2, "onion": 3, "difference": 4}
ONION_DEPTH = 3
ONION_FALLOFF = 0.5
DIFFERENCE_GAIN = 4.0
GAP = 2


def reference_texels(ref: np.ndarray | None, size) -> bytes:
    """The reference texture's bytes (RGBA, bottom row first) of a top-down HxWx3 frame at
    ``size`` (None: black). GL-free, so a worker thread can make them."""
    w, h = size
    rgba = np.zeros((h, w, 4), np.uint8)
    if ref is not None:
        rgba[..., :3] = ref[..., :3]
    rgba[..., 3] = 255
    return np.ascontiguousarray(rgba[::-1]).tobytes()   # GL rows are bottom-up


class CompositePass:
    """Composes into its own RGBA8 texture (``texture``), which the viewport shows."""

    @classmethod
    def create(cls, ctx):
        """The pass, or None where the context lacks GLSL 4.00 (``precise``)."""
        if getattr(ctx, "version_code", 0) < 400:
            return None
        return cls(ctx)

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.prog = load_program(ctx, "composite")
        self.vao = ctx.vertex_array(self.prog, [])
        self.texture = None
        self.fbo = None
        self.retired: list = []                # replaced composite textures, still alive
        self._ref = None
        self.reference_key = None
        self._prev: dict[int, object] = {}   # frame -> texture copy of that view
        self._generation = None

    def _target(self, size):
        if self.texture is None or self.texture.size != size:
            if self.fbo is not None:
                self.fbo.release()
                # whoever shows it (ImGui) forgets it first: take_retired()
                self.retired.append(self.texture)
            self.texture = self.ctx.texture(size, 4)
            import moderngl
            self.texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self.fbo = self.ctx.framebuffer([self.texture])
        return self.fbo

    def set_reference(self, ref: np.ndarray | None, size, key) -> None:
        """The reference frame (top-down HxWx3 uint8, at the view size; None: black),
        uploaded only when ``key`` (its time and size) changes."""
        if key == self.reference_key and self._ref is not None:
            return
        self.set_reference_texels(reference_texels(ref, size), size, key)

    def set_reference_texels(self, data: bytes, size, key) -> None:
        """``set_reference`` with the texels ``reference_texels`` made (in any thread)."""
        if key == self.reference_key and self._ref is not None:
            return
        w, h = size
        if self._ref is None or self._ref.size != (w, h):
            if self._ref is not None:
                self._ref.release()
            self._ref = self.ctx.texture((w, h), 4, data)
        else:
            self._ref.write(data)
        self.reference_key = key

    def _remember(self, frame: int | None, view, generation) -> list:
        """Copy the view for later onion skins; the earlier views before ``frame`` (newest
        first, stopping at the first gap), as CompareModel.remember / previous do."""
        if generation != self._generation:
            self.forget()
            self._generation = generation
        if frame is None:
            return []
        prev = []
        for k in range(1, ONION_DEPTH + 1):
            tex = self._prev.get(frame - k)
            if tex is None or tex.size != view.size:
                break
            prev.append(tex)
        copy = self._prev.get(frame)
        if copy is None or copy.size != view.size:
            if copy is not None:
                copy.release()
            copy = self._prev[frame] = self.ctx.texture(view.size, 4)
        fbo = self.ctx.framebuffer([copy])
        self.ctx.copy_framebuffer(fbo, view)
        fbo.release()
        for old in [f for f in self._prev if f < frame - ONION_DEPTH or f > frame]:
            self._prev.pop(old).release()
        return prev

    def compose(self, mode: str, view_fbo, view_tex, *, frame: int | None = None,
                opacity: float = 0.5, split: float = 0.5, generation=None):
        """Draw the ``mode`` composite of the view (``view_tex``, its framebuffer
        ``view_fbo``) and the current reference into ``self.texture``; returns it."""
        w, h = view_tex.size
        prev = self._remember(frame, view_fbo, generation) if mode == "onion" else []
        out_w = 2 * w + GAP if mode == "side_by_side" else w
        fbo = self._target((out_w, h))
        p = self.prog
        p["u_mode"].value = MODES[mode]
        p["u_width"].value = w
        o = float(np.clip(opacity, 0.0, 1.0))
        p["u_opacity"].value = o
        p["u_one_minus"].value = 1.0 - o          # float32(1 - o), as numpy rounds it
        p["u_split_x"].value = round(float(np.clip(split, 0.0, 1.0)) * w)
        p["u_gain"].value = DIFFERENCE_GAIN
        p["u_prev_count"].value = len(prev)
        p["u_weight"].value = tuple(ONION_FALLOFF ** (k + 1) for k in range(ONION_DEPTH))
        view_tex.use(0)
        self._ref.use(1)
        p["u_view"].value = 0
        p["u_ref"].value = 1
        units = []
        for k in range(ONION_DEPTH):
            (prev[k] if k < len(prev) else view_tex).use(2 + k)
            units.append(2 + k)
        p["u_prev"].value = units
        fbo.use()
        self.ctx.disable(self.ctx.BLEND | self.ctx.DEPTH_TEST | self.ctx.CULL_FACE)
        self.vao.render(vertices=3)
        return self.texture

    def take_retired(self) -> list:
        """Composite textures replaced by a resize: the caller unregisters and releases."""
        out, self.retired = self.retired, []
        return out

    def forget(self) -> None:
        for tex in self._prev.values():
            tex.release()
        self._prev.clear()

    def release(self) -> None:
        self.forget()
        for obj in (self.fbo, self.texture, self._ref, self.vao, *self.take_retired()):
            if obj is not None:
                obj.release()
