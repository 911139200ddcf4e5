"""Run the CLI in a child process under a memory limit and a hang guard.

``run_bounded(argv, memory=...)`` starts ``python -m viewer ARGS`` with ``RLIMIT_AS`` set to
``memory`` bytes (None: no limit) and returns its exit status, output and peak resident size
(``ru_maxrss`` of that child alone, from ``os.wait4``). A child still running after
``timeout`` seconds is killed and reported as timed out: a hang guard, not a benchmark.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MiB = 1 << 20
GiB = 1 << 30


@dataclass
class Bounded:
    rc: int
    out: str
    err: str
    maxrss: int          # bytes
    timed_out: bool

    @property
    def err_lines(self) -> list[str]:
        return [ln for ln in self.err.splitlines() if ln.strip()]

    def __repr__(self) -> str:
        return (f"Bounded(rc={self.rc}, maxrss={self.maxrss / MiB:.0f} MiB, "
                f"timed_out={self.timed_out}, err={self.err[-600:]!r})")


def run_bounded(argv=(), *, memory: int | None = None, timeout: float = 120.0, cwd=None,
                stdin=None, code: str | None = None) -> Bounded:
    """``python -m viewer ARGV`` (or ``python -c CODE ARGV``) in a child process."""
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    out_dir = Path(cwd or ROOT)
    import tempfile
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        head = ["-m", "viewer"] if code is None else ["-c", code]
        p = subprocess.Popen([sys.executable, *head, *[str(a) for a in argv]],
                             stdout=fo, stderr=fe, stdin=stdin or subprocess.DEVNULL,
                             cwd=out_dir, env=env, preexec_fn=limit)
        deadline = time.monotonic() + timeout
        timed_out = False
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, usage = os.wait4(p.pid, 0)
                timed_out = True
                break
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        return Bounded(p.returncode, fo.read().decode("utf-8", "replace"),
                       fe.read().decode("utf-8", "replace"), usage.ru_maxrss * 1024, timed_out)
