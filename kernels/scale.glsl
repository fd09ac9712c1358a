// scale.glsl: y <- a x over n entries (y may be x: an in-place scaling).
// Twin: CpuBackend::scale.
//
// | binding / uniform | type      | in/out | meaning            |
// |-------------------|-----------|--------|--------------------|
// | buffer 0  x       | real[n]   | in     | scaled vector      |
// | buffer 1  y       | real[n]   | out    | result             |
// | uniform   a       | real      | in     | the factor         |
// | uniform   n       | uint      | in     | number of entries  |
#include "common.glsl"

// No readonly/writeonly qualifiers: x and y may be the same buffer.
layout(std430, binding = 0) buffer X { real x[]; };
layout(std430, binding = 1) buffer Y { real y[]; };
uniform real a;
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  y[i] = a * x[i];
}
