// Host sparse and small dense matrix algebra of the multigrid set-up (see sparse_algebra.hpp).
#include "solvers/sparse_algebra.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"
#include "core/threads.hpp"

namespace scfd::solvers {

SparseMatrix transpose(const SparseMatrix& a) {
  // Each chunk of a's rows counts its entries per column, the counts become each chunk's first
  // place in every row of the transpose, and the chunks scatter their entries there: row j of the
  // transpose holds a's entries of column j by ascending row, as a serial pass places them. At
  // most 4 entries' worth of counts per entry of a (16 chunks of a square Laplacian's 5 per row).
  const index most_chunks = std::max<index>(1, 4 * a.entries() / std::max<index>(a.cols, 1));
  const std::vector<index> bounds =
      chunk_bounds(a.rows, std::max<index>(4096, a.rows / most_chunks + 1));
  const std::size_t chunks = bounds.size() - 1;
  std::vector<std::vector<index>> at(chunks);  // counts, then the chunk's next place per column
  for_chunks(bounds, [&](std::size_t c, index begin, index end) {
    at[c].assign(static_cast<std::size_t>(a.cols), 0);
    for (index k = a.offset[begin]; k < a.offset[end]; ++k) ++at[c][a.column[k]];
  });
  SparseMatrix t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.offset.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  parallel_for(a.cols, [&](index first, index end) {
    for (index j = first; j < end; ++j)
      for (const std::vector<index>& count : at) t.offset[j + 1] += count[j];
  });
  for (index j = 0; j < a.cols; ++j) t.offset[j + 1] += t.offset[j];
  parallel_for(a.cols, [&](index first, index end) {
    for (index j = first; j < end; ++j) {
      index next = t.offset[j];
      for (std::vector<index>& count : at) next += std::exchange(count[j], next);
    }
  });
  t.column.resize(a.column.size());
  t.value.resize(a.value.size());
  for_chunks(bounds, [&](std::size_t c, index begin, index end) {
    std::vector<index>& next = at[c];
    for (index i = begin; i < end; ++i)
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k) {
        const index place = next[a.column[k]]++;
        t.column[place] = i;
        t.value[place] = a.value[k];
      }
  });
  return t;
}

void append_product_row(const SparseMatrix& a, const SparseMatrix& b, index i,
                        std::vector<index>& where, backend::HostArray<index>& column,
                        backend::HostArray<real>& value) {
  // where[col]: col's place in (column, value); below row_start: not in row i yet.
  const auto row_start = static_cast<index>(column.size());
  for (index ka = a.offset[i]; ka < a.offset[i + 1]; ++ka) {
    const index j = a.column[ka];
    for (index kb = b.offset[j]; kb < b.offset[j + 1]; ++kb) {
      const index col = b.column[kb];
      if (where[col] < row_start) {
        where[col] = static_cast<index>(column.size());
        column.push_back(col);
        value.push_back(0);
      }
      value[where[col]] += a.value[ka] * b.value[kb];
    }
  }
}

SparseMatrix multiply(const SparseMatrix& a, const SparseMatrix& b) {
  SCFD_CHECK(a.cols == b.rows, "sparse product of {} x {} and {} x {}", a.rows, a.cols, b.rows,
             b.cols);
  // Each chunk of rows with its own `where` (append_product_row). The rows of a dense coarse level
  // are few and long: the grain is about 2^16 multiply-adds (as many rows as 2048 of a cell
  // Laplacian times a prolongation), so that 721 rows of 1,000 entries times 200 still run on every
  // thread.
  const double per_row = static_cast<double>(a.entries()) / std::max<index>(a.rows, 1) *
                         static_cast<double>(b.entries()) / std::max<index>(b.rows, 1);
  const auto grain = static_cast<index>(std::clamp(65536.0 / std::max(per_row, 1.0), 1.0, 2048.0));
  return backend::rows_on_threads(
      a.rows, b.cols,
      [&] {
        return [&a, &b, where = std::vector<index>(static_cast<std::size_t>(b.cols), -1)](
                   index i, backend::HostArray<index>& column,
                   backend::HostArray<real>& value) mutable {
          append_product_row(a, b, i, where, column, value);
        };
      },
      grain);
}

SparseMatrix owned_block(const SparseMatrix& a) {
  SparseMatrix b;
  b.rows = b.cols = a.rows;
  for (index i = 0; i < a.rows; ++i) {
    for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
      if (a.column[k] < a.rows) {
        b.column.push_back(a.column[k]);
        b.value.push_back(a.value[k]);
      }
    b.offset.push_back(b.entries());
  }
  return b;
}

SparseMatrix dense(index n, const std::vector<real>& v) {
  SparseMatrix m;
  m.rows = m.cols = n;
  m.offset.resize(static_cast<std::size_t>(n) + 1);
  m.column.resize(static_cast<std::size_t>(n) * n);
  m.value.assign(v.begin(), v.end());
  for (index i = 0; i <= n; ++i) m.offset[i] = i * n;
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) m.column[static_cast<std::size_t>(i) * n + j] = j;
  return m;
}

std::vector<real> generalized_inverse(std::size_t n, std::vector<real> m, real* lowest_pivot) {
  real largest = 0;
  for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, m[i * n + i]);
  std::vector<real> l(n * n, 0), d(n, 0);
  if (lowest_pivot != nullptr) *lowest_pivot = 0;
  for (std::size_t j = 0; j < n; ++j) {
    l[j * n + j] = 1;
    real dj = m[j * n + j];
    for (std::size_t k = 0; k < j; ++k) dj -= l[j * n + k] * l[j * n + k] * d[k];
    if (lowest_pivot != nullptr && largest > 0)
      *lowest_pivot = std::min(*lowest_pivot, dj / largest);
    if (!(dj > 1e-10 * largest)) continue;  // a null direction: d_j = 0, L's column stays 0
    d[j] = dj;
    for (std::size_t i = j + 1; i < n; ++i) {
      real s = m[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k] * d[k];
      l[i * n + j] = s / dj;
    }
  }
  std::vector<real> x(n * n, 0);  // L^-1, unit lower triangular, column by column
  for (std::size_t c = 0; c < n; ++c) {
    x[c * n + c] = 1;
    for (std::size_t i = c + 1; i < n; ++i) {
      real s = 0;
      for (std::size_t k = c; k < i; ++k) s -= l[i * n + k] * x[k * n + c];
      x[i * n + c] = s;
    }
  }
  std::vector<real> g(n * n, 0);  // X^T D^+ X
  for (std::size_t k = 0; k < n; ++k) {
    if (d[k] == 0) continue;
    for (std::size_t i = 0; i <= k; ++i) {
      const real xi = x[k * n + i] / d[k];
      if (xi == 0) continue;
      for (std::size_t j = 0; j <= k; ++j) g[i * n + j] += xi * x[k * n + j];
    }
  }
  return g;
}

SparseMatrix generalized_inverse(const SparseMatrix& a, real* lowest_pivot) {
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<real> m(n * n, 0);
  for (index i = 0; i < a.rows; ++i)
    for (index k = a.offset[i]; k < a.offset[i + 1]; ++k) m[i * n + a.column[k]] += a.value[k];
  return dense(a.rows, generalized_inverse(n, std::move(m), lowest_pivot));
}

}  // namespace scfd::solvers
