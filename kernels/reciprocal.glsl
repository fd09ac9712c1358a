// reciprocal.glsl: y <- 1 ./ x over n entries (the Jacobi preconditioner from the diagonal).
// Twin: CpuBackend::reciprocal. GLSL does not promise a correctly rounded double division, so
// the twin test allows a few ulps.
//
// | binding / uniform | type      | in/out | meaning            |
// |-------------------|-----------|--------|--------------------|
// | buffer 0  x       | real[n]   | in     | divisors           |
// | buffer 1  y       | real[n]   | out    | reciprocals        |
// | uniform   n       | uint      | in     | number of entries  |
#include "common.glsl"

layout(std430, binding = 0) readonly buffer X { real x[]; };
layout(std430, binding = 1) writeonly buffer Y { real y[]; };
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  y[i] = real(1) / x[i];
}
