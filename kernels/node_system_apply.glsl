// node_system_apply.glsl: the node system operator of node_system.glsl, applied from the
// coefficients of node_system_assemble.glsl (Backend::make_node_system). Twin:
// backend/cpu/node_system.cpp (node_system_apply). For the owned nodes i < n:
//   y_i = diag_i x_i + sum over the SELL entries of row i of coef x_j
// Per entry it reads the neighbour j and the coefficient (both in stream order, coalesced) and
// gathers x_j: the Dirichlet elimination and the edge weights are already in coef.
//
// | binding / uniform | type            | in/out | meaning                                      |
// |-------------------|-----------------|--------|----------------------------------------------|
// | buffer 0 slice    | uint[]          | in     | SELL slice starts (sell.glsl)                |
// | buffer 1 length   | uint[]          | in     | SELL row lengths (sell.glsl)                 |
// | buffer 2 other    | int[padded]     | in     | neighbour node j of each entry               |
// | buffer 3 coef     | real[padded]    | in     | coefficient of each entry                    |
// | buffer 4 diag     | real[n]         | in     | diagonal of each owned node                  |
// | buffer 5 x        | real[n_nodes]   | in     | node values, ghosts included                 |
// | buffer 6 y        | real[n_nodes]   | out    | the first n entries are written              |
// | uniform  n        | uint            | in     | owned nodes                                  |
#include "common.glsl"

#define SELL_SLICE_BINDING 0
#define SELL_LENGTH_BINDING 1
#include "sell.glsl"

layout(std430, binding = 2) readonly restrict buffer Other { int other[]; };
layout(std430, binding = 3) readonly restrict buffer Coef { real coef[]; };
layout(std430, binding = 4) readonly restrict buffer Diag { real diag[]; };
layout(std430, binding = 5) readonly restrict buffer X { real x[]; };
layout(std430, binding = 6) writeonly restrict buffer Y { real y[]; };
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real yi = diag[i] * x[i];  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) yi += coef[at] * x[other[at]];
  y[i] = yi;
}
