// BiCGStab (van der Vorst 1992; Saad, Iterative Methods for Sparse Linear Systems, Alg. 7.7, with
// right preconditioning by M = diag(A)^-1 or a given Preconditioner) for the non-symmetric systems:
// the momentum equation with implicit convection and ns-exact's streamfunction system
// (docs/methods.md). Written against the Backend interface like Pcg: per iteration two operator
// applications, five reductions into slots of Backend::Scalars (BicgstabSlots) and the vector
// updates that take alpha, beta and omega from those slots (Backend::bicgstab_direction,
// _half, _update), so on a GPU an iteration queues its kernels without waiting for the host.
// The host reads the scalars at convergence checks only: every iteration on the cpu, on a GPU
// at the interval of next_check_interval (pcg.hpp) or every `check_every` iterations, so a solve
// may run up to interval - 1 iterations past its tolerance; the iterates are those of the
// textbook loop up to the first restart. At a check where r0·r has fallen below 1e-10 |r0| |r|
// (r0 and r orthogonal to rounding) or omega is 0, the solve restarts from the current residual
// (r0 = r, p = r); between checks a zero divisor gives alpha or beta 0 in the kernels, never a
// NaN. A restart that changes nothing (the next check breaks down again without a smaller
// residual) is reported as a breakdown, as is a residual that is no longer finite. With several
// ranks the reductions are summed over the ranks on the host, two sums per iteration (r0·v; t·s
// and t·t with r0·s, r0·t and s·s, from which the next iteration's r0·r and r·r follow, unless
// they would lose digits to cancellation: then a third), the last with the stop request of
// core/stop.hpp.
#pragma once

#include <memory>

#include "backend/backend.hpp"
#include "solvers/krylov.hpp"

namespace scfd::solvers {

class BiCgStab final : public KrylovSolver {
 public:
  // Work vectors for operators of n local entries, allocated once.
  BiCgStab(const backend::Backend& backend, index n);
  // Solves A x = b from the initial guess in x (its ghost entries are not updated), right
  // preconditioned by `preconditioner` (any fixed linear map; it need not be symmetric) or, when
  // null, by diag(A)^-1, the diagonal taken on every call.
  SolveResult solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                    const SolveOptions& options,
                    const Preconditioner* preconditioner = nullptr) override;

 private:
  const backend::Backend& be_;
  bool device_;  // the backend's scalars live on a device: a read-back waits for the queue
  std::unique_ptr<backend::Field> r_, r0_, p_, v_, s_, t_, p_hat_, s_hat_, dinv_;
  std::unique_ptr<backend::Scalars> scalars_;
  int last_iterations_ = 0;  // of the last converged solve (next_check_interval's `expected`)
};

}  // namespace scfd::solvers
