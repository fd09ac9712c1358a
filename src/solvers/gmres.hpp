// Restarted GMRES (Saad & Schultz 1986; Saad, Iterative Methods for Sparse Linear Systems,
// Alg. 9.5, right preconditioning) for ns-exact's streamfunction system, the alternative to
// BiCGStab (bicgstab.hpp) that solver.stream_solver selects (docs/methods.md, "GMRES for the
// stream system"). An iteration applies the preconditioner and the operator once (BiCGStab: twice
// each), and GMRES minimises the residual over everything those products have spanned, so it
// reaches a tolerance with fewer products than BiCGStab; it pays with a basis of restart + 1
// vectors and a Gram-Schmidt step that grows with the iteration.
//
// Written against the Backend interface like Pcg and BiCgStab, its scalars on the backend: the
// new basis vector w = A M^-1 v_j is orthogonalised by classical Gram-Schmidt (one
// Backend::dots into the Hessenberg column's slots, one Backend::axpys: PETSc's default too) and
// normalised by its norm taken in a slot (SlotCoefficient::inverse_sqrt), so on a GPU an iteration
// queues its kernels without waiting for the host. The host reads the Hessenberg matrix at
// convergence checks (the interval of next_check_interval, pcg.hpp, or check_every), applies the
// Givens rotations to the columns that came since the last check and so has the residual norm
// after every iteration: the solve then takes the first iteration whose residual met the
// tolerance, not the one where it checked, and forms x = x_0 + M^-1 V y once (an extra
// preconditioner application per cycle). The reported residual is that least-squares residual
// (the true one to rounding while the basis stays orthogonal). After `restart` iterations without
// convergence x is formed, the residual recomputed and the basis started again. With several
// ranks the column's dots and then the new vector's norm are summed over the ranks: two sums per
// iteration, the second with the stop request of core/stop.hpp.
#pragma once

#include <memory>
#include <vector>

#include "backend/backend.hpp"
#include "solvers/krylov.hpp"

namespace scfd::solvers {

class Gmres final : public KrylovSolver {
 public:
  static constexpr int kDefaultRestart = 30;
  // Work vectors for operators of n local entries: restart + 1 basis vectors and two more.
  Gmres(const backend::Backend& backend, index n, int restart = kDefaultRestart);
  // Solves A x = b from the initial guess in x (its ghost entries are not updated), right
  // preconditioned by `preconditioner` (any fixed linear map) or, when null, by diag(A)^-1, the
  // diagonal taken on every call. SolveResult::iterations counts products with A (the restarts'
  // residuals not included).
  SolveResult solve(const LinearOperator& a, const backend::Field& b, backend::Field& x,
                    const SolveOptions& options,
                    const Preconditioner* preconditioner = nullptr) override;

 private:
  // The slots: h_ij (i <= j) of the Hessenberg matrix, the squared norms |w_j|^2 (h_{j+1,j}^2),
  // |r_0|^2 of the cycle, and the solution's coefficients y.
  index slot_h(int i, int j) const { return j * (m_ + 1) + i; }
  index slot_norm(int j) const { return m_ * (m_ + 1) + j; }
  index slot_rr() const { return slot_norm(m_); }
  index slot_y(int i) const { return slot_rr() + 1 + i; }
  index slot_count() const { return slot_y(m_); }

  const backend::Backend& be_;
  bool device_;  // the backend's scalars live on a device: a read-back waits for the queue
  int m_;
  std::vector<std::unique_ptr<backend::Field>> v_;  // the basis, m_ + 1 vectors
  std::unique_ptr<backend::Field> z_, zero_, dinv_;
  std::unique_ptr<backend::Scalars> scalars_;
  int last_iterations_ = 0;  // of the last converged solve (next_check_interval's `expected`)
};

}  // namespace scfd::solvers
