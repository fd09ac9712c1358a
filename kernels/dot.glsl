// dot.glsl: first pass of the dot product x·y over the first n entries: workgroup g writes the
// sum over its block of LOCAL_SIZE * ITEMS consecutive entries to partial[g]; one workgroup of
// reduce_partials.glsl then adds the partials. Twin: CpuBackend::dot (the same sum, in index
// order). Products and sums are in `acc`: double whenever the device has fp64, also for fp32
// fields (see backend/gl/gl_backend.cpp).
//
// | binding / uniform | type                  | in/out | meaning                          |
// |-------------------|-----------------------|--------|----------------------------------|
// | buffer 0  x       | real[>=n]             | in     | first vector                     |
// | buffer 1  y       | real[>=n]             | in     | second vector                    |
// | buffer 2  partial | acc[ceil(n / block)]  | out    | one sum per workgroup            |
// | uniform   n       | uint                  | in     | entries summed                   |
#include "common.glsl"

// ITEMS: entries per invocation; the host defines it (4 when compiled alone).
#ifndef ITEMS
#define ITEMS 4
#endif
#define red_t acc
#include "reduce.glsl"

layout(std430, binding = 0) readonly buffer X { real x[]; };
layout(std430, binding = 1) readonly buffer Y { real y[]; };
layout(std430, binding = 2) writeonly buffer Partial { acc partial[]; };
uniform uint n;

const uint kBlock = LOCAL_SIZE * ITEMS;

void main() {
  uint g = scfd_group();
  // Invocation lid takes entries base + k LOCAL_SIZE: consecutive invocations read consecutive
  // entries (coalesced).
  uint base = g * kBlock + gl_LocalInvocationID.x;
  acc s = acc(0);
  for (uint k = 0; k < ITEMS; ++k) {
    uint i = base + k * LOCAL_SIZE;
    if (i < n) s += acc(x[i]) * acc(y[i]);
  }
  s = scfd_workgroup_reduce(s);
  // A 2D grid may hold a few workgroups past the last block: they write nothing.
  if (gl_LocalInvocationID.x == 0 && g < (n + kBlock - 1) / kBlock) partial[g] = s;
}
