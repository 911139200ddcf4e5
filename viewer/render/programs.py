"""Shader programs from ``shaders/<pass>.{vert,frag}.glsl``, with ``#include "x.glsl"``.

The one shader loader: every pass (mesh, particle, overlay, grid) gets its program from
``load_program`` (compiled once per context) over ``shader_source`` (read once)."""

from __future__ import annotations

import functools
import re
import weakref

from viewer.resources import shader_path

_INCLUDE = re.compile(r'^#include "([A-Za-z0-9_.]+)"\s*$', re.MULTILINE)


@functools.cache
def shader_source(name: str) -> str:
    """``name`` from the shader folder (viewer.resources: the package data or the
    checkout's ``shaders/``; a missing file is a ResourceError naming it) with every
    ``#include "x.glsl"`` line replaced by that file (itself expanded the same way); read
    once per process."""
    text = shader_path(name).read_text(encoding="utf-8")
    return _INCLUDE.sub(lambda m: shader_source(m.group(1)), text)


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
