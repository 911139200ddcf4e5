"""Reading and writing image sequences and video (PyAV for video, Pillow for images and GIF).

Frames are numpy ``uint8`` arrays, ``(H, W, 3)`` RGB or ``(H, W, 4)`` RGBA, top row first.
No GL here: the renderer hands frames to these writers, and the comparison tools read
reference recordings through ``read_frames``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Self

import numpy as np

from viewer.errors import ViewerError
from viewer.inputs import refuse_non_file

VIDEO_SUFFIXES = {".mp4", ".webm", ".avi", ".mkv", ".mov", ".m4v", ".gif"}
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class MediaError(ViewerError):
    """A video or image sequence could not be read or written."""


@dataclass(frozen=True)
class TimedFrame:
    t: float           # seconds from the start of the recording
    image: np.ndarray  # (H, W, 3) uint8 RGB


def _sequence_files(path: Path) -> list[Path]:
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise MediaError("no images (.png, .jpg, ...) in the folder", file=str(path))
    return files


def _open_image(path: Path):
    """Pillow's ``Image.open`` with its decompression-bomb limit as a MediaError: a picture
    over the limit is refused (Pillow warns up to twice the limit; that is refused too)."""
    import warnings

    from PIL import Image
    refuse_non_file(path, MediaError, "image")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            return Image.open(path)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise MediaError(f"picture too large: {exc}", file=str(path)) from None


def read_frames(path: str | os.PathLike, *, fps: float | None = None,
                max_frames: int | None = None) -> Iterator[TimedFrame]:
    """Yields the frames of a video file (any container FFmpeg reads) or of a folder of
    images (sorted by name, ``fps`` frames per second, default 30)."""
    p = Path(path)
    if not p.exists():
        raise MediaError("no such file or folder", file=str(p))
    refuse_non_file(p, MediaError, "recording")
    if p.is_dir():
        rate = 30.0 if fps is None else float(fps)
        for i, f in enumerate(_sequence_files(p)):
            if max_frames is not None and i >= max_frames:
                return
            try:
                with _open_image(f) as im:
                    yield TimedFrame(i / rate, np.asarray(im.convert("RGB")))
            except OSError as exc:
                raise MediaError(f"cannot read image: {exc}", file=str(f)) from None
        return
    import av
    try:
        container = av.open(str(p))
    except (av.error.FFmpegError, OSError) as exc:
        raise MediaError(f"cannot open video: {exc}", file=str(p)) from None
    with container:
        if not container.streams.video:
            raise MediaError("the file has no video stream", file=str(p))
        stream = container.streams.video[0]
        start = None
        count = 0
        try:
            for frame in container.decode(stream):
                if frame.pts is not None and frame.time_base is not None:
                    t = float(frame.pts * frame.time_base)
                elif fps:
                    t = count / float(fps)
                else:
                    rate = stream.average_rate or Fraction(30)
                    t = count / float(rate)
                if start is None:
                    start = t
                yield TimedFrame(t - start, frame.to_ndarray(format="rgb24"))
                count += 1
                if max_frames is not None and count >= max_frames:
                    return
        except av.error.FFmpegError as exc:
            raise MediaError(f"cannot decode frame {count}: {exc}", file=str(p)) from None


#: the longest side a recording's frame is decoded to: a larger frame is downscaled while
#: it is decoded (FFmpeg's scaler, Pillow's JPEG draft and reduce) by the smallest whole
#: factor that fits, so an 8192x8192 frame costs 48 MiB of pixels, not 192
FRAME_MAX_SIDE = 4096
#: the most pixels a recording's frame may have (8192 x 8192, the largest render): a video
#: decoder holds its reference pictures at full size whatever the frames are scaled to
FRAME_MAX_PIXELS = 8192 * 8192


def check_frame_size(width: int, height: int, path) -> None:
    """A MediaError unless a ``width`` x ``height`` frame is inside FRAME_MAX_PIXELS
    (read from the header, before anything is decoded)."""
    if int(width) * int(height) > FRAME_MAX_PIXELS:
        raise MediaError(f"a {width}x{height} frame is over the {FRAME_MAX_PIXELS} pixels "
                         "a recording's frame may have (8192x8192)", file=str(path))


def decode_factor(width: int, height: int) -> int:
    """The whole factor a ``width`` x ``height`` frame is divided by when decoded."""
    return max(1, -(-max(int(width), int(height)) // FRAME_MAX_SIDE))


class LazyFrames(Sequence):
    """The frames of a recording, decoded on demand and kept in a small LRU cache, so an
    hour of 1080p video costs a few dozen frames of memory. ``times[i]`` is frame i's time
    in seconds from the first frame. Sequential access (iteration, stepping forward)
    decodes straight through; a jump seeks to the nearest earlier keyframe.

    ``size`` is the recording's own (width, height) (None: its frames' own) and ``factor``
    what its frames are divided by when decoded (``decode_factor``: 1 unless a side exceeds
    ``FRAME_MAX_SIDE``); crops and sizes a user gives are in the recording's own pixels.

    The cache holds at most ``CACHE`` frames and at most ``CACHE_BYTES`` bytes of pixels,
    whichever is smaller (the frame just decoded is always kept): a folder of 12000x12000
    images costs one or two frames of memory, not 48."""

    CACHE = 48
    CACHE_BYTES = 256 << 20

    def __init__(self, path: Path, times: np.ndarray,
                 size: tuple[int, int] | None = None) -> None:
        self.path = path
        self.times = times
        self.size = None if size is None else (int(size[0]), int(size[1]))
        self.factor = 1 if size is None else decode_factor(*self.size)
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._cache_bytes = 0

    def __len__(self) -> int:
        return len(self.times)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        img = self._cache.get(i)
        if img is None:
            img = self._load(i)
        self._cache.move_to_end(i)
        return img

    def _keep(self, i: int, img: np.ndarray) -> None:
        old = self._cache.pop(i, None)
        if old is not None:
            self._cache_bytes -= old.nbytes
        self._cache[i] = img
        self._cache_bytes += img.nbytes
        while len(self._cache) > 1 and (len(self._cache) > self.CACHE
                                        or self._cache_bytes > self.CACHE_BYTES):
            _, dropped = self._cache.popitem(last=False)
            self._cache_bytes -= dropped.nbytes

    def _load(self, i: int) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError


class ImageFolderFrames(LazyFrames):
    """The size is the first picture's (read from its header); each picture is decoded
    downscaled by its own ``decode_factor``."""

    def __init__(self, files: list[Path], fps: float) -> None:
        try:
            with _open_image(files[0]) as im:
                size = im.size
        except OSError as exc:
            raise MediaError(f"cannot read image: {exc}", file=str(files[0])) from None
        check_frame_size(*size, files[0])
        super().__init__(files[0].parent, np.arange(len(files), dtype=np.float64) / fps, size)
        self.files = files

    def _load(self, i: int) -> np.ndarray:
        try:
            with _open_image(self.files[i]) as im:
                check_frame_size(*im.size, self.files[i])
                img = np.asarray(_decoded_rgb(im))
        except OSError as exc:
            raise MediaError(f"cannot read image: {exc}", file=str(self.files[i])) from None
        self._keep(i, img)
        return img


def _decoded_rgb(im):
    """An opened picture as RGB, downscaled by its ``decode_factor``: a JPEG decodes at
    the reduced scale (draft), another is reduced right after decoding."""
    k = decode_factor(*im.size)
    if k == 1:
        return im.convert("RGB")
    target = (-(-im.width // k), -(-im.height // k))
    im.draft("RGB", target)          # JPEG: 1/2, 1/4 or 1/8 scale decoding; others no-op
    if im.mode not in ("RGB", "RGBA", "L", "LA", "I", "F"):
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    k = max(1, min(im.width // target[0], im.height // target[1]))
    small = im.reduce(k) if k > 1 else im
    if small.size != target:
        from PIL import Image
        small = small.resize(target, Image.Resampling.BOX)
    return small if small.mode == "RGB" else small.convert("RGB")


class VideoFrames(LazyFrames):
    """Frame times come from the packets' presentation timestamps (demuxed, not decoded);
    frames are decoded when asked for."""

    def __init__(self, path: Path, max_frames: int | None = None) -> None:
        import av
        try:
            self._container = av.open(str(path))
        except (av.error.FFmpegError, OSError) as exc:
            raise MediaError(f"cannot open video: {exc}", file=str(path)) from None
        if not self._container.streams.video:
            self._container.close()
            raise MediaError("the file has no video stream", file=str(path))
        self._stream = self._container.streams.video[0]
        cc = self._stream.codec_context
        try:
            check_frame_size(cc.width, cc.height, path)
        except MediaError:
            self._container.close()
            raise
        try:
            pts = sorted(p.pts for p in self._container.demux(self._stream)
                         if p.pts is not None and p.size)
        except av.error.FFmpegError as exc:
            raise MediaError(f"cannot read packets: {exc}", file=str(path)) from None
        if not pts:
            raise MediaError("the video has no timed frames", file=str(path))
        if max_frames is not None:
            pts = pts[:max_frames]
        self._pts = pts
        self._index = {p: k for k, p in enumerate(pts)}
        tb = float(self._stream.time_base)
        super().__init__(path, (np.asarray(pts, np.float64) - pts[0]) * tb,
                         (cc.width, cc.height))
        self._decoder = None   # a running decode generator and the index it yields next
        self._next = -1

    def _frames_from(self, i: int):
        import av
        self._container.seek(self._pts[i], stream=self._stream, backward=True,
                             any_frame=False)
        try:
            for frame in self._container.decode(self._stream):
                k = self._index.get(frame.pts)
                if k is not None:
                    yield k, frame
        except av.error.FFmpegError as exc:
            raise MediaError(f"cannot decode frame {i}: {exc}", file=str(self.path)) from None

    def _load(self, i: int) -> np.ndarray:
        if self._decoder is None or i != self._next:
            self._decoder = self._frames_from(i)
        for k, frame in self._decoder:
            if k < i:
                continue
            img = self._rgb(frame)
            self._keep(k, img)
            self._next = k + 1
            if k == i:
                return img
            break  # a frame missing from the stream: hold the next one
        if i in self._cache:
            return self._cache[i]
        raise MediaError(f"frame {i} could not be decoded", file=str(self.path))

    @staticmethod
    def _rgb(frame) -> np.ndarray:
        """The decoded frame as RGB, scaled by FFmpeg to its ``decode_factor`` on the way
        (no full-size RGB picture is made)."""
        k = decode_factor(frame.width, frame.height)
        if k == 1:
            return frame.to_ndarray(format="rgb24")
        return frame.to_ndarray(format="rgb24", width=-(-frame.width // k),
                                height=-(-frame.height // k))

    def close(self) -> None:
        self._container.close()


def open_frames(path: str | os.PathLike, *, fps: float | None = None,
                max_frames: int | None = None) -> LazyFrames:
    """A recording as a lazily decoded frame sequence with ``times`` (seconds): a video file
    or a folder of images (sorted by name, ``fps`` frames per second, default 30)."""
    p = Path(path)
    if not p.exists():
        raise MediaError("no such file or folder", file=str(p))
    refuse_non_file(p, MediaError, "recording")
    if p.is_dir():
        files = _sequence_files(p)
        if max_frames is not None:
            files = files[:max_frames]
        return ImageFolderFrames(files, 30.0 if fps is None else float(fps))
    return VideoFrames(p, max_frames)


def _to_rgb(image: np.ndarray, background: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
    if image.ndim == 3 and image.shape[2] == 4:
        a = image[..., 3:4].astype(np.float32) / 255.0
        bg = np.asarray(background, np.float32)
        return (image[..., :3].astype(np.float32) * a + bg * (1 - a) + 0.5).astype(np.uint8)
    return image[..., :3]


class _GifStream:
    """An animated GIF written one frame at a time (each frame quantised to its own local
    palette), so memory holds one frame whatever the length: no global colour table, a
    NETSCAPE loop block, then per frame Pillow's graphic-control block, image descriptor,
    local palette and LZW data (``GifImagePlugin.getdata``)."""

    def __init__(self, fh, fps: float) -> None:
        self.fh = fh
        self.duration = max(1, round(1000 / fps))
        self.started = False

    def add(self, im) -> None:
        import struct

        from PIL import GifImagePlugin, Image
        if not self.started:
            w, h = im.size
            # logical screen: no global colour table, 8-bit colour resolution
            self.fh.write(b"GIF89a" + struct.pack("<HHBBB", w, h, 0x70, 0, 0))
            self.fh.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")   # loop forever
            self.started = True
        pal = im.convert("P", palette=Image.Palette.ADAPTIVE)
        params = {"duration": self.duration, "include_color_table": True}
        if im.mode == "RGBA":
            params["disposal"] = 2     # each frame replaces the last where it is clear
            for rgba, index in pal.palette.colors.items():
                if len(rgba) == 4 and rgba[3] == 0:
                    params["transparency"] = index
                    break
        for chunk in GifImagePlugin.getdata(pal, (0, 0), **params):
            self.fh.write(chunk)

    def finish(self) -> None:
        self.fh.write(b";")


def partial_path(out: Path) -> Path:
    """Where an output is written before it is renamed to ``out``: a hidden
    ``.NAME.partial.EXT`` beside it (``.NAME.partial`` for a folder of frames), or ``out``
    itself when that is a device or another non-file (never rename over one)."""
    if out.exists() and not out.is_file() and not out.is_dir():
        return out
    return out.with_name(f".{out.stem}.partial{out.suffix}")


#: picture types whose Pillow writer takes RGB but no alpha channel: an RGBA picture is
#: set over black first (as a video frame is)
_NO_ALPHA = {"JPEG", "MPO", "EPS", "PCX"}
#: what each picture type is saved with (JPEG: Pillow's default 75 and 4:2:0 colour smear
#: the panels' text)
_SAVE_OPTIONS = {"JPEG": {"quality": 95, "subsampling": 0}}


def save_image(image, out: str | os.PathLike) -> Path:
    """Save a Pillow image to ``out`` (the type from its suffix) through ``partial_path``
    and a rename, so a failed write (a full device, an encoder error) leaves no file. A
    type without alpha (.jpg) gets the picture set over black."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fmt = _save_format(out)
    if fmt in _NO_ALPHA and image.mode in ("RGBA", "LA"):
        from PIL import Image
        image = Image.fromarray(_to_rgb(np.asarray(image.convert("RGBA"))), "RGB")
    with replacing(out) as tmp:
        image.save(tmp, format=fmt, **_SAVE_OPTIONS.get(fmt, {}))
    return out


