// pcg_update.glsl: the fused vector update of one Jacobi-PCG iteration (solvers/pcg.cpp) over
// the first n entries, with the first pass of its two reductions:
//   x <- x + alpha p,  r <- r - alpha q,  z <- dinv .* r,
//   partial[g] = (sum r_i z_i, sum r_i r_i) over the block of workgroup g,
// one pass over seven vectors instead of three updates and two dot products (fused: dispatches
// are launch-bound at ~1M entries, docs/architecture.md §9). reduce_partials.glsl adds the
// partials.
// Twin: CpuBackend::pcg_update. Entries >= n (ghosts) are left alone, as on the cpu.
//
// | binding / uniform | type                   | in/out | meaning                       |
// |-------------------|------------------------|--------|-------------------------------|
// | buffer 0  p       | real[>=n]              | in     | search direction              |
// | buffer 1  q       | real[>=n]              | in     | A p                           |
// | buffer 2  dinv    | real[>=n]              | in     | inverse diagonal of A         |
// | buffer 3  x       | real[>=n]              | in/out | solution                      |
// | buffer 4  r       | real[>=n]              | in/out | residual                      |
// | buffer 5  z       | real[>=n]              | out    | preconditioned residual       |
// | buffer 6  partial | acc2[ceil(n / block)]  | out    | (r·z, r·r) per workgroup      |
// | uniform   alpha   | real                   | in     | step length                   |
// | uniform   n       | uint                   | in     | owned entries                 |
#include "common.glsl"

// ITEMS: entries per invocation; the host defines it (4 when compiled alone).
#ifndef ITEMS
#define ITEMS 4
#endif
#define red_t acc2
#include "reduce.glsl"

layout(std430, binding = 0) readonly buffer P { real p[]; };
layout(std430, binding = 1) readonly buffer Q { real q[]; };
layout(std430, binding = 2) readonly buffer Dinv { real dinv[]; };
layout(std430, binding = 3) buffer X { real x[]; };
layout(std430, binding = 4) buffer R { real r[]; };
layout(std430, binding = 5) writeonly buffer Z { real z[]; };
layout(std430, binding = 6) writeonly buffer Partial { red_t partial[]; };
uniform real alpha;
uniform uint n;

const uint kBlock = LOCAL_SIZE * ITEMS;

void main() {
  uint g = scfd_group();
  uint base = g * kBlock + gl_LocalInvocationID.x;  // coalesced, as in dot.glsl
  red_t s = red_t(0);
  for (uint k = 0; k < ITEMS; ++k) {
    uint i = base + k * LOCAL_SIZE;
    if (i < n) {
      // precise: no fused multiply-add, so fp64 updates match the CPU loop bit for bit.
      precise real xi = x[i] + alpha * p[i];
      precise real ri = r[i] - alpha * q[i];
      precise real zi = dinv[i] * ri;
      x[i] = xi;
      r[i] = ri;
      z[i] = zi;
      s += red_t(acc(ri) * acc(zi), acc(ri) * acc(ri));
    }
  }
  s = scfd_workgroup_reduce(s);
  if (gl_LocalInvocationID.x == 0 && g < (n + kBlock - 1) / kBlock) partial[g] = s;
}
