"""The one headless GL context chooser (viewer/render/context.py), with the platform faked:
EGL on Linux, the platform's own standalone context (WGL, CGL) on Windows and macOS, and
VIEWER_GL_BACKEND overriding either."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from viewer.render import context as C

ROOT = Path(__file__).resolve().parents[2]


class _Recorder:
    def __init__(self, fail: Exception | None = None) -> None:
        self.calls: list[dict] = []
        self.fail = fail

    def __call__(self, **kwargs):
        self.calls.append(kwargs)
        if self.fail is not None:
            raise self.fail
        return "ctx"


@pytest.mark.parametrize("platform, expected", [
    ("linux", {"require": 330, "backend": "egl"}),
    ("freebsd14", {"require": 330, "backend": "egl"}),
    # WGL: moderngl's standalone context without a backend name is glcontext's wgl one
    ("win32", {"require": 330}),
    # CGL: the same on macOS is glcontext's darwin (CGL) backend
    ("darwin", {"require": 330}),
])
def test_platform_choice_is_what_moderngl_is_called_with(platform, expected):
    made = _Recorder()
    assert C.headless_context(platform=platform, environ={}, create=made) == "ctx"
    assert made.calls == [expected]


@pytest.mark.parametrize("value, platform, expected", [
    ("egl", "win32", {"require": 330, "backend": "egl"}),
    ("EGL", "darwin", {"require": 330, "backend": "egl"}),
    ("native", "linux", {"require": 330}),
    ("wgl", "win32", {"require": 330}),
    ("cgl", "darwin", {"require": 330}),
    ("auto", "linux", {"require": 330, "backend": "egl"}),
    ("", "win32", {"require": 330}),
])
def test_VIEWER_GL_BACKEND_overrides(value, platform, expected):
    made = _Recorder()
    C.headless_context(platform=platform, environ={"VIEWER_GL_BACKEND": value}, create=made)
    assert made.calls == [expected]


def test_unknown_override_is_one_line_naming_the_variable():
    with pytest.raises(C.HeadlessContextError) as err:
        C.headless_context(platform="linux", environ={"VIEWER_GL_BACKEND": "vulkan"},
                           create=_Recorder())
    text = str(err.value)
    assert "VIEWER_GL_BACKEND" in text and "'vulkan'" in text and "\n" not in text


def test_failed_context_is_one_line_naming_backend_and_override():
    made = _Recorder(fail=Exception("eglGetDisplay failed\nmore detail"))
    with pytest.raises(C.HeadlessContextError) as err:
        C.headless_context(platform="linux", environ={}, create=made)
    text = str(err.value)
    assert "egl backend" in text and "eglGetDisplay failed" in text
    assert "VIEWER_GL_BACKEND" in text and "\n" not in text


def test_real_platform_defaults_to_sys_platform(monkeypatch):
    monkeypatch.setattr(C.sys, "platform", "win32")
    monkeypatch.delenv("VIEWER_GL_BACKEND", raising=False)
    assert C.context_arguments() == {"require": 330}
    monkeypatch.setattr(C.sys, "platform", "linux")
    assert C.context_arguments() == {"require": 330, "backend": "egl"}


def test_no_other_module_makes_a_standalone_context():
    """Every standalone context of the package comes through headless_context."""
    offenders = []
    for path in sorted((ROOT / "viewer").rglob("*.py")):
        if path == ROOT / "viewer" / "render" / "context.py":
            continue
        text = path.read_text(encoding="utf-8")
        if "create_standalone_context" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Attribute) and node.attr == "create_standalone_context":
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
