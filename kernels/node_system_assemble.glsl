// node_system_assemble.glsl: assembles the node system of node_system.glsl once, for
// node_system_apply.glsl (Backend::make_node_system). Twin: backend/cpu/node_system.cpp
// (node_system_assemble). For the owned nodes i < n and every SELL entry of row i (sell.glsl),
// across the edge e = (i, j) of that entry:
//   coef = -b w_e   if i and j are free,   0 otherwise   (Dirichlet rows and columns dropped)
//   diag_i = d_i + b sum over the edges e of i of w_e   (free i),   diag_i = 1   (fixed i)
// The coefficients are written at the entry's own position, so coef has the SELL layout of
// node_edges (padding left unwritten: never read). A gather: one invocation per row, no atomics.
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
// | buffer 7 coef     | real[padded]    | out    | coefficient of each entry                    |
// | buffer 8 diag     | real[n]         | out    | diagonal of each owned node                  |
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
layout(std430, binding = 7) writeonly restrict buffer Coef { real coef[]; };
layout(std430, binding = 8) writeonly restrict buffer Diag { real diag[]; };
uniform real b;
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  bool fixed_i = fixed_[i] != real(0);
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) {
    real we = w[edge[at]];
    sum += we;
    coef[at] = fixed_i || fixed_[other[at]] != real(0) ? real(0) : -b * we;
  }
  precise real di = d[i] + b * sum;
  diag[i] = fixed_i ? real(1) : di;
}
