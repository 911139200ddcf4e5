#version 330
// Particles: the surface's stage 0 (surface.glsl) over the lit vertex colour of the side
// drawn: a triangle flagged mirrored (the reversed back winding of a sides_type 1 polygon,
// sharing the front's corners) takes the back light (normal negated).
uniform sampler2D u_corners;
uniform int u_corner_shift;
uniform int u_mirrors;        // texel of this subset's first triangle's mirror flag; -1: none
uniform int u_triangles;      // triangles a row (the flags repeat row after row)
in vec2 v_uv;
in vec3 v_light;
in vec3 v_light_back;
in float v_alpha;
out vec4 f_color;
#include "surface.glsl"

void main() {
    bool mirrored = false;
    if (u_mirrors >= 0) {
        int t = u_mirrors + gl_PrimitiveID % u_triangles;
        int mask = (1 << u_corner_shift) - 1;
        mirrored = texelFetch(u_corners, ivec2(t & mask, t >> u_corner_shift), 0).x > 0.5;
    }
    f_color = surface_colour(v_uv, mirrored ? v_light_back : v_light, v_alpha);
}
