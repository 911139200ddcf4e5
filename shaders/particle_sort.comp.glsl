#version 430
// GPU particle pass, step 2: merge the blocks particle_eval.comp.glsl sorted, u_ways (a
// power of two, up to 16) runs of u_width at a time, from the source (bindings 5, 6) into
// the destination (11, 12). An element's place is its index in its run plus its rank in
// each other run of its group (binary searches; equal keys, only the undrawn ones, go in
// run order), so a pass has no barriers and no shared memory, and a frame needs one pass
// per factor of 16 above BLOCK (particles_gpu.merge_ways). u_final: the last pass writes
// the instance rows (particle_order.glsl) instead of the destination.
layout(local_size_x = 512) in;

#include "particle_structs.glsl"

layout(std430, binding = 4) readonly buffer Evals { Evaluated evals[]; };
layout(std430, binding = 5) readonly buffer SrcKeys { uvec4 src_keys[]; };
layout(std430, binding = 6) readonly buffer SrcVals { uint src_vals[]; };
layout(std430, binding = 8) writeonly buffer Instances { float inst[]; };
layout(std430, binding = 11) writeonly buffer DstKeys { uvec4 dst_keys[]; };
layout(std430, binding = 12) writeonly buffer DstVals { uint dst_vals[]; };

uniform uint u_width;
uniform uint u_ways;
uniform bool u_final;

#include "particle_order.glsl"

// how many of run[0 .. w) go before ``key``: all smaller ones, and equal ones when
// ``with_equal`` (the run is an earlier one of the group)
uint rank_in(uint run, uint w, uvec4 key, bool with_equal) {
    uint lo = 0u, hi = w;
    while (lo < hi) {
        uint mid = (lo + hi) >> 1;
        uvec4 m = src_keys[run + mid];
        bool before = with_equal ? !key_less(key, m) : key_less(m, key);
        if (before) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint w = u_width;
    uint span = w * u_ways;
    uint s = (i / span) * span;
    uint own = (i - s) / w;
    uvec4 key = src_keys[i];
    uint pos = s + (i - s - own * w);
    for (uint r = 0u; r < u_ways; ++r) {
        if (r != own) {
            pos += rank_in(s + r * w, w, key, r < own);
        }
    }
    if (u_final) {
        put_instance(pos, key, src_vals[i]);
    } else {
        dst_keys[pos] = key;
        dst_vals[pos] = src_vals[i];
    }
}
