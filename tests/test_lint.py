"""The project's ruff rule set (pyproject.toml [tool.ruff.lint]) holds for the whole checkout."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> str | None:
    beside = Path(sys.executable).with_name("ruff")
    if beside.exists():
        return str(beside)
    return shutil.which("ruff")


def test_ruff_check_is_clean():
    ruff = _ruff()
    if ruff is None:
        pytest.skip("ruff is not installed in this environment (pip install -e .[dev])")
    done = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
