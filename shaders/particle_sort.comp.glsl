#version 430
// GPU particle pass, step 2: sort (key, value) pairs ascending by key (batch, ~CYpt,
// emitter row, slot). Keys of drawn particles are unique, so the result equals the CPU's
// stable sorts. u_stage 0 sorts runs of RUN pairs in place (one invocation per run);
// u_stage 1 merges pairs of sorted runs of u_width from the source (bindings 5, 6) into the
// destination (11, 12): each element's place is its index in its run plus its rank in the
// other run (a binary search), so a pass has no barriers and no shared memory.
layout(local_size_x = 256) in;

layout(std430, binding = 5) buffer SrcKeys { uvec4 src_keys[]; };
layout(std430, binding = 6) buffer SrcVals { uint src_vals[]; };
layout(std430, binding = 11) writeonly buffer DstKeys { uvec4 dst_keys[]; };
layout(std430, binding = 12) writeonly buffer DstVals { uint dst_vals[]; };

uniform int u_stage;
uniform uint u_width;
uniform uint u_n;

const uint RUN = 16u;

bool less(uvec4 a, uvec4 b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    if (a.z != b.z) return a.z < b.z;
    return a.w < b.w;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (u_stage == 0) {
        uint base = i * RUN;
        if (base >= u_n) {
            return;
        }
        uvec4 k[RUN];
        uint v[RUN];
        for (uint a = 0u; a < RUN; ++a) {
            k[a] = src_keys[base + a];
            v[a] = src_vals[base + a];
        }
        for (uint a = 1u; a < RUN; ++a) {          // insertion sort, stable
            uvec4 kk = k[a];
            uint vv = v[a];
            uint b = a;
            while (b > 0u && less(kk, k[b - 1u])) {
                k[b] = k[b - 1u];
                v[b] = v[b - 1u];
                --b;
            }
            k[b] = kk;
            v[b] = vv;
        }
        for (uint a = 0u; a < RUN; ++a) {
            src_keys[base + a] = k[a];
            src_vals[base + a] = v[a];
        }
        return;
    }
    if (i >= u_n) {
        return;
    }
    uint w = u_width;
    uint s = (i / (2u * w)) * 2u * w;
    bool left = i - s < w;
    uint own = left ? i - s : i - s - w;
    uint other = left ? s + w : s;
    uvec4 key = src_keys[i];
    // left elements go before equal right ones (lower bound / upper bound): stable
    uint lo = 0u, hi = w;
    while (lo < hi) {
        uint mid = (lo + hi) >> 1;
        uvec4 m = src_keys[other + mid];
        bool before = left ? less(m, key) : !less(key, m);
        if (before) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    uint pos = s + own + lo;
    dst_keys[pos] = key;
    dst_vals[pos] = src_vals[i];
}
