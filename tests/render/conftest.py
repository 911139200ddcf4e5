"""Render tests draw on the session ``gl_ctx``; make it the current GL context first.

Another suite's code may create and release its own standalone context in between (for
example ``viewer.app.render_headless``), which leaves no context or the wrong one current,
and moderngl does not switch contexts by itself.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _gl_ctx_current(request):
    if "gl_ctx" in request.fixturenames:
        request.getfixturevalue("gl_ctx").__enter__()  # eglMakeCurrent (glcontext)
    yield
