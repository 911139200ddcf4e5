#version 330
// Particles: the surface's stage 0 (surface.glsl) over the lit vertex colour of the side
// drawn: a mirrored triangle (the reversed back winding of a sides_type 1 polygon, sharing
// the front's corners; its provoking corner says so) takes the back light (normal negated).
in vec2 v_uv;
in vec3 v_light;
in vec3 v_light_back;
in float v_alpha;
flat in int v_mirrored;
out vec4 f_color;
#include "surface.glsl"

void main() {
    f_color = surface_colour(v_uv, v_mirrored != 0 ? v_light_back : v_light, v_alpha);
}
