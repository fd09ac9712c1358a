// The least-residual combination of earlier solutions (see residual_projection.hpp).
#include "solvers/residual_projection.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

#include "core/collectives.hpp"
#include "core/error.hpp"

namespace scfd::solvers {

using backend::Field;

ResidualProjection::ResidualProjection(const backend::Backend& be, index n, index n_owned,
                                       int capacity, real worth)
    : be_(be),
      n_owned_(n_owned),
      // the Gram matrix's upper triangle by columns, then W^T r_e, r_e . r_e and b . b
      slots_(be.make_scalars(capacity * (capacity + 1) / 2 + capacity + 2)),
      values_(static_cast<std::size_t>(capacity * (capacity + 1) / 2 + capacity + 2)),
      drop_(be.precision() == "fp32" ? 1e-6 : 1e-12),
      worth_(worth) {
  SCFD_CHECK(capacity >= 3, "a residual projection keeps at least 3 solutions, not {}", capacity);
  for (int k = 0; k < capacity; ++k) {
    solutions_.push_back(be.make_field(n));
    images_.push_back(be.make_field(n));
  }
  residual_ = be.make_field(n);
}

std::size_t ResidualProjection::slot(int k) const {
  const int c = capacity();
  return static_cast<std::size_t>(((newest_ - k) % c + c) % c);
}

bool ResidualProjection::guess(const Field& b, std::span<const real> base, Field& x) {
  const int k = size_;
  base_residual_ = promised_residual_ = 0;
  corrected_ = false;
  if (!active_ || k < 2 || base.empty() || std::cmp_greater(base.size(), k)) return false;
  std::vector<const Field*> w;
  for (int i = 0; i < k; ++i) w.push_back(images_[slot(i)].get());
  // r_e by the kept images, as a vector: the correction's right-hand side W^T r_e is its dots,
  // free of the cancellation in W^T b - G e.
  be_.copy(b, *residual_);
  for (std::size_t i = 0; i < base.size(); ++i) be_.axpy(-base[i], *w[i], *residual_);
  // Column j of the Gram matrix's upper triangle (w_i . w_j, i <= j) at j (j + 1) / 2 + i, then
  // w_i . r_e at k (k + 1) / 2 + i, then r_e . r_e and b . b: one read-back for all.
  for (int j = 0; j < k; ++j)
    be_.dots(std::span<const Field* const>(w.data(), static_cast<std::size_t>(j) + 1), *w[j],
             n_owned_, *slots_, j * (j + 1) / 2);
  const index rhs = index{k} * (k + 1) / 2;
  be_.dots(std::span<const Field* const>(w.data(), w.size()), *residual_, n_owned_, *slots_, rhs);
  be_.dot(*residual_, *residual_, n_owned_, *slots_, rhs + k);
  be_.dot(b, b, n_owned_, *slots_, rhs + k + 1);
  be_.read_scalars(*slots_, values_);
  const index summed = rhs + k + 2;
  global_sum(std::span<real>(values_.data(), static_cast<std::size_t>(summed)));
  const auto value = [&](index slot) { return values_[static_cast<std::size_t>(slot)]; };
  const auto gram = [&](index i, index j) {
    return value(i <= j ? j * (j + 1) / 2 + i : i * (i + 1) / 2 + j);
  };
  const real rr = value(rhs + k);
  base_residual_ = promised_residual_ = std::sqrt(std::max(rr, real(0)));
  if (!(base_residual_ >= worth_ * std::sqrt(value(rhs + k + 1)))) {
    ++declined_;  // the caller's guess leaves a solve of few iterations
    return false;
  }
  // Cholesky G = L L^T, newest first; a vector whose pivot is round-off of its diagonal entry
  // (its image in the span of the newer ones) is left out: its row and column of L are 0.
  const auto nk = static_cast<std::size_t>(k);
  std::vector<real> l(nk * nk, 0);
  std::vector<bool> kept(nk, false);
  const auto at = [&](int i, int j) -> real& {
    return l[static_cast<std::size_t>(i) * nk + static_cast<std::size_t>(j)];
  };
  for (int j = 0; j < k; ++j) {
    real d = gram(j, j);
    for (int p = 0; p < j; ++p) d -= at(j, p) * at(j, p);
    if (!(d > drop_ * gram(j, j))) continue;
    kept[static_cast<std::size_t>(j)] = true;
    at(j, j) = std::sqrt(d);
    for (int i = j + 1; i < k; ++i) {
      real s = gram(i, j);
      for (int p = 0; p < j; ++p) s -= at(i, p) * at(j, p);
      at(i, j) = s / at(j, j);
    }
  }
  // L y = W^T r_e, L^T d = y over the kept vectors; |r_e - W d|^2 = |r_e|^2 - |y|^2.
  std::vector<real> d(nk, 0);
  real yy = 0;
  for (int i = 0; i < k; ++i) {
    if (!kept[static_cast<std::size_t>(i)]) continue;
    real s = value(rhs + i);
    for (int p = 0; p < i; ++p) s -= at(i, p) * d[static_cast<std::size_t>(p)];
    d[static_cast<std::size_t>(i)] = s / at(i, i);
    yy += d[static_cast<std::size_t>(i)] * d[static_cast<std::size_t>(i)];
  }
  for (int i = k; i-- > 0;) {
    if (!kept[static_cast<std::size_t>(i)]) continue;
    real s = d[static_cast<std::size_t>(i)];
    for (int p = i + 1; p < k; ++p) s -= at(p, i) * d[static_cast<std::size_t>(p)];
    d[static_cast<std::size_t>(i)] = s / at(i, i);
  }
  bool finite = std::isfinite(yy);
  for (const real v : d) finite = finite && std::isfinite(v);
  if (!finite) {
    ++declined_;
    return false;
  }
  declined_ = 0;
  corrected_ = true;
  promised_residual_ = std::sqrt(std::max(rr - yy, real(0)));
  for (int i = 0; i < k; ++i)
    if (kept[static_cast<std::size_t>(i)])
      be_.axpy(d[static_cast<std::size_t>(i)], *solutions_[slot(i)], x);
  return true;
}

void ResidualProjection::solved(const LinearOperator& a, const Field& x, int iterations) {
  if (!corrected_) {
    uncorrected_iterations_ = iterations;
  } else if (iterations < uncorrected_iterations_) {
    failed_ = 0;
  } else if (++failed_ >= kFailures) {
    retired_ = true;  // corrections that do not pay on this flow: the extrapolation from now on
  }
  corrected_ = false;
  if (retired_) {
    clear();
    return;
  }
  if (iterations >= kStartIterations) active_ = true;
  if (active_ && declined_ >= kDeclines) clear();
  if (!active_) return;
  newest_ = (newest_ + 1) % capacity();
  size_ = std::min(size_ + 1, capacity());
  Field& kept = *solutions_[slot(0)];
  be_.copy(x, kept);
  a.apply(kept, *images_[slot(0)]);
}

void ResidualProjection::clear() {
  size_ = 0;
  active_ = false;
  declined_ = 0;
}

}  // namespace scfd::solvers