@contextlib.contextmanager
def replacing(out: Path):
    """The path to write ``out`` under (``partial_path``): renamed to ``out`` when the block
    ends, removed when it fails or is interrupted."""
    tmp = partial_path(out)
    try:
        yield tmp
        if tmp != out:
            os.replace(tmp, out)
    except BaseException:
        if tmp != out:
            tmp.unlink(missing_ok=True)
        raise


def _save_format(out: Path) -> str | None:
    from PIL import Image
    Image.init()
    return Image.registered_extensions().get(out.suffix.lower())


#: what ``--out`` of render / compare may name (the usage line of an unsupported type)
OUTPUT_TYPES = "use a picture (.png, .jpg, .bmp, .tif, .webp), a folder, .gif or .mp4"


def output_kind(out: str | os.PathLike) -> str | None:
    """What ``FrameWriter`` writes to ``out``: ``"picture"`` (one frame, the last: .png,
    .jpg, ...), ``"gif"``, ``"video"``, ``"dir"`` (no suffix: a folder of PNGs), or None
    for a type it cannot write."""
    suffix = Path(out).suffix.lower()
    if suffix == ".gif":
        return "gif"
    if suffix in VIDEO_SUFFIXES:
        return "video"
    if suffix in IMAGE_SUFFIXES:
        return "picture"
    return "dir" if suffix == "" else None


