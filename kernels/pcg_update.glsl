// pcg_update.glsl: the fused vector update of PCG iteration k (solvers/pcg.cpp) over the first
// n entries, with the first pass of its two reductions:
//   x <- x + alpha p,  r <- r - alpha q,  z <- dinv .* r,   alpha = s[rz_before(k)] / s[pq],
//   partial[g] = (sum r_i z_i, sum r_i r_i) over the block of workgroup g (texels as in dot.glsl),
// one pass over seven vectors instead of three updates and two dot products (fused: dispatches
// are launch-bound at ~1M entries, docs/architecture.md §9), and one dispatch: the workgroup that
// finishes last adds the partials (reduce.glsl) and stores r·z and r·r in the scalars. alpha
// comes from the scalars on the device (backend::PcgSlots), so the host need not read p·q back.
// When the iteration is not sound (an earlier breakdown, p·q or r·z not > 0) nothing is updated,
// r·z is kept and the last workgroup records the first breakdown: s[PCG_BREAKDOWN] = k + 1 and
// the offending p·q and r·z. Twin: CpuBackend::pcg_update. Entries >= n (ghosts) are left alone,
// as on the cpu.
// scfd: kernel
// scfd: in p q dinv
// scfd: image x r z
// scfd: buffer acc2 partial
// scfd: buffer uint scfd_counter
// scfd: buffer acc scalars

#ifndef ITEMS
#define ITEMS 4
#endif
#define red_t acc2
#define SCFD_LAST_GROUP
#include "reduce.glsl"
#include "pcg_slots.glsl"

uniform uint s_rz;      // slot of r·z before iteration k
uniform uint s_rz_new;  // slot of r·z after it
uniform uint k;         // the iteration
uniform uint n;

const uint kBlock = LOCAL_SIZE * ITEMS;

void main() {
  // Every workgroup reads these before its ticket and the last one writes after all tickets, so
  // all see the same values and take the same branch.
  acc pq = scalars[PCG_PQ], rz = scalars[s_rz];
  bool ok = scalars[PCG_BREAKDOWN] == acc(0) && pq > acc(0) && rz > acc(0);
  uint g = scfd_group();
  uint texels = (n + VPT - 1u) / VPT;
  uint m = (texels + kBlock - 1) / kBlock;
  if (ok) {
    real alpha = real(rz / pq);
    uint base = g * kBlock + gl_LocalInvocationID.x;  // coalesced, as in dot.glsl
    red_t s = red_t(0);
    for (uint it = 0; it < ITEMS; ++it) {
      uint t = base + it * LOCAL_SIZE;
      if (t * VPT >= n) break;
      realv pv = texel_p(t), qv = texel_q(t), dv = texel_dinv(t);
      realv xv = texel_x(t), rv = texel_r(t);
      realv zv = t * VPT + VPT > n ? texel_z(t) : realv(0);  // z only written, but a last texel
                                                             // keeps its entries past n
      for (uint j = 0u; j < VPT; ++j) {
        if (t * VPT + j >= n) break;
        // precise: no fused multiply-add, so fp64 updates match the CPU loop bit for bit.
        precise real xi = scfd_get(xv, j) + alpha * scfd_get(pv, j);
        precise real ri = scfd_get(rv, j) - alpha * scfd_get(qv, j);
        precise real zi = scfd_get(dv, j) * ri;
        xv = scfd_set(xv, j, xi);
        rv = scfd_set(rv, j, ri);
        zv = scfd_set(zv, j, zi);
        s += red_t(acc(ri) * acc(zi), acc(ri) * acc(ri));
      }
      store_x(t, xv);
      store_r(t, rv);
      store_z(t, zv);
    }
    s = scfd_workgroup_reduce(s);
    if (gl_LocalInvocationID.x == 0 && g < m) partial[g] = s;
  }
  if (!scfd_last_group()) return;
  if (ok) {
    red_t s = scfd_reduce_partials(m);
    if (gl_LocalInvocationID.x == 0) {
      scalars[s_rz_new] = s.x;
      scalars[PCG_RR] = s.y;
    }
    return;
  }
  if (gl_LocalInvocationID.x == 0) {
    if (scalars[PCG_BREAKDOWN] == acc(0)) {
      scalars[PCG_BREAKDOWN] = acc(k + 1u);
      scalars[PCG_BREAKDOWN_PQ] = pq;
      scalars[PCG_BREAKDOWN_RZ] = rz;
    }
    scalars[s_rz_new] = rz;
    scfd_counter[0] = 0u;  // for the next dispatch (scfd_reduce_partials does it otherwise)
  }
}
