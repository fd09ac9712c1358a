// Restarted GMRES with its scalars on the backend (see gmres.hpp).
#include "solvers/gmres.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <span>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"
#include "solvers/pcg.hpp"
#include "solvers/scalar_sums.hpp"

namespace scfd::solvers {
namespace {

// min |beta e_1 - H y| over y, H the (j + 1) x j Hessenberg matrix of a cycle's first j columns,
// by Givens rotations applied to each column as it comes (Saad, §6.5.3): R (upper triangular)
// and g = Q^T beta e_1, whose entry j is the residual after column j.
class LeastSquares {
 public:
  LeastSquares(int m, real beta)
      : m_(m),
        c_(m),
        s_(m),
        g_(static_cast<std::size_t>(m) + 1),
        r_(static_cast<std::size_t>(m) * m) {
    g_[0] = beta;
  }
  int columns() const { return j_; }
  // |beta e_1 - H y| after the columns so far.
  real residual() const { return std::abs(g_[static_cast<std::size_t>(j_)]); }
  // Appends the next column: h_0j .. h_jj in h, h_{j+1,j} = sub (>= 0).
  void add(std::span<real> h, real sub) {
    const auto j = static_cast<std::size_t>(j_);
    for (std::size_t i = 0; i < j; ++i) {
      const real t = c_[i] * h[i] + s_[i] * h[i + 1];
      h[i + 1] = -s_[i] * h[i] + c_[i] * h[i + 1];
      h[i] = t;
    }
    const real d = std::hypot(h[j], sub);
    c_[j] = d > 0 ? h[j] / d : real(1);  // a zero column (A M^-1 v_j = 0) rotates nothing
    s_[j] = d > 0 ? sub / d : real(0);
    h[j] = d;
    g_[j + 1] = -s_[j] * g_[j];
    g_[j] = c_[j] * g_[j];
    std::copy(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(j) + 1,
              r_.begin() + static_cast<std::ptrdiff_t>(j * static_cast<std::size_t>(m_)));
    ++j_;
  }
  // y of the first j columns: R y = g by back substitution (y_i = 0 where R has a zero pivot).
  std::vector<real> solve(int j) const {
    std::vector<real> y(static_cast<std::size_t>(j));
    for (int i = j - 1; i >= 0; --i) {
      real t = g_[static_cast<std::size_t>(i)];
      for (int k = i + 1; k < j; ++k) t -= at(i, k) * y[static_cast<std::size_t>(k)];
      y[static_cast<std::size_t>(i)] = at(i, i) != 0 ? t / at(i, i) : real(0);
    }
    return y;
  }

