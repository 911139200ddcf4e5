#version 330
// Meshes: the surface's stage 0 (surface.glsl) over the Gouraud-lit vertex colour.
in vec2 v_uv;
in vec3 v_light;
in float v_alpha;
out vec4 f_color;
#include "surface.glsl"

void main() {
    f_color = surface_colour(v_uv, v_light, v_alpha);
}
