// Initial guesses for a sequence of non-symmetric systems A_n x = b_n that change little from one
// to the next (ns-exact's stream system of every time step, whose convection makes it
// non-symmetric), in a flow that is starting or changing fast: the caller's own guess (the
// extrapolation in time of the last solutions) corrected by the combination of the last few
// solutions that leaves the least residual,
//
//   x = x_e + sum_k d_k x_k,  d = argmin | r_e - sum_k d_k w_k |,  r_e = b - sum_k e_k w_k,
//
// x_e = sum_k e_k x_k the caller's guess (its weights e on the newest kept solutions) and each
// w_k = A_k x_k the image of x_k under the operator of its own system (one product after each
// solve; the images age a step at a time, so (x_k, w_k) are pairs of solutions and right-hand
// sides along the flow, and the correction extrapolates that map rather than each x in time).
// r_e is formed as a vector and the normal equations W^T W d = W^T r_e solved by a Cholesky
// factorisation that leaves out a vector whose image adds less than round-off to the span of the
// newer ones: solved for the whole combination from W^T b instead, the cancellation left late
// steps (where the extrapolation is accurate) 2-4 times their iterations.
//
// The correction pays where the flow starts or changes fast (the 3D cavity's start: 16.8 -> 10.6
// stream iterations per step over steps 5-40 on 49k tetrahedra), not where the extrapolation is
// already good: there the aged images promise reductions the current operator does not give, and
// a residual with its smooth part removed is no easier for the solver (DFG 2D-1 after its start,
// docs/methods.md). So solutions are kept only while the projection is *active*: from a solve
// that took at least kStartIterations iterations until kDeclines guesses in a row were declined.
// A guess is declined (false, x left as the caller's) where the caller's guess already leaves a
// residual below `worth` |b|; otherwise x is corrected (true). On some flows the corrected solves
// take more iterations although their residual is smaller (cases/cylinder3d: 19-28 against
// 10-15): after kFailures corrected solves in a row that took at least as many iterations as the
// last uncorrected one, the projection retires for the rest of the run.
//
// Per guess: k(k+1)/2 + k + 2 dot products in ceil-by-four kernels and one read-back, k + 3
// axpys; per kept solution one operator application and a copy. The dots run over the owned
// entries and are summed over the ranks; the ghosts of the kept vectors are never read.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backend/backend.hpp"
#include "solvers/linear_operator.hpp"

namespace scfd::solvers {

class ResidualProjection {
 public:
  static constexpr int kStartIterations = 15;
  static constexpr int kDeclines = 3;
  static constexpr int kFailures = 2;

  // Fields of n entries (n_owned of them this rank's), at most `capacity` (>= 3) solutions kept;
  // no correction where the caller's guess leaves a residual below worth |b|.
  ResidualProjection(const backend::Backend& be, index n, index n_owned, int capacity, real worth);
  // x: the caller's guess for b, sum_i base[i] x_i over the newest kept solutions (base not
  // empty). Active, with at least base.size() and 2 solutions kept and a guess not good enough
  // already: x corrected as above; true. Otherwise x is left as it is; false. Collective.
  bool guess(const backend::Field& b, std::span<const real> base, backend::Field& x);
  // After each solve of the sequence (every one, so that the kept solutions are consecutive): x
  // its solution, a its operator, `iterations` what it took. Keeps x and its image while active
  // (above); stopping forgets the kept ones.
  void solved(const LinearOperator& a, const backend::Field& x, int iterations);
  // Forgets the kept solutions (and stops until the next expensive solve).
  void clear();

  // |r_e| and the residual the last guess's correction promised (|r_e| where it made none).
  real last_base_residual() const { return base_residual_; }
  real last_promised_residual() const { return promised_residual_; }

  // The state a checkpoint keeps: the solutions and images in their slots, how many are kept and
  // the slot of the newest (the kept ones are the `size` slots before it, cyclically), whether it
  // is active, the guesses declined in a row, the iterations of the last solve from an uncorrected
  // guess, the corrected solves in a row that took as many, and whether it retired.
  int capacity() const { return static_cast<int>(solutions_.size()); }
  backend::Field& solution(int k) { return *solutions_[static_cast<std::size_t>(k)]; }
  backend::Field& image(int k) { return *images_[static_cast<std::size_t>(k)]; }
  int& size() { return size_; }
  int& newest() { return newest_; }
  bool& active() { return active_; }
  int& declined() { return declined_; }
  int& uncorrected_iterations() { return uncorrected_iterations_; }
  int& failed() { return failed_; }
  bool& retired() { return retired_; }

 private:
  // The slot of the k-th newest kept solution (k < size_).
  std::size_t slot(int k) const;

  const backend::Backend& be_;
  index n_owned_;
  std::vector<std::unique_ptr<backend::Field>> solutions_, images_;
  std::unique_ptr<backend::Field> residual_;  // r_e
  std::unique_ptr<backend::Scalars> slots_;
  std::vector<real> values_;
  real drop_;  // a pivot below this fraction of its diagonal entry: the vector adds nothing
  real worth_;
  real base_residual_ = 0, promised_residual_ = 0;
  int size_ = 0;
  int newest_ = 0;
  bool active_ = false;
  int declined_ = 0;
  bool corrected_ = false;  // the last guess was corrected (false between solves)
  int uncorrected_iterations_ = 0;
  int failed_ = 0;
  bool retired_ = false;
};

}  // namespace scfd::solvers
