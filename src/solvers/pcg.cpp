// Jacobi-preconditioned CG (see pcg.hpp).
#include "solvers/pcg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"

namespace scfd::solvers {
namespace {

using S = backend::PcgSlots;
using Values = std::array<real, S::count>;

constexpr int kFirstInterval = 8;
constexpr int kMaxInterval = 64;

// At a check at iteration k with res.residual set: whether the solve ends there (a residual that
// is not finite, the tolerance met, the iterations spent), with res's status and message.
bool ends_here(int k, real target, int max_iterations, SolveResult& res) {
  if (!std::isfinite(res.residual)) {
    res.status = SolveStatus::breakdown;
    res.message = fmt::format("PCG breakdown: residual is {} at iteration {}", res.residual, k);
  } else if (res.residual <= target) {
    res.status = SolveStatus::converged;
    res.message = fmt::format("converged in {} iterations, residual {:.3e} (relative {:.3e})", k,
                              res.residual, res.relative_residual);
  } else if (k >= max_iterations) {
    res.status = SolveStatus::max_iterations;
    res.message = fmt::format(
        "PCG did not converge in {} iterations: residual {:.3e} (relative {:.3e}) above the "
        "tolerance {:.3e}",
        k, res.residual, res.relative_residual, target);
  } else {
    return false;
  }
  return true;
}

}  // namespace

int next_check_interval(int check_every, bool device, int k, real residual, int k_prev,
                        real residual_prev, real target, int expected) {
  if (check_every > 0) return check_every;
  if (!device) return 1;
  if (k_prev < 0 && expected > 0) return std::clamp(expected - 1, 1, kFirstInterval);
  if (k_prev < 0 || !(residual > target) || !(target > 0)) return kFirstInterval;
  // A residual that rose since the last check (BiCGStab's does, for an iteration or two) gives
  // no rate: check again after the next iteration. 8 had let a stream solve of the 289k-tet
  // cavity that converged at iteration 11 run to 18 (docs/methods.md).
  if (!(residual < residual_prev)) return 1;
  const real rate = std::log(residual_prev / residual) / (k - k_prev);  // per iteration
  const real needed = std::log(residual / target) / rate;
  // No more iterations than the solve has done: a rate taken over a stall (BiCGStab's residual
  // can stand still for a few iterations before it falls) predicted 64 where 10 were left, and
  // ns-exact's stream solve ran to 1e-50 (51 iterations instead of 14).
  const int cap = std::min(kMaxInterval, std::max(kFirstInterval, k));
  return static_cast<int>(std::clamp(std::floor(needed / 2), real(1), real(cap)));
}

Pcg::Pcg(const backend::Backend& backend, index n)
    : be_(backend),
      device_(backend.device_info().index >= 0),
      r_(backend.make_field(n)),
      z_(backend.make_field(n)),
      p_(backend.make_field(n)),
      q_(backend.make_field(n)),
      dinv_(backend.make_field(n)),
      s_(backend.make_scalars(S::count)) {
  if (world_size() > 1) w_ = backend.make_field(n);
}

SolveResult Pcg::solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                       const SolveOptions& opt, bool refresh_diagonal, const Preconditioner* m) {
  SCFD_CHECK(a.size() == b.size() && b.size() == x.size() && x.size() == r_->size(),
             "PCG sizes: operator {}, b {}, x {}, work {}", a.size(), b.size(), x.size(),
             r_->size());
  if (m == nullptr && refresh_diagonal) {
    a.diagonal(*z_);
    be_.reciprocal(*z_, *dinv_);
  }
  SolveResult res;
  const index n = a.owned();
  const StopRule rule = stop_rule(be_, b, n, opt);
  const real scale = rule.scale;
  real target = rule.target;  // raised by the initial tolerance at iteration 0
  if (rule.zero_rhs) {  // the solution of A x = 0 is x = 0 (A is definite on the solved space)
    be_.fill(x, 0);
    res.message = "right-hand side is zero: x = 0";
    return res;
  }
  if (w_) return solve_ranks(a, b, x, opt, m, rule);

  a.apply(x, *r_);       // r = A x
  be_.xpay(b, -1, *r_);  // r = b - A x
  if (m != nullptr)
    m->apply(*r_, *z_);
  else
    be_.multiply(*dinv_, *r_, *z_);
  be_.copy(*z_, *p_);
  Values v{};
  be_.write_scalars(v, *s_);  // no breakdown recorded
  be_.dot(*r_, *z_, n, *s_, S::rz_before(0));
  be_.dot(*r_, *r_, n, *s_, S::rr);

  int next_check = 0, k_prev = -1;
  real residual_prev = 0;
  for (int k = 0;; ++k) {
    if (k == next_check) {
      be_.read_scalars(*s_, v);
      if (v[S::breakdown] > 0) {
        res.status = SolveStatus::breakdown;
        res.iterations = static_cast<int>(v[S::breakdown]) - 1;
        res.residual = std::sqrt(v[S::rr]);
        res.relative_residual = res.residual / scale;
        res.message = fmt::format(
            "PCG breakdown at iteration {}: p·Ap = {:.3e}, r·z = {:.3e} (the operator or the "
            "preconditioner is not positive definite)",
            res.iterations, v[S::breakdown_pq], v[S::breakdown_rz]);
        return res;
      }
      res.iterations = k;
      res.residual = std::sqrt(v[S::rr]);
      res.relative_residual = res.residual / scale;
      if (k == 0) target = rule.start(res.residual, opt);
      if (ends_here(k, target, opt.max_iterations, res)) {
        if (res.status == SolveStatus::converged) last_iterations_ = k;
        return res;
      }
      const int interval = next_check_interval(opt.check_every, device_, k, res.residual, k_prev,
                                               residual_prev, target, last_iterations_);
      next_check = std::min(k + interval, opt.max_iterations);
      k_prev = k;
      residual_prev = res.residual;
    }
    if (stop_requested()) {
      res.status = SolveStatus::interrupted;
      res.message = fmt::format("stopped on request at iteration {}", k);
      return res;
    }
    a.apply(*p_, *q_);
    be_.dot(*p_, *q_, n, *s_, S::pq);
    be_.pcg_update(k, *s_, *p_, *q_, *dinv_, x, *r_, *z_, n);
    if (m != nullptr) {  // the update's z = dinv .* r and r·z are replaced
      m->apply(*r_, *z_);
      be_.dot(*r_, *z_, n, *s_, S::rz_after(k));
    }
    be_.pcg_direction(k, *s_, *z_, *p_);
  }
}

