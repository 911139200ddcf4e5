// Stage 0 MODULATE(TEXTURE, DIFFUSE) for colour and alpha (D3DPolyRender::SetSurface
// 0x0059C4D0): the texture (or the solid colour's 1x1 texel, alpha 1 - translucency) times
// the lit diffuse (light, alpha); alpha test GREATEREQUAL against ref, -1 = off (discards).
uniform sampler2D u_tex;
uniform bool u_textured;
uniform vec4 u_color;
uniform float u_alpha_ref;
uniform bool u_opaque;      // blending off: the target's alpha (coverage) becomes 1

vec4 surface_colour(vec2 uv, vec3 light, float alpha) {
    vec4 base = u_textured ? texture(u_tex, uv) : u_color;
    float a = base.a * alpha;
    if (u_alpha_ref >= 0.0 && a * 255.0 < u_alpha_ref - 0.5) {
        discard;
    }
    return vec4(base.rgb * light, u_opaque ? 1.0 : a);
}
