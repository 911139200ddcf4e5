#version 330
// Particles: one draw per batch (GfxObj, degrade mode, surface subset) and no instancing:
// the vertices are pulled (viewer/render/particles.py). gl_VertexID is (row - u_row0) *
// u_corner_count + corner (an index buffer repeats the subset's triangles for each row of
// the batch), so a two-sided quad costs 5 vertex shader runs, not 12, and no per-instance
// setup (CornerTable). The provoking vertex stays GL's default, the last: v_mirrored is
// read from it.
// u_instances, 3 texels a row: (position, quat w) (quat x y z, uniform scale) (alpha,
// heading point): alpha is the private material's 1 - translucency, or < 0: no material,
// use the vertex alpha u_vertex_alpha; the heading point is the point whose direction from
// the viewer is the billboard heading (the particle, or the emitter object's origin beyond
// particle_distance_2dsq).
// u_corners, 2 texels a corner: (position, u) (normal, v); this subset's from u_corner0.
uniform sampler2D u_instances;   // INSTANCE_TEXTURE_WIDTH texels wide
uniform sampler2D u_corners;     // 1 << u_corner_shift texels wide
uniform sampler2D u_tints;       // one texel a row: View > Particle colour, when u_tinted
uniform int u_row0;              // the batch's first instance row
uniform int u_corner0;
uniform int u_corner_count;
uniform int u_corner_shift;
uniform int u_mirrored;          // this subset's corners from here on provoke mirrored triangles
uniform bool u_tinted;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform int u_mode;
uniform vec2 u_uv_offset;    // TextureVelocity offset of the particle GfxObj
uniform float u_vertex_alpha;  // the subset surface's baked vertex alpha (copyVert 0x0059C080)
// u_mode: GfxObjInfo degrade_mode: 1 none, 2 billboard, 3/4/5 axis X/Y/Z
out vec2 v_uv;
out vec3 v_light;
out vec3 v_light_back;       // the mirrored back face's (normal negated)
out float v_alpha;
flat out int v_mirrored;     // read from the provoking (last) corner of a triangle
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

const int INSTANCE_SHIFT = 12;   // particles.INSTANCE_TEXTURE_WIDTH = 4096

ivec2 texel(int t, int shift) {
    return ivec2(t & ((1 << shift) - 1), t >> shift);
}

void main() {
    int local = gl_VertexID / u_corner_count;
    int k = gl_VertexID - local * u_corner_count;
    int row = u_row0 + local;
    int corner = u_corner0 + k;
    v_mirrored = k >= u_mirrored ? 1 : 0;
    int t = row * 3;
    vec4 a = texelFetch(u_instances, texel(t, INSTANCE_SHIFT), 0);
    vec4 b = texelFetch(u_instances, texel(t + 1, INSTANCE_SHIFT), 0);
    vec4 c = texelFetch(u_instances, texel(t + 2, INSTANCE_SHIFT), 0);
    vec4 cp = texelFetch(u_corners, texel(2 * corner, u_corner_shift), 0);
    vec4 cn = texelFetch(u_corners, texel(2 * corner + 1, u_corner_shift), 0);
    vec3 i_pos = a.xyz;
    vec4 i_quat = vec4(a.w, b.xyz);
    float i_scale = b.w;
    float i_alpha = c.x;
    vec3 i_head = c.yzw;

    mat3 r = quat_mat(i_quat);
    vec3 h = i_head - u_eye;
    if (u_mode == 2) {
        r = heading_frame(h);
    } else if (u_mode >= 3 && u_mode <= 5) {
        r = axis_lock(r, u_mode - 3, h);
    }
    vec3 wp = i_pos + r * (cp.xyz * i_scale);
    if (u_tinted) {
        v_light = texelFetch(u_tints, texel(row, INSTANCE_SHIFT), 0).rgb;
        v_light_back = v_light;
    } else {
        vertex_light_sides(wp, normalize(r * cn.xyz), v_light, v_light_back);
    }
    v_uv = vec2(cp.w, cn.w) + u_uv_offset;
    v_alpha = i_alpha < 0.0 ? u_vertex_alpha : i_alpha;
    gl_Position = u_view_proj * vec4(wp, 1.0);
}
