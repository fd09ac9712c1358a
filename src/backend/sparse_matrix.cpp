// SparseMatrix (see sparse_matrix.hpp).
#include "backend/sparse_matrix.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"

namespace scfd::backend {

void SparseMatrix::check() const {
  SCFD_CHECK(rows >= 0 && cols >= 0, "sparse matrix of {} x {}", rows, cols);
  SCFD_CHECK(offset.size() == static_cast<std::size_t>(rows) + 1 && offset.front() == 0,
             "sparse matrix of {} rows with {} row offsets", rows, offset.size());
  parallel_for(rows, [&](index first, index end) {
    for (index i = first; i < end; ++i)
      SCFD_CHECK(offset[i] <= offset[i + 1], "sparse matrix row {}: offsets {} > {}", i, offset[i],
                 offset[i + 1]);
  });
  SCFD_CHECK(offset.back() == entries() && value.size() == column.size(),
             "sparse matrix: {} entries by offset, {} columns, {} values", offset.back(),
             column.size(), value.size());
  parallel_for(entries(), [&](index first, index end) {
    for (index k = first; k < end; ++k)
      SCFD_CHECK(column[k] >= 0 && column[k] < cols, "sparse matrix column {} outside 0..{}",
                 column[k], cols - 1);
  });
}

SparseMatrix join_rows(index rows, index cols, std::vector<SparseMatrix>& parts) {
  SparseMatrix a;
  a.rows = rows;
  a.cols = cols;
  if (parts.size() == 1) {  // one thread or few rows: the part is the matrix
    SCFD_CHECK(parts[0].offset.size() == static_cast<std::size_t>(rows) + 1,
               "join_rows: {} rows in the part, {} expected", parts[0].offset.size() - 1, rows);
    a.offset = std::move(parts[0].offset);
    a.column = std::move(parts[0].column);
    a.value = std::move(parts[0].value);
    parts[0] = SparseMatrix{};
    return a;
  }
  std::vector<index> first_row{0}, first_entry{0};  // per part
  for (const SparseMatrix& p : parts) {
    first_row.push_back(first_row.back() + static_cast<index>(p.offset.size()) - 1);
    first_entry.push_back(first_entry.back() + p.entries());
  }
  SCFD_CHECK(first_row.back() == rows, "join_rows: {} rows in the parts, {} expected",
             first_row.back(), rows);
  a.offset.resize(static_cast<std::size_t>(rows) + 1);
  a.column.resize(static_cast<std::size_t>(first_entry.back()));
  a.value.resize(a.column.size());
  std::vector<index> bounds(parts.size() + 1);
  for (std::size_t k = 0; k <= parts.size(); ++k) bounds[k] = static_cast<index>(k);
  for_chunks(bounds, [&](std::size_t k, index, index) {
    SparseMatrix& p = parts[k];
    for (std::size_t i = 1; i < p.offset.size(); ++i)
      a.offset[first_row[k] + i] = first_entry[k] + p.offset[i];
    std::copy(p.column.begin(), p.column.end(), a.column.begin() + first_entry[k]);
    std::copy(p.value.begin(), p.value.end(), a.value.begin() + first_entry[k]);
    p = SparseMatrix{};
  });
  return a;
}

index leading_rows_below(const SparseMatrix& a, index n) {
  // The first row with a column from n on: each chunk's first, then the least.
  const std::vector<index> bounds = chunk_bounds(a.rows);
  std::vector<index> first(bounds.size(), a.rows);
  for_chunks(bounds, [&](std::size_t c, index begin, index end) {
    for (index i = begin; i < end && first[c] == a.rows; ++i)
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
        if (a.column[k] >= n) {
          first[c] = i;
          break;
        }
  });
  return *std::min_element(first.begin(), first.end());
}

index inner_rows(const SparseMatrix& a) {
  return a.inner >= 0 ? a.inner : leading_rows_below(a, a.rows);
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
