// pcg_reduce.glsl: second and last pass of pcg_update.glsl: ONE workgroup adds the m partial
// (r·z, r·r) pairs (invocation lid takes partials lid, lid + LOCAL_SIZE, ... in order, then the
// workgroup tree) and stores them in the scalars, where the next kernels take alpha and beta;
// the host reads them only when it checks convergence. When the iteration was not sound (see
// pcg_update.glsl) it keeps r·z and records the first breakdown: s[PCG_BREAKDOWN] = k + 1 and
// the offending p·q and r·z. Twin: CpuBackend::pcg_update (its scalars).
// scfd: kernel
// scfd: index acc2 partial
// scfd: buffer acc scalars
#define red_t acc2
#include "reduce.glsl"
#include "pcg_slots.glsl"

uniform uint m;         // number of partials
uniform uint s_rz;      // slot of r·z before iteration k
uniform uint s_rz_new;  // slot of r·z after it
uniform uint k;         // the iteration

void main() {
  acc pq = scalars[PCG_PQ], rz = scalars[s_rz];
  if (!(scalars[PCG_BREAKDOWN] == acc(0) && pq > acc(0) && rz > acc(0))) {
    // Every invocation sees the same values (invocation 0 writes only slots that make the
    // condition true for a late reader as well), so all return here.
    if (gl_LocalInvocationID.x == 0) {
      if (scalars[PCG_BREAKDOWN] == acc(0)) {
        scalars[PCG_BREAKDOWN] = acc(k + 1u);
        scalars[PCG_BREAKDOWN_PQ] = pq;
        scalars[PCG_BREAKDOWN_RZ] = rz;
      }
      scalars[s_rz_new] = rz;
    }
    return;
  }
  red_t s = red_t(0);
  for (uint i = gl_LocalInvocationID.x; i < m; i += LOCAL_SIZE) s += partial[i];
  s = scfd_workgroup_reduce(s);
  if (gl_LocalInvocationID.x == 0) {
    scalars[s_rz_new] = s.x;
    scalars[PCG_RR] = s.y;
  }
}
