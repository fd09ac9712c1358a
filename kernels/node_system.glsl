// node_system.glsl: the node system operator of node-based diffusion (heat), node -> node.
// Twin: backend/cpu/node_system.cpp (node_system). For the owned nodes i < n:
//   y_i = d_i x_i + b sum over the edges e = (i, j) of w_e (x_i - (1 - fixed_maskj) x_j)   (free i)
//   y_i = x_i                                                                        (fixed i)
// gathered through the SELL rows of node_edges (sell.glsl) in the cpu's order.
// scfd: body entry y
// scfd: in d w fixed_mask x
// scfd: index uint sell_slice sell_len
// scfd: index int edge other
#include "sell.glsl"
uniform real b;

real entry(uint i) {
  real xi = load_x(i);
  if (load_fixed_mask(i) != real(0)) return xi;
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) {
    uint j = uint(other[at]);
    sum += load_w(uint(edge[at])) * (xi - (real(1) - load_fixed_mask(j)) * load_x(j));
  }
  precise real yi = load_d(i) * xi + b * sum;
  return yi;
}
