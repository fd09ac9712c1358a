// sparse_apply.glsl: y_i = (A x)_i
// for the rows i < n of a sparse matrix (Backend::matrix_apply).
// Twin: backend/cpu/sparse.cpp.
// scfd: body entry y
// scfd: in x
// scfd: index uint sell_slice sell_len
// scfd: index int column
// scfd: index real value
#include "sparse_row.glsl"

real entry(uint i) {
  return sparse_row(i);
}
