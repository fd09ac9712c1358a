// Jacobi-preconditioned conjugate gradients (Hestenes–Stiefel with M = diag(A); Saad, Iterative
// Methods for Sparse Linear Systems, Alg. 9.1), written against the Backend interface so the
// same iteration runs on every backend. One operator application, one fused update
// (x, r, z and the two reductions) and one extra dot product (p·q) per iteration; the only
// numbers that reach the host are the CG scalars.
#pragma once

#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "solvers/linear_operator.hpp"

namespace scfd::solvers {

struct PcgOptions {
  real relative_tolerance = 1e-10;  // stop when |r| <= relative_tolerance |b| ...
  real absolute_tolerance = 0;      // ... or |r| <= absolute_tolerance
  int max_iterations = 1000;
};

// interrupted: a stop was requested (core/stop.hpp) on some rank; every rank sees it at the same
// iteration (the request travels with the iteration's reduction) and returns at once, x partly
// updated: the caller abandons the step.
enum class PcgStatus { converged, max_iterations, breakdown, interrupted };

struct PcgResult {
  PcgStatus status = PcgStatus::converged;
  int iterations = 0;
  real residual = 0;           // |b - A x| (recursively updated) at exit
  real relative_residual = 0;  // residual / |b| (residual when b = 0)
  std::string message;         // why it stopped, for logs and errors
  bool converged() const { return status == PcgStatus::converged; }
};

// Work vectors, allocated once per operator size and reused every solve.
class Pcg {
 public:
  Pcg(const backend::Backend& backend, index n);
  // Solves A x = b from the initial guess in x. The diagonal is taken from A on every call
  // (callers whose A does not change may call set_diagonal once and pass refresh = false).
  PcgResult solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                  const PcgOptions& options, bool refresh_diagonal = true);

 private:
  const backend::Backend& be_;
  std::unique_ptr<backend::Field> r_, z_, p_, q_, dinv_;
};

}  // namespace scfd::solvers
