#version 330
// Debug overlays (spheres, part axes, emitter anchors): coloured world-space lines/points.
in vec3 in_position;
in vec4 in_color;
uniform mat4 u_view_proj;
out vec4 v_color;
void main() {
    v_color = in_color;
    gl_Position = u_view_proj * vec4(in_position, 1.0);
    gl_PointSize = 5.0;
}
