"""The wheel carries everything the viewer needs.

The wheel is built from a copy of the sources (no build isolation, so no network), installed
with ``--no-deps`` into a fresh venv outside the repository -- whose third-party packages
come from the test environment through a ``.pth`` line, while ``viewer`` itself comes only
from the wheel -- and run from a foreign folder: ``screenshot``, ``trace`` on the default
scenario and ``render`` to a PNG. Then files are removed from the install: the commands fail
with the one-line error (exit 1), never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("viewer", "shaders", "assets_synthetic", "pyproject.toml", "setup.py", "README.md")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")


def _run(cmd, cwd, timeout=300, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(kw.pop("env", {}))
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv, site-packages of the wheel's install) for the module's tests."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=IGNORE)
        else:
            shutil.copy2(p, src / name)
    dist = base / "dist"
    out = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                "-q", "-w", dist, src], cwd=base)
    assert out.returncode == 0, out.stdout + out.stderr
    (wheel,) = dist.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for shader in (ROOT / "shaders").glob("*.glsl"):
        assert f"viewer/shaders/{shader.name}" in names
    for asset in ("synthetic_portal.dat", "MANIFEST.md", "default.scenario.json",
                  "gallery.scenario.json", "projectiles.scenario.json"):
        assert f"viewer/assets_synthetic/{asset}" in names
    assert not any(n.startswith(("shaders/", "assets_synthetic/", "tests/")) for n in names)

    venv = base / "venv"
    out = _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=base)
    assert out.returncode == 0, out.stderr
    py = venv / "bin" / "python"
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=base).stdout.strip())
    # third-party dependencies from the test environment; ``viewer`` only from the wheel
    (site / "_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    out = _run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps",
                "--no-index", "-q", wheel], cwd=base)
    assert out.returncode == 0, out.stdout + out.stderr
    return venv, site


@pytest.fixture
def foreign(tmp_path):
    """A working folder that is neither the repository nor the venv."""
    d = tmp_path / "elsewhere"
    d.mkdir()
    return d


def _where(venv, foreign, expr: str) -> Path:
    out = _run([venv / "bin" / "python", "-c", f"import viewer, viewer.synthetic; print({expr})"],
               cwd=foreign)
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip())


def test_viewer_and_its_files_come_from_the_wheel(installed, foreign):
    venv, site = installed
    assert _where(venv, foreign, "viewer.__file__").is_relative_to(site)
    dat = _where(venv, foreign, "viewer.synthetic.SYNTHETIC_DAT")
    assert dat.is_relative_to(site) and dat.is_file()
    shaders = _where(venv, foreign, "__import__('viewer.resources').resources.shaders_dir()")
    assert shaders == site / "viewer" / "shaders"


def test_screenshot_trace_and_render_run_from_a_foreign_folder(installed, foreign, gl_ctx):
    venv, _ = installed
    exe = venv / "bin" / "vfxviewer"
    out = _run([exe, "screenshot", "--out", "x.png", "--size", "320x200"], cwd=foreign)
    assert out.returncode == 0, out.stderr
    shot = np.asarray(Image.open(foreign / "x.png"))
    assert shot.shape[:2] == (200, 320) and shot[..., :3].std() > 5   # something drawn

    scenario = _where(venv, foreign, "viewer.synthetic.DEFAULT_SCENARIO")
    out = _run([exe, "trace", "--scenario", scenario, "--seconds", "0.1"], cwd=foreign)
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert {"tick", "script"} <= {e["event"] for e in events}
    assert max(e["t"] for e in events) <= 0.1

    out = _run([exe, "render", "--scenario", scenario, "--seconds", "0.1", "--size",
                "160x90", "--out", "r.png"], cwd=foreign)
    assert out.returncode == 0, out.stderr
    assert Image.open(foreign / "r.png").size == (160, 90)
    assert not (foreign / "assets_synthetic").exists()


def _one_line_failure(out: subprocess.CompletedProcess, *words: str) -> None:
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert out.returncode == 1, out.stderr
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert lines[0].startswith("vfxviewer: ") and all(w in lines[0] for w in words), lines[0]


def test_missing_package_data_is_the_one_line_error(installed, foreign, tmp_path):
    """Runs last in this module: it breaks the install (a copy of it, to be safe)."""
    venv, site = installed
    broken = tmp_path / "broken"
    shutil.copytree(site / "viewer", broken / "viewer")
    env = {"PYTHONPATH": str(broken)}       # the broken copy wins over the install
    exe = [venv / "bin" / "python", "-m", "viewer"]
    (broken / "viewer" / "assets_synthetic" / "default.scenario.json").unlink()
    out = _run([*exe, "screenshot", "--out", "y.png"], cwd=foreign, env=env)
    _one_line_failure(out, "default.scenario.json", "reinstall")
    assert not (foreign / "y.png").exists()

    scenario = site / "viewer" / "assets_synthetic" / "default.scenario.json"
    (broken / "viewer" / "shaders" / "lighting.glsl").unlink()
    out = _run([*exe, "render", str(site / "viewer" / "assets_synthetic" /
                                    "synthetic_portal.dat"), "--scenario", scenario,
                "--seconds", "0", "--size", "64x64", "--out", "z.png"], cwd=foreign, env=env)
    _one_line_failure(out, "lighting.glsl")
