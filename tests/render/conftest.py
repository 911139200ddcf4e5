"""The render tests' own GL context (package scope), made current before each test.

Another suite's code may create and release standalone contexts in between tests (for
example ``viewer.app.render_headless`` or a window harness), which can leave the session
``gl_ctx`` unusable or not current; moderngl does not switch contexts by itself. The render
package therefore opens a fresh headless EGL context for its own tests and releases it at
the end.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="package")
def gl_ctx():
    moderngl = pytest.importorskip("moderngl")
    ctx = moderngl.create_standalone_context(backend="egl", require=330)
    yield ctx
    ctx.release()


@pytest.fixture(autouse=True)
def _gl_ctx_current(request):
    if "gl_ctx" in request.fixturenames:
        request.getfixturevalue("gl_ctx").__enter__()  # eglMakeCurrent (glcontext)
    yield
