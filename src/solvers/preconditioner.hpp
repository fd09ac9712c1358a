// PCG's preconditioners and their table, keyed by the case-file word of solver.preconditioner
// (as backend/registry.hpp is for solver.backend): a model asks for "the pressure
// preconditioner" by that word and holds a `Preconditioner`, never a concrete one. An entry that
// makes none (jacobi) leaves PCG's built-in Jacobi (pcg.hpp: M = diag(A)^-1, taken from the
// operator, nothing assembled).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "backend/backend.hpp"
#include "backend/sparse_matrix.hpp"
#include "halo/halo_plan.hpp"

namespace scfd::solvers {

// z = M r, M an approximation of A^-1 (symmetric positive definite for PCG; BiCGStab takes any
// fixed linear map), applied with backend operations only (no read-back).
class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  // r and z have the operator's local size; z's ghosts may be anything (PCG exchanges p before
  // each product). r's owned entries are left as they are, its ghosts may not be: a
  // preconditioner that exchanges r does so in place rather than in a copy of r (a pass over the
  // field per application saved), so a solver must not keep anything in r's ghosts.
  virtual void apply(backend::Field& r, backend::Field& z) const = 0;
};

// What an entry builds from. `matrix` assembles this rank's rows of the system (owned rows, a
// column per local entity of `plan`, owned first: solvers/assembly.hpp); it is called only by an
// entry that needs the matrix. `what` names the solve in the log line ("pressure", "heat").
struct PreconditionerInput {
  const backend::Backend& be;
  std::function<backend::SparseMatrix()> matrix;
  halo::HaloPlan& plan;
  std::string what;
};

struct PreconditionerEntry {
  std::string_view name;  // the case-file word (docs/case-file.md lists them)
  // Null: PCG's built-in Jacobi. May throw InputError (a system the method cannot handle, such
  // as a multigrid's set-up on a mesh too stretched); collective where the method is.
  std::unique_ptr<Preconditioner> (*make)(const PreconditionerInput& in);
};

std::span<const PreconditionerEntry> preconditioner_table();
// The case-file words in table order.
std::span<const std::string_view> preconditioner_names();
// The entry named `name` (SCFD_CHECK that there is one: the case file was checked against
// preconditioner_names()).
const PreconditionerEntry& find_preconditioner(std::string_view name);
// find_preconditioner(name).make(in), null for the built-in Jacobi.
std::unique_ptr<Preconditioner> make_preconditioner(std::string_view name,
                                                    const PreconditionerInput& in);

}  // namespace scfd::solvers
