// Jacobi-preconditioned BiCGStab (see bicgstab.hpp).
#include "solvers/bicgstab.hpp"

#include <fmt/format.h>

#include <cmath>
#include <span>

#include "core/error.hpp"
#include "core/stop.hpp"
#include "solvers/collectives.hpp"

namespace scfd::solvers {

BiCgStab::BiCgStab(const backend::Backend& backend, index n) : be_(backend) {
  for (auto* f : {&r_, &r0_, &p_, &v_, &s_, &t_, &p_hat_, &s_hat_, &dinv_})
    *f = backend.make_field(n);
}

SolveResult BiCgStab::solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                            const SolveOptions& opt) {
  SCFD_CHECK(a.size() == b.size() && b.size() == x.size() && x.size() == r_->size(),
             "BiCGStab sizes: operator {}, b {}, x {}, work {}", a.size(), b.size(), x.size(),
             r_->size());
  a.diagonal(*t_);
  be_.reciprocal(*t_, *dinv_);
  SolveResult res;
  const index n = a.owned();
  const auto [target, scale, zero_rhs] = stop_rule(be_, b, n, opt);
  if (zero_rhs) {
    be_.fill(x, 0);
    res.message = "right-hand side is zero: x = 0";
    return res;
  }
  a.apply(x, *r_);
  be_.xpay(b, -1, *r_);  // r = b - A x
  be_.copy(*r_, *r0_);   // the shadow residual
  be_.fill(*p_, 0);
  be_.fill(*v_, 0);
  real rho_old = 1, alpha = 1, omega = 1;
  const auto finish = [&](SolveStatus status, std::string message) {
    res.status = status;
    res.relative_residual = res.residual / scale;
    res.message = std::move(message);
    return res;
  };
  for (;;) {
    const auto [rho, rr] = global_sum({be_.dot(*r0_, *r_, n), be_.dot(*r_, *r_, n)});
    res.residual = std::sqrt(rr);
    if (!std::isfinite(res.residual))
      return finish(SolveStatus::breakdown,
                    fmt::format("BiCGStab breakdown: residual is {} at iteration {}", res.residual,
                                res.iterations));
    if (res.residual <= target)
      return finish(
          SolveStatus::converged,
          fmt::format("converged in {} iterations, residual {:.3e}", res.iterations, res.residual));
    if (res.iterations >= opt.max_iterations)
      return finish(SolveStatus::max_iterations,
                    fmt::format("BiCGStab did not converge in {} iterations: residual {:.3e} "
                                "(relative {:.3e}) above the tolerance {:.3e}",
                                res.iterations, res.residual, res.residual / scale, target));
    if (rho == 0 || omega == 0)
      return finish(SolveStatus::breakdown,
                    fmt::format("BiCGStab breakdown at iteration {} (rho = {:.3e}, omega = {:.3e})",
                                res.iterations, rho, omega));
    const real beta = (rho / rho_old) * (alpha / omega);
    be_.axpy(-omega, *v_, *p_);
    be_.xpay(*r_, beta, *p_);  // p = r + beta (p - omega v)
    be_.multiply(*dinv_, *p_, *p_hat_);
    a.apply(*p_hat_, *v_);
    const real r0v = global_sum(be_.dot(*r0_, *v_, n));
    if (!(std::abs(r0v) > 0))
      return finish(
          SolveStatus::breakdown,
          fmt::format("BiCGStab breakdown at iteration {}: r0·v = {:.3e}", res.iterations, r0v));
    alpha = rho / r0v;
    be_.copy(*r_, *s_);
    be_.axpy(-alpha, *v_, *s_);  // s = r - alpha v
    be_.multiply(*dinv_, *s_, *s_hat_);
    a.apply(*s_hat_, *t_);
    // (t·s, t·t) and the stop request in one message: every rank stops at the same iteration.
    real sums[3] = {be_.dot(*t_, *s_, n), be_.dot(*t_, *t_, n),
                    stop_requested() ? real(1) : real(0)};
    global_sum(std::span<real>(sums));
    if (sums[2] > 0)
      return finish(SolveStatus::interrupted,
                    fmt::format("stopped on request at iteration {}", res.iterations + 1));
    omega = sums[1] > 0 ? sums[0] / sums[1] : 0;
    be_.axpy(alpha, *p_hat_, x);
    be_.axpy(omega, *s_hat_, x);
    be_.copy(*s_, *r_);
    be_.axpy(-omega, *t_, *r_);  // r = s - omega t
    rho_old = rho;
    ++res.iterations;
  }
}

}  // namespace scfd::solvers
