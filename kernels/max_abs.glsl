// max_abs.glsl: first pass of max |x_i| over the first n entries: workgroup g writes the largest
// |x_i| of its block to partial[g] (texels as in dot.glsl); reduce_partials.glsl (compiled with
// RED_MAX) then takes the largest partial. Twin: CpuBackend::max_abs. A maximum is exact whatever
// the order, and |x| of a real is exact in acc, so the result equals the cpu's bit for bit.
// scfd: kernel
// scfd: in x
// scfd: buffer acc partial

#ifndef ITEMS
#define ITEMS 4
#endif
#define red_t acc
#define RED_MAX
#include "reduce.glsl"

uniform uint n;

const uint kBlock = LOCAL_SIZE * ITEMS;

void main() {
  uint g = scfd_group();
  uint base = g * kBlock + gl_LocalInvocationID.x;
  acc s = acc(0);
  for (uint k = 0; k < ITEMS; ++k) {
    uint t = base + k * LOCAL_SIZE;
    if (t * VPT >= n) break;
    realv a = texel_x(t);
    for (uint j = 0u; j < VPT; ++j)
      if (t * VPT + j < n) s = max(s, acc(abs(scfd_get(a, j))));
  }
  s = scfd_workgroup_reduce(s);
  uint texels = (n + VPT - 1u) / VPT;
  if (gl_LocalInvocationID.x == 0 && g < (texels + kBlock - 1) / kBlock) partial[g] = s;
}
