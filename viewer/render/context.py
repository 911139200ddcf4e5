"""The one place a headless (standalone) OpenGL context is made: ``headless_context``.

Which context a platform gets (``headless_backend``):

- Linux (and other Unix): EGL (Mesa's, llvmpipe without a GPU); needs no display.
- Windows: the platform's own standalone context, WGL (glcontext makes a hidden window).
- macOS: the platform's own standalone context, CGL.

``VIEWER_GL_BACKEND`` overrides the choice: ``egl`` asks for EGL anywhere (Windows or
macOS with an EGL library such as ANGLE's on the path), ``native`` (or its platform names
``wgl``, ``cgl``, ``glx``, ``x11``) asks for the platform's own context (on Linux that is
GLX and needs a display). Empty or ``auto`` means the platform's choice above.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping

from viewer.errors import ViewerError

ENV = "VIEWER_GL_BACKEND"
#: the GL version every pass needs (3.3 core; compute passes check for 4.3 themselves)
REQUIRE = 330

#: override values -> None (the platform's own context) or a glcontext backend name
_OVERRIDES: dict[str, str | None] = {
    "egl": "egl", "native": None, "wgl": None, "cgl": None, "glx": None, "x11": None,
}


class HeadlessContextError(ViewerError):
    """No headless OpenGL context could be made (or ``VIEWER_GL_BACKEND`` is not a known
    backend)."""


def platform_backend(platform: str) -> str | None:
    """The backend a platform uses when nothing overrides it: ``None`` (the platform's own
    standalone context: WGL on Windows, CGL on macOS) or ``"egl"`` (Linux and the rest)."""
    if platform.startswith(("win32", "cygwin", "darwin")):
        return None
    return "egl"


def headless_backend(platform: str | None = None,
                     environ: Mapping[str, str] | None = None) -> str | None:
    """The glcontext backend name to ask moderngl for, or ``None`` for the platform's own
    standalone context (``platform`` defaults to ``sys.platform``, ``environ`` to
    ``os.environ``)."""
    platform = sys.platform if platform is None else platform
    environ = os.environ if environ is None else environ
    value = environ.get(ENV, "").strip().lower()
    if value in ("", "auto"):
        return platform_backend(platform)
    if value not in _OVERRIDES:
        known = ", ".join(["auto", *_OVERRIDES])
        raise HeadlessContextError(f"{ENV}={value!r} is not a GL backend (one of {known})")
    return _OVERRIDES[value]


def context_arguments(require: int = REQUIRE, platform: str | None = None,
                      environ: Mapping[str, str] | None = None) -> dict:
    """The keyword arguments ``moderngl.create_standalone_context`` is called with."""
    kwargs: dict = {"require": require}
    backend = headless_backend(platform, environ)
    if backend is not None:
        kwargs["backend"] = backend
    return kwargs


def headless_context(require: int = REQUIRE, *, platform: str | None = None,
                     environ: Mapping[str, str] | None = None,
                     create: Callable | None = None):
    """A standalone moderngl context for headless rendering, on the backend
    ``headless_backend`` chooses. ``create`` stands in for
    ``moderngl.create_standalone_context`` (tests). A context that cannot be made is one
    ``HeadlessContextError`` line naming the backend and the override."""
    kwargs = context_arguments(require, platform, environ)
    if create is None:
        import moderngl
        create = moderngl.create_standalone_context
    try:
        return create(**kwargs)
    except Exception as exc:  # noqa: BLE001 - glcontext raises plain Exception / OSError
        name = kwargs.get("backend", "the platform's own")
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise HeadlessContextError(
            f"no headless OpenGL {require // 100}.{require // 10 % 10} context "
            f"({name} backend): {detail}; {ENV} chooses another") from exc
