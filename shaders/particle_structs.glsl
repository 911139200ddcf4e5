// The GPU particle pass's buffer rows (viewer/render/particles_gpu.py packs them).
struct Birth {      // one pool slot, written only when it is born, killed or re-stamped
    vec4 h;         // birth (hi, lo), acc, lifespan
    vec4 p;         // start origin, ptype (int bits)
    vec4 o;         // offset, emitter row (int bits)
    vec4 a;         // a, slot (int bits)
    vec4 b;         // b, alive (int bits)
    vec4 c;         // c
    vec4 q;         // start rotation (w, x, y, z)
    vec4 s;         // start / final scale, start / final translucency
};
struct Emitter {    // one emitter row, uploaded every frame (small)
    vec4 t;         // last visible update (hi, lo), parent-local, drawn
    vec4 origin;    // parent origin at that update, GfxObj table index (int bits, -1 none)
    vec4 quat;      // parent rotation at that update
    vec4 obj;       // the emitter object's origin (shared CYpt / heading when far)
};
struct Evaluated {
    vec4 pos;       // position, lifetime
    vec4 rot;       // orientation (w, x, y, z)
    vec4 sta;       // scale, translucency, CYpt, alpha (-1: the vertex alpha)
    vec4 head;      // heading point, batch (int bits; SENTINEL: not drawn)
};
