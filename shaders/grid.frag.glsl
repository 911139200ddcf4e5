#version 330
// Grid lines fade with distance from the eye so the far edge does not alias.
uniform float u_fade_start;
uniform float u_fade_end;
in vec4 v_color;
in float v_dist;
out vec4 f_color;
void main() {
    float fade = 1.0 - smoothstep(u_fade_start, u_fade_end, v_dist);
    f_color = vec4(v_color.rgb, v_color.a * fade);
}