 private:
  real at(int i, int j) const {
    return r_[static_cast<std::size_t>(j) * static_cast<std::size_t>(m_) +
              static_cast<std::size_t>(i)];
  }
  int m_, j_ = 0;
  std::vector<real> c_, s_, g_, r_;
};

}  // namespace

Gmres::Gmres(const backend::Backend& backend, index n, int restart)
    : be_(backend), device_(backend.device_info().index >= 0), m_(restart) {
  SCFD_CHECK(restart >= 1, "GMRES restart length {}", restart);
  for (int i = 0; i <= m_; ++i) v_.push_back(backend.make_field(n));
  z_ = backend.make_field(n);
  zero_ = backend.make_field(n);
  dinv_ = backend.make_field(n);
  backend.fill(*zero_, 0);
  scalars_ = backend.make_scalars(slot_count());
}

SolveResult Gmres::solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                         const SolveOptions& opt, const Preconditioner* preconditioner) {
  SCFD_CHECK(a.size() == b.size() && b.size() == x.size() && x.size() == z_->size(),
             "GMRES sizes: operator {}, b {}, x {}, work {}", a.size(), b.size(), x.size(),
             z_->size());
  const RightPreconditioner precondition(be_, a, preconditioner, *z_, *dinv_);
  SolveResult res;
  const index n = a.owned();
  const StopRule rule = stop_rule(be_, b, n, opt);
  real target = rule.target;  // raised by the initial tolerance once |r_0| is known
  if (rule.zero_rhs) {
    be_.fill(x, 0);
    res.message = "right-hand side is zero: x = 0";
    return res;
  }
  const bool ranks = world_size() > 1;
  std::vector<real> sv(static_cast<std::size_t>(slot_count()));
  std::vector<const backend::Field*> basis;
  for (const auto& v : v_) basis.push_back(v.get());
  std::vector<index> column;  // several ranks: the slots of a Hessenberg column
  const auto finish = [&](SolveStatus status, std::string message) {
    res.status = status;
    res.relative_residual = res.residual / rule.scale;
    res.message = std::move(message);
    return res;
  };
  const auto interrupted = [&](int k) {
    res.iterations = k;
    return finish(SolveStatus::interrupted, fmt::format("stopped on request at iteration {}", k));
  };
  // x = x + M^-1 V y, y the least-squares solution of the cycle's first j columns; the slots in
  // sv must be the backend's (just read), as all of them are written back with y.
  const auto update = [&](const LeastSquares& ls, int j) {
    if (j == 0) return;
    const std::vector<real> y = ls.solve(j);
    std::copy(y.begin(), y.end(), sv.begin() + slot_y(0));
    be_.write_scalars(sv, *scalars_);
    backend::Field& u = *v_[static_cast<std::size_t>(j)];  // no longer needed
    be_.fill(u, 0);
    be_.axpys(*scalars_, slot_y(0), 1, std::span(basis.data(), static_cast<std::size_t>(j)), u);
    precondition(u, *z_);
    be_.axpy(1, *z_, x);
  };

  int k = 0;  // products with A, over all cycles
  int next_check = 0, k_prev = -1;
  real residual_prev = 0;
  bool started = false;
  for (;;) {
    // v_0 = r / |r|, r = b - A x; |r|^2 stays in its slot for the host's next check.
    backend::Field& v0 = *v_[0];
    a.apply(x, v0);
    be_.xpay(b, -1, v0);
    be_.dot(v0, v0, n, *scalars_, slot_rr());
    if (ranks && sum_slots_over_ranks(be_, *scalars_, sv, {slot_rr()})) return interrupted(k);
    be_.xpay(*zero_, *scalars_, {.slot = slot_rr(), .inverse_sqrt = true}, v0);
    std::unique_ptr<LeastSquares> ls;
    for (int j = 0;; ++j) {  // column j of this cycle
      if (ranks || k == next_check || j == m_ || k >= opt.max_iterations) {
        if (!ranks) be_.read_scalars(*scalars_, sv);
        if (!ls) {
          const real beta = std::sqrt(sv[static_cast<std::size_t>(slot_rr())]);
          ls = std::make_unique<LeastSquares>(m_, beta);
          if (!started) target = rule.start(beta, opt);
          started = true;
        }
        // The columns since the last check, up to the first that meets the tolerance.
        std::vector<real> h(static_cast<std::size_t>(m_) + 1);
        while (ls->columns() < j && !(ls->residual() <= target)) {
          const int c = ls->columns();
          for (int i = 0; i <= c; ++i)
            h[static_cast<std::size_t>(i)] = sv[static_cast<std::size_t>(slot_h(i, c))];
          ls->add(h, std::sqrt(sv[static_cast<std::size_t>(slot_norm(c))]));
        }
        res.residual = ls->residual();
        res.iterations = k - j + ls->columns();
        if (!std::isfinite(res.residual))
          return finish(SolveStatus::breakdown,
                        fmt::format("GMRES breakdown: residual is {} at iteration {}", res.residual,
                                    res.iterations));
        if (res.residual <= target) {
          update(*ls, ls->columns());
          last_iterations_ = res.iterations;
          return finish(SolveStatus::converged,
                        fmt::format("converged in {} iterations, residual {:.3e}", res.iterations,
                                    res.residual));
        }
        if (k >= opt.max_iterations) {
          update(*ls, j);
          return finish(SolveStatus::max_iterations,
                        fmt::format("GMRES did not converge in {} iterations: residual {:.3e} "
                                    "(relative {:.3e}) above the tolerance {:.3e}",
                                    k, res.residual, res.residual / rule.scale, target));
        }
        if (j == m_) {  // restart from the residual of the cycle's x
          update(*ls, j);
          ++res.restarts;
          break;
        }
        const int interval = next_check_interval(opt.check_every, device_, k, res.residual, k_prev,
                                                 residual_prev, target, last_iterations_);
        next_check = std::min(k + interval, opt.max_iterations);
        k_prev = k;
        residual_prev = res.residual;
      }
      if (!ranks && stop_requested()) return interrupted(k);
      // w = A M^-1 v_j into v_{j+1}; w -= V h (classical Gram-Schmidt); v_{j+1} = w / |w|.
      const auto ju = static_cast<std::size_t>(j);
      backend::Field& w = *v_[ju + 1];
      precondition(*v_[ju], *z_);
      a.apply(*z_, w);
      const std::span<const backend::Field* const> vs(basis.data(), ju + 1);
      be_.dots(vs, w, n, *scalars_, slot_h(0, j));
      if (ranks) {
        column.clear();
        for (int i = 0; i <= j; ++i) column.push_back(slot_h(i, j));
        sum_slots_over_ranks(be_, *scalars_, sv, column);
      }
      be_.axpys(*scalars_, slot_h(0, j), -1, vs, w);
      be_.dot(w, w, n, *scalars_, slot_norm(j));
      if (ranks && sum_slots_over_ranks(be_, *scalars_, sv, {slot_norm(j)})) return interrupted(k);
      be_.xpay(*zero_, *scalars_, {.slot = slot_norm(j), .inverse_sqrt = true}, w);
      ++k;
    }
  }
}

}  // namespace scfd::solvers
