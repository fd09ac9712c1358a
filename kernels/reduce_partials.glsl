// reduce_partials.glsl: second and last pass of dot.glsl and max_abs.glsl: ONE workgroup
// combines the m partials of the first pass (invocation lid takes partials lid,
// lid + LOCAL_SIZE, ... in order, then the workgroup tree) and writes the total to
// result[slot]: the value the host reads back, or a slot of the scalars that stay on the device
// (Backend::dot into Scalars). A sum, or with RED_MAX (host-defined for max_abs) the maximum.
// Twin: the summation of CpuBackend::dot and the maximum of CpuBackend::max_abs (tested through
// them).
//
// | binding / uniform | type       | in/out | meaning                                    |
// |-------------------|------------|--------|--------------------------------------------|
// | buffer 0  partial | acc[m]     | in     | first-pass sums                            |
// | buffer 1  result  | acc[]      | out    | the total at result[slot]                  |
// | uniform   m       | uint       | in     | number of partials                         |
// | uniform   slot    | uint       | in     | where the total goes                       |
#include "common.glsl"

#define red_t acc
#include "reduce.glsl"

layout(std430, binding = 0) readonly buffer Partial { red_t partial[]; };
layout(std430, binding = 1) writeonly buffer Result { red_t result[]; };
uniform uint m;
uniform uint slot;

void main() {
  // 0 is the identity of the sum and of the maximum of the non-negative |x_i|.
  red_t s = red_t(0);
  for (uint i = gl_LocalInvocationID.x; i < m; i += LOCAL_SIZE) s = scfd_red_op(s, partial[i]);
  s = scfd_workgroup_reduce(s);
  if (gl_LocalInvocationID.x == 0) result[slot] = s;
}
