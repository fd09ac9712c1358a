// node_laplacian.glsl: the node Laplacian K, node -> node (docs/architecture.md §2).
// Twin: backend/cpu/node_laplacian.cpp (node_laplacian).
//   y_i = sum over the edges e = (i, j) of i of w_e (x_i - x_j)   for the owned nodes i < n,
// gathered through the SELL rows of node_edges (sell.glsl) in the cpu's order.
// scfd: body entry y
// scfd: in w x
// scfd: index uint sell_slice sell_len
// scfd: index int edge other
#include "sell.glsl"

real entry(uint i) {
  uint at = sell_first(i);
  uint len = sell_length(i);
  real xi = load_x(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C)
    sum += load_w(uint(edge[at])) * (xi - load_x(uint(other[at])));
  return sum;
}
