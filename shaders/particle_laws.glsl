// The twelve ParticleType laws of Particle::Update 0x0051C290, evaluated per particle.
// The CPU reference is viewer/sim/particles.py (particle_law, local_rotate_rows); the two
// must agree (tests/render/test_particles_gpu.py evaluates every law both ways).
//
// t: lifetime (acc + emitter's last visible update - birth); P, Q: the parent frame origin
// and rotation (w, x, y, z) at birth, or the parent's frame at the last update for
// parent-local emitters; O: offset; a, b, c: the particle vectors.
// Returns false for unknown types (0, 13+): their position is not moved by the law.
// rot is the identity except for the GR types (a local-axis spin of the parent rotation).

const float LAW_EPS = 0.0002;   // the client's small constant (Frame::grotate 0x005357A0)

vec4 law_quat_mul(vec4 a, vec4 b) {
    return vec4(a.x * b.x - a.y * b.y - a.z * b.z - a.w * b.w,
                a.x * b.y + a.y * b.x + a.z * b.w - a.w * b.z,
                a.x * b.z - a.y * b.w + a.z * b.x + a.w * b.y,
                a.x * b.w + a.y * b.z - a.z * b.y + a.w * b.x);
}

// Frame::rotate 0x004525B0: q <- q * q_d(w), a local-axis spin; |w|^2 < EPS^2 keeps q.
vec4 law_local_rotate(vec4 q, vec3 w) {
    float n2 = dot(w, w);
    if (n2 < LAW_EPS * LAW_EPS) {
        return q;
    }
    float theta = sqrt(n2);
    vec4 qd = vec4(cos(theta * 0.5), w * (sin(theta * 0.5) / theta));
    vec4 r = law_quat_mul(q, qd);
    return r / length(r);
}

bool particle_law(int ptype, float t, vec3 P, vec4 Q, vec3 O, vec3 a, vec3 b, vec3 c,
                  out vec3 pos, out vec4 rot) {
    rot = vec4(1.0, 0.0, 0.0, 0.0);
    if (ptype == 1) {                                   // Still
        pos = P + O;
    } else if (ptype == 2 || ptype == 12) {             // LocalVelocity, GlobalVelocity
        pos = P + O + t * a;
    } else if (ptype == 3 || ptype == 8 || ptype == 10) {  // Parabolic LVGA, LVLA, GVGA
        pos = P + O + t * a + 0.5 * t * t * b;
    } else if (ptype == 4 || ptype == 9 || ptype == 11) {  // the GR types
        // origin += O + t a + 1/2 t^2 b, then rotate(F, t c) about LOCAL axes
        pos = P + O + t * a + 0.5 * t * t * b;
        rot = law_local_rotate(Q, t * c);
    } else if (ptype == 5) {                            // Swarm
        pos = P + O + t * a + c * vec3(cos(b.x * t), sin(b.y * t), cos(b.z * t));
    } else if (ptype == 6) {                            // Explode: a.x every axis, a.z on z
        pos = P + O + vec3((t * b.x + c.x * a.x) * t,
                           (t * b.y + c.y * a.x) * t,
                           (t * b.z + c.z * a.x + a.z) * t);
    } else if (ptype == 7) {                            // Implode: t^2 b without the 1/2
        pos = P + O + cos(a.x * t) * c + t * t * b;
    } else {
        pos = P;
        return false;
    }
    return true;
}
