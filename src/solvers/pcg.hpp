// Preconditioned conjugate gradients (Hestenes–Stiefel; Saad, Iterative Methods for Sparse Linear
// Systems, Alg. 9.1), written against the Backend interface so the same iteration runs on every
// backend. With the built-in Jacobi preconditioner (M = diag(A)^-1) one operator application,
// one dot product (p·q), one fused update (x, r, z and the two reductions) and one direction
// update per iteration; with another Preconditioner (amg.hpp) z = M r and r·z follow the update.
//
// The CG scalars stay on the backend (Backend::Scalars, PcgSlots): alpha and beta are formed
// there from the reductions, so on a GPU an iteration queues its kernels without waiting for the
// host. The host reads the residual only at convergence checks: every iteration on the cpu, on a
// GPU at an adaptive interval (next_check_interval), or every `check_every` iterations when set.
// The iterates are those of the textbook loop bit for bit; a solve may run up to interval - 1
// iterations past the one where it first met the tolerance. With several ranks the iteration is
// Chronopoulos & Gear's (pcg.cpp, solve_ranks): one sum over the ranks per iteration (r·z, z·A z
// and r·r together), with alpha and beta formed on the host, which checks every iteration.
#pragma once

#include <memory>

#include "backend/backend.hpp"
#include "solvers/linear_operator.hpp"
#include "solvers/preconditioner.hpp"
#include "solvers/solve_result.hpp"

namespace scfd::solvers {

// Iterations until the next convergence check, after a check at iteration k with residual
// `residual` (the previous check: iteration k_prev, residual_prev; k_prev < 0 when there was
// none). check_every > 0: that. check_every = 0 (automatic): 1 when `device` is false (a
// read-back is free); on a device half the iterations the convergence rate since the previous
// check predicts are still needed to reach `target`, between 1 and k (at least 8, at most 64; 8
// before a rate is known, 1 when the residual rose since the previous check), so checks come
// closer as the solve nears its tolerance and a solve runs at most about twice the iterations it
// needs. The interval depends on the residuals only, so a run repeats itself bit for bit.
// `expected` > 0: the iterations the previous solve of the same system took; before a rate is known
// the check then comes at expected - 1 when that is sooner than 8 (a solve from a good initial
// guess that needs 4 iterations ran 8).
int next_check_interval(int check_every, bool device, int k, real residual, int k_prev,
                        real residual_prev, real target, int expected = 0);

// Work vectors, allocated once per operator size and reused every solve.
class Pcg {
 public:
  Pcg(const backend::Backend& backend, index n);
  // Solves A x = b from the initial guess in x, preconditioned by m (null: Jacobi, whose diagonal
  // is taken from A on every call unless refresh_diagonal is false, for callers whose A has not
  // changed since the previous solve). x's owned entries are the answer; with several ranks its
  // ghosts are stale on return (the caller exchanges them when it needs them).
  SolveResult solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                    const SolveOptions& options, bool refresh_diagonal = true,
                    const Preconditioner* m = nullptr);

 private:
  SolveResult solve_ranks(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                          const SolveOptions& options, const Preconditioner* m,
                          const StopRule& rule);
  const backend::Backend& be_;
  bool device_;  // the backend's scalars live on a device: a read-back waits for the queue
  std::unique_ptr<backend::Field> r_, z_, p_, q_, dinv_;
  std::unique_ptr<backend::Field> w_;  // several ranks: A z (solve_ranks)
  std::unique_ptr<backend::Scalars> s_;
  int last_iterations_ = 0;  // of the last converged solve (next_check_interval's `expected`)
};

}  // namespace scfd::solvers
