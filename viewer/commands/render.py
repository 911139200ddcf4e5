"""``vfxviewer render DAT (--scenario FILE | --setup DID ...) --out PATH`` (docs/cli.md section 6).

Renders headless on EGL: ``--out x.png`` writes the last frame (``.jpg`` and the other
picture types the same, without alpha where the type has none), a folder writes
``frame_00000.png``..., ``x.gif`` an animated GIF, ``x.mp4`` a video (PyAV and Pillow through
``viewer.media``). The camera is fixed (``--camera``, ``--target``, ``--distance``,
``--fov``), the simulation is seeded, so the same seed gives the same frames.

Frame k is drawn after ``ScenarioRunner.frames()`` steps it (frame k at k / fps, up to and
including ``seconds``; the frame order is in ``viewer/sim/world.py``). ``--start S`` writes
only the frames at t >= S (the simulation still runs from 0, so they are the same frames a
full run writes); ``--transparent`` clears to alpha 0 where nothing is drawn and keeps the
alpha in PNG, PNG-folder and GIF outputs (video stays opaque).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from viewer import bounds
from viewer.commands.output import check_output, nonempty_path, writing
from viewer.commands.overwrite import refuse_clash, scenario_inputs
from viewer.commands.selection import (
    add_selection_arguments,
    allow_negative_values,
    bounded,
    build_scenario,
    check_selection,
    parse_seconds,
    parse_size_in,
    parse_vec3,
    usage_error,
)
from viewer.commands.selection import dat_paths as selection_dat_paths
from viewer.errors import ScenarioError, UsageError, ViewerError
from viewer.media import OUTPUT_TYPES, VIDEO_SUFFIXES, output_kind
from viewer.sim.mixer import SAMPLE_RATE as SOUND_SAMPLE_RATE

CAMERA_PRESETS = ("perspective", "front", "side", "top")
#: Cameras placed by retail's rules behind object 1 (viewer/render/camera.py retail_camera).
RETAIL_CAMERAS = ("retail", "retail-head")


parse_size = parse_size_in(bounds.RENDER_SIZE)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_selection_arguments(parser)
    allow_negative_values(parser)  # --camera -1,2,3, --target -1,0,0, compare --crop -1,...
    parser.add_argument("--out", required=True, type=nonempty_path,
                        help="out.png (last frame; .jpg ... too), a folder, out.gif or out.mp4")
    parser.add_argument("--size", type=parse_size, default=(640, 360), help="WxH (640x360)")
    parser.add_argument("--start", type=parse_seconds, default=0.0, metavar="S",
                        help="write only frames at t >= S (the simulation runs from 0)")
    parser.add_argument("--transparent", action="store_true",
                        help="alpha 0 where nothing is drawn (PNG, folder, GIF; not video)")
    parser.add_argument("--camera", default="perspective",
                        help="a preset (perspective, front, side, top), retail (the retail "
                        "client's "
                        "chase camera behind object 1), retail-head, or an eye x,y,z")
    parser.add_argument("--target", type=parse_vec3,
                        help="point the camera looks at (default: object 1 + 0.5 m up)")
    parser.add_argument("--distance", type=bounded(bounds.CAMERA_DISTANCE), default=6.0,
                        help=f"camera distance for presets ({bounds.CAMERA_DISTANCE.span()})")
    parser.add_argument("--fov", type=bounded(bounds.FOV), default=50.0,
                        help=f"vertical field of view ({bounds.FOV.span()})")
    parser.add_argument("--grid", action="store_true", help="draw the ground grid and axes")
    parser.add_argument("--no-audio", dest="no_audio", action="store_true",
                        help="a video output without the sound track")
    parser.add_argument("--overlays", action="store_true",
                        help="draw spheres, part axes, emitter anchors and the world's "
                             "collision shapes")


# --- scenario -------------------------------------------------------------------------------
def load_scenario(args):
    """The Scenario the selection options describe (shared with ``vfxviewer trace``:
    --script / --play are events at t = 0 on object 1, in the order typed)."""
    return build_scenario(args)


def prepare(args, prog: str, *, outputs=(), inputs=(), scenario_reference: bool = False):
    """``(scenario, dat paths)``, or ``(None, None)`` after printing a usage error. Every
    option is checked here, before any work: the camera, the output's size and path, and
    that no output (``--out`` and the caller's ``outputs``) is one of the inputs (the DATs,
    the scenario, with ``scenario_reference`` the recording its "reference" names, and the
    caller's ``inputs``: viewer.commands.overwrite), then that each of ``outputs`` can be
    written."""
    if check_selection(args, prog) is not None:
        return None, None
    spec = str(args.camera)
    if spec not in CAMERA_PRESETS + RETAIL_CAMERAS:
        try:
            eye = parse_vec3(spec)
        except argparse.ArgumentTypeError as err:
            usage_error(prog, f"--camera must be one of "
                        f"{', '.join(CAMERA_PRESETS + RETAIL_CAMERAS)} or x,y,z ({err})")
            return None, None
        if args.target is not None and _no_direction(eye, args.target):
            usage_error(prog, f"--camera {spec} is the --target point: the camera needs a "
                        "direction to look in")
            return None, None
    out = getattr(args, "out", None)
    if out is not None:
        suffix = Path(out).suffix.lower()
        if output_kind(out) is None:
            usage_error(prog, f"--out {out}: cannot write {suffix!r} ({OUTPUT_TYPES})")
            return None, None
        if suffix in VIDEO_SUFFIXES - {".gif"} and min(args.size) < 2:
            usage_error(prog, f"--size {args.size[0]}x{args.size[1]}: a video needs at "
                        "least 2x2 pixels (yuv420p keeps whole 2x2 blocks)")
            return None, None
        check_output(out, "--out", folder=suffix == "")
    sc = load_scenario(args)
    paths = selection_dat_paths(args, sc)
    if not paths:
        usage_error(prog, "no DAT: give DAT on the command line or \"dat\" in the scenario")
        return None, None
    if refuse_clash(prog, [("--out", out), *outputs],
                    [*(("DAT", p) for p in paths),
                     *scenario_inputs(args.scenario, sc if scenario_reference else None,
                                      dats=False),
                     *inputs]) is not None:
        return None, None
    for option, path in outputs:
        if path is not None:
            check_output(path, option)
    return sc, paths


def dat_paths(args, sc) -> list[str]:
    paths = selection_dat_paths(args, sc)
    if not paths:
        raise ScenarioError("no DAT: give DAT on the command line or \"dat\" in the "
                            "scenario")
    return paths


# --- camera -----------------------------------------------------------------------------------
def make_camera(args, world):
    from dataclasses import replace

    from viewer.render.camera import Camera, preset
    target = args.target
    if target is None:
        obj = world.objects.get(1) or next(iter(world.objects.values()), None)
        o = obj.frame.origin if obj is not None else (0.0, 0.0, 0.0)
        target = (o[0], o[1], o[2] + 0.5)
    cam = Camera(target=tuple(target), distance=float(args.distance), fov_y_deg=float(args.fov))
    spec = str(args.camera)
    if spec in RETAIL_CAMERAS:
        from viewer.render.camera import retail_camera_for
        obj = world.objects.get(1) or next(iter(world.objects.values()), None)
        if obj is None:
            raise ScenarioError("--camera retail needs an object to stand behind")
        return retail_camera_for(obj, in_head=spec == "retail-head")
    if spec in CAMERA_PRESETS:
        return preset(cam, spec)
    try:
        eye = parse_vec3(spec)
    except argparse.ArgumentTypeError:
        raise ScenarioError("--camera must be one of "
                            f"{', '.join(CAMERA_PRESETS + RETAIL_CAMERAS)} or x,y,z") \
            from None
    d = [target[i] - eye[i] for i in range(3)]
    dist = math.sqrt(sum(c * c for c in d))
    if _no_direction(eye, target):  # on the default target (object 1 + 0.5 m up)
        raise UsageError(f"--camera {spec} is the default target {_xyz(target)} (object 1, "
                         "0.5 m up): give --target or another eye")
    # Camera.forward() = -(cos p cos y, cos p sin y, sin p): solve for yaw / pitch
    pitch = math.asin(max(-1.0, min(1.0, -d[2] / dist)))
    yaw = math.atan2(-d[1], -d[0])
    return replace(cam, yaw=yaw, pitch=pitch, distance=dist)


def _no_direction(eye, target) -> bool:
    """An eye this close to its target has no direction to look in."""
    return math.dist(eye, target) < 1e-6


def _xyz(v) -> str:
    return ",".join(f"{float(c):g}" for c in v)


# --- run ---------------------------------------------------------------------------------------
def render_frames(sc, args, ctx, on_frame, db=None, wants=None, capture=None,
                  on_world=None) -> int:
    """Simulate every frame and render those ``wants(last)`` accepts (default: all);
    ``on_frame(rgba)`` receives each rendered one. Returns the count rendered.
    ``capture`` (viewer.sim.mixer.SoundCapture) keeps the sounds and the frame times;
    ``on_world(t, world)`` sees the runtime after each simulated frame (tests)."""
    from viewer.dat.database import AssetDatabase
    from viewer.render.framebuffer import OffscreenTarget
    from viewer.render.renderer import RenderSettings, SceneRenderer
    from viewer.render.scene_input import scene_input_from_world
    from viewer.sim.clock import as_time
    from viewer.sim.scenario import ScenarioRunner
    own_db = db is None
    if own_db:
        db = AssetDatabase(dat_paths(args, sc))
    settings = RenderSettings(show_grid=bool(args.grid), show_spheres=bool(args.overlays),
                              show_part_axes=bool(args.overlays),
                              show_emitter_anchors=bool(args.overlays),
                              show_collision=bool(args.overlays))
    if getattr(args, "transparent", False):
        settings.background = (*settings.background[:3], 0.0)
    start = as_time(getattr(args, "start", 0.0) or 0.0)
    renderer = SceneRenderer(ctx, db, settings)
    target = OffscreenTarget(ctx, args.size)
    camera = None
    n = 0
    try:
        runner = ScenarioRunner(sc, db)
        if capture is not None:
            runner.world.observers.append(capture)
        final = runner.clock.last_frame(sc.seconds)
        for t, world in runner.frames():
            last = runner.clock.frame >= final
            if camera is None:
                camera = make_camera(args, world)
            # the viewer distance (CYpt) retail refreshes on each drawn frame, from the
            # camera (the window does the same: Session.set_viewer)
            world.set_viewer(camera.eye(), camera.forward())
            if on_world is not None:
                on_world(t, world)
            if t < start or (wants is not None and not wants(last)):
                continue   # simulated, not drawn: --start, or a frame the output drops
            renderer.render(scene_input_from_world(
                world, gpu_particles=renderer.gpu_particles), camera, target)
            on_frame(target.read_rgba())
            if capture is not None:
                capture.drawn(t)
            n += 1
    finally:
        renderer.release()
        target.release()
        if own_db and hasattr(db, "close"):
            db.close()
    return n


def default_scenario_frames(ctx, frames: int, size=(640, 360)):
    """(label, renderer, scene inputs, camera) for the first ``frames`` frames of the default
    scenario (bench/render.py)."""
    from viewer.dat.database import AssetDatabase
    from viewer.render.renderer import SceneRenderer
    from viewer.render.scene_input import scene_input_from_world
    from viewer.sim.scenario import Scenario, ScenarioRunner
    from viewer.synthetic import DEFAULT_SCENARIO
    sc = Scenario.load(DEFAULT_SCENARIO)
    db = AssetDatabase([str(p) for p in sc.dat_paths()])
    args = build_parser_args(["--scenario", str(DEFAULT_SCENARIO), "--out", "unused.png"])
    renderer = SceneRenderer(ctx, db)
    scenes, camera = [], None
    for _, world in ScenarioRunner(sc, db).frames():
        if camera is None:
            camera = make_camera(args, world)
        world.set_viewer(camera.eye(), camera.forward())
        # GPU snapshots chain (each names the slots its tick changed), so the scenes render
        # in order as a straight run would; their rows are read now, before the pool moves on
        scene = scene_input_from_world(world, gpu_particles=renderer.gpu_particles)
        if scene.particle_snapshot is not None:
            scene.particle_snapshot.pack()
        scenes.append(scene)
        if len(scenes) == frames:
            break
    return "default scenario", renderer, scenes, camera


def build_parser_args(argv):
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def run(args) -> int:
    from viewer.media import FrameWriter
    from viewer.render.context import headless_context
    sc, paths = prepare(args, "vfxviewer render")
    if sc is None:
        return 2
    from viewer.dat.database import AssetDatabase
    from viewer.sim.mixer import SoundCapture
    ctx = headless_context()
    db = AssetDatabase(paths)
    try:
        with writing(args.out, "--out"), FrameWriter(
                args.out, fps=float(sc.fps), transparent=bool(args.transparent)) as writer:
            capture = None if args.no_audio or writer.kind != "video" else SoundCapture()
            try:
                n = render_frames(sc, args, ctx, writer.write, db=db, wants=writer.wants,
                                  capture=capture)
                if capture is not None and n:
                    # mixed a block at a time as close() writes it: an hour of sound is
                    # never held whole
                    writer.set_audio(capture.track_blocks(db, float(sc.fps)),
                                     SOUND_SAMPLE_RATE)
            except ViewerError as err:  # a DID from --setup/--script: name the DAT
                raise err.located(file=", ".join(paths)) from err
            if not n:
                raise ScenarioError(f"no frame at t >= --start {args.start:g} (the scenario "
                                    f"ends at {float(sc.seconds):g} s)")
    finally:
        ctx.release()
        db.close()
    return 0
