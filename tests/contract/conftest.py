"""Acceptance checks of the command-line contract (docs/cli.md): the viewer driven only through its
command line (``viewer.cli.main([...])`` in process, or ``.venv/bin/vfxviewer`` as a
subprocess where the process boundary matters: exit status, stderr, byte-identical output).

Inputs: the committed synthetic DAT (DIDs named in ``viewer.synthetic``), DATs built here
with our own writer (``viewer.dat.writer``), the scenario files in ``assets_synthetic/`` and
the real captures in ``tests/data/captures/``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from viewer import synthetic as S
from viewer.cli import main

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "tests" / "data" / "captures"
VFXVIEWER = ROOT / ".venv" / "bin" / "vfxviewer"
SYN = S.SYNTHETIC_DAT

#: contract conventions: a DID is "0x" + 8 upper-case hex digits
DID_RE = re.compile(r"^0x[0-9A-F]{8}$")


class Result:
    def __init__(self, rc: int, out: str, err: str) -> None:
        self.rc, self.out, self.err = rc, out, err

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()

    @property
    def err_lines(self) -> list[str]:
        return [ln for ln in self.err.splitlines() if ln.strip()]

    def json_lines(self) -> list[dict]:
        return [json.loads(ln) for ln in self.lines]

    def __repr__(self) -> str:
        return f"Result(rc={self.rc}, err={self.err[-400:]!r})"


@pytest.fixture
def cli(capsys):
    """Run ``vfxviewer ARGS`` in process; argparse's SystemExit becomes the exit status."""
    def run(*argv) -> Result:
        capsys.readouterr()
        try:
            rc = main([str(a) for a in argv])
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return Result(rc, out, err)
    return run


def run_process(*argv, cwd=None, env=None, timeout=120) -> Result:
    """``vfxviewer ARGS`` as a real process (exit status, stderr and bytes as users see)."""
    exe = [str(VFXVIEWER)] if VFXVIEWER.exists() else [sys.executable, "-m", "viewer"]
    full_env = dict(os.environ)
    full_env.pop("DISPLAY", None)
    full_env.pop("WAYLAND_DISPLAY", None)
    full_env.update(env or {})
    p = subprocess.run(exe + [str(a) for a in argv], check=False, capture_output=True,
                       text=True,
                       cwd=cwd, env=full_env, timeout=timeout)
    return Result(p.returncode, p.stdout, p.stderr)


@pytest.fixture
def proc():
    return run_process


def assert_input_failure(r: Result, *must_name: str) -> None:
    """Contract conventions: exit 1 and ONE line on stderr naming file, DID and byte offset
    where known; never a traceback."""
    assert r.rc == 1, r
    assert "Traceback" not in r.err, r.err
    assert len(r.err_lines) == 1, r.err
    for text in must_name:
        assert text in r.err_lines[0], (text, r.err_lines[0])


def assert_usage_error(r: Result) -> None:
    """Contract conventions: bad usage exits 2 (argparse's usage text is fine), never a
    traceback."""
    assert r.rc == 2, r
    assert "Traceback" not in r.err, r.err
    assert r.err.strip(), "a usage error says what is wrong"


def write_scenario(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def walk_json(value, path=""):
    """Every (path, leaf) of a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_json(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_json(v, f"{path}[{i}]")
    else:
        yield path, value


def assert_no_raw_nonfinite(text: str) -> None:
    """JSON output never holds bare NaN / Infinity tokens (they are the strings "nan",
    "inf", "-inf")."""
    def bare(tok):
        pytest.fail(f"bare {tok} in JSON output")
    for line in text.splitlines():  # one JSON value, or JSON Lines
        if line.strip():
            json.loads(line, parse_constant=bare)
