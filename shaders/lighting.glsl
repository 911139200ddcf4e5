// Fixed-function D3D9 vertex lighting as retail sets it up (docs/retail-rules.md, Rendering):
// colour = emissive + ambient_mat * ambient + diffuse_mat * sum(light), per vertex (Gouraud).
// ambient_mat is 1 in every retail case (vertex white, or a part material's Ambient 1:
// CMaterial::CMaterial 0x00539770; only Diffuse.rgb follows the part's diffuse).
// Point: range = falloff * 1.5, attenuation (0, 1, 0) = 1/d inside range, hard cut at range.
// Spot: theta = phi = cone angle, same range/attenuation. Directional: direction only.
uniform bool u_lighting;
uniform vec3 u_ambient;
uniform vec3 u_emissive;
uniform vec3 u_diffuse;
uniform int u_num_lights;
uniform vec4 u_light_pos[8];    // xyz position, w = kind (0 point, 1 directional, 2 spot)
uniform vec4 u_light_dir[8];    // xyz direction (local +Y of the light frame), w = range
uniform vec4 u_light_color[8];  // rgb = colour * intensity, w = cos(cone / 2)

// Both sides of a surface in one loop over the lights: the front with normal n, the back
// with -n (a mirrored back face's negated normal), so N.L is computed once and the front
// takes max(d, 0), the back max(-d, 0), exactly what a second pass with -n would give.
void vertex_light_sides(vec3 p, vec3 n, out vec3 front, out vec3 back) {
    if (!u_lighting) {
        front = vec3(1.0);
        back = vec3(1.0);
        return;
    }
    vec3 sum = vec3(0.0);
    vec3 sum_back = vec3(0.0);
    for (int i = 0; i < u_num_lights; ++i) {
        int kind = int(u_light_pos[i].w + 0.5);
        vec3 L;
        float atten = 1.0;
        if (kind == 1) {
            L = -normalize(u_light_dir[i].xyz);
        } else {
            vec3 to_light = u_light_pos[i].xyz - p;
            float d = length(to_light);
            if (d > u_light_dir[i].w) {
                continue;
            }
            L = to_light / max(d, 1e-4);
            atten = 1.0 / max(d, 1e-4);
            if (kind == 2 && dot(-L, normalize(u_light_dir[i].xyz)) < u_light_color[i].w) {
                continue;
            }
        }
        vec3 c = u_light_color[i].rgb * atten;
        float nl = dot(n, L);
        sum += c * max(nl, 0.0);
        sum_back += c * max(-nl, 0.0);
    }
    front = clamp(u_emissive + u_ambient + u_diffuse * sum, 0.0, 1.0);
    back = clamp(u_emissive + u_ambient + u_diffuse * sum_back, 0.0, 1.0);
}

vec3 vertex_light(vec3 p, vec3 n) {
    vec3 front, back;
    vertex_light_sides(p, n, front, back);
    return front;
}
