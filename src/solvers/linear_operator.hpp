// A symmetric positive (semi-)definite linear operator on backend Fields, as PCG sees it:
// y = A x, and the diagonal of A for the Jacobi preconditioner.
#pragma once

#include "backend/backend.hpp"

namespace scfd::solvers {

class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual index size() const = 0;
  virtual void apply(const backend::Field& x, backend::Field& y) const = 0;
  virtual void diagonal(backend::Field& d) const = 0;
};

}  // namespace scfd::solvers
