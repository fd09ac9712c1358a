// A preconditioner for Pcg other than its built-in Jacobi (amg.hpp): z = M r, M an approximation
// of A^-1, symmetric positive definite, applied with backend operations only (no read-back).
#pragma once

#include "backend/backend.hpp"

namespace scfd::solvers {

class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  // r and z have the operator's local size; z's ghosts may be anything (PCG exchanges p before
  // each product).
  virtual void apply(const backend::Field& r, backend::Field& z) const = 0;
};

}  // namespace scfd::solvers
