// node_system_diagonal.glsl: the diagonal of node_system.glsl (the Jacobi preconditioner).
// Twin: backend/cpu/node_system.cpp (node_system_diagonal). For the owned nodes i < n:
//   diag_i = d_i + b sum over the edges e of i of w_e   (free i),   diag_i = 1   (fixed i),
// gathered through the SELL rows of node_edges (sell.glsl) in the cpu's order.
// scfd: body entry diag
// scfd: in d w fixed_mask
// scfd: index uint sell_slice sell_len
// scfd: index int edge
#include "sell.glsl"
uniform real b;

real entry(uint i) {
  if (load_fixed_mask(i) != real(0)) return real(1);
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) sum += load_w(uint(edge[at]));
  precise real di = load_d(i) + b * sum;
  return di;
}
