// Sparse matrix products on host arrays (see sparse.hpp).
#include "backend/cpu/sparse.hpp"

#include "backend/cpu/checks.hpp"

namespace scfd::backend::cpu {

void sparse_product(SparseProduct kind, const SparseMatrix& a, std::span<const real> x,
                    std::span<const real> b, std::span<const real> z, std::span<const real> w,
                    std::span<real> y, std::span<const real> x0, RowRange part) {
  if (x0.empty()) x0 = x;
  const auto rows = static_cast<std::size_t>(a.rows);
  SCFD_CHECK(x.size() >= static_cast<std::size_t>(a.cols) && y.size() >= rows,
             "sparse product of {} x {}: x of {}, y of {}", a.rows, a.cols, x.size(), y.size());
  SCFD_CHECK(disjoint(y, x) && disjoint(y, x0), "sparse product: y aliases x");
  const bool reads_b = kind == SparseProduct::residual || kind == SparseProduct::jacobi;
  SCFD_CHECK(!reads_b || b.size() >= rows, "sparse product: b of {} for {} rows", b.size(), rows);
  SCFD_CHECK(kind != SparseProduct::apply_add || (z.size() >= rows && disjoint(y, z)),
             "sparse product: z of {} for {} rows, or y aliases z", z.size(), rows);
  SCFD_CHECK(kind != SparseProduct::jacobi || (w.size() >= rows && x0.size() >= rows),
             "sparse product: w of {} and x0 of {} for {} rows", w.size(), x0.size(), rows);
  for (index i = part.begin; i < part.stop(a.rows); ++i) {
    real s = 0;
    for (index k = a.offset[i]; k < a.offset[i + 1]; ++k) s += a.value[k] * x[a.column[k]];
    switch (kind) {
      case SparseProduct::apply:
        y[i] = s;
        break;
      case SparseProduct::residual:
        y[i] = b[i] - s;
        break;
      case SparseProduct::apply_add:
        y[i] = z[i] + s;
        break;
      case SparseProduct::jacobi:
        y[i] = x0[i] + w[i] * (b[i] - s);
        break;
    }
  }
}

}  // namespace scfd::backend::cpu
