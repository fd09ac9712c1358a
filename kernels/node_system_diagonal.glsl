// node_system_diagonal.glsl: the diagonal of node_system.glsl (the Jacobi preconditioner).
// Twin: backend/cpu/node_system.cpp (node_system_diagonal). For the owned nodes i < n:
//   diag_i = d_i + b sum over the edges e of i of w_e   (free i),   diag_i = 1   (fixed i),
// gathered through the SELL rows of node_edges (sell.glsl) in the cpu's order.
//
// | binding / uniform | type            | in/out | meaning                                      |
// |-------------------|-----------------|--------|----------------------------------------------|
// | buffer 0 slice    | uint[]          | in     | SELL slice starts (sell.glsl)                |
// | buffer 1 length   | uint[]          | in     | SELL row lengths (sell.glsl)                 |
// | buffer 2 edge     | int[padded]     | in     | edge e of each entry                         |
// | buffer 3 d        | real[n_nodes]   | in     | diagonal term                                |
// | buffer 4 w        | real[n_edges]   | in     | edge weights, ghosts included                |
// | buffer 5 fixed    | real[n_nodes]   | in     | 1 on Dirichlet nodes, else 0                 |
// | buffer 6 diag     | real[n_nodes]   | out    | the first n entries are written              |
// | uniform  b        | real            | in     | scale of the Laplacian part                  |
// | uniform  n        | uint            | in     | owned nodes                                  |
#include "common.glsl"

#define SELL_SLICE_BINDING 0
#define SELL_LENGTH_BINDING 1
#include "sell.glsl"

layout(std430, binding = 2) readonly restrict buffer Edge { int edge[]; };
layout(std430, binding = 3) readonly restrict buffer D { real d[]; };
layout(std430, binding = 4) readonly restrict buffer W { real w[]; };
layout(std430, binding = 5) readonly restrict buffer Fixed { real fixed_[]; };
layout(std430, binding = 6) writeonly restrict buffer Diag { real diag[]; };
uniform real b;
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  if (fixed_[i] != real(0)) {
    diag[i] = real(1);
    return;
  }
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) sum += w[edge[at]];
  precise real di = d[i] + b * sum;
  diag[i] = di;
}
