// max_abs.glsl: max |x_i| over the first n entries in one dispatch: workgroup g writes the
// largest |x_i| of its block to partial[g] (texels as in dot.glsl), and the workgroup that
// finishes last takes the largest partial (reduce.glsl) into result[0]. Twin: CpuBackend::max_abs.
// A maximum is exact whatever the order, and |x| of a real is exact in acc, so the result equals
// the cpu's bit for bit.
// scfd: kernel
// scfd: in x
// scfd: buffer acc partial
// scfd: buffer uint scfd_counter
// scfd: buffer acc result

#ifndef ITEMS
#define ITEMS 4
#endif
#define red_t acc
#define RED_MAX
#define SCFD_LAST_GROUP
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
  uint m = (texels + kBlock - 1) / kBlock;
  if (gl_LocalInvocationID.x == 0 && g < m) partial[g] = s;
  if (!scfd_last_group()) return;
  s = scfd_reduce_partials(m);
  if (gl_LocalInvocationID.x == 0) result[0] = s;
}