class FrameWriter:
    """Writes frames to a picture (``.png``, ``.jpg``, ...: one frame, the last), a folder
    (``frame_00000.png``...), ``.gif`` or a video (``.mp4``/``.webm``/``.avi``/``.mkv``).
    ``transparent`` keeps the alpha channel where the format has one (PNG, GIF); video and
    JPEG are always opaque (set over black).

    GIF and video frames are streamed to disk as they come (memory holds one frame). An
    output (a file or a folder of frames) is written under a hidden temporary name beside
    it and renamed when ``close()`` finishes, so a failure (or ``abort()``) never leaves a
    partial or empty output at ``out``. ``wants(last)`` says whether a frame is written at
    all (a picture keeps only the last: the caller need not render the others)."""

    def __init__(self, out: str | os.PathLike, *, fps: float = 30.0,
                 transparent: bool = False) -> None:
        self.out = Path(out)
        self.fps = float(fps)
        self.transparent = transparent
        self.count = 0
        self._last: np.ndarray | None = None
        self._gif: _GifStream | None = None
        self._fh = None
        self._container = None
        self._stream = None
        self._closed = False
        self._audio: tuple[Iterator[np.ndarray], int] | None = None
        kind = output_kind(self.out)
        if kind is None:
            raise MediaError(f"unsupported output type {self.out.suffix.lower()!r} "
                             f"({OUTPUT_TYPES})", file=str(self.out))
        self.kind = kind
        self.out.parent.mkdir(parents=True, exist_ok=True)
        # a folder's partial twin sits beside it: "." and ".." are named by their path
        self._tmp = partial_path(Path(os.path.abspath(self.out)) if kind == "dir"
                                 else self.out)
        if kind == "dir":
            if self._tmp.exists():   # left by a run killed outright (SIGKILL, power off)
                shutil.rmtree(self._tmp)
            self._tmp.mkdir()

    def wants(self, last: bool) -> bool:
        """Whether a frame is written: every one, except that a picture keeps the last."""
        return last or self.kind != "picture"

    def set_audio(self, samples, sample_rate: int) -> None:
        """A sound track for a video output (stereo float (n, 2) in [-1, 1], sample 0 at
        the first frame), muxed in by ``close()``: 16-bit PCM (sample-exact: no codec
        delay), Opus for .webm. Other outputs have no sound and ignore it. ``samples`` may
        also be an iterator of consecutive (n, 2) blocks (viewer.sim.mixer's ``blocks``),
        written as they come: a long track never held whole."""
        blocks = iter([samples] if isinstance(samples, np.ndarray) else samples)
        first = next((b for b in map(self._checked, blocks) if len(b)), None)
        self._audio = None if first is None else (
            itertools.chain([first], map(self._checked, blocks)), int(sample_rate))

    def _checked(self, block) -> np.ndarray:
        a = np.asarray(block, np.float32)
        if a.ndim != 2 or a.shape[1] != 2:
            raise MediaError("a sound track must be (n, 2) samples", file=str(self.out))
        return a

    def _image(self, frame: np.ndarray):
        from PIL import Image
        if self.transparent and frame.shape[2] == 4:
            return Image.fromarray(np.ascontiguousarray(frame), "RGBA")
        return Image.fromarray(np.ascontiguousarray(_to_rgb(frame)), "RGB")

    def write(self, frame: np.ndarray) -> None:
        if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] not in (3, 4):
            raise MediaError("frames must be (H, W, 3|4) uint8", file=str(self.out))
        if self.kind == "picture":
            self._last = frame
        elif self.kind == "dir":
            self._image(frame).save(self._tmp / f"frame_{self.count:05d}.png")
        elif self.kind == "gif":
            if self._gif is None:
                self._fh = open(self._tmp, "wb")  # noqa: SIM115 - closed by close()/abort()
                self._gif = _GifStream(self._fh, self.fps)
            self._gif.add(self._image(frame))
        else:
            self._write_video(_to_rgb(frame))
        self.count += 1

    def _write_video(self, rgb: np.ndarray) -> None:
        import av
        h, w = rgb.shape[:2]
        if self._container is None:
            codec = {".webm": "libvpx-vp9"}.get(self.out.suffix.lower(), "libx264")
            if codec not in av.codecs_available:
                codec = "mpeg4"
            self._container = av.open(str(self._tmp), "w")
            self._stream = self._container.add_stream(
                codec, rate=Fraction(self.fps).limit_denominator(1001))
            # yuv420p needs even sizes
            self._stream.width, self._stream.height = w - (w % 2), h - (h % 2)
            self._stream.pix_fmt = "yuv420p"
            if codec == "libx264":
                self._stream.options = {"crf": "18", "preset": "veryfast"}
        sw, sh = self._stream.width, self._stream.height
        frame = self._av_frame(np.ascontiguousarray(rgb[:sh, :sw]))
        for packet in self._stream.encode(frame):
            self._container.mux(packet)

    def _mux_audio(self, blocks, rate: int) -> None:
        """Copy the written video's packets into a new file beside an audio stream."""
        import av
        webm = self.out.suffix.lower() == ".webm"
        codec = "libopus" if webm else "pcm_s16le"
        tmp2 = self._tmp.with_name(f".{self.out.stem}.audio{self.out.suffix}")
        try:
            with av.open(str(self._tmp)) as src, av.open(str(tmp2), "w") as dst:
                vin = src.streams.video[0]
                vout = dst.add_stream_from_template(vin)
                aout = dst.add_stream(codec, rate=48000 if webm else rate, layout="stereo")
                for packet in src.demux(vin):
                    if packet.dts is None:
                        continue
                    packet.stream = vout
                    dst.mux(packet)
                for frame in _audio_frames(blocks, rate, webm):
                    for packet in aout.encode(frame):
                        dst.mux(packet)
                for packet in aout.encode(None):
                    dst.mux(packet)
            os.replace(tmp2, self._tmp)
        finally:
            tmp2.unlink(missing_ok=True)

    @staticmethod
    def _av_frame(rgb: np.ndarray):
        import av
        return av.VideoFrame.from_ndarray(rgb, format="rgb24")

    def close(self) -> Path:
        if self._closed:
            return self.out
        try:
            if self.kind == "picture":
                if self._last is None:
                    raise MediaError("no frame was rendered", file=str(self.out))
                save_image(self._image(self._last), self.out)
            elif self.kind == "gif":
                if self._gif is None:
                    raise MediaError("no frame was rendered", file=str(self.out))
                self._gif.finish()
                self._fh.close()
                self._fh = None
            elif self.kind == "video" and self._container is not None:
                for packet in self._stream.encode():
                    self._container.mux(packet)
                self._container.close()
                self._container = None
                if self._audio is not None:
                    self._mux_audio(*self._audio)
            if self.kind == "dir":
                _move_folder(self._tmp, self.out)
            elif self._tmp != self.out and self._tmp.exists():
                os.replace(self._tmp, self.out)
        except BaseException:
            self.abort()
            raise
        self._closed = True
        return self.out

    def abort(self) -> None:
        """Stop without writing ``out``: the temporary file is removed."""
        self._closed = True
        if self._container is not None:
            with contextlib.suppress(Exception):   # already failing; removed below
                self._container.close()
            self._container = None
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        if self.kind == "dir":
            shutil.rmtree(self._tmp, ignore_errors=True)
        elif self._tmp != self.out:
            self._tmp.unlink(missing_ok=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            self.close()
        else:
            self.abort()


def _move_folder(tmp: Path, out: Path) -> None:
    """The frames written under ``tmp`` become ``out``: one rename when ``out`` is new, else
    each file renamed into it (an existing folder keeps its other files, as before)."""
    if not out.exists():
        os.replace(tmp, out)
        return
    for f in sorted(tmp.iterdir()):
        os.replace(f, out / f.name)
    tmp.rmdir()


def _audio_frames(blocks, rate: int, planar_float: bool, block: int = 1024):
    """PyAV frames of a stereo float track given as consecutive (n, 2) blocks: packed s16,
    or planar float (Opus)."""
    import av
    pts = 0
    for samples in blocks:
        pcm16 = np.round(np.clip(samples, -1.0, 32767 / 32768) * 32768.0).astype(np.int16)
        for i in range(0, len(samples), block):
            if planar_float:
                f = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[i:i + block].T),
                                               format="fltp", layout="stereo")
            else:
                f = av.AudioFrame.from_ndarray(pcm16[i:i + block].reshape(1, -1),
                                               format="s16", layout="stereo")
            f.sample_rate = rate
            f.pts = pts
            pts += f.samples
            yield f


