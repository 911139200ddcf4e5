"""A reference recording placed on the viewer's timeline.

Timeline time ``t`` (simulation seconds) maps to recording time
``ref_t = offset + t * rate``; the frame shown is the last one whose timestamp is at or
before ``ref_t`` (a recording holds each frame until the next, as a player does).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from viewer.media import MediaError, open_frames

# one decode at a time, whichever thread asks (a video decoder is not thread-safe; the
# viewer reads frames from its worker threads as well as the main one)
_DECODE = threading.Lock()
DECODED_KEPT = 2     # decoded frames a track keeps (the composite and the figures share one)


@dataclass(frozen=True)
class Crop:
    """A rectangle of the recording, in its pixels: what the viewport's camera frames."""
    x: int
    y: int
    w: int
    h: int

    def apply(self, image: np.ndarray, factor: int = 1) -> np.ndarray:
        """The rectangle of ``image``, a frame decoded at 1 / ``factor`` of the recording's
        size (viewer.media.decode_factor): the crop is in the recording's own pixels."""
        h, w = image.shape[:2]
        k = max(1, int(factor))
        x0, y0 = max(0, self.x // k), max(0, self.y // k)
        x1, y1 = min(w, -(-(self.x + self.w) // k)), min(h, -(-(self.y + self.h) // k))
        if x1 <= x0 or y1 <= y0:
            raise MediaError(f"crop {self.to_json()} lies outside the {w * k}x{h * k} "
                             "recording")
        return image[y0:y1, x0:x1]

    def to_json(self) -> list[int]:
        return [self.x, self.y, self.w, self.h]

    @staticmethod
    def from_json(value) -> Crop | None:
        if value is None:
            return None
        if not (isinstance(value, (list, tuple)) and len(value) == 4 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise MediaError(f"crop: four integers x, y, w, h, not {value!r}")
        return Crop(*value)


def resize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Resample to ``(width, height)`` with Pillow's bilinear filter."""
    from PIL import Image
    w, h = size
    if image.shape[1] == w and image.shape[0] == h:
        return image
    mode = "RGBA" if image.shape[2] == 4 else "RGB"
    return np.asarray(Image.fromarray(np.ascontiguousarray(image), mode).resize(
        (w, h), Image.BILINEAR))


@dataclass
class ReferenceTrack:
    path: str
    times: np.ndarray                      # (N,) seconds, ascending
    frames: Sequence[np.ndarray] = field(repr=False)  # a list, or lazily decoded
    offset: float = 0.0                    # recording seconds at timeline t = 0
    rate: float = 1.0                      # recording seconds per timeline second
    crop: Crop | None = None
    # the latest decoded frames by index (shared by copies with other settings: a decoded
    # frame does not depend on offset, rate or crop)
    _decoded: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def load(cls, path: str | os.PathLike, *, fps: float | None = None,
             max_frames: int | None = None, offset: float = 0.0, rate: float = 1.0,
             crop: Crop | None = None) -> ReferenceTrack:
        frames = open_frames(path, fps=fps, max_frames=max_frames)
        if not len(frames):
            raise MediaError("the recording has no frames", file=str(path))
        return cls(str(path), frames.times, frames, offset, rate, crop)

    @property
    def size(self) -> tuple[int, int]:
        """The recording's own (width, height): what crops are given in (its frames may be
        decoded smaller, by ``factor``)."""
        size = getattr(self.frames, "size", None)
        if size is not None:
            return size
        h, w = self.frames[0].shape[:2]
        return (w, h)

    @property
    def factor(self) -> int:
        """What the frames are divided by when decoded (viewer.media.decode_factor)."""
        return int(getattr(self.frames, "factor", 1))

    def cropped(self, image: np.ndarray) -> np.ndarray:
        """A decoded frame cut to the crop (itself without one)."""
        return image if self.crop is None else self.crop.apply(image, self.factor)

    @property
    def duration(self) -> float:
        return float(self.times[-1]) if len(self.times) else 0.0

    def recording_time(self, t: float) -> float:
        return self.offset + t * self.rate

    def index_at(self, t: float) -> int | None:
        """Index of the frame shown at timeline time ``t``; None before the recording."""
        rt = self.recording_time(t)
        i = int(np.searchsorted(self.times, rt + 1e-9, side="right")) - 1
        return None if i < 0 else min(i, len(self.frames) - 1)

    def frame_at(self, t: float, size: tuple[int, int] | None = None) -> np.ndarray | None:
        """The frame at timeline time ``t``, cropped, and resized to ``(w, h)`` if given."""
        i = self.index_at(t)
        if i is None:
            return None
        image = self.decoded(i)
        if self.crop is not None:
            try:
                image = self.cropped(image)
            except MediaError as err:  # the recording at fault, not the DAT rendered
                raise err.located(file=self.path) from None
        return resize(image, size) if size is not None else image

    def decoded(self, i: int) -> np.ndarray:
        """Frame ``i`` as decoded (kept for the next few asks; thread-safe)."""
        with _DECODE:
            image = self._decoded.get(i)
            if image is None:
                image = self.frames[i]
                while len(self._decoded) >= DECODED_KEPT:
                    self._decoded.pop(next(iter(self._decoded)))
                self._decoded[i] = image
            return image

    def settings_json(self) -> dict:
        """What a scenario saves of the track (its ``"reference"`` entry)."""
        return {"path": self.path, "offset": self.offset, "rate": self.rate,
                "crop": None if self.crop is None else self.crop.to_json()}
