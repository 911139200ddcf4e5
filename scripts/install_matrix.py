"""Check that the viewer's dependencies install from wheels alone on every supported cell.

For each CPython version (3.11-3.14) and each platform (Linux x86_64 and aarch64, Windows
amd64, macOS arm64 and x86_64) this runs pip's resolver in dry-run mode as a user of that
machine would get it, wheels only::

    python -m pip install --dry-run --ignore-installed --only-binary=:all:
        --python-version V --platform TAG [--platform TAG ...] --target TMP DEPENDENCIES

The dependencies are read from ``pyproject.toml`` (``[project] dependencies``). It prints
one row per cell (ok / FAIL and, for a failure, the package pip could not find a wheel
for) and exits 1 when any cell fails, 0 when all pass, 2 for bad usage.

The question is what PyPI offers a fresh machine, so pip runs without this machine's pip
configuration: no config files (a local constraint file, find-links or extra indexes would
answer for wheels a user does not have) and no ``PIP_*`` variables except the certificate,
proxy and timeout ones. ``--keep-pip-config`` keeps them (a mirror, a private index);
``--index-url`` asks another index.

Pip evaluates environment markers of dependencies for the machine it runs on, not for the
cell (a pip limitation); the tags and the Python version are the cell's.

Usage (from the repository root; needs network access to the index):
    python scripts/install_matrix.py
    python scripts/install_matrix.py --requirement-override "imgui-bundle>=1.92"
    python scripts/install_matrix.py --python 3.14 --os windows --jobs 2
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = ("3.11", "3.12", "3.13", "3.14")

# The oldest glibc a Linux cell stands for: 2.28 (RHEL / Alma 8, Debian 10; every newer
# distribution runs manylinux_2_28 and older wheels). A wheel tagged for a newer glibc than
# this does not count.
GLIBC_MINOR = 28


def _manylinux(arch: str) -> tuple[str, ...]:
    """Every manylinux tag a glibc-2.28 machine of ``arch`` accepts, newest first (pip
    takes ``--platform`` literally for PEP 600 tags, so each one is listed)."""
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(GLIBC_MINOR, 16, -1)]
    tags.append(f"manylinux2014_{arch}")           # = manylinux_2_17
    if arch == "x86_64":
        tags += [f"manylinux_2_{m}_{arch}" for m in range(16, 4, -1)]
        tags += [f"manylinux2010_{arch}", f"manylinux1_{arch}"]
    return tuple(tags)


#: cell platform -> pip --platform tags. pip expands a macosx tag down to every older
#: release and the universal2 forms, so one tag per macOS cell names the release it stands
#: for: macOS 14 (Sonoma), the oldest imgui-bundle's wheels are built for.
PLATFORMS: dict[str, tuple[str, ...]] = {
    "linux-x86_64": _manylinux("x86_64"),
    "linux-aarch64": _manylinux("aarch64"),
    "windows-amd64": ("win_amd64",),
    "macos-arm64": ("macosx_14_0_arm64",),
    "macos-x86_64": ("macosx_14_0_x86_64",),
}

#: PIP_* variables a fresh machine's pip may still be given (how to reach the index).
KEPT_PIP_ENV = ("PIP_CERT", "PIP_CLIENT_CERT", "PIP_PROXY", "PIP_DEFAULT_TIMEOUT",
                "PIP_TIMEOUT", "PIP_RETRIES", "PIP_CACHE_DIR", "PIP_NO_CACHE_DIR",
                "PIP_DISABLE_PIP_VERSION_CHECK")


@dataclass(frozen=True)
class Cell:
    python: str
    platform: str

    @property
    def name(self) -> str:
        return f"cp{self.python.replace('.', '')}-{self.platform}"


@dataclass(frozen=True)
class Result:
    cell: Cell
    ok: bool
    blocking: str = ""      # the package (requirement) pip found no wheel for
    detail: str = ""        # pip's last error line


def project_dependencies(pyproject: Path) -> list[str]:
    with pyproject.open("rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def requirement_name(req: str) -> str:
    """The normalised project name of a requirement string (PEP 503)."""
    m = _NAME.match(req)
    if not m:
        raise ValueError(f"not a requirement: {req!r}")
    return re.sub(r"[-_.]+", "-", m.group(1)).lower()


def override(deps: list[str], overrides: Iterable[str]) -> list[str]:
    """``deps`` with each override replacing the requirement of the same project (or added
    when none has that name)."""
    out = list(deps)
    for req in overrides:
        name = requirement_name(req)
        hits = [i for i, d in enumerate(out) if requirement_name(d) == name]
        if hits:
            out[hits[0]] = req
            for i in reversed(hits[1:]):
                del out[i]
        else:
            out.append(req)
    return out


def cells(pythons: Iterable[str] = PYTHONS, platforms: Iterable[str] = PLATFORMS) -> list[Cell]:
    return [Cell(py, plat) for py in pythons for plat in platforms]


def pip_command(cell: Cell, deps: list[str], target: str,
                index_url: str | None = None) -> list[str]:
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
           "--only-binary=:all:", "--python-version", cell.python,
           "--implementation", "cp", "--target", target, "--no-input",
           "--disable-pip-version-check"]
    for tag in PLATFORMS[cell.platform]:
        cmd += ["--platform", tag]
    if index_url:
        cmd += ["--index-url", index_url]
    return cmd + list(deps)


def pip_env(keep_config: bool, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment pip runs in: as given with ``keep_config``, else without config files
    and without the ``PIP_*`` variables that change what is found."""
    env = dict(os.environ if environ is None else environ)
    if keep_config:
        return env
    env = {k: v for k, v in env.items() if not k.startswith("PIP_") or k in KEPT_PIP_ENV}
    env["PIP_CONFIG_FILE"] = os.devnull
    return env


