// dots.glsl: count (1-4) dot products x_k·y over the first n entries in one dispatch
// (Backend::dots, GMRES's Gram-Schmidt); inputs past count are bound but not read. As dot.glsl,
// for each k: workgroup g adds its block into partial[k * m + g] (m workgroups with a block),
// and the workgroup that finishes last adds each k's partials in their fixed order into
// result[slot + k], so a run gives the same bits every time. Twin: CpuBackend::dot, once per x_k
// (Backend::dots). Products and sums are in `acc`, as in dot.glsl.
// scfd: kernel
// scfd: in x0 x1 x2 x3 y
// scfd: buffer acc partial
// scfd: buffer uint scfd_counter
// scfd: buffer acc result

// ITEMS: texels per invocation; the host defines it (4 when compiled alone).
#ifndef ITEMS
#define ITEMS 4
#endif
#define red_t acc
#define SCFD_LAST_GROUP
#include "reduce.glsl"

uniform uint n;
uniform uint slot;
uniform uint count;

const uint kBlock = LOCAL_SIZE * ITEMS;

acc product(realv a, realv b, uint t) {
  acc s = acc(0);
  for (uint j = 0u; j < VPT; ++j)
    if (t * VPT + j < n) s += acc(scfd_get(a, j)) * acc(scfd_get(b, j));
  return s;
}

void main() {
  uint g = scfd_group();
  uint base = g * kBlock + gl_LocalInvocationID.x;
  acc s0 = acc(0), s1 = acc(0), s2 = acc(0), s3 = acc(0);
  for (uint k = 0; k < ITEMS; ++k) {
    uint t = base + k * LOCAL_SIZE;
    if (t * VPT >= n) break;
    realv b = texel_y(t);
    s0 += product(texel_x0(t), b, t);
    if (count > 1u) s1 += product(texel_x1(t), b, t);
    if (count > 2u) s2 += product(texel_x2(t), b, t);
    if (count > 3u) s3 += product(texel_x3(t), b, t);
  }
  uint texels = (n + VPT - 1u) / VPT;
  uint m = (texels + kBlock - 1) / kBlock;
  // count is uniform: every invocation takes the same branches through the barriers.
  for (uint k = 0u; k < count; ++k) {
    acc s = scfd_workgroup_reduce(k == 0u ? s0 : (k == 1u ? s1 : (k == 2u ? s2 : s3)));
    if (gl_LocalInvocationID.x == 0 && g < m) partial[k * m + g] = s;
  }
  if (!scfd_last_group()) return;
  memoryBarrierBuffer();
  for (uint k = 0u; k < count; ++k) {
    acc s = acc(0);
    for (uint i = gl_LocalInvocationID.x; i < m; i += LOCAL_SIZE) s += partial[k * m + i];
    s = scfd_workgroup_reduce(s);
    if (gl_LocalInvocationID.x == 0u) result[slot + k] = s;
  }
  if (gl_LocalInvocationID.x == 0u) scfd_counter[0] = 0u;  // for the next dispatch
}
