// A matrix with long rows is applied as S (C x) (backend/sparse_matrix.hpp split_long_rows): the
// split holds every entry once, in CSR order, in runs of at most kRowChunk, and the cpu backend's
// products through it equal the direct row sums up to round-off.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cpu/sparse.hpp"
#include "backend/sparse_matrix.hpp"

namespace scfd::test {
namespace {

using backend::SparseMatrix;

// Rows of 0, 1, 16, 17, 64, 65, 130 and 300 entries over 400 columns.
SparseMatrix long_rows() {
  SparseMatrix a;
  a.cols = 400;
  for (const index n : {0, 1, 16, 17, 64, 65, 130, 300}) {
    for (index k = 0; k < n; ++k) {
      a.column.push_back((7 * k + 3 * a.rows) % a.cols);
      a.value.push_back(std::sin(0.1 * static_cast<real>(a.entries() + 1)));
    }
    a.offset.push_back(a.entries());
    ++a.rows;
  }
  return a;
}

TEST(SparseSplit, ShortRowsAreNotSplit) {
  SparseMatrix a = long_rows();
  a.rows = 6;  // up to 65 entries
  a.offset.resize(7);
  a.column.resize(static_cast<std::size_t>(a.offset.back()));
  a.value.resize(a.column.size());
  a.check();
  EXPECT_TRUE(backend::split_long_rows(a).has_value());  // 65 > kLongRow
  a.rows = 5;                                            // up to 64
  a.offset.resize(6);
  a.column.resize(static_cast<std::size_t>(a.offset.back()));
  a.value.resize(a.column.size());
  EXPECT_FALSE(backend::split_long_rows(a).has_value());
}

TEST(SparseSplit, ChunksHoldEveryEntryInOrder) {
  const SparseMatrix a = long_rows();
  const auto split = backend::split_long_rows(a);
  ASSERT_TRUE(split.has_value());
  const SparseMatrix &c = split->chunks, &s = split->sum;
  c.check();
  s.check();
  EXPECT_EQ(c.column, a.column);
  EXPECT_EQ(c.value, a.value);
  EXPECT_EQ(s.rows, a.rows);
  EXPECT_EQ(s.cols, c.rows);
  for (index i = 0; i < a.rows; ++i) {
    const index n = a.offset[i + 1] - a.offset[i];
    ASSERT_EQ(s.offset[i + 1] - s.offset[i], (n + backend::kRowChunk - 1) / backend::kRowChunk);
    for (index k = s.offset[i]; k < s.offset[i + 1]; ++k) {
      const index chunk = s.column[k];
      EXPECT_EQ(s.value[k], 1);
      EXPECT_LE(c.offset[chunk + 1] - c.offset[chunk], backend::kRowChunk);
      EXPECT_GE(c.offset[chunk], a.offset[i]);
      EXPECT_LE(c.offset[chunk + 1], a.offset[i + 1]);
    }
  }
}

TEST(SparseSplit, ProductsEqualTheDirectRowSums) {
  const SparseMatrix a = long_rows();
  const backend::cpu::CpuBackend be;
  const auto m = be.make_matrix(a);
  const auto n = static_cast<std::size_t>(a.cols);
  std::vector<real> x(n), b(n), z(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = std::cos(0.3 * static_cast<real>(i));
    b[i] = 1 + 0.01 * static_cast<real>(i);
    z[i] = -0.5 * static_cast<real>(i % 5);
    w[i] = 0.7;
  }
  auto fx = be.make_field_from(x), fb = be.make_field_from(b), fz = be.make_field_from(z),
       fw = be.make_field_from(w), fy = be.make_field(a.cols);
  using backend::cpu::SparseProduct;
  for (const SparseProduct kind : {SparseProduct::apply, SparseProduct::residual,
                                   SparseProduct::apply_add, SparseProduct::jacobi}) {
    std::vector<real> want(n, 0), got(n);
    backend::cpu::sparse_product(kind, a, x, b, z, w, want);
    be.fill(*fy, 0);
    switch (kind) {
      case SparseProduct::apply:
        be.matrix_apply(*m, *fx, *fy);
        break;
      case SparseProduct::residual:
        be.matrix_residual(*m, *fb, *fx, *fy, backend::Rows::all);
        break;
      case SparseProduct::apply_add:
        be.matrix_apply_add(*m, *fx, *fz, *fy);
        break;
      case SparseProduct::jacobi:
        be.matrix_jacobi(*m, *fw, *fb, *fx, *fy, backend::Rows::all);
        break;
    }
    be.download(*fy, got);
    for (index i = 0; i < a.rows; ++i)
      EXPECT_NEAR(got[i], want[i], 1e-13 * (1 + std::abs(want[i])))
          << "product " << static_cast<int>(kind) << " row " << i;
  }
}

}  // namespace
}  // namespace scfd::test
