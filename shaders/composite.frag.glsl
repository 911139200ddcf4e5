#version 400
// The comparison views of viewer/compare/views.py on the GPU, bit for bit: every channel is
// read back as its 0..255 integer, the arithmetic is the same float32 operations in the same
// order (``precise``: no fused multiply-add), and the result is truncated like numpy's
// astype(uint8). Textures and target are GL bottom-up rows; only columns matter.
uniform sampler2D u_view;        // the rendered 3D view (a)
uniform sampler2D u_ref;         // the reference frame at the view size (b)
uniform sampler2D u_prev[3];     // onion: earlier rendered frames, newest first
uniform int u_prev_count;
uniform int u_mode;              // 0 side by side, 1 overlay, 2 wipe, 3 onion, 4 difference
uniform int u_width;             // the view's width
uniform float u_opacity;         // overlay: float32(o)
uniform float u_one_minus;       // overlay: float32(1 - o)
uniform int u_split_x;           // wipe: round(split * width)
uniform float u_gain;            // difference
uniform float u_weight[3];       // onion: falloff^k
out vec4 f_color;

const int GAP = 2;

vec3 texel(sampler2D s, ivec2 p) {
    return floor(texelFetch(s, p, 0).rgb * 255.0 + 0.5);
}

vec4 rgb8(vec3 c) {
    return vec4(c / 255.0, 1.0);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (u_mode == 0) {                                   // side_by_side
        if (p.x < u_width) {
            f_color = rgb8(texel(u_view, p));
        } else if (p.x < u_width + GAP) {
            f_color = vec4(1.0);
        } else {
            f_color = rgb8(texel(u_ref, ivec2(p.x - u_width - GAP, p.y)));
        }
        return;
    }
    vec3 a = texel(u_view, p);
    vec3 b = texel(u_ref, p);
    if (u_mode == 1) {                                   // overlay
        precise vec3 r = a * u_one_minus + b * u_opacity + 0.5;
        f_color = rgb8(floor(r));
    } else if (u_mode == 2) {                            // wipe, with the yellow line
        vec3 r = p.x < u_split_x ? a : b;
        if (u_split_x > 0 && u_split_x < u_width && p.x == u_split_x - 1) {
            r = vec3(255.0, 255.0, 0.0);
        }
        f_color = rgb8(r);
    } else if (u_mode == 3) {                            // onion skin
        precise vec3 acc = a;
        for (int k = 0; k < 3; ++k) {
            if (k < u_prev_count) {
                precise vec3 ghost = texel(u_prev[k], p) * u_weight[k];
                acc = max(acc, ghost);
            }
        }
        precise vec3 r = acc * 0.5 + b * 0.5 + 0.5;
        f_color = rgb8(floor(r));
    } else {                                             // difference
        precise vec3 d = abs(a - b) * u_gain;
        f_color = rgb8(floor(clamp(d, 0.0, 255.0)));
    }
}
