#version 330
// Particles: one instanced draw per batch (GfxObj, degrade mode, surface subset).
// Per instance: position, orientation (w, x, y, z), uniform scale, alpha (the private
// material's 1 - translucency, or < 0: no material, use the vertex alpha u_vertex_alpha),
// and the point whose direction from the viewer is the billboard heading (the particle,
// or the emitter object's origin beyond particle_distance_2dsq).
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
in vec3 i_pos;
in vec4 i_quat;
in float i_scale;
in float i_alpha;
in vec3 i_head;
in vec3 i_tint;              // View > Particle colour (emitter debugging), when u_tinted
uniform bool u_tinted;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform int u_mode;
uniform vec2 u_uv_offset;    // TextureVelocity offset of the particle GfxObj
uniform float u_vertex_alpha;  // the subset surface's baked vertex alpha (copyVert 0x0059C080)
// u_mode: GfxObjInfo degrade_mode: 1 none, 2 billboard, 3/4/5 axis X/Y/Z
out vec2 v_uv;
out vec3 v_light;
out float v_alpha;
#include "lighting.glsl"

const float EPS = 0.0002;

mat3 quat_mat(vec4 q) {
    float w = q.x, x = q.y, y = q.z, z = q.w;
    return mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y),
                2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
                2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
}

// Frame::set_vector_heading: local +Y along n, local X horizontal (no roll).
mat3 heading_frame(vec3 h) {
    float len = length(h);
    vec3 n = len <= EPS ? vec3(0.0, 0.0, 1.0) : h / len;
    vec3 x;
    if (length(n.xy) < 1e-6) {
        x = vec3(0.0, -1.0, 0.0);        // heading of a vertical vector is 90 deg
    } else {
        x = normalize(vec3(n.y, -n.x, 0.0));
    }
    return mat3(x, n, cross(x, n));
}

// rotate_around_axis_to_vector: keep column `a`, turn the others towards h.
mat3 axis_lock(mat3 r, int a, vec3 h) {
    vec3 c0 = r[0], c1 = r[1], c2 = r[2];
    vec3 ax = a == 0 ? c0 : (a == 1 ? c1 : c2);
    vec3 prev = a == 0 ? c2 : (a == 1 ? c0 : c1);   // prev = [Z, X, Y] for [X, Y, Z]
    vec3 n = h - ax * dot(ax, h);
    float len = length(n);
    n = len < EPS ? prev : n / len;
    if (abs(dot(n, ax)) <= 0.001) {
        vec3 other = cross(n, ax);
        if (a == 0) { c2 = n; c1 = other; }        // prev[X] = Z, prev[Z] = Y
        else if (a == 1) { c0 = n; c2 = other; }   // prev[Y] = X, prev[X] = Z
        else { c1 = n; c0 = other; }               // prev[Z] = Y, prev[Y] = X
    }
    return mat3(c0, c1, c2);
}

void main() {
    mat3 r = quat_mat(i_quat);
    vec3 h = i_head - u_eye;
    if (u_mode == 2) {
        r = heading_frame(h);
    } else if (u_mode >= 3 && u_mode <= 5) {
        r = axis_lock(r, u_mode - 3, h);
    }
    vec3 wp = i_pos + r * (in_position * i_scale);
    v_light = u_tinted ? i_tint : vertex_light(wp, normalize(r * in_normal));
    v_uv = in_uv + u_uv_offset;
    v_alpha = i_alpha < 0.0 ? u_vertex_alpha : i_alpha;
    gl_Position = u_view_proj * vec4(wp, 1.0);
}
