// The solvers of non-symmetric systems behind one interface: BiCGStab (bicgstab.hpp) and GMRES
// (gmres.hpp), chosen for ns-exact's streamfunction system by solver.stream_solver.
#pragma once

#include <memory>
#include <string_view>

#include "backend/backend.hpp"
#include "solvers/linear_operator.hpp"
#include "solvers/preconditioner.hpp"
#include "solvers/solve_result.hpp"

namespace scfd::solvers {

class KrylovSolver {
 public:
  virtual ~KrylovSolver() = default;
  // Solves A x = b from the initial guess in x (its ghost entries are not updated), right
  // preconditioned by `preconditioner` (any fixed linear map) or, when null, by diag(A)^-1.
  virtual SolveResult solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                            const SolveOptions& options,
                            const Preconditioner* preconditioner = nullptr) = 0;
};

// M of a right-preconditioned solve of A: `given`, or where that is null diag(A)^-1, the diagonal
// taken into `dinv` when this is made (`work`: scratch of A's size).
class RightPreconditioner {
 public:
  RightPreconditioner(const backend::Backend& be, const LinearOperator& a,
                      const Preconditioner* given, backend::Field& work, backend::Field& dinv);
  // out = M in; in's ghosts may be overwritten (Preconditioner::apply).
  void operator()(backend::Field& in, backend::Field& out) const;

 private:
  const backend::Backend& be_;
  const Preconditioner* given_;
  const backend::Field& dinv_;
};

// "bicgstab" or "gmres" (restart length Gmres::kDefaultRestart), for operators of n local entries.
std::unique_ptr<KrylovSolver> make_krylov_solver(std::string_view name,
                                                 const backend::Backend& backend, index n);

}  // namespace scfd::solvers
