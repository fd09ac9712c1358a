// axpy.glsl: y <- y + a x over n entries (the vector update of PCG). Twin: the CPU loop in
// tests/gl/axpy_test.cpp.
//
// | binding / uniform | type      | in/out | meaning            |
// |-------------------|-----------|--------|--------------------|
// | buffer 0  x       | real[n]   | in     | increment direction|
// | buffer 1  y       | real[n]   | in/out | updated vector     |
// | uniform   a       | real      | in     | scale              |
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
  precise real r = y[i] + a * x[i];
  y[i] = r;
}
