#version 430
// GPU particle pass, step 2: merge the runs particle_eval.comp.glsl sorted, u_ways (a power
// of two, up to 16) runs of u_width at a time (particle_merge.glsl), from the source
// (bindings 5, 6) into the destination (11, 12). A pass has no barriers and no shared
// memory; a frame needs one (particles_gpu.GpuParticlePass.sort_plan). u_final: the pass
// writes the instance rows (particle_order.glsl) instead of the destination.
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
#define MERGE_KEY(i) src_keys[i]
#include "particle_merge.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 key = src_keys[i];
    uint pos = merged_place(i, key, u_width, u_ways);
    if (u_final) {
        put_instance(pos, key, src_vals[i]);
    } else {
        dst_keys[pos] = key;
        dst_vals[pos] = src_vals[i];
    }
}
