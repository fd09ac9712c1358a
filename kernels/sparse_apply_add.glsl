// sparse_apply_add.glsl: y_i = z_i + (A x)_i, a coarse-grid correction,
// for the rows i < n of a sparse matrix (Backend::matrix_apply_add).
// Twin: backend/cpu/sparse.cpp.
// scfd: body entry y
// scfd: in x z
// scfd: index uint sell_slice sell_len
// scfd: index int column
// scfd: index real value
#include "sparse_row.glsl"

real entry(uint i) {
  precise real y = load_z(i) + sparse_row(i);
  return y;
}
