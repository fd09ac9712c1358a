// reduce_partials.glsl: second and last pass of dot.glsl, pcg_update.glsl and max_abs.glsl: ONE
// workgroup combines the m partials of the first pass (invocation lid takes partials lid,
// lid + LOCAL_SIZE, ... in order, then the workgroup tree) and writes the total to result[0],
// the only value the host reads back. A sum, or with RED_MAX (host-defined for max_abs) the
// maximum. Twin: the summation of CpuBackend::dot and CpuBackend::pcg_update and the maximum of
// CpuBackend::max_abs (tested through them).
//
// | binding / uniform | type       | in/out | meaning                                    |
// |-------------------|------------|--------|--------------------------------------------|
// | buffer 0  partial | red_t[m]   | in     | first-pass sums (acc; acc2 for pcg_update) |
// | buffer 1  result  | red_t[1]   | out    | the total                                  |
// | uniform   m       | uint       | in     | number of partials                         |
#include "common.glsl"

// The host defines red_t = acc2 for the partials of pcg_update.
#ifndef red_t
#define red_t acc
#endif
#include "reduce.glsl"

layout(std430, binding = 0) readonly buffer Partial { red_t partial[]; };
layout(std430, binding = 1) writeonly buffer Result { red_t result[]; };
uniform uint m;

void main() {
  // 0 is the identity of the sum and of the maximum of the non-negative |x_i|.
  red_t s = red_t(0);
  for (uint i = gl_LocalInvocationID.x; i < m; i += LOCAL_SIZE) s = scfd_red_op(s, partial[i]);
  s = scfd_workgroup_reduce(s);
  if (gl_LocalInvocationID.x == 0) result[0] = s;
}
