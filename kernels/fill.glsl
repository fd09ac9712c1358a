// fill.glsl: y <- value over n entries. Twin: CpuBackend::fill.
//
// | binding / uniform | type      | in/out | meaning            |
// |-------------------|-----------|--------|--------------------|
// | buffer 0  y       | real[n]   | out    | filled vector      |
// | uniform   value   | real      | in     | the value          |
// | uniform   n       | uint      | in     | number of entries  |
#include "common.glsl"

layout(std430, binding = 0) writeonly buffer Y { real y[]; };
uniform real value;
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  y[i] = value;
}
