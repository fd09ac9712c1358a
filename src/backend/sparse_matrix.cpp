// SparseMatrix (see sparse_matrix.hpp).
#include "backend/sparse_matrix.hpp"

#include "core/error.hpp"

namespace scfd::backend {

void SparseMatrix::check() const {
  SCFD_CHECK(rows >= 0 && cols >= 0, "sparse matrix of {} x {}", rows, cols);
  SCFD_CHECK(offset.size() == static_cast<std::size_t>(rows) + 1 && offset.front() == 0,
             "sparse matrix of {} rows with {} row offsets", rows, offset.size());
  for (index i = 0; i < rows; ++i)
    SCFD_CHECK(offset[i] <= offset[i + 1], "sparse matrix row {}: offsets {} > {}", i, offset[i],
               offset[i + 1]);
  SCFD_CHECK(offset.back() == entries() && value.size() == column.size(),
             "sparse matrix: {} entries by offset, {} columns, {} values", offset.back(),
             column.size(), value.size());
  for (const index j : column)
    SCFD_CHECK(j >= 0 && j < cols, "sparse matrix column {} outside 0..{}", j, cols - 1);
}

}  // namespace scfd::backend
