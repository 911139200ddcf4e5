#version 430
// GPU particle pass, step 2: bitonic sort of (key, value) pairs, ascending by key
// (batch, ~CYpt, emitter row, slot). Keys are unique for drawn particles, so the result
// equals the CPU's stable sorts. 1024 elements per work group in shared memory; strides of
// 1024 and more go through global memory, one dispatch each.
layout(local_size_x = 512) in;

layout(std430, binding = 5) buffer Keys { uvec4 keys[]; };
layout(std430, binding = 6) buffer Vals { uint vals[]; };

uniform int u_stage;   // 0: sort each 1024 block; 1: one global (k, j) step; 2: merge j < 1024
uniform uint u_k;
uniform uint u_j;

shared uvec4 sk[1024];
shared uint sv[1024];

bool greater(uvec4 a, uvec4 b) {
    if (a.x != b.x) return a.x > b.x;
    if (a.y != b.y) return a.y > b.y;
    if (a.z != b.z) return a.z > b.z;
    return a.w > b.w;
}

void local_step(uint base, uint t, uint k, uint j) {
    uint i = 2u * j * (t / j) + (t % j);      // block-local index of the lower element
    uint l = i + j;
    bool up = ((base + i) & k) == 0u;
    if (greater(sk[i], sk[l]) == up) {
        uvec4 tk = sk[i]; sk[i] = sk[l]; sk[l] = tk;
        uint tv = sv[i]; sv[i] = sv[l]; sv[l] = tv;
    }
}

void main() {
    uint t = gl_LocalInvocationID.x;
    if (u_stage == 1) {
        uint g = gl_GlobalInvocationID.x;
        uint i = 2u * u_j * (g / u_j) + (g % u_j);
        uint l = i + u_j;
        bool up = (i & u_k) == 0u;
        uvec4 a = keys[i], b = keys[l];
        if (greater(a, b) == up) {
            keys[i] = b; keys[l] = a;
            uint tv = vals[i]; vals[i] = vals[l]; vals[l] = tv;
        }
        return;
    }
    uint base = gl_WorkGroupID.x * 1024u;
    sk[t] = keys[base + t];
    sk[t + 512u] = keys[base + t + 512u];
    sv[t] = vals[base + t];
    sv[t + 512u] = vals[base + t + 512u];
    barrier();
    if (u_stage == 0) {
        for (uint k = 2u; k <= 1024u; k <<= 1) {
            for (uint j = k >> 1; j > 0u; j >>= 1) {
                local_step(base, t, k, j);
                barrier();
            }
        }
    } else {
        for (uint j = 512u; j > 0u; j >>= 1) {
            local_step(base, t, u_k, j);
            barrier();
        }
    }
    keys[base + t] = sk[t];
    keys[base + t + 512u] = sk[t + 512u];
    vals[base + t] = sv[t];
    vals[base + t + 512u] = sv[t + 512u];
}
