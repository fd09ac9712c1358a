// Jacobi-preconditioned BiCGStab (van der Vorst 1992; Saad, Iterative Methods for Sparse Linear
// Systems, Alg. 7.7, with right preconditioning by M = diag(A)) for the non-symmetric systems:
// the momentum equation with implicit convection (docs/methods.md). Written against the Backend
// interface like Pcg: two operator applications, the fused updates of existing vector kernels,
// and three global reductions per iteration (each carrying several sums in one message, the last
// one also the stop request of core/stop.hpp).
#pragma once

#include <memory>

#include "backend/backend.hpp"
#include "solvers/linear_operator.hpp"
#include "solvers/solve_result.hpp"

namespace scfd::solvers {

class BiCgStab {
 public:
  // Work vectors for operators of n local entries, allocated once.
  BiCgStab(const backend::Backend& backend, index n);
  // Solves A x = b from the initial guess in x (its ghost entries are not updated). The diagonal
  // of A is taken on every call.
  SolveResult solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                    const SolveOptions& options);

 private:
  const backend::Backend& be_;
  std::unique_ptr<backend::Field> r_, r0_, p_, v_, s_, t_, p_hat_, s_hat_, dinv_;
};

}  // namespace scfd::solvers
