"""Suite-wide fixtures: fixed seeds, NaNs as failures, a headless GL context, image checks."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
#: the two real packet captures (MIT; attribution and licence in their README / LICENSE)
CAPTURES = ROOT / "tests" / "data" / "captures"
ARTIFACTS = ROOT / "tests" / "_artifacts"


# Hypothesis profiles. `ci` (chosen when the CI environment variable is set) is
# derandomized: the same examples every run, so a green CI is not luck. `dev` (local runs)
# draws fresh random examples, twice as many, to keep finding new failures. Either can be
# forced with `--hypothesis-profile ci|dev` (the option of Hypothesis' pytest plugin). A
# test's own @settings(max_examples=...) still wins over the profile's count.
_COMMON = {"deadline": None, "print_blob": True, "suppress_health_check": [HealthCheck.too_slow]}
# Both start from Hypothesis' "default" profile, not from whatever is loaded now (with CI set,
# Hypothesis has already loaded its own derandomized profile, which "dev" must not inherit).
_BASE = settings.get_profile("default")
settings.register_profile("ci", _BASE, derandomize=True, database=None, max_examples=100,
                          **_COMMON)
settings.register_profile("dev", _BASE, derandomize=False, max_examples=200, **_COMMON)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser):
    parser.addoption("--regen-goldens", action="store_true", default=False,
                     help="rewrite golden images from the current rendering")


@pytest.fixture(autouse=True)
def _determinism():
    """Fixed seeds and silent-NaN-as-failure for every test (house style)."""
    random.seed(0)
    np.random.seed(0)
    old = np.seterr(all="raise")
    yield
    np.seterr(**old)


@pytest.fixture(scope="session")
def _gl_session_ctx():
    pytest.importorskip("moderngl")
    from viewer.render.context import headless_context
    ctx = headless_context()   # EGL on Linux (VIEWER_GL_BACKEND overrides)
    yield ctx
    ctx.release()


@pytest.fixture
def gl_ctx(_gl_session_ctx):
    """A headless moderngl context on Mesa's EGL (llvmpipe in CI), made current for each
    test: code under test (the app's headless capture, a window harness) creates and
    releases contexts of its own, and moderngl never switches back by itself."""
    _gl_session_ctx.__enter__()  # eglMakeCurrent
    return _gl_session_ctx


@pytest.fixture
def regen_goldens(request) -> bool:
    return (bool(request.config.getoption("--regen-goldens"))
            or os.environ.get("REGEN_GOLDENS") == "1")


@pytest.fixture
def captures_dir() -> Path:
    return CAPTURES
