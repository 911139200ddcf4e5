"""The documented range of every number a user hands the viewer.

One table for the scenario fields (``viewer/sim/scenario.py``) and the command-line options
(``viewer/commands/``): each bound names the field or option, its range, its unit and why
the range is what it is. A value outside is refused before any work starts: a scenario field
is a ``ScenarioError`` naming the file and the field (exit 1), an option is a usage error
(exit 2). The ranges are chosen so that the work of any accepted input is bounded: the
simulation of an accepted scenario takes time proportional to its ``seconds`` (at most
``FPS.hi`` frames per second, at most ``OBJECTS.hi`` objects). ``docs/bounds.md`` is the
same table for users; ``tests/contract/test_bounds.py`` holds them to it.

Standard library only: every layer (sim, render, commands) may import this module.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

#: the largest finite f32: retail holds positions, velocities, headings and scales as floats,
#: so a value beyond it (1e308) is not one retail could hold
F32_MAX = 3.4028234663852886e38


@dataclass(frozen=True)
class Bound:
    """A closed range ``lo..hi`` (``lo_open`` / ``hi_open`` exclude an end) of finite
    numbers; ``integer``: whole numbers only."""

    name: str
    lo: float
    hi: float
    unit: str
    reason: str
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False

    def span(self) -> str:
        """The range as users read it: ``1..1000 fps``, ``(0, 180) degrees``."""
        lo, hi = _g(self.lo), _g(self.hi)
        if self.lo_open or self.hi_open:
            text = f"{'(' if self.lo_open else '['}{lo}, {hi}{')' if self.hi_open else ']'}"
        else:
            text = f"{lo}..{hi}"
        return f"{text} {self.unit}".rstrip()

    def contains(self, x) -> bool:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return False
        if isinstance(x, float) and not math.isfinite(x):
            return False
        if self.integer and isinstance(x, float) and not x.is_integer():
            return False
        above = x > self.lo if self.lo_open else x >= self.lo
        below = x < self.hi if self.hi_open else x <= self.hi
        return above and below

    def problem(self, x) -> str | None:
        """None when ``x`` is inside, else the one-line reason (without the field name)."""
        if self.contains(x):
            return None
        return f"{_shown(x)} is outside {self.span()} ({self.reason})"


def _g(x: float) -> str:
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e16):
        return str(int(x))
    return f"{x:g}"


def _shown(x) -> str:
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 10 ** 30:
        return f"an integer of {len(str(abs(x)))} digits"
    return repr(x)


# -- the simulation clock ---------------------------------------------------------------------
FPS = Bound("fps", 1, 1000, "frames per second",
            "each frame is a step of the run; retail's own clock runs well inside this, and "
            "a frame every millisecond is already finer than any display")
SECONDS = Bound("seconds", 0, 3600, "s",
                "an hour; a run takes time and memory in proportion to its length")
EVENT_TIME = Bound("t", 0, 3600, "s", "an event inside the longest run (seconds)")

# -- counts -----------------------------------------------------------------------------------
OBJECTS = Bound("objects", 0, 10_000, "objects",
                "every object is updated every frame; a run's cost grows with the count",
                integer=True)
EVENTS = Bound("events", 0, 1_000_000, "events", "a million timed actions", integer=True)
WORLD_SHAPES = Bound("world", 0, 10_000, "shapes",
                     "every moving sphere is tested against every shape", integer=True)

# -- object and event numbers -----------------------------------------------------------------
POSITION = Bound("position component", -1e6, 1e6, "m",
                 "a thousand kilometres from the origin; retail's world is about fifty "
                 "across, and the GPU's 32-bit floats still step a few centimetres here")
VELOCITY = Bound("velocity / omega component", -1e6, 1e6, "m/s or rad/s",
                 "far past retail's own limit (it clamps velocities to 50 m/s); the "
                 "square of an f32-sized value leaves the float range")
F32 = Bound("heading_deg / translucency", -F32_MAX, F32_MAX, "",
            "retail holds them as 32-bit floats (a heading is taken modulo 360)")
SCALE = Bound("scale", 0.001, 1000, "",
              "an object's size factor; a smaller sphere makes the collision sweep take "
              "more steps per metre, a larger one covers the whole world")
MOTION_SPEED = Bound("speed", -100, 100, "",
                     "the animation's own rate times at most a hundred either way; the "
                     "sequencer walks every frame the speed passes over")
LAUNCH_SPEED = Bound("launch speed", 0, 10_000, "m/s", "faster than any projectile",
                     lo_open=True)
LAUNCH_TIME = Bound("launch delay / delete_after", 0, 3600, "s",
                    "a server answer within the longest run")

# -- the camera (render, compare) -------------------------------------------------------------
FOV = Bound("--fov", 1, 179, "degrees",
            "a vertical field of view; 0 and 180 make no picture")
CAMERA_DISTANCE = Bound("--distance", 0.05, 5000, "m",
                        "the viewer's own zoom limits (the near and far planes)")
CAMERA_COORDINATE = Bound("--target / --camera component", -1e6, 1e6, "m",
                          "the range of an object's position")

# -- images and viewer frames -----------------------------------------------------------------
RENDER_SIZE = Bound("--size (render, compare)", 1, 8192, "pixels",
                    "the largest framebuffer GL guarantees", integer=True)
VIEWER_SIZE = Bound("--size (screenshot, open)", 16, 8192, "pixels",
                    "the panels need some room; 8192 is the largest GL framebuffer",
                    integer=True)
VIEWER_FRAMES = Bound("--frames / --screenshot-after", 1, 3600, "frames",
                      "a minute of the viewer at 60 Hz; each frame draws the whole window",
                      integer=True)

# -- comparison with a recording ---------------------------------------------------------------
REFERENCE_FPS = Bound("--reference-fps", 1, 1000, "frames per second",
                      "the frame rate of an image-folder recording")
REFERENCE_OFFSET = Bound("--offset", -86400, 86400, "s",
                         "recording seconds at timeline t = 0, within a day of recording")
REFERENCE_RATE = Bound("--rate", 0.01, 100, "",
                       "recording seconds per timeline second")
UNIT_FRACTION = Bound("--split / --opacity", 0, 1, "",
                      "a fraction of the picture or of the opacity")
CROP_ORIGIN = Bound("--crop x, y", 0, 65535, "pixels", "inside a recording's picture",
                    integer=True)
CROP_SIZE = Bound("--crop w, h", 1, 65535, "pixels", "inside a recording's picture",
                  integer=True)

# -- glTF export (vfxviewer export) ------------------------------------------------------------
EXPORT_FPS = Bound("--fps (export)", 1, 240, "frames per second",
                   "animation keys per second; a 240 Hz display's frames, and every key is "
                   "kept in memory and in the file")
EXPORT_SECONDS = Bound("--seconds (export)", 0, 300, "s",
                       "five minutes of animation: at most 72,001 keys per channel")

# -- text and files ---------------------------------------------------------------------------
JSON_DEPTH = Bound("JSON nesting", 0, 64, "levels",
                   "scenario and actions files are a few levels deep; deeper nesting is "
                   "no scenario", integer=True)
INDENT = Bound("--indent", 0, 16, "spaces", "a readable indentation", integer=True)

#: every bound, in the order docs/bounds.md lists them
ALL = (FPS, SECONDS, EVENT_TIME, OBJECTS, EVENTS, WORLD_SHAPES, POSITION, VELOCITY, F32, SCALE,
       MOTION_SPEED, LAUNCH_SPEED, LAUNCH_TIME, FOV, CAMERA_DISTANCE, CAMERA_COORDINATE,
       RENDER_SIZE, VIEWER_SIZE, VIEWER_FRAMES, REFERENCE_FPS, REFERENCE_OFFSET,
       REFERENCE_RATE, UNIT_FRACTION, CROP_ORIGIN, CROP_SIZE, EXPORT_FPS, EXPORT_SECONDS,
       JSON_DEPTH, INDENT)


def json_depth(value) -> int:
    """How deeply a decoded JSON value nests (0 for a scalar), without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            depth += 1
            deepest = max(deepest, depth)
            if depth > JSON_DEPTH.hi:
                return depth
            stack.extend((v, depth) for v in item)
    return deepest


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot name a file (a NUL or a lone surrogate), else None."""
    if "\x00" in text:
        return "a path cannot hold a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a path cannot hold a lone surrogate (not UTF-8)"
    return None


# -- how a number is spelled -----------------------------------------------------------------
# One reading of number text for the command line and the files (scenario, actions): ASCII
# digits only. Python's own int() and float() also read other scripts' digits ("\u0663" is
# 3), digit grouping ("1_0") and Unicode spaces; none of those is a spelling the contract
# knows, so each is refused instead of read as a number.
_SPACE = " \t\r\n"
_INT_TEXT = re.compile(r"[+-]?(?:0[xX][0-9A-Fa-f]+|[0-9]+)", re.ASCII)
_DECIMAL_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FLOAT_TEXT = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                         r"|inf|infinity|nan)", re.ASCII | re.IGNORECASE)


def int_text(text: str, *, hex_ok: bool = True) -> int:
    """An integer written in ASCII: decimal (leading zeros allowed) or, with ``hex_ok``,
    ``0x`` hex; a sign may lead and ASCII spaces may surround it. ValueError otherwise."""
    core = str(text).strip(_SPACE)
    if not (_INT_TEXT if hex_ok else _DECIMAL_TEXT).fullmatch(core):
        raise ValueError(f"not an integer: {text!r}")
    body = core.lstrip("+-")
    value = int(body[2:], 16) if body[:2] in ("0x", "0X") else int(body, 10)
    return -value if core.startswith("-") else value


def float_text(text: str) -> float:
    """A number written in ASCII: decimal with an optional fraction and exponent, or ``nan``,
    ``inf``, ``infinity`` (any case, optionally signed). ValueError otherwise."""
    core = str(text).strip(_SPACE)
    if not _FLOAT_TEXT.fullmatch(core):
        raise ValueError(f"not a number: {text!r}")
    return float(core)
