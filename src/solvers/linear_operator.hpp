// A symmetric positive (semi-)definite linear operator on backend Fields, as PCG sees it:
// y = A x, and the diagonal of A for the Jacobi preconditioner. In a parallel run, apply() brings
// the ghost entries of x up to date itself (halo exchange) and writes the owned entries of y.
#pragma once

#include "backend/backend.hpp"

namespace scfd::solvers {

class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual index size() const = 0;   // local entries, ghosts included
  virtual index owned() const = 0;  // the first owned() entries are this rank's (dots run there)
  // x is not const: its ghost entries are refreshed (halo exchange) before the gather.
  virtual void apply(backend::Field& x, backend::Field& y) const = 0;
  virtual void diagonal(backend::Field& d) const = 0;
};

}  // namespace scfd::solvers
