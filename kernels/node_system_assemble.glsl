// node_system_assemble.glsl: assembles the node system of node_system.glsl once, for
// node_system_apply.glsl (Backend::make_node_system). Twin: backend/cpu/node_system.cpp
// (node_system_assemble). For the owned nodes i < n and every SELL entry of row i (sell.glsl),
// across the edge e = (i, j) of that entry:
//   coef = -b w_e   if i and j are free,   0 otherwise   (Dirichlet rows and columns dropped)
//   diag_i = d_i + b sum over the edges e of i of w_e   (free i),   diag_i = 1   (fixed i)
// The coefficients are written at the entry's own position, so coef has the SELL layout of
// node_edges (padding left unwritten: never read). Two outputs, so a kernel rather than a body:
// one invocation per row, no atomics. coef and diag are storage buffers (read in stream order by
// node_system_apply.glsl).
// scfd: kernel
// scfd: in d w fixed_mask
// scfd: index uint sell_slice sell_len
// scfd: index int edge other
// scfd: buffer real coef
// scfd: buffer real diag
#include "sell.glsl"
uniform real b;
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  bool fixed_maski = load_fixed_mask(i) != real(0);
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) {
    real we = load_w(uint(edge[at]));
    sum += we;
    coef[at] = fixed_maski || load_fixed_mask(uint(other[at])) != real(0) ? real(0) : -b * we;
  }
  precise real di = load_d(i) + b * sum;
  diag[i] = fixed_maski ? real(1) : di;
}
