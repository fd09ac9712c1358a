// Sparse matrix products on host arrays: the reference of kernels/sparse_*.glsl (Backend::
// matrix_apply and its siblings). Row i: s_i = sum over its entries, in CSR order, of
// value_k x[column_k]; then y_i = s_i (apply), b_i - s_i (residual), z_i + s_i (apply_add) or
// x0_i + w_i (b_i - s_i) (jacobi; x0 = x unless given: the second product of a split matrix
// gathers the chunk sums but corrects the iterate), for i < rows.
#pragma once

#include <span>

#include "backend/sparse_matrix.hpp"

namespace scfd::backend::cpu {

enum class SparseProduct { apply, residual, apply_add, jacobi };

// The inputs a product does not read may be empty spans. Rows `part` of y only ({}: all).
void sparse_product(SparseProduct kind, const SparseMatrix& a, std::span<const real> x,
                    std::span<const real> b, std::span<const real> z, std::span<const real> w,
                    std::span<real> y, std::span<const real> x0 = {}, RowRange part = {});

}  // namespace scfd::backend::cpu
