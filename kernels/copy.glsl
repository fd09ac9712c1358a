// copy.glsl: dst <- src over n entries (also the bandwidth ceiling that `streamcfd bench`
// measures, docs/architecture.md §9).
//
// | binding / uniform | type      | in/out | meaning            |
// |-------------------|-----------|--------|--------------------|
// | buffer 0  src     | real[n]   | in     | source             |
// | buffer 1  dst     | real[n]   | out    | destination        |
// | uniform   n       | uint      | in     | number of entries  |
#include "common.glsl"

layout(std430, binding = 0) readonly buffer Src { real src[]; };
layout(std430, binding = 1) writeonly buffer Dst { real dst[]; };
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  dst[i] = src[i];
}
