// Jacobi-preconditioned CG (see pcg.hpp).
#include "solvers/pcg.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "core/stop.hpp"
#include "solvers/collectives.hpp"

namespace scfd::solvers {

Pcg::Pcg(const backend::Backend& backend, index n)
    : be_(backend),
      r_(backend.make_field(n)),
      z_(backend.make_field(n)),
      p_(backend.make_field(n)),
      q_(backend.make_field(n)),
      dinv_(backend.make_field(n)) {}

SolveResult Pcg::solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                       const SolveOptions& opt, bool refresh_diagonal) {
  SCFD_CHECK(a.size() == b.size() && b.size() == x.size() && x.size() == r_->size(),
             "PCG sizes: operator {}, b {}, x {}, work {}", a.size(), b.size(), x.size(),
             r_->size());
  if (refresh_diagonal) {
    a.diagonal(*z_);
    be_.reciprocal(*z_, *dinv_);
  }
  SolveResult res;
  const index n = a.owned();
  const auto [target, scale, zero_rhs] = stop_rule(be_, b, n, opt);
  if (zero_rhs) {  // the solution of A x = 0 is x = 0 (A is definite on the solved space)
    be_.fill(x, 0);
    res.message = "right-hand side is zero: x = 0";
    return res;
  }

  a.apply(x, *r_);       // r = A x
  be_.xpay(b, -1, *r_);  // r = b - A x
  be_.multiply(*dinv_, *r_, *z_);
  be_.copy(*z_, *p_);
  auto [rz, rr] = global_sum({be_.dot(*r_, *z_, n), be_.dot(*r_, *r_, n)});
  res.residual = std::sqrt(rr);

  while (true) {
    res.relative_residual = res.residual / scale;
    if (!std::isfinite(res.residual)) {
      res.status = SolveStatus::breakdown;
      res.message = fmt::format("PCG breakdown: residual is {} at iteration {}", res.residual,
                                res.iterations);
      return res;
    }
    if (res.residual <= target) {
      res.status = SolveStatus::converged;
      res.message = fmt::format("converged in {} iterations, residual {:.3e} (relative {:.3e})",
                                res.iterations, res.residual, res.relative_residual);
      return res;
    }
    if (res.iterations >= opt.max_iterations) {
      res.status = SolveStatus::max_iterations;
      res.message = fmt::format(
          "PCG did not converge in {} iterations: residual {:.3e} (relative {:.3e}) above the "
          "tolerance {:.3e}",
          res.iterations, res.residual, res.relative_residual, target);
      return res;
    }
    a.apply(*p_, *q_);
    const real pq = global_sum(be_.dot(*p_, *q_, n));
    if (!(pq > 0) || !(rz > 0)) {
      res.status = SolveStatus::breakdown;
      res.message = fmt::format(
          "PCG breakdown at iteration {}: p·Ap = {:.3e}, r·z = {:.3e} (the operator or the "
          "preconditioner is not positive definite)",
          res.iterations, pq, rz);
      return res;
    }
    const real alpha = rz / pq;
    // The stop request rides on the iteration's reduction, so every rank sees it at once.
    const auto [rz_local, rr_local] = be_.pcg_update(alpha, *p_, *q_, *dinv_, x, *r_, *z_, n);
    real sums[3] = {rz_local, rr_local, stop_requested() ? real(1) : real(0)};
    global_sum(std::span<real>(sums));
    const real rz_new = sums[0], rr_new = sums[1];
    if (sums[2] > 0) {
      res.status = SolveStatus::interrupted;
      res.message = fmt::format("stopped on request at iteration {}", res.iterations + 1);
      return res;
    }
    be_.xpay(*z_, rz_new / rz, *p_);  // p = z + beta p
    rz = rz_new;
    res.residual = std::sqrt(rr_new);
    ++res.iterations;
  }
}

}  // namespace scfd::solvers
