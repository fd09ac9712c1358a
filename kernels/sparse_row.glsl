// scfd: include-only
// sparse_row.glsl: the product of row i of a sparse matrix in the SELL-C layout (sell.glsl) with
// the field x, sum over the row's entries in CSR order of value * x[column]. The including kernel
// declares `// scfd: in x`, then `// scfd: index uint sell_slice sell_len`,
// `// scfd: index int column` and `// scfd: index real value` (backend/opengl/device_mesh.hpp
// SellMatrix). Twin: backend/cpu/sparse.cpp.
#include "sell.glsl"

real sparse_row(uint i) {
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real s = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) s += value[at] * load_x(uint(column[at]));
  return s;
}
