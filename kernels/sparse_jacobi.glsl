// sparse_jacobi.glsl: y_i = x0_i + w_i (b_i - (A x)_i), a weighted Jacobi sweep (x0 = x, or
// the iterate when x holds the chunk sums of a split matrix, backend/sparse_matrix.hpp), for the
// rows i < n of a sparse matrix (Backend::matrix_jacobi).
// Twin: backend/cpu/sparse.cpp.
// scfd: body entry y
// scfd: in x0 w b x
// scfd: index uint sell_slice sell_len
// scfd: index int column
// scfd: index real value
#include "sparse_row.glsl"

real entry(uint i) {
  precise real y = load_x0(i) + load_w(i) * (load_b(i) - sparse_row(i));
  return y;
}
