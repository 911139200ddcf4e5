#version 430
// GPU particle pass, step 3: write the instance rows (the layout shaders/particle.vert.glsl
// reads: position, orientation, scale, alpha, heading point) in sorted order.
layout(local_size_x = 256) in;

#include "particle_structs.glsl"

layout(std430, binding = 4) readonly buffer Evals { Evaluated evals[]; };
layout(std430, binding = 6) readonly buffer Vals { uint vals[]; };
layout(std430, binding = 8) writeonly buffer Instances { float inst[]; };

uniform uint u_count;

void main() {
    uint p = gl_GlobalInvocationID.x;
    if (p >= u_count) {
        return;
    }
    Evaluated e = evals[vals[p]];
    uint o = p * 12u;
    inst[o] = e.pos.x; inst[o + 1u] = e.pos.y; inst[o + 2u] = e.pos.z;
    inst[o + 3u] = e.rot.x; inst[o + 4u] = e.rot.y; inst[o + 5u] = e.rot.z;
    inst[o + 6u] = e.rot.w;
    inst[o + 7u] = e.sta.x;
    inst[o + 8u] = e.sta.w;
    inst[o + 9u] = e.head.x; inst[o + 10u] = e.head.y; inst[o + 11u] = e.head.z;
}
