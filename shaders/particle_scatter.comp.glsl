#version 430
// GPU particle pass, step 0: copy the uploaded rows of the slots born, killed or
// re-stamped since the last frame into the birth-state buffer (indexed like pool slots).
layout(local_size_x = 64) in;

#include "particle_structs.glsl"

layout(std430, binding = 0) writeonly buffer Births { Birth births[]; };
layout(std430, binding = 9) readonly buffer Rows { Birth rows[]; };
layout(std430, binding = 10) readonly buffer Index { uint index[]; };

uniform uint u_count;

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k < u_count) {
        births[index[k]] = rows[k];
    }
}
