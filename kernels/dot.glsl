// dot.glsl: the dot product x.y over the first n entries in one dispatch: workgroup g adds its
// block of LOCAL_SIZE * ITEMS consecutive texels into partial[g], and the workgroup that finishes
// last adds the partials in their fixed order (reduce.glsl) into result[slot]: the value the host
// reads back, or a slot of the scalars that stay on the device (Backend::dot into Scalars). Twin:
// CpuBackend::dot. Products and sums are in `acc`: double whenever the device has fp64, also for
// fp32 fields (backend/opengl/compute_driver.cpp).
// scfd: kernel
// scfd: in x y
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

const uint kBlock = LOCAL_SIZE * ITEMS;

void main() {
  uint g = scfd_group();
  // Invocation lid takes texels base + k LOCAL_SIZE: consecutive invocations read consecutive
  // texels of a row (coalesced).
  uint base = g * kBlock + gl_LocalInvocationID.x;
  acc s = acc(0);
  for (uint k = 0; k < ITEMS; ++k) {
    uint t = base + k * LOCAL_SIZE;
    if (t * VPT >= n) break;
    realv a = texel_x(t), b = texel_y(t);
    for (uint j = 0u; j < VPT; ++j)
      if (t * VPT + j < n) s += acc(scfd_get(a, j)) * acc(scfd_get(b, j));
  }
  s = scfd_workgroup_reduce(s);
  // A 2D grid may hold a few workgroups past the last block: they store nothing.
  uint texels = (n + VPT - 1u) / VPT;
  uint m = (texels + kBlock - 1) / kBlock;
  if (gl_LocalInvocationID.x == 0 && g < m) partial[g] = s;
  if (!scfd_last_group()) return;
  s = scfd_reduce_partials(m);
  if (gl_LocalInvocationID.x == 0) result[slot] = s;
}
