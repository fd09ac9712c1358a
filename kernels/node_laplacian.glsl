// node_laplacian.glsl: the node Laplacian K, node -> node (docs/architecture.md §2).
// Twin: backend/cpu/node_laplacian.cpp (node_laplacian).
//   y_i = sum over the edges e = (i, j) of i of w_e (x_i - x_j)   for the owned nodes i < n,
// gathered through the SELL rows of node_edges (sell.glsl) in the cpu's order.
//
// | binding / uniform | type            | in/out | meaning                                      |
// |-------------------|-----------------|--------|----------------------------------------------|
// | buffer 0 slice    | uint[]          | in     | SELL slice starts (sell.glsl)                |
// | buffer 1 length   | uint[]          | in     | SELL row lengths (sell.glsl)                 |
// | buffer 2 edge     | int[padded]     | in     | edge e of each entry                         |
// | buffer 3 other    | int[padded]     | in     | node j at the other end of e                 |
// | buffer 4 w        | real[n_edges]   | in     | edge weights, ghosts included                |
// | buffer 5 x        | real[n_nodes]   | in     | node values, ghosts included                 |
// | buffer 6 y        | real[n_nodes]   | out    | the first n entries are written              |
// | uniform  n        | uint            | in     | owned nodes                                  |
#include "common.glsl"

#define SELL_SLICE_BINDING 0
#define SELL_LENGTH_BINDING 1
#include "sell.glsl"

layout(std430, binding = 2) readonly restrict buffer Edge { int edge[]; };
layout(std430, binding = 3) readonly restrict buffer Other { int other[]; };
layout(std430, binding = 4) readonly restrict buffer W { real w[]; };
layout(std430, binding = 5) readonly restrict buffer X { real x[]; };
layout(std430, binding = 6) writeonly restrict buffer Y { real y[]; };
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  uint at = sell_first(i);
  uint len = sell_length(i);
  real xi = x[i];
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) sum += w[edge[at]] * (xi - x[other[at]]);
  y[i] = sum;
}
