// node_system_apply.glsl: the node system operator of node_system.glsl, applied from the
// coefficients of node_system_assemble.glsl (Backend::make_node_system). Twin:
// backend/cpu/node_system.cpp (node_system_apply). For the owned nodes i < n:
//   y_i = diag_i x_i + sum over the SELL entries of row i of coef x_j
// Per entry it reads the neighbour j and the coefficient (both in stream order, coalesced) and
// gathers x_j: the Dirichlet elimination and the edge weights are already in coef.
// scfd: body entry y
// scfd: in x
// scfd: index uint sell_slice sell_len
// scfd: index int other
// scfd: index real coef diag
#include "sell.glsl"

real entry(uint i) {
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real yi = diag[i] * load_x(i);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) yi += coef[at] * load_x(uint(other[at]));
  return yi;
}
