// node_system.glsl: the node system operator of node-based diffusion (heat), node -> node.
// Twin: backend/cpu/node_system.cpp (node_system). For the owned nodes i < n:
//   y_i = d_i x_i + b sum over the edges e = (i, j) of w_e (x_i - (1 - fixed_j) x_j)   (free i)
//   y_i = x_i                                                                        (fixed i)
// gathered through the SELL rows of node_edges (sell.glsl) in the cpu's order.
//
// | binding / uniform | type            | in/out | meaning                                      |
// |-------------------|-----------------|--------|----------------------------------------------|
// | buffer 0 slice    | uint[]          | in     | SELL slice starts (sell.glsl)                |
// | buffer 1 length   | uint[]          | in     | SELL row lengths (sell.glsl)                 |
// | buffer 2 edge     | int[padded]     | in     | edge e of each entry                         |
// | buffer 3 other    | int[padded]     | in     | node j at the other end of e                 |
// | buffer 4 d        | real[n_nodes]   | in     | diagonal term                                |
// | buffer 5 w        | real[n_edges]   | in     | edge weights, ghosts included                |
// | buffer 6 fixed    | real[n_nodes]   | in     | 1 on Dirichlet nodes, else 0; ghosts incl.   |
// | buffer 7 x        | real[n_nodes]   | in     | node values, ghosts included                 |
// | buffer 8 y        | real[n_nodes]   | out    | the first n entries are written              |
// | uniform  b        | real            | in     | scale of the Laplacian part                  |
// | uniform  n        | uint            | in     | owned nodes                                  |
#include "common.glsl"

#define SELL_SLICE_BINDING 0
#define SELL_LENGTH_BINDING 1
#include "sell.glsl"

layout(std430, binding = 2) readonly restrict buffer Edge { int edge[]; };
layout(std430, binding = 3) readonly restrict buffer Other { int other[]; };
layout(std430, binding = 4) readonly restrict buffer D { real d[]; };
layout(std430, binding = 5) readonly restrict buffer W { real w[]; };
layout(std430, binding = 6) readonly restrict buffer Fixed { real fixed_[]; };
layout(std430, binding = 7) readonly restrict buffer X { real x[]; };
layout(std430, binding = 8) writeonly restrict buffer Y { real y[]; };
uniform real b;
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  real xi = x[i];
  if (fixed_[i] != real(0)) {
    y[i] = xi;
    return;
  }
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) {
    int j = other[at];
    sum += w[edge[at]] * (xi - (real(1) - fixed_[j]) * x[j]);
  }
  precise real yi = d[i] * xi + b * sum;
  y[i] = yi;
}
