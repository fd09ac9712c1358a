// The non-symmetric solvers' shared pieces (see krylov.hpp).
#include "solvers/krylov.hpp"

#include "core/error.hpp"
#include "solvers/bicgstab.hpp"
#include "solvers/gmres.hpp"

namespace scfd::solvers {

RightPreconditioner::RightPreconditioner(const backend::Backend& be, const LinearOperator& a,
                                         const Preconditioner* given, backend::Field& work,
                                         backend::Field& dinv)
    : be_(be), given_(given), dinv_(dinv) {
  if (given_ != nullptr) return;
  a.diagonal(work);
  be_.reciprocal(work, dinv);
}

void RightPreconditioner::operator()(backend::Field& in, backend::Field& out) const {
  if (given_ != nullptr)
    given_->apply(in, out);
  else
    be_.multiply(dinv_, in, out);
}

std::unique_ptr<KrylovSolver> make_krylov_solver(std::string_view name,
                                                 const backend::Backend& backend, index n) {
  if (name == "gmres") return std::make_unique<Gmres>(backend, n);
  SCFD_CHECK(name == "bicgstab", "unknown Krylov solver '{}'", name);
  return std::make_unique<BiCgStab>(backend, n);
}

}  // namespace scfd::solvers