def read_audio(path: str | os.PathLike, sample_rate: int | None = None
               ) -> tuple[np.ndarray, int] | None:
    """A recording's sound as mono float32 and its rate (resampled to ``sample_rate`` when
    given), or None when it has no audio stream."""
    with _recording_sound(path) as c:
        if c is None:
            return None
        rate = sample_rate or c.streams.audio[0].codec_context.sample_rate
        chunks = list(_mono_chunks(c, rate))
    a = np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)
    return a, int(rate)


@contextlib.contextmanager
def _recording_sound(path):
    """A recording opened for its sound: the container, or None when it has no audio
    stream; an FFmpeg or OS error while it is read is a MediaError naming the file."""
    import av
    refuse_non_file(path, MediaError, "recording")
    try:
        with av.open(str(path)) as c:
            yield c if c.streams.audio else None
    except (av.FFmpegError, OSError) as err:
        raise MediaError(f"cannot read the audio: {err}", file=str(path)) from err


def _mono_chunks(c, rate: int) -> Iterator[np.ndarray]:
    """The first audio stream of the open container ``c`` as it decodes, resampled to mono
    float32 at ``rate``: one array per resampled frame, the resampler's flush last."""
    import av
    res = av.AudioResampler(format="flt", layout="mono", rate=rate)
    for frame in _then_none(c.decode(c.streams.audio[0])):
        for out in res.resample(frame):
            yield out.to_ndarray().reshape(-1)


