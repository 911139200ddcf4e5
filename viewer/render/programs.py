"""Shader programs from ``shaders/<pass>.{vert,frag}.glsl``, with ``#include "x.glsl"``."""

from __future__ import annotations

import re
import weakref
from pathlib import Path

SHADER_DIR = Path(__file__).resolve().parents[2] / "shaders"
_INCLUDE = re.compile(r'^#include "([A-Za-z0-9_.]+)"\s*$', re.MULTILINE)


def shader_source(name: str) -> str:
    text = (SHADER_DIR / name).read_text()
    return _INCLUDE.sub(lambda m: (SHADER_DIR / m.group(1)).read_text(), text)


_PROGRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def load_program(ctx, vert: str, frag: str | None = None):
    """Compile once per context (cached while the context lives)."""
    cache = _PROGRAMS.setdefault(ctx, {})
    key = (vert, frag or vert)
    prog = cache.get(key)
    if prog is None:
        prog = ctx.program(vertex_shader=shader_source(f"{vert}.vert.glsl"),
                           fragment_shader=shader_source(f"{frag or vert}.frag.glsl"))
        cache[key] = prog
    return prog


def set_uniform(prog, name: str, value) -> None:
    """Set a uniform if the linker kept it (unused uniforms are optimised out)."""
    member = prog.get(name, None)
    if member is None:
        return
    member.value = value
