#version 330
// Setup parts: one draw per part and surface subset (pass: viewer/render/renderer.py).
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
uniform mat4 u_model;        // part frame (origin + rotation)
uniform mat4 u_view_proj;
uniform vec3 u_scale;        // part scale, applied in the part's local space
uniform vec2 u_uv_offset;    // TextureVelocity accumulated offset
uniform float u_diffuse_alpha;  // vertex colour alpha, or the part material's 1 - t
out vec2 v_uv;
out vec3 v_light;
out float v_alpha;
#include "lighting.glsl"
void main() {
    vec4 wp = u_model * vec4(in_position * u_scale, 1.0);
    vec3 n = normalize(mat3(u_model) * (in_normal / u_scale));
    v_light = vertex_light(wp.xyz, n);
    v_uv = in_uv + u_uv_offset;
    v_alpha = u_diffuse_alpha;
    gl_Position = u_view_proj * wp;
}