// Chronopoulos & Gear, "s-step iterative methods for symmetric linear systems", J. Comput. Appl.
// Math. 25 (1989) 153-168: the iterates of PCG in exact arithmetic, with the recurrence
// q = A p = w + beta q (w = A z) in place of a product, so r·z, z·w and r·r of an iteration are
// one sum over the ranks instead of two, and alpha = r·z / (z·w - beta r·z / alpha_prev), beta =
// r·z / r·z_prev are formed on the host, which has the sums. One more vector (w). The vector
// updates (and with Jacobi the next z, r·z and r·r) are one pass, Backend::pcg_ranks_update: an
// iteration is then the product, one dot (two with another preconditioner) and that pass.
SolveResult Pcg::solve_ranks(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                             const SolveOptions& opt, const Preconditioner* m,
                             const StopRule& rule) {
  const real scale = rule.scale;
  real target = rule.target;
  constexpr index kRz = 0, kZw = 1, kRr = 2;  // this iteration's slots of s_
  static_assert(kZw == kRz + 1);
  const index n = a.owned();
  a.apply(x, *r_);       // r = A x
  be_.xpay(b, -1, *r_);  // r = b - A x
  // With Jacobi, z = dinv .* r and r·z come with r's update (Backend::pcg_ranks_update).
  const backend::Field* jacobi = m == nullptr ? dinv_.get() : nullptr;
  if (jacobi != nullptr) {
    be_.multiply(*dinv_, *r_, *z_);
    be_.dot(*r_, *z_, n, *s_, kRz);
  }
  be_.dot(*r_, *r_, n, *s_, kRr);
  SolveResult res;
  Values v{};
  real rz_prev = 0, alpha_prev = 0;
  for (int k = 0;; ++k) {
    if (m != nullptr) m->apply(*r_, *z_);
    a.apply(*z_, *w_);
    if (m != nullptr) {
      const std::array<const backend::Field*, 2> rw{r_.get(), w_.get()};
      be_.dots(rw, *z_, n, *s_, kRz);  // r·z and w·z in one pass (kZw = kRz + 1)
    } else {
      be_.dot(*w_, *z_, n, *s_, kZw);
    }
    be_.read_scalars(*s_, v);
    std::array<real, 4> sums{v[kRz], v[kZw], v[kRr], stop_requested() ? real(1) : real(0)};
    global_sum(sums);
    const auto [rz, zw, rr, stop] = sums;
    res.iterations = k;
    res.residual = std::sqrt(rr);
    res.relative_residual = res.residual / scale;
    if (k == 0) target = rule.start(res.residual, opt);
    if (ends_here(k, target, opt.max_iterations, res)) return res;
    if (stop > 0) {
      res.status = SolveStatus::interrupted;
      res.message = fmt::format("stopped on request at iteration {}", k);
      return res;
    }
    const real beta = k == 0 ? 0 : rz / rz_prev;
    const real pq = k == 0 ? zw : zw - beta * rz / alpha_prev;  // p·A p
    if (!(rz > 0) || !(pq > 0)) {
      res.status = SolveStatus::breakdown;
      res.message = fmt::format(
          "PCG breakdown at iteration {}: p·Ap = {:.3e}, r·z = {:.3e} (the operator or the "
          "preconditioner is not positive definite)",
          k, pq, rz);
      return res;
    }
    const real alpha = rz / pq;
    // p = z + beta p, q = A p = w + beta q, x += alpha p, r -= alpha q (and with Jacobi the next
    // z and r·z), r·r: one pass on a GPU.
    be_.pcg_ranks_update(alpha, beta, k == 0, *w_, jacobi, *z_, *p_, *q_, x, *r_, n, *s_, kRz, kRr);
    rz_prev = rz;
    alpha_prev = alpha;
  }
}

}  // namespace scfd::solvers
