// Host algebra on SparseMatrix (backend/sparse_matrix.hpp) for the multigrid set-up (amg.hpp):
// transposes and products of sparse matrices, and the exact solve of a small dense coarse
// problem. Not for inner loops: everything here runs once per hierarchy.
#pragma once

#include <cstddef>
#include <vector>

#include "backend/sparse_matrix.hpp"

namespace scfd::solvers {

using backend::SparseMatrix;

SparseMatrix transpose(const SparseMatrix& a);
SparseMatrix multiply(const SparseMatrix& a, const SparseMatrix& b);
// Appends row i of a b to (column, value): its columns in the order first reached, each sum in
// a's order. `where` (b.cols entries, -1 at first) is the caller's scratch, kept between rows.
void append_product_row(const SparseMatrix& a, const SparseMatrix& b, index i,
                        std::vector<index>& where, backend::HostArray<index>& column,
                        backend::HostArray<real>& value);
// The owned block of a rank's rows: the columns below the row count.
SparseMatrix owned_block(const SparseMatrix& a);
// A dense n x n matrix (row-major values) as a SparseMatrix with every entry stored.
SparseMatrix dense(index n, const std::vector<real>& v);

// A symmetric generalized inverse G (A G A = A) of a small symmetric positive semi-definite
// matrix m (n x n, row-major; the result in the same form): m = L D L^T without pivoting, a pivot
// below 1e-10 of the largest diagonal entry taken as 0 with its column of L (the constants of a
// pressure system without an outlet make the last pivot vanish), then G = L^-T D^+ L^-1. For a
// right-hand side in the range of m, G gives a solution, all a coarse correction of CG needs.
// lowest_pivot (if given): the most negative pivot over the largest diagonal entry (0 when none
// is negative): well below 0 when m is not positive semi-definite in floating point.
std::vector<real> generalized_inverse(std::size_t n, std::vector<real> m,
                                      real* lowest_pivot = nullptr);
// The same for a (small, square) sparse matrix, returned dense.
SparseMatrix generalized_inverse(const SparseMatrix& a, real* lowest_pivot = nullptr);

}  // namespace scfd::solvers
