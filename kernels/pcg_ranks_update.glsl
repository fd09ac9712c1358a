// pcg_ranks_update.glsl: the second half of the update of a PCG iteration on several ranks
// (solvers/pcg.cpp, solve_ranks; Backend::pcg_ranks_update, whose first half, p = z + beta p and
// q = w + beta q, are two xpay), over the first n entries, with the first pass of its reductions:
//   x <- x + alpha p,  r <- r - alpha q,  and with jacobi: z <- dinv .* r;
//   partial[g] = (sum r_i z_i, sum r_i r_i) over the block of workgroup g (texels as in dot.glsl),
// one dispatch where the calls one by one take five (dependent dispatches cost ~10 µs each, more
// than this work at a rank's share of a large mesh: docs/scaling.md). alpha comes from the host,
// which summed the ranks' dots. The workgroup that finishes last adds the partials (reduce.glsl)
// and stores r·z (with jacobi) and r·r in the scalars. One kernel for all of the update would
// bind 17 storage blocks, above the 16 that GL implementations give. Twin:
// CpuBackend::pcg_ranks_update. Entries >= n (ghosts) are left alone, as on the cpu. Without
// jacobi, dinv is bound to p and not read, and z is left alone.
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

uniform real alpha;
uniform uint jacobi;  // 1: z = dinv .* r and r·z
uniform uint s_rz;    // the slots of r·z and r·r
uniform uint s_rr;
uniform uint n;

const uint kBlock = LOCAL_SIZE * ITEMS;

void main() {
  uint g = scfd_group();
  uint texels = (n + VPT - 1u) / VPT;
  uint m = (texels + kBlock - 1) / kBlock;
  uint base = g * kBlock + gl_LocalInvocationID.x;  // coalesced, as in dot.glsl
  red_t s = red_t(0);
  for (uint it = 0; it < ITEMS; ++it) {
    uint t = base + it * LOCAL_SIZE;
    if (t * VPT >= n) break;
    realv pv = texel_p(t), qv = texel_q(t), xv = texel_x(t), rv = texel_r(t);
    realv dv = jacobi != 0u ? texel_dinv(t) : realv(0);
    realv zv = jacobi != 0u ? texel_z(t) : realv(0);  // a last texel keeps its entries past n
    for (uint j = 0u; j < VPT; ++j) {
      if (t * VPT + j >= n) break;
      // precise: no fused multiply-add, so fp64 updates match the CPU loop bit for bit.
      precise real xi = scfd_get(xv, j) + alpha * scfd_get(pv, j);
      precise real ri = scfd_get(rv, j) - alpha * scfd_get(qv, j);
      xv = scfd_set(xv, j, xi);
      rv = scfd_set(rv, j, ri);
      if (jacobi != 0u) {
        precise real zi = scfd_get(dv, j) * ri;
        zv = scfd_set(zv, j, zi);
        s.x += acc(ri) * acc(zi);
      }
      s.y += acc(ri) * acc(ri);
    }
    store_x(t, xv);
    store_r(t, rv);
    if (jacobi != 0u) store_z(t, zv);
  }
  s = scfd_workgroup_reduce(s);
  if (gl_LocalInvocationID.x == 0 && g < m) partial[g] = s;
  if (!scfd_last_group()) return;
  s = scfd_reduce_partials(m);
  if (gl_LocalInvocationID.x == 0) {
    if (jacobi != 0u) scalars[s_rz] = s.x;
    scalars[s_rr] = s.y;
  }
}
