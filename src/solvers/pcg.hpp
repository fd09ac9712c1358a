// Jacobi-preconditioned conjugate gradients (Hestenes–Stiefel with M = diag(A); Saad, Iterative
// Methods for Sparse Linear Systems, Alg. 9.1), written against the Backend interface so the
// same iteration runs on every backend. One operator application, one fused update
// (x, r, z and the two reductions) and one extra dot product (p·q) per iteration; the only
// numbers that reach the host are the CG scalars.
#pragma once

#include <memory>

#include "backend/backend.hpp"
#include "solvers/linear_operator.hpp"
#include "solvers/solve_result.hpp"

namespace scfd::solvers {

// Work vectors, allocated once per operator size and reused every solve.
class Pcg {
 public:
  Pcg(const backend::Backend& backend, index n);
  // Solves A x = b from the initial guess in x. The diagonal is taken from A on every call
  // (callers whose A does not change may call set_diagonal once and pass refresh = false).
  SolveResult solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                    const SolveOptions& options, bool refresh_diagonal = true);

 private:
  const backend::Backend& be_;
  std::unique_ptr<backend::Field> r_, z_, p_, q_, dinv_;
};

}  // namespace scfd::solvers