_NO_MATCH = re.compile(r"No matching distribution found for (\S+)")
_NO_VERSION = re.compile(r"Could not find a version that satisfies the requirement (\S+)")
_CONFLICT = re.compile(r"Cannot install (.+?) because")


def blocking_package(stderr: str) -> str:
    """The requirement pip names as the one it could not satisfy ("" when it names none)."""
    for pat in (_NO_MATCH, _NO_VERSION, _CONFLICT):
        found = pat.findall(stderr)
        if found:
            return found[-1]
    return ""


def _last_error(stderr: str) -> str:
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip().startswith("ERROR")]
    if lines:
        return lines[-1]
    rest = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    return rest[-1] if rest else ""


Runner = Callable[[list[str], dict[str, str]], "subprocess.CompletedProcess[str]"]


def _run_pip(cmd: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)


def check_cell(cell: Cell, deps: list[str], env: dict[str, str], run: Runner = _run_pip,
               index_url: str | None = None) -> Result:
    with tempfile.TemporaryDirectory(prefix="install-matrix-") as target:
        proc = run(pip_command(cell, deps, target, index_url), env)
    if proc.returncode == 0:
        return Result(cell, True)
    err = (proc.stderr or "") + "\n" + (proc.stdout or "")
    return Result(cell, False, blocking_package(err) or "?", _last_error(err))


def check_all(todo: list[Cell], deps: list[str], env: dict[str, str], jobs: int = 2,
              run: Runner = _run_pip, index_url: str | None = None) -> list[Result]:
    """Every cell, ``jobs`` at a time, in the order given."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda c: check_cell(c, deps, env, run, index_url), todo))


def table(results: list[Result]) -> str:
    """The results as an aligned Markdown table, then a summary line."""
    rows = [("cell", "result", "blocking package")]
    rows += [(r.cell.name, "ok" if r.ok else "FAIL", r.blocking) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]

    def line(row):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |"

    out = [line(rows[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(row) for row in rows[1:]]
    failed = sum(not r.ok for r in results)
    out.append(f"{len(results) - failed} of {len(results)} cells resolve from wheels"
               + (f"; {failed} FAIL" if failed else ""))
    return "\n".join(out)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    p.add_argument("--requirement-override", action="append", default=[], metavar="REQ",
                   help="use REQ instead of the dependency of the same name (repeatable)")
    p.add_argument("--python", action="append", choices=PYTHONS,
                   help="only this CPython version (repeatable)")
    p.add_argument("--os", action="append", choices=sorted(PLATFORMS),
                   help="only this platform (repeatable)")
    p.add_argument("--jobs", type=int, default=2, help="cells resolved at once (default 2)")
    p.add_argument("--index-url", help="the index pip asks (default: pip's, PyPI)")
    p.add_argument("--keep-pip-config", action="store_true",
                   help="keep this machine's pip config files and PIP_* variables")
    p.add_argument("--verbose", action="store_true", help="print pip's error line per failure")
    return p


def main(argv: list[str] | None = None, run: Runner = _run_pip) -> int:
    args = _parser().parse_args(argv)
    try:
        deps = override(project_dependencies(args.pyproject), args.requirement_override)
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError) as e:
        print(f"install_matrix: {args.pyproject}: {e}", file=sys.stderr)
        return 2
    todo = cells(args.python or PYTHONS, args.os or PLATFORMS)
    results = check_all(todo, deps, pip_env(args.keep_pip_config), args.jobs, run,
                        args.index_url)
    print(table(results))
    if args.verbose:
        for r in results:
            if not r.ok:
                print(f"{r.cell.name}: {r.detail}")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
