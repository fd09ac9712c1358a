// A sparse matrix on the host in compressed sparse row form (CSR), the exchange format between
// code that assembles or coarsens a linear operator (solvers/amg.hpp, solvers/assembly.hpp) and
// the backend that stores and applies it (Backend::make_matrix).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/threads.hpp"
#include "core/types.hpp"

namespace scfd::backend {

// An allocator whose value-less construction leaves a number uninitialised, so that resize(n)
// of a matrix's arrays does not write them: at hundreds of millions of entries the zeros took
// a serial pass (and its page faults) before the host threads wrote every entry anyway. Code
// that grows a matrix's array by resize(n) must write every entry it adds.
template <class T>
struct DefaultInit : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = DefaultInit<U>;
  };
  DefaultInit() = default;
  template <class U>
  explicit DefaultInit(const DefaultInit<U>& /*unused*/) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using HostArray = std::vector<T, DefaultInit<T>>;

struct SparseMatrix {
  index rows = 0, cols = 0;
  HostArray<index> offset{0};  // rows + 1 entries: row i holds entries offset[i]..offset[i+1]
  HostArray<index> column;     // one per entry, < cols
  HostArray<real> value;       // one per entry
  // The leading rows that read no ghost (Rows::inner), where the caller knows them (the
  // operators of a mesh: Mesh::n_inner_X); -1: inner_rows() finds them.
  index inner = -1;

  index entries() const { return static_cast<index>(column.size()); }
  // Throws (SCFD_CHECK) unless the arrays describe a rows x cols matrix.
  void check() const;
};

// The rows x cols matrix of the rows `parts` hold in order (each part's offset starting at 0),
// copied on the host threads.
SparseMatrix join_rows(index rows, index cols, std::vector<SparseMatrix>& parts);

// A rows x cols matrix built row by row on the host threads (core/threads.hpp): make_row() gives
// each chunk of rows its own row builder f (with its own scratch), and f(i, column, value) appends
// row i's entries. The chunks (block_bounds: a few per thread, taken as threads become free) are
// joined in order, so the matrix does not depend on the thread count.
template <class MakeRow>
SparseMatrix rows_on_threads(index rows, index cols, const MakeRow& make_row, index grain = 2048) {
  const std::vector<index> bounds = block_bounds(rows, grain);
  std::vector<SparseMatrix> parts(bounds.size() - 1);
  for_chunks(bounds, [&](std::size_t k, index begin, index end) {
    SparseMatrix& p = parts[k];
    p.offset.reserve(static_cast<std::size_t>(end - begin) + 1);
    auto row = make_row();
    // The first 1/64 of the rows sizes the arrays for all (+ 1/16): at hundreds of MB a part
    // grown by doubling copies itself and faults in fresh pages a dozen times.
    const index probe =
        begin + std::min<index>(end - begin, std::max<index>(64, (end - begin) / 64));
    for (index i = begin; i < probe; ++i) {
      row(i, p.column, p.value);
      p.offset.push_back(p.entries());
    }
    const double per_row = static_cast<double>(p.entries()) / static_cast<double>(probe - begin);
    const auto expected =
        static_cast<std::size_t>(per_row * 1.0625 * static_cast<double>(end - begin)) + 64;
    p.column.reserve(expected);
    p.value.reserve(expected);
    for (index i = probe; i < end; ++i) {
      row(i, p.column, p.value);
      p.offset.push_back(p.entries());
    }
  });
  return join_rows(rows, cols, parts);
}

// A matrix with long rows is applied as A x = S (C x) on every backend: C ("chunks") holds each
// row's entries in runs of at most kRowChunk, one row of C per run, in CSR order, and S ("sum",
// rows x C.rows, coefficients 1) adds up a row's runs. A GPU gives each row of a product to one
// thread, so a row of hundreds of entries is one thread's serial loop: the coarse levels of a
// multigrid hierarchy (a few hundred rows of a few hundred entries) took 20-60 µs per product on
// an H200, several times their bytes at the copy bandwidth. Every backend splits alike, so their
// results still agree to the bit.
inline constexpr index kLongRow = 64;   // split when some row has more entries than this
inline constexpr index kRowChunk = 16;  // entries per run
struct RowSplit {
  SparseMatrix chunks, sum;
};
// The split of `a`, or nothing when no row is longer than kLongRow.
std::optional<RowSplit> split_long_rows(const SparseMatrix& a);

// The leading rows of `a` whose columns are all below n (for columns that number the owned
// entities first, then the ghosts, and n the owned count: the rows that read no ghost).
index leading_rows_below(const SparseMatrix& a, index n);

// The rows of `a` that Rows::inner names: a.inner where it is set, else leading_rows_below(a,
// a.rows) (for a rank-local block whose columns [0, rows) are the owned entries, the rows that
// read no ghost).
index inner_rows(const SparseMatrix& a);

}  // namespace scfd::backend
