// xpay.glsl: y <- x + a y over n entries (the search-direction update p = z + beta p of PCG).
// Twin: CpuBackend::xpay.
//
// | binding / uniform | type      | in/out | meaning            |
// |-------------------|-----------|--------|--------------------|
// | buffer 0  x       | real[n]   | in     | added vector       |
// | buffer 1  y       | real[n]   | in/out | scaled, updated    |
// | uniform   a       | real      | in     | scale of y         |
// | uniform   n       | uint      | in     | number of entries  |
#include "common.glsl"

layout(std430, binding = 0) readonly buffer X { real x[]; };
layout(std430, binding = 1) buffer Y { real y[]; };
uniform real a;
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  // precise: no fused multiply-add, so fp64 matches the CPU loop bit for bit.
  precise real r = x[i] + a * y[i];
  y[i] = r;
}
