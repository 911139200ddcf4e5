#version 430
// GPU particle pass, step 1: evaluate every pool slot at its emitter's last visible update
// (the laws in particle_laws.glsl), pick its degrade entry and batch, and make its sort
// key (particle_order.glsl); then each workgroup sorts its BLOCK slots by key in shared
// memory (bitonic) and writes them to keys / vals for particle_sort.comp.glsl to merge, or,
// when one block is the whole pool (u_final), writes the instance rows at once. Mirrors
// viewer/render/particles.py prepare() and ParticlePool.evaluate() on the CPU.
layout(local_size_x = 512) in;   // two slots per invocation

#include "particle_structs.glsl"

layout(std430, binding = 0) readonly buffer Births { Birth births[]; };
layout(std430, binding = 1) readonly buffer Emitters { Emitter emitters[]; };
layout(std430, binding = 2) readonly buffer GfxInfo { vec4 gfx_info[]; };    // sort centre, n
layout(std430, binding = 3) readonly buffer GfxLevel { vec4 gfx_level[]; };  // thr, valid, cand
layout(std430, binding = 4) buffer Evals { Evaluated evals[]; };
layout(std430, binding = 5) writeonly buffer Keys { uvec4 keys[]; };
layout(std430, binding = 6) writeonly buffer Vals { uint vals[]; };
layout(std430, binding = 7) buffer Stats { uint stats[]; };   // [count, max CYpt bits] per batch
layout(std430, binding = 8) writeonly buffer Instances { float inst[]; };

uniform uint u_capacity;
uniform int u_levels;          // degrade entries per GfxObj row of gfx_level
uniform vec3 u_eye;
uniform float u_distance_2dsq; // particle_distance_2dsq(m)
uniform float u_degrade_distance;
uniform bool u_final;          // one block is the whole sort

const uint SENTINEL = 0xFFFFFFFFu;

#include "particle_laws.glsl"
#include "particle_order.glsl"

shared uvec4 s_keys[BLOCK];
shared uint s_vals[BLOCK];

uvec4 evaluate(uint i) {
    if (i >= u_capacity) {
        return uvec4(NOT_DRAWN);
    }
    Birth B = births[i];
    if (floatBitsToInt(B.b.w) == 0) {
        evals[i].head.w = uintBitsToFloat(SENTINEL);
        return uvec4(NOT_DRAWN);
    }
    int row = floatBitsToInt(B.o.w);
    Emitter E = emitters[row];
    // lifetime in two float parts so a large PhysicsTimer keeps sub-microsecond ages
    float t = B.h.z + (E.t.x - B.h.x) + (E.t.y - B.h.y);
    bool local = E.t.z != 0.0;     // parent-local: the parent's frame at the last update
    vec3 P = local ? E.origin.xyz : B.p.xyz;
    vec4 Q = local ? E.quat : B.q;
    vec3 pos;
    vec4 rot;
    particle_law(floatBitsToInt(B.p.w), t, P, Q, B.o.xyz, B.a.xyz, B.b.xyz, B.c.xyz, pos, rot);
    float span = B.h.w;
    float f = t < span ? t / (span == 0.0 ? 1.0 : span) : 1.0;
    float scale = B.s.x + (B.s.y - B.s.x) * f;
    float trans = B.s.z + (B.s.w - B.s.z) * f;
    // CPhysicsPart::SetTranslucency 0x0050E670: t != 0 gives the part a private material
    // whose alpha 1 - t replaces the vertex alpha; t == 0: -1 = the vertex alpha
    float alpha = trans != 0.0 ? clamp(1.0 - trans, 0.0, 1.0) : -1.0;

    int g = floatBitsToInt(E.origin.w);
    uint batch = SENTINEL;
    vec3 head = pos;
    float cypt = 0.0;
    // exactly 1.0 hides the part (SetTranslucency); culled emitters' parts are NoDraw
    if (g >= 0 && E.t.w != 0.0 && trans != 1.0) {
        vec4 gi = gfx_info[g];
        // CPhysicsObj::UpdateViewerDistance 0x00510B30: beyond particle_distance_2dsq
        // (horizontal) every particle shares the emitter object's CYpt and heading
        vec2 dxy = E.obj.xy - u_eye.xy;
        bool far = dot(dxy, dxy) >= u_distance_2dsq;
        head = far ? E.obj.xyz : pos + gi.xyz * scale;
        cypt = length(head - u_eye);
        // GfxObjDegradeInfo::get_degrade 0x0051E4B0: first entry with d below its threshold
        float d = max(cypt / max(scale, 1e-6) - u_degrade_distance, 0.0);
        int n = int(gi.w);
        int level = n - 1;
        for (int j = 0; j < n; ++j) {
            vec4 L = gfx_level[g * u_levels + j];
            if (L.y != 0.0 && d < L.x) {
                level = j;
                break;
            }
        }
        int cand = int(gfx_level[g * u_levels + level].z);
        batch = uint(cand) * 2u + (trans > 0.0 ? 1u : 0u);
        atomicAdd(stats[2u * batch], 1u);
        atomicMax(stats[2u * batch + 1u], floatBitsToUint(cypt));
    }
    evals[i].pos = vec4(pos, t);
    evals[i].rot = rot;
    evals[i].sta = vec4(scale, trans, cypt, alpha);
    evals[i].head = vec4(head, uintBitsToFloat(batch));
    if (batch == SENTINEL) {
        return uvec4(NOT_DRAWN);
    }
    // far to near inside a batch, ties in emitter-row then slot order (retail's stable
    // insertion sort, CShadowPart 0x006B5130); CYpt >= 0, so its bits order like its value
    return uvec4(batch, ~floatBitsToUint(cypt), uint(row), floatBitsToUint(B.a.w));
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * BLOCK;
    for (uint k = t; k < BLOCK; k += BLOCK / 2u) {
        s_keys[k] = evaluate(base + k);
        s_vals[k] = base + k;
    }
    memoryBarrierBuffer();   // this block's evaluations, read back below when u_final
    barrier();
    for (uint size = 2u; size <= BLOCK; size <<= 1) {
        for (uint stride = size >> 1; stride > 0u; stride >>= 1) {
            uint i = 2u * t - (t & (stride - 1u));
            uint j = i + stride;
            bool up = (i & size) == 0u;
            uvec4 a = s_keys[i];
            uvec4 b = s_keys[j];
            if (key_less(b, a) == up && a != b) {
                s_keys[i] = b;
                s_keys[j] = a;
                uint v = s_vals[i];
                s_vals[i] = s_vals[j];
                s_vals[j] = v;
            }
            barrier();
        }
    }
    for (uint k = t; k < BLOCK; k += BLOCK / 2u) {
        if (u_final) {
            put_instance(base + k, s_keys[k], s_vals[k]);
        } else {
            keys[base + k] = s_keys[k];
            vals[base + k] = s_vals[k];
        }
    }
}
