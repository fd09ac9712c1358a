// scfd: include-only
// pcg_slots.glsl: the slots of a PCG solve's scalars (backend::PcgSlots in backend/backend.hpp,
// whose comments say what each holds; the twin tests of pcg_update compare every slot with the
// cpu's, so the two tables cannot drift apart unnoticed).
const uint PCG_PQ = 0u;
const uint PCG_RZ0 = 1u;  // r·z: slot PCG_RZ0 + k % 2 before iteration k
const uint PCG_RR = 3u;
const uint PCG_BREAKDOWN = 4u;
const uint PCG_BREAKDOWN_PQ = 5u;
const uint PCG_BREAKDOWN_RZ = 6u;
