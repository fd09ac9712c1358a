// download_indices.glsl: out[k] <- x[indices[k]] for k < n: packs the send buffer of a halo
// exchange on the GPU (docs/architecture.md §5) so that one contiguous read-back follows.
// Twin: CpuBackend::download_indices. The host checks 0 <= indices[k] < size of x.
//
// | binding / uniform | type      | in/out | meaning                  |
// |-------------------|-----------|--------|--------------------------|
// | buffer 0  x       | real[]    | in     | the field                |
// | buffer 1  indices | int[n]    | in     | entries to pack          |
// | buffer 2  send    | real[>=n] | out    | packed values            |
// | uniform   n       | uint      | in     | number of indices        |
#include "common.glsl"

layout(std430, binding = 0) readonly buffer X { real x[]; };
layout(std430, binding = 1) readonly buffer Indices { int indices[]; };
layout(std430, binding = 2) writeonly buffer Out { real send[]; };
uniform uint n;

void main() {
  uint k = scfd_gid();
  if (k >= n) return;
  send[k] = x[indices[k]];
}
