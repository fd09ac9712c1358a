// Fischer's projection onto earlier solutions (see projection.hpp).
#include "solvers/projection.hpp"

#include <cmath>
#include <span>

#include "core/collectives.hpp"
#include "core/error.hpp"

namespace scfd::solvers {

using backend::Field;

SolutionProjection::SolutionProjection(const backend::Backend& be, index n, index n_owned,
                                       int capacity)
    : be_(be),
      n_owned_(n_owned),
      guess_(be.make_field(n)),
      work_(be.make_field(n)),
      product_(be.make_field(n)),
      slots_(be.make_scalars(capacity + 1)),
      values_(static_cast<std::size_t>(capacity + 1)),
      drop_(be.precision() == "fp32" ? 1e-5 : 1e-10) {
  SCFD_CHECK(capacity >= 3, "a solution projection keeps at least 3 vectors, not {}", capacity);
  for (int k = 0; k < capacity; ++k) basis_.push_back(be.make_field(n));
  for (int k = 0; k < 2; ++k) earlier_.push_back(be.make_field(n));
}

void SolutionProjection::dots(const std::vector<const Field*>& xs, const Field& y) {
  for (std::size_t k = 0; k < xs.size(); ++k)
    be_.dot(*xs[k], y, n_owned_, *slots_, static_cast<index>(k));
  be_.read_scalars(*slots_, values_);
  global_sum(std::span<real>(values_.data(), xs.size()));
}

void SolutionProjection::guess(const Field& b, Field& x) {
  guessed_ = size_ > 0;
  if (!guessed_) return;
  std::vector<const Field*> q;
  for (int k = 0; k < size_; ++k) q.push_back(&basis(k));
  dots(q, b);
  be_.scale(values_[0], *q[0], x);
  for (int k = 1; k < size_; ++k) be_.axpy(values_[static_cast<std::size_t>(k)], *q[k], x);
  be_.copy(x, *guess_);
}

void SolutionProjection::add(const LinearOperator& a, const Field& x) {
  const bool full = size_ == capacity();
  if (full) {  // start again from x^(n-2), x^(n-1) and x
    size_ = 0;
    for (int k = 1; k >= 0; --k) {
      be_.copy(earlier(k), *work_);
      append(a);
    }
  }
  be_.copy(earlier(0), earlier(1));
  be_.copy(x, earlier(0));
  // the correction x - guess (x itself when the guess was not the basis')
  be_.copy(x, *work_);
  if (guessed_ && !full) be_.axpy(-1, *guess_, *work_);
  guessed_ = false;
  append(a);
}

void SolutionProjection::append(const LinearOperator& a) {
  a.apply(*work_, *product_);
  // beta_k = q_k . A d; |d - sum beta_k q_k|_A^2 = d . A d - sum beta_k^2 (q A-orthonormal)
  std::vector<const Field*> q;
  for (int k = 0; k < size_; ++k) q.push_back(&basis(k));
  q.push_back(work_.get());
  dots(q, *product_);
  const real dad = values_[static_cast<std::size_t>(size_)];
  real norm2 = dad;
  for (int k = 0; k < size_; ++k)
    norm2 -= values_[static_cast<std::size_t>(k)] * values_[static_cast<std::size_t>(k)];
  if (!(dad > 0) || !(norm2 > drop_ * dad)) return;
  Field& next = basis(size_);
  be_.copy(*work_, next);
  for (int k = 0; k < size_; ++k)
    be_.axpy(-values_[static_cast<std::size_t>(k)], *q[static_cast<std::size_t>(k)], next);
  be_.scale(1 / std::sqrt(norm2), next, next);
  ++size_;
}

}  // namespace scfd::solvers
