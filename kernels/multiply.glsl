// multiply.glsl: y <- a .* b over n entries (applies the Jacobi preconditioner z = dinv .* r).
// Twin: CpuBackend::multiply.
//
// | binding / uniform | type      | in/out | meaning            |
// |-------------------|-----------|--------|--------------------|
// | buffer 0  a       | real[n]   | in     | first factor       |
// | buffer 1  b       | real[n]   | in     | second factor      |
// | buffer 2  y       | real[n]   | out    | product            |
// | uniform   n       | uint      | in     | number of entries  |
#include "common.glsl"

layout(std430, binding = 0) readonly buffer A { real a[]; };
layout(std430, binding = 1) readonly buffer B { real b[]; };
layout(std430, binding = 2) writeonly buffer Y { real y[]; };
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  y[i] = a[i] * b[i];
}
