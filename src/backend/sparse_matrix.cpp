// SparseMatrix (see sparse_matrix.hpp).
#include "backend/sparse_matrix.hpp"

#include <algorithm>

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

index inner_rows(const SparseMatrix& a) {
  if (a.inner >= 0) return a.inner;
  for (index i = 0; i < a.rows; ++i)
    for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
      if (a.column[k] >= a.rows) return i;
  return a.rows;
}

std::optional<RowSplit> split_long_rows(const SparseMatrix& a) {
  index longest = 0;
  for (index i = 0; i < a.rows; ++i) longest = std::max(longest, a.offset[i + 1] - a.offset[i]);
  if (longest <= kLongRow) return std::nullopt;
  RowSplit s;
  s.chunks.cols = a.cols;
  s.chunks.column = a.column;
  s.chunks.value = a.value;
  s.sum.rows = a.rows;
  for (index i = 0; i < a.rows; ++i) {
    for (index k = a.offset[i]; k < a.offset[i + 1]; k += kRowChunk) {
      s.sum.column.push_back(s.chunks.rows++);
      s.sum.value.push_back(1);
      s.chunks.offset.push_back(std::min(k + kRowChunk, a.offset[i + 1]));
    }
    s.sum.offset.push_back(s.sum.entries());
  }
  s.sum.cols = s.chunks.rows;
  return s;
}

}  // namespace scfd::backend
