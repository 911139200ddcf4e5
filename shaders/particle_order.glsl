// The GPU particle pass's sort keys and instance rows, shared by particle_eval.comp.glsl
// (which sorts blocks of BLOCK slots in shared memory) and particle_sort.comp.glsl (which
// merges the sorted blocks). Needs the Evals (binding 4) and Instances (binding 8) buffers.
//
// A key is (batch, ~CYpt bits, emitter row, slot): far to near inside a batch, ties in
// emitter-row then slot order (retail's stable insertion sort, CShadowPart 0x006B5130).
// Keys of drawn particles are unique, so sorting them equals the CPU's stable sorts; an
// undrawn slot's key is all ones and sorts after every drawn one.

const uint BLOCK = 1024u;          // particles_gpu.SORT_BLOCK: slots per shared-memory sort
const uint NOT_DRAWN = 0xFFFFFFFFu;

bool key_less(uvec4 a, uvec4 b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    if (a.z != b.z) return a.z < b.z;
    return a.w < b.w;
}

// The instance row (the layout shaders/particle.vert.glsl reads: position, orientation,
// scale, alpha, heading point) of sorted place ``pos``: only drawn keys, which come first.
void put_instance(uint pos, uvec4 key, uint slot) {
    if (key.x == NOT_DRAWN) {
        return;
    }
    Evaluated e = evals[slot];
    uint o = pos * 12u;
    inst[o] = e.pos.x; inst[o + 1u] = e.pos.y; inst[o + 2u] = e.pos.z;
    inst[o + 3u] = e.rot.x; inst[o + 4u] = e.rot.y; inst[o + 5u] = e.rot.z;
    inst[o + 6u] = e.rot.w;
    inst[o + 7u] = e.sta.x;
    inst[o + 8u] = e.sta.w;
    inst[o + 9u] = e.head.x; inst[o + 10u] = e.head.y; inst[o + 11u] = e.head.z;
}
