// Smoothed-aggregation algebraic multigrid (Vaněk, Mandel & Brezina, "Algebraic multigrid by
// smoothed aggregation for second and fourth order elliptic problems", Computing 56 (1996)
// 179-196) as a preconditioner for PCG: docs/methods.md "Multigrid pressure solve".
//
// The hierarchy is built on the host from the assembled matrix of one rank's owned rows (its
// couplings to other ranks are dropped: aggregates never cross ranks, and the preconditioner is a
// block-Jacobi over the ranks with one V-cycle per block). Each level keeps A, the prolongation P
// (the piecewise-constant aggregate basis smoothed by one damped-Jacobi step) and R = P^T on the
// backend, and the coarsest level an exact (pseudo-)inverse as a dense matrix, so a V-cycle is a
// sequence of backend matrix products and needs no read-back: it runs on every backend.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/sparse_matrix.hpp"
#include "solvers/preconditioner.hpp"

namespace scfd::solvers {

using backend::SparseMatrix;

struct AmgOptions {
  real strength = 0.08;      // j is a strong neighbour of i when |a_ij| >= strength sqrt(a_ii a_jj)
  index coarse_size = 64;  // stop coarsening at this many rows; solved exactly there
  int max_levels = 20;
  int sweeps = 1;  // damped-Jacobi sweeps before and after each coarse correction
};

// The host hierarchy (testable without a backend).
struct AmgLevel {
  SparseMatrix a;            // this level's operator
  std::vector<real> weight;  // smoother: omega / a_ii (1 / a_ii on rows without neighbours)
  SparseMatrix p, r;         // to the next level: n x n_coarse and its transpose (not coarsest)
};
struct AmgHierarchy {
  std::vector<AmgLevel> levels;
  SparseMatrix coarse_inverse;  // dense: the pseudo-inverse of the coarsest a
  // Entries of all levels' operators over those of the finest (the memory and work of a cycle).
  real operator_complexity() const;
  std::string describe() const;  // "4 levels (12,345 / 1,234 / 150 / 18 rows), complexity 1.32"
};

// a: symmetric with a positive diagonal, positive semi-definite (the constants may be its null
// space, as for a pressure system without an outlet).
AmgHierarchy build_amg(const SparseMatrix& a, const AmgOptions& options = {});

// Building blocks, exposed for the tests.
SparseMatrix transpose(const SparseMatrix& a);
SparseMatrix multiply(const SparseMatrix& a, const SparseMatrix& b);
// The aggregate of every row (-1: a row without strong neighbours, left out of the coarse space)
// and the number of aggregates.
std::vector<index> aggregate(const SparseMatrix& a, real strength, index& n_aggregates);

// The hierarchy on a backend, applied as one V-cycle per call.
class Amg final : public Preconditioner {
 public:
  // n_local: the size of the fields apply() gets (the finest rows plus the ghosts it leaves).
  Amg(const backend::Backend& be, const AmgHierarchy& h, index n_local, int sweeps);
  void apply(const backend::Field& r, backend::Field& z) const override;
  double setup_seconds = 0;  // make_amg: building the hierarchy and storing it on the backend

 private:
  struct Level {
    std::unique_ptr<backend::Matrix> a, p, r;
    std::unique_ptr<backend::Field> weight, rhs, e, tmp;  // rhs: restricted residual (not finest)
  };
  // e = M_l b on level l.
  void cycle(std::size_t l, const backend::Field& b, backend::Field& e) const;
  const backend::Backend& be_;
  int sweeps_;
  std::vector<Level> levels_;
  std::unique_ptr<backend::Matrix> coarse_inverse_;
};

// Builds the hierarchy of `a` (this rank's block) with the default options and stores it on
// `be` for fields of n_local entries; logs "<what> preconditioner: AMG, <levels>, set-up <s> s"
// (rank 0's hierarchy).
std::unique_ptr<Amg> make_amg(const backend::Backend& be, const SparseMatrix& a, index n_local,
                              const std::string& what);

}  // namespace scfd::solvers
