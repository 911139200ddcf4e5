// The GPU particle pass's merge step, shared by particle_eval.comp.glsl (merges inside one
// workgroup's run) and particle_sort.comp.glsl (merges across runs). Needs key_less
// (particle_order.glsl) and MERGE_KEY(i): the source key at index i.
//
// Runs of w sorted keys are merged ``ways`` (a power of two) at a time: a key's place is its
// index in its own run plus its rank in each other run of its group (binary searches). Equal
// keys (only the undrawn ones are equal) go in run order: those of an earlier run first.

// how many of run[0 .. w) go before ``key``: all smaller ones, and equal ones when
// ``with_equal`` (the run is an earlier one of the group)
uint rank_in(uint run, uint w, uvec4 key, bool with_equal) {
    uint lo = 0u, hi = w;
    while (lo < hi) {
        uint mid = (lo + hi) >> 1;
        uvec4 m = MERGE_KEY(run + mid);
        bool before = with_equal ? !key_less(key, m) : key_less(m, key);
        if (before) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// the merged place of the key at source index ``i`` (runs of ``w``, ``ways`` to a group)
uint merged_place(uint i, uvec4 key, uint w, uint ways) {
    uint span = w * ways;
    uint s = (i / span) * span;
    uint own = (i - s) / w;
    uint pos = s + (i - s - own * w);
    for (uint r = 0u; r < ways; ++r) {
        if (r != own) {
            pos += rank_in(s + r * w, w, key, r < own);
        }
    }
    return pos;
}
