"""Run the CLI in a child process under a memory limit and a hang guard.

``run_bounded(argv, memory=...)`` starts ``python -m viewer ARGS`` with ``RLIMIT_AS`` set to
``memory`` bytes (None: no limit) and returns its exit status, output and peak resident size
(``ru_maxrss`` of that child alone, from ``os.wait4``). A child still running after
``timeout`` seconds is killed and reported as timed out: a hang guard, not a benchmark.

The child is started by a small launcher process, not by the test process itself: Linux
keeps a process's peak resident size across fork and exec (``signal->maxrss``, and
``exec_mmap`` records the old memory's high-water mark), so a child forked straight from
the test process reported the test process's own size (a suite that had drawn the GUI: a
79 MiB child read 285 MiB). Forked from the launcher, it starts from the launcher's ~10 MiB.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
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


# argv: REPORT MEMORY|- PROGRAM ARGS...: fork, limit and exec the program, wait for it and
# write "STATUS MAXRSS" to REPORT (the program's own rusage, not the launcher's)
_LAUNCHER = """
import os, resource, sys
report, memory, *cmd = sys.argv[1:]
pid = os.fork()
if pid == 0:
    if memory != "-":
        resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
    os.execv(cmd[0], cmd)
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as f:
    f.write(f"{status} {usage.ru_maxrss}")
"""


def run_bounded(argv=(), *, memory: int | None = None, timeout: float = 120.0, cwd=None,
                stdin=None, code: str | None = None) -> Bounded:
    """``python -m viewer ARGV`` (or ``python -c CODE ARGV``) in a child process."""
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    out_dir = Path(cwd or ROOT)
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe, \
            tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report"
        head = ["-m", "viewer"] if code is None else ["-c", code]
        program = [sys.executable, *head, *[str(a) for a in argv]]
        p = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(report),
                              "-" if memory is None else str(int(memory)), *program],
                             stdout=fo, stderr=fe, stdin=stdin or subprocess.DEVNULL,
                             cwd=out_dir, env=env, start_new_session=True)
        deadline = time.monotonic() + timeout
        timed_out = False
        while p.poll() is None:
            if time.monotonic() > deadline:
                os.killpg(p.pid, signal.SIGKILL)   # the launcher and the program
                p.wait()
                timed_out = True
                break
            time.sleep(0.05)
        if report.exists() and report.read_text():
            status, maxrss = (int(v) for v in report.read_text().split())
            rc = os.waitstatus_to_exitcode(status)
        else:   # killed before the program ended
            rc, maxrss = p.returncode, 0
        fo.seek(0)
        fe.seek(0)
        return Bounded(rc, fo.read().decode("utf-8", "replace"),
                       fe.read().decode("utf-8", "replace"), maxrss * 1024, timed_out)
