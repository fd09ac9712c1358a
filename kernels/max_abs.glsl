// max_abs.glsl: first pass of max |x_i| over the first n entries: workgroup g writes the largest
// |x_i| of its block of LOCAL_SIZE * ITEMS consecutive entries to partial[g]; one workgroup of
// reduce_partials.glsl (compiled with RED_MAX) then takes the largest partial. Twin:
// CpuBackend::max_abs. A maximum is exact whatever the order, and |x| of a real is exact in acc,
// so the result equals the cpu's bit for bit (ns-classical's CFL number and max |D U|).
//
// | binding / uniform | type                  | in/out | meaning                          |
// |-------------------|-----------------------|--------|----------------------------------|
// | buffer 0  x       | real[>=n]             | in     | the vector                       |
// | buffer 1  partial | acc[ceil(n / block)]  | out    | one maximum per workgroup        |
// | uniform   n       | uint                  | in     | entries searched                 |
#include "common.glsl"

// ITEMS: entries per invocation; the host defines it (4 when compiled alone).
#ifndef ITEMS
#define ITEMS 4
#endif
#define red_t acc
#define RED_MAX
#include "reduce.glsl"

layout(std430, binding = 0) readonly buffer X { real x[]; };
layout(std430, binding = 1) writeonly buffer Partial { acc partial[]; };
uniform uint n;

const uint kBlock = LOCAL_SIZE * ITEMS;

void main() {
  uint g = scfd_group();
  // The same item -> invocation map as dot.glsl (coalesced reads).
  uint base = g * kBlock + gl_LocalInvocationID.x;
  acc s = acc(0);
  for (uint k = 0; k < ITEMS; ++k) {
    uint i = base + k * LOCAL_SIZE;
    if (i < n) s = max(s, acc(abs(x[i])));
  }
  s = scfd_workgroup_reduce(s);
  // A 2D grid may hold a few workgroups past the last block: they write nothing.
  if (gl_LocalInvocationID.x == 0 && g < (n + kBlock - 1) / kBlock) partial[g] = s;
}
