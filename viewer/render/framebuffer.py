"""The offscreen render target shared by the window and headless capture.

The 3D view always renders into an :class:`OffscreenTarget`; the window shows its colour
texture inside the ImGui "Viewport" window, and headless capture reads the same texture
back. The whole-viewer screenshot (3D view plus panels) draws ImGui into a second target.
"""

from __future__ import annotations

import moderngl
import numpy as np


class OffscreenTarget:
    """A colour texture (RGBA8) plus a depth renderbuffer, resizable."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int]) -> None:
        self.ctx = ctx
        self.size = (0, 0)
        self.color: moderngl.Texture | None = None
        self.depth: moderngl.Renderbuffer | None = None
        self.fbo: moderngl.Framebuffer | None = None
        self.resize(size)

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    @property
    def aspect(self) -> float:
        return self.size[0] / max(self.size[1], 1)

    def resize(self, size: tuple[int, int]) -> bool:
        """Reallocate when the size changes; returns True when it did (the texture's GL
        name changes, so whoever displays it must fetch ``color.glo`` again)."""
        size = (max(1, int(size[0])), max(1, int(size[1])))
        if size == self.size and self.fbo is not None:
            return False
        self._release()
        self.size = size
        self.color = self.ctx.texture(size, 4)
        self.color.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.depth = self.ctx.depth_renderbuffer(size)
        self.fbo = self.ctx.framebuffer(color_attachments=[self.color],
                                        depth_attachment=self.depth)
        return True

    def use(self) -> None:
        self.fbo.use()
        self.ctx.viewport = (0, 0, *self.size)

    def clear(self, rgba=(0.0, 0.0, 0.0, 1.0)) -> None:
        self.fbo.clear(*rgba, depth=1.0)

    def read_rgba(self) -> np.ndarray:
        """The colour buffer as an HxWx4 uint8 array, top row first (image order)."""
        data = self.fbo.read(components=4, alignment=1)
        img = np.frombuffer(data, np.uint8).reshape(self.size[1], self.size[0], 4)
        return np.ascontiguousarray(img[::-1])

    def _release(self) -> None:
        for obj in (self.fbo, self.color, self.depth):
            if obj is not None:
                obj.release()
        self.fbo = self.color = self.depth = None

    def release(self) -> None:
        self._release()


class PixelReadback:
    """A read of a framebuffer's colour into a GL pixel buffer: ``issue`` queues the copy
    (on a GPU no wait for the frame to finish; llvmpipe copies at once, once its
    rasteriser has drawn the view, so issue it late in the frame), ``fetch`` maps it later
    (a frame on, when the copy is long done). What ``fetch`` gives is exactly what
    ``OffscreenTarget.read_rgba`` would have given when ``issue`` ran, whatever was drawn
    into the framebuffer since. One read at a time: issue again only after fetching."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self._buffer: moderngl.Buffer | None = None
        self._size: tuple[int, int] | None = None   # of the read in the buffer

    @property
    def pending(self) -> bool:
        return self._size is not None

    def issue(self, fbo: moderngl.Framebuffer, size: tuple[int, int]) -> None:
        w, h = size
        need = w * h * 4
        if self._buffer is None or self._buffer.size < need:
            if self._buffer is not None:
                self._buffer.release()
            self._buffer = self.ctx.buffer(reserve=need)
        fbo.read_into(self._buffer, viewport=(0, 0, w, h), components=4, alignment=1)
        self._size = (w, h)

    def fetch(self) -> np.ndarray:
        """The issued read as an HxWx4 uint8 array, top row first (a read-only view)."""
        if self._size is None:
            raise RuntimeError("PixelReadback.fetch without an issued read")
        w, h = self._size
        self._size = None
        data = self._buffer.read(size=w * h * 4)
        return np.frombuffer(data, np.uint8).reshape(h, w, 4)[::-1]

    def release(self) -> None:
        if self._buffer is not None:
            self._buffer.release()
        self._buffer = self._size = None
