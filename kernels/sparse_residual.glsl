// sparse_residual.glsl: y_i = b_i - (A x)_i, a residual,
// for the rows i < n of a sparse matrix (Backend::matrix_residual).
// Twin: backend/cpu/sparse.cpp.
// scfd: body entry y
// scfd: in x b
// scfd: index uint sell_slice sell_len
// scfd: index int column
// scfd: index real value
#include "sparse_row.glsl"

real entry(uint i) {
  precise real y = load_b(i) - sparse_row(i);
  return y;
}
