#version 330
// Ground grid and world axes: coloured lines in world space (Z up, metres).
uniform mat4 u_view_proj;
in vec3 in_position;
in vec4 in_color;
out vec4 v_color;
out float v_dist;
uniform vec3 u_eye;
void main() {
    v_color = in_color;
    v_dist = distance(in_position, u_eye);
    gl_Position = u_view_proj * vec4(in_position, 1.0);
}