def block_rms(samples: np.ndarray, block: int) -> np.ndarray:
    """The RMS (float64) of each whole ``block`` of ``samples`` from the first."""
    n = len(samples) // block
    sq = np.square(samples[:n * block].astype(np.float64)).reshape(n, block)
    return np.sqrt(np.mean(sq, axis=1))


#: how much of a recording's sound aligning by sound reads (its first four hours): the
#: offset is sought there, and the block envelope and its FFT stay under ~100 MiB
ALIGN_AUDIO_MAX_SECONDS = 4 * 3600


def audio_block_rms(path: str | os.PathLike, sample_rate: int, block: int, *,
                    max_seconds: float = ALIGN_AUDIO_MAX_SECONDS
                    ) -> tuple[np.ndarray, float] | None:
    """The recording's sound, mono at ``sample_rate``, as the RMS of each whole ``block``
    of samples from the first (float64), and its largest absolute sample; None when it has
    no audio stream. Decoded and reduced as it streams, up to ``max_seconds``: memory holds
    one decoded frame and the RMS values, not the samples."""
    limit = int(max_seconds * sample_rate)
    rms: list[np.ndarray] = []
    pending: list[np.ndarray] = []      # resampled samples not yet reduced to levels
    seen, waiting, peak = 0, 0, 0.0

    def reduce() -> int:
        a = np.concatenate(pending)
        rms.append(block_rms(a, block))
        pending[:] = [a[len(a) // block * block:]]
        return len(pending[0])

    with _recording_sound(path) as c:
        if c is None:
            return None
        for chunk in _mono_chunks(c, sample_rate):
            a = chunk[:max(0, limit - seen)]
            if len(a):
                seen, waiting = seen + len(a), waiting + len(a)
                peak = max(peak, float(np.abs(a).max()))
                pending.append(a)
            if waiting >= 1 << 16:    # reduced in batches: fewer numpy calls
                waiting = reduce()
            if seen >= limit:
                break
        if pending:
            reduce()
    return (np.concatenate(rms) if rms else np.zeros(0), peak)


def _then_none(frames):
    """The decoded frames, then None (a resampler's flush)."""
    yield from frames
    yield None


def write_frames(out: str | os.PathLike, frames: Iterable[np.ndarray], *, fps: float = 30.0,
                 transparent: bool = False) -> Path:
    with FrameWriter(out, fps=fps, transparent=transparent) as writer:
        for frame in frames:
            writer.write(frame)
    return writer.out
