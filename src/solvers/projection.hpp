// Initial guesses for a sequence of symmetric positive (semi-)definite systems A x = b_n whose
// right-hand sides change little from one to the next (the pressure equation of every time step):
// the guess is the A-norm-closest approximation of A^-1 b_n in the span of earlier solutions,
// x = sum_k (q_k . b_n) q_k over an A-orthonormal basis q_1..q_l of them (P. F. Fischer,
// "Projection techniques for iterative solution of Ax = b with successive right-hand sides",
// Comput. Methods Appl. Mech. Engrg. 163 (1998) 193-204). After each solve the part of its
// correction x - guess that is A-orthogonal to the basis joins it (one operator application).
// A full basis starts again from the last three solutions (Fischer restarts from the last one;
// the three keep what a quadratic extrapolation in time would know, and on cavity-box 32^3 gave
// 397 instead of 445 pressure iterations over 40 steps at 8 vectors; docs/methods.md).
//
// Per system: l dot products with b and one read-back for the guess, l axpys; l + 1 dot products,
// one read-back and l axpys for the update (the restart: three applications more). The dots run
// over the owned entries and are summed over the ranks; the axpys touch every entry, and the
// ghost entries of the vectors are never read (the operator refreshes its input's ghosts, the
// dots skip them).
#pragma once

#include <memory>
#include <vector>

#include "backend/backend.hpp"
#include "solvers/linear_operator.hpp"

namespace scfd::solvers {

class SolutionProjection {
 public:
  // Fields of n entries (n_owned of them this rank's), a basis of at most `capacity` (>= 3)
  // vectors.
  SolutionProjection(const backend::Backend& be, index n, index n_owned, int capacity);
  // x = the projection of A^-1 b onto the basis; with an empty basis x is left as it is (the
  // caller's own guess).
  void guess(const backend::Field& b, backend::Field& x);
  // x: the solution of the system of the last guess (a = its operator). Adds x - guess, made
  // A-orthonormal to the basis, unless what is left of it is below round-off (x is in the span
  // then: its A-norm squared under 1e-10 of the correction's, 1e-5 with fp32 fields).
  void add(const LinearOperator& a, const backend::Field& x);

  // The state a checkpoint keeps: the basis, the last two solutions before the last one (the
  // restart's), and how many basis vectors are in use.
  int capacity() const { return static_cast<int>(basis_.size()); }
  backend::Field& basis(int k) { return *basis_[static_cast<std::size_t>(k)]; }
  backend::Field& earlier(int k) { return *earlier_[static_cast<std::size_t>(k)]; }
  int& size() { return size_; }

 private:
  // work_ (minus its parts along the basis, A-normalised) becomes the next basis vector.
  void append(const LinearOperator& a);
  // values_[k] = x_k . y over the owned entries, summed over the ranks (k < xs.size()).
  void dots(const std::vector<const backend::Field*>& xs, const backend::Field& y);

  const backend::Backend& be_;
  index n_owned_;
  std::vector<std::unique_ptr<backend::Field>> basis_;
  std::vector<std::unique_ptr<backend::Field>> earlier_;  // x^(n-1), x^(n-2) after x^n's add
  std::unique_ptr<backend::Field> guess_, work_, product_;
  std::unique_ptr<backend::Scalars> slots_;
  std::vector<real> values_;
  // What cancellation leaves of d.Ad below this fraction is round-off of a part the span has
  // already (fp32 fields: d.Ad itself carries about 1e-7 of round-off).
  real drop_;
  int size_ = 0;
  bool guessed_ = false;  // guess_ holds the guess of the current system (in the basis' span)
};

}  // namespace scfd::solvers
