// BiCGStab with its scalars on the backend (see bicgstab.hpp).
#include "solvers/bicgstab.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"
#include "solvers/pcg.hpp"
#include "solvers/scalar_sums.hpp"

namespace scfd::solvers {
namespace {

using S = backend::BicgstabSlots;
using Values = std::array<real, S::count>;

real omega_of(const Values& v) {
  return v[S::tt] > 0 ? v[S::ts] / v[S::tt] : real(0);
}

// The shadow residual is restarted (r0 = r) when r0·r falls below this fraction of |r0| |r|:
// the two are orthogonal to rounding, so alpha and beta are rounding noise. On ns-exact's
// streamfunction system rho reaches 1e-14 |r0| |r| within 50 iterations (the first residual is
// dominated by rows the first iterations settle) and the textbook loop then crawls, or breaks
// down on a GPU whose reductions round differently.
constexpr real restart_fraction = 1e-10;

// Values of the scalars at the start and after a restart: rho_{k-1} = alpha_{k-1} = omega_{k-1}
// = 1 and p = v = 0, so that iteration k's direction is p = r; rho_k = r0·r = r·r.
void set_start_values(Values& sv, int k) {
  sv[S::rho_before(k)] = sv[S::r0v] = sv[S::ts] = sv[S::tt] = 1;
  sv[S::rho_now(k)] = sv[S::rr];
}

// Several ranks: after the sum of t·s, t·t, r0·s, r0·t and s·s (this iteration's s and t, r the
// next one's: r = s - omega t), the next iteration's r0·r = r0·s - omega r0·t and r·r = s·s -
// omega t·s (omega = t·s / t·t), written into their slots. False, and nothing written, where
// either loses more than 6 digits to cancellation (r·r below 1e-6 s·s: a step that removed most of
// s; r0·r likewise): those are then summed as usual.
bool derive_next(int k, Values& sv) {
  const real omega = omega_of(sv);
  const real rr = sv[S::ss] - omega * sv[S::ts];
  const real rho = sv[S::r0s] - omega * sv[S::r0t];
  constexpr real kKept = 1e-6;
  if (!(rr > kKept * sv[S::ss]) ||
      !(std::abs(rho) > kKept * (std::abs(sv[S::r0s]) + std::abs(omega * sv[S::r0t]))))
    return false;
  sv[S::rr] = rr;
  sv[S::rho_now(k + 1)] = rho;
  return true;
}

}  // namespace

BiCgStab::BiCgStab(const backend::Backend& backend, index n)
    : be_(backend),
      device_(backend.device_info().index >= 0),
      scalars_(backend.make_scalars(S::count)) {
  for (auto* f : {&r_, &r0_, &p_, &v_, &s_, &t_, &p_hat_, &s_hat_, &dinv_})
    *f = backend.make_field(n);
}

SolveResult BiCgStab::solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                            const SolveOptions& opt, const Preconditioner* preconditioner) {
  SCFD_CHECK(a.size() == b.size() && b.size() == x.size() && x.size() == r_->size(),
             "BiCGStab sizes: operator {}, b {}, x {}, work {}", a.size(), b.size(), x.size(),
             r_->size());
  const RightPreconditioner precondition(be_, a, preconditioner, *t_, *dinv_);
  SolveResult res;
  const index n = a.owned();
  const StopRule rule = stop_rule(be_, b, n, opt);
  real target = rule.target;  // raised by the initial tolerance at iteration 0
  const real scale = rule.scale;
  if (rule.zero_rhs) {
    be_.fill(x, 0);
    res.message = "right-hand side is zero: x = 0";
    return res;
  }
  const bool ranks = world_size() > 1;
  a.apply(x, *r_);
  be_.xpay(b, -1, *r_);  // r = b - A x
  // Iteration k starts over from the current r: shadow residual r0 = r, direction p = r.
  Values sv{};
  real r0_norm = 0;       // |r0| = |r| at the last restart ...
  int restarted_at = -1;  // ... which was at this iteration
  const auto restart = [&](int k) {
    be_.copy(*r_, *r0_);
    be_.fill(*p_, 0);
    be_.fill(*v_, 0);
    set_start_values(sv, k);
    be_.write_scalars(sv, *scalars_);
    r0_norm = std::sqrt(sv[S::rr]);
    restarted_at = k;
  };
  const auto finish = [&](SolveStatus status, std::string message) {
    res.status = status;
    res.relative_residual = res.residual / scale;
    res.message = std::move(message);
    return res;
  };
  int next_check = 0, k_prev = -1;
  real residual_prev = 0;
  bool derived = false;  // several ranks: r0·r and r·r of this iteration came with the last sum
  for (int k = 0;; ++k) {
    if (!derived) {
      if (k > 0) be_.dot(*r0_, *r_, n, *scalars_, S::rho_now(k));
      be_.dot(*r_, *r_, n, *scalars_, S::rr);
      if (ranks && k > 0) sum_slots_over_ranks(be_, *scalars_, sv, {S::rho_now(k), S::rr});
      if (ranks && k == 0) sum_slots_over_ranks(be_, *scalars_, sv, {S::rr});
    }
    if (ranks || k == next_check) {
      if (!ranks) be_.read_scalars(*scalars_, sv);
      res.iterations = k;
      res.residual = std::sqrt(sv[S::rr]);
      if (k == 0) target = rule.start(res.residual, opt);
      if (!std::isfinite(res.residual))
        return finish(
            SolveStatus::breakdown,
            fmt::format("BiCGStab breakdown: residual is {} at iteration {}", res.residual, k));
      if (res.residual <= target) {
        last_iterations_ = k;
        return finish(SolveStatus::converged,
                      fmt::format("converged in {} iterations, residual {:.3e}", k, res.residual));
      }
      if (k >= opt.max_iterations)
        return finish(SolveStatus::max_iterations,
                      fmt::format("BiCGStab did not converge in {} iterations: residual {:.3e} "
                                  "(relative {:.3e}) above the tolerance {:.3e}",
                                  k, res.residual, res.residual / scale, target));
      if (k == 0) {
        restart(0);
        restarted_at = -1;  // not a restart: the start
      } else {
        // rho ~ 0: r0 and r orthogonal; omega = 0: the last step made no progress along t.
        const real rho = sv[S::rho_now(k)], omega = omega_of(sv);
        if (!(std::abs(rho) > restart_fraction * r0_norm * res.residual) || omega == 0) {
          if (restarted_at == k_prev && !(res.residual < r0_norm))
            return finish(SolveStatus::breakdown,
                          fmt::format("BiCGStab breakdown at iteration {}: no progress since "
                                      "the restart at iteration {} (rho = {:.3e}, omega = {:.3e})",
                                      k, k_prev, rho, omega));
          restart(k);
          ++res.restarts;
        }
      }
      const int interval = next_check_interval(opt.check_every, device_, k, res.residual, k_prev,
                                               residual_prev, target, last_iterations_);
      next_check = std::min(k + interval, opt.max_iterations);
      k_prev = k;
      residual_prev = res.residual;
    }
    if (!ranks && stop_requested())
      return finish(SolveStatus::interrupted, fmt::format("stopped on request at iteration {}", k));
    be_.bicgstab_direction(k, *scalars_, *r_, *v_, *p_);  // p = r + beta (p - omega v)
    precondition(*p_, *p_hat_);
    a.apply(*p_hat_, *v_);
    be_.dot(*r0_, *v_, n, *scalars_, S::r0v);
    if (ranks) sum_slots_over_ranks(be_, *scalars_, sv, {S::r0v});
    be_.bicgstab_half(k, *scalars_, *r_, *v_, *s_);  // s = r - alpha v
    precondition(*s_, *s_hat_);
    a.apply(*s_hat_, *t_);
    be_.dot(*t_, *s_, n, *scalars_, S::ts);
    be_.dot(*t_, *t_, n, *scalars_, S::tt);
    if (ranks) {
      be_.dot(*r0_, *s_, n, *scalars_, S::r0s);
      be_.dot(*r0_, *t_, n, *scalars_, S::r0t);
      be_.dot(*s_, *s_, n, *scalars_, S::ss);
      if (sum_slots_over_ranks(be_, *scalars_, sv, {S::ts, S::tt, S::r0s, S::r0t, S::ss}, -1,
                               [&] { derived = derive_next(k, sv); })) {
        res.iterations = k + 1;
        return finish(SolveStatus::interrupted,
                      fmt::format("stopped on request at iteration {}", k + 1));
      }
    }
    // x = x + alpha p_hat + omega s_hat, r = s - omega t
    be_.bicgstab_update(k, *scalars_, *p_hat_, *s_hat_, *s_, *t_, x, *r_);
  }
}

}  // namespace scfd::solvers
