#version 430
// GPU particle pass, step 1: evaluate every pool slot at its emitter's last visible update
// (the laws in particle_laws.glsl), pick its degrade entry and batch, and make its sort
// key (particle_order.glsl); then each workgroup sorts its run of u_run slots: BLOCK at a
// time by key in shared memory (bitonic), then those blocks merged inside the workgroup
// (particle_merge.glsl, u_stages merges of up to 16 ways) through keys / vals and keys2 /
// vals2, ending in keys / vals for particle_sort.comp.glsl to merge across runs, or, when
// one run is the whole pool (u_final), as the instance rows at once. Mirrors
// viewer/render/particles.py prepare() and ParticlePool.evaluate() on the CPU.
layout(local_size_x = 512) in;   // two slots per invocation

#include "particle_structs.glsl"

layout(std430, binding = 0) readonly buffer Births { Birth births[]; };
layout(std430, binding = 1) readonly buffer Emitters { Emitter emitters[]; };
layout(std430, binding = 2) readonly buffer GfxInfo { vec4 gfx_info[]; };    // sort centre, n
layout(std430, binding = 3) readonly buffer GfxLevel { vec4 gfx_level[]; };  // thr, valid, cand
// coherent: written and read back by other invocations of the workgroup (barriers between)
layout(std430, binding = 4) coherent buffer Evals { Evaluated evals[]; };
layout(std430, binding = 5) coherent buffer Keys { uvec4 keys[]; };
layout(std430, binding = 6) coherent buffer Vals { uint vals[]; };
layout(std430, binding = 7) buffer Stats { uint stats[]; };   // [count, max CYpt bits] per batch
layout(std430, binding = 8) writeonly buffer Instances { float inst[]; };
layout(std430, binding = 11) coherent buffer Keys2 { uvec4 keys2[]; };
layout(std430, binding = 12) coherent buffer Vals2 { uint vals2[]; };

uniform uint u_capacity;
uniform int u_levels;          // degrade entries per GfxObj row of gfx_level
uniform vec3 u_eye;
uniform float u_distance_2dsq; // particle_distance_2dsq(m)
uniform float u_degrade_distance;
uniform uint u_run;            // slots one workgroup sorts: BLOCK << (sum of u_plan)
uniform uint u_stages;         // merges inside the workgroup (0: u_run is BLOCK)
uniform uint u_plan;           // log2 of each merge's ways, 4 bits each, the first lowest
uniform bool u_final;          // one run is the whole sort

const uint SENTINEL = 0xFFFFFFFFu;

#include "particle_laws.glsl"
#include "particle_order.glsl"
// the merge step twice, reading keys (merged_place) or keys2 (merged_place2): one buffer
// per search, not a choice at every step
#define MERGE_KEY(i) keys[i]
#include "particle_merge.glsl"
#undef MERGE_KEY
#define MERGE_KEY(i) keys2[i]
#define rank_in rank_in2
#define merged_place merged_place2
#include "particle_merge.glsl"
#undef rank_in
#undef merged_place

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

// a sorted key at place ``pos``: its instance row when ``put``, else into keys2 / vals2
// when ``to2``, else keys / vals
void put_sorted(uint pos, uvec4 key, uint val, bool put, bool to2) {
    if (put) {
        put_instance(pos, key, val);
    } else if (to2) {
        keys2[pos] = key;
        vals2[pos] = val;
    } else {
        keys[pos] = key;
        vals[pos] = val;
    }
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * u_run;
    // the blocks go where an even number of merges after them ends in keys / vals
    bool to2 = (u_stages & 1u) == 1u;
    for (uint first = base; first < base + u_run; first += BLOCK) {
        for (uint k = t; k < BLOCK; k += BLOCK / 2u) {
            s_keys[k] = evaluate(first + k);
            s_vals[k] = first + k;
        }
        memoryBarrierBuffer();   // this block's evaluations, read back when put
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
        bool put = u_final && u_stages == 0u;
        for (uint k = t; k < BLOCK; k += BLOCK / 2u) {
            put_sorted(first + k, s_keys[k], s_vals[k], put, to2);
        }
        barrier();               // the next block reuses the shared arrays
    }
    // merge the run's blocks inside the workgroup: every key of the run, each merge
    uint w = BLOCK;
    for (uint stage = 0u; stage < u_stages; ++stage) {
        memoryBarrierBuffer();   // the previous step's keys, read by other invocations
        barrier();
        uint ways = 1u << ((u_plan >> (4u * stage)) & 15u);
        bool from2 = to2;
        to2 = !to2;
        bool put = u_final && stage + 1u == u_stages;
        for (uint i = base + t; i < base + u_run; i += BLOCK / 2u) {
            if (from2) {
                uvec4 key = keys2[i];
                put_sorted(merged_place2(i, key, w, ways), key, vals2[i], put, to2);
            } else {
                uvec4 key = keys[i];
                put_sorted(merged_place(i, key, w, ways), key, vals[i], put, to2);
            }
        }
        w *= ways;
    }
}
