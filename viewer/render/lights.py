"""Setup lights to world lights, retail's light selection, and shader uniforms
(docs/retail-rules.md, Rendering).

* Lights exist only while the object has LIGHTING_ON (`CPhysicsObj::set_state` 0x00514DD0,
  `set_lights` 0x0050FCF0); the SetLight hook drives the same bit in the runtime.
* World frame = combine(object frame, LIGHTINFO.offset) (object frame, not a part frame;
  object scale not applied); direction = local +Y of that frame; colour re-quantised to 8 bits.
* Selection: sorted by squared distance to the viewer (directional lights count 0), capped at
  max_dynamic_lights (7 + 3m, m = +1 in steady state -> 10); per drawn object at
  most 8, skipping point lights farther from the object centre than falloff + object radius.
* D3D light: diffuse = colour * intensity; point/spot Range = falloff * 1.5 (attenuation
  (0, 1, 0)); spot Theta = Phi = cone angle.
"""

from __future__ import annotations

import math

import numpy as np

from viewer.render.scene_input import LIGHTING_ON, SceneLight
from viewer.sim.frame import quat_mul, quat_rotate

MAX_HW_LIGHTS = 8
POINT, DIRECTIONAL, SPOT = 0, 1, 2


def _norm_q(q):
    n = math.sqrt(sum(c * c for c in q))
    return tuple(c / n for c in q) if n > 0 and math.isfinite(n) else (1.0, 0.0, 0.0, 0.0)


def max_dynamic_lights(m: float = 1.0) -> int:
    """Render::SetDegradeLevelInternal 0x0054C3C0: 7 + 2m (m < 0) / 7 + 3m (m >= 0)."""
    return int(7 + (2 * m if m < 0 else 3 * m))


def scene_light(info, origin, orientation, owner: int = 0) -> SceneLight:
    """One Setup LightInfo placed at a world frame (origin, unit quaternion): direction is
    the frame's local +Y (get_vector_heading), colour the unpacked ARGB, an unknown light
    type a point light, and a non-finite cone angle (retail leaves it uninitialised) 0."""
    direction = quat_rotate(tuple(float(c) for c in orientation), (0.0, 1.0, 0.0))
    c = int(info.color) & 0xFFFFFFFF
    color = ((c >> 16 & 0xFF) / 255.0, (c >> 8 & 0xFF) / 255.0, (c & 0xFF) / 255.0)
    kind = int(info.type)
    cone = float(info.cone_angle)
    return SceneLight(kind if kind in (POINT, DIRECTIONAL, SPOT) else POINT,
                      tuple(float(v) for v in origin), tuple(direction), color,
                      float(info.intensity), float(info.falloff),
                      cone if math.isfinite(cone) else 0.0, owner)


def lights_from_setup(setup_lights, origin, orientation, state: int, owner: int = 0):
    """World lights of one object. No LIGHTING_ON bit -> no lights (set_state 0x00514DD0)."""
    if not int(state) & LIGHTING_ON:
        return []
    q_obj = _norm_q(tuple(float(c) for c in orientation))
    out = []
    for li in setup_lights:
        off = li.offset
        o = quat_rotate(q_obj, tuple(float(c) for c in off.origin))
        pos = tuple(float(origin[i]) + o[i] for i in range(3))
        q = _norm_q(quat_mul(q_obj, tuple(float(c) for c in off.orientation)))
        out.append(scene_light(li, pos, q, owner))
    return out


def select_lights(lights, eye, center, radius: float, *, max_dynamic: int = 10):
    """The (at most 8) lights that light an object centred at ``center``."""
    eye = np.asarray(eye, np.float64)

    def key(light):
        if light.kind == DIRECTIONAL:
            return 0.0
        d = np.asarray(light.position) - eye
        return float(d @ d)

    ranked = sorted(lights, key=key)[:max_dynamic]  # stable: equal distances keep order
    chosen = []
    c = np.asarray(center, np.float64)
    for light in ranked:
        if (light.kind != DIRECTIONAL
                and float(np.linalg.norm(np.asarray(light.position) - c)) > light.falloff + radius):
            continue
        chosen.append(light)
        if len(chosen) == MAX_HW_LIGHTS:
            break
    return chosen


def pack_lights(lights):
    """Uniform arrays for shaders/lighting.glsl."""
    pos = np.zeros((MAX_HW_LIGHTS, 4), np.float32)
    dirs = np.zeros((MAX_HW_LIGHTS, 4), np.float32)
    cols = np.zeros((MAX_HW_LIGHTS, 4), np.float32)
    for i, light in enumerate(lights[:MAX_HW_LIGHTS]):
        pos[i] = (*light.position, light.kind)
        dirs[i] = (*light.direction, light.falloff * 1.5)
        cols[i] = (*(ch * light.intensity for ch in light.color),
                   math.cos(light.cone_angle / 2.0) if light.kind == SPOT else -1.0)
    return min(len(lights), MAX_HW_LIGHTS), pos, dirs, cols


def apply_lights(prog, lights, *, lighting: bool, ambient) -> None:
    """Set the lighting uniforms of ``prog``; nothing when the same lights, switch and
    ambient were the last applied to it (a program keeps its uniforms: the 50 objects of a
    scene lit by the same sun set them once a frame, not once a draw)."""
    from viewer.render.programs import set_uniform
    key = (tuple(lights), bool(lighting), tuple(float(a) for a in ambient))
    if getattr(prog, "_applied_lights", None) == key:
        return
    n, pos, dirs, cols = pack_lights(lights)
    set_uniform(prog, "u_lighting", bool(lighting))
    set_uniform(prog, "u_ambient", tuple(float(a) for a in ambient))
    set_uniform(prog, "u_num_lights", int(n))
    for name, arr in (("u_light_pos", pos), ("u_light_dir", dirs), ("u_light_color", cols)):
        member = prog.get(name, None)
        if member is not None:
            member.write(arr.tobytes())
    prog._applied_lights = key
