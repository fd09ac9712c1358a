// What every iterative solver of this module takes and returns (pcg.hpp, bicgstab.hpp).
#pragma once

#include <string>

#include "backend/backend.hpp"
#include "core/types.hpp"

namespace scfd::solvers {

struct SolveOptions {
  real relative_tolerance = 1e-10;  // stop when |r| <= relative_tolerance |b| ...
  real absolute_tolerance = 0;      // ... or |r| <= absolute_tolerance ...
  // ... or |r| <= initial_tolerance |r_0|, r_0 = b - A x_0 the residual of the initial guess
  // (OpenFOAM's relTol): a solve whose guess is close stops after a fixed reduction.
  real initial_tolerance = 0;
  int max_iterations = 1000;
  // PCG: iterations between convergence checks (each a read-back on a GPU); 0: automatic
  // (solvers/pcg.hpp, next_check_interval).
  int check_every = 0;
};

// interrupted: a stop was requested (core/stop.hpp) on some rank; every rank sees it at the same
// iteration (the request travels with the iteration's reduction) and returns at once, x partly
// updated: the caller abandons the step.
enum class SolveStatus { converged, max_iterations, breakdown, interrupted };

// Where a solve of A x = b stops: |r| <= target = max(relative_tolerance |b|, absolute_tolerance)
// (norms over the owned entries, all ranks), raised to initial_tolerance |r_0| by the solver
// once it has r_0 (start()); scale = |b| (1 when b = 0) turns a residual into the relative one.
// For b = 0 the solvers return x = 0 at once (A is definite on the solved space). Collective.
struct StopRule {
  real target = 0, scale = 1;
  bool zero_rhs = false;
  // The target once |r_0| is known.
  real start(real r0, const SolveOptions& options) const {
    return target > options.initial_tolerance * r0 ? target : options.initial_tolerance * r0;
  }
};
StopRule stop_rule(const backend::Backend& be, const backend::Field& b, index owned,
                   const SolveOptions& options);

struct SolveResult {
  SolveStatus status = SolveStatus::converged;
  int iterations = 0;
  real residual = 0;           // |b - A x| at exit (recursively updated)
  real relative_residual = 0;  // residual / |b| (residual when b = 0)
  int restarts = 0;            // BiCGStab: restarts of the shadow residual (bicgstab.hpp)
  std::string message;         // why it stopped, for logs and errors
  bool converged() const { return status == SolveStatus::converged; }
};

}  // namespace scfd::solvers
