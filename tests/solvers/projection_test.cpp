// solvers::SolutionProjection (Fischer's projection onto earlier solutions) on the cpu backend:
// its basis stays A-orthonormal; a right-hand side in the span of earlier ones gets its solution
// as the guess; the guess is never farther in the A-norm than the last solution; a full basis
// starts again from the last three solutions; an empty one leaves the caller's guess alone.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "solvers/pcg.hpp"
#include "solvers/projection.hpp"

namespace scfd::solvers {
namespace {

using backend::Field;
using backend::cpu::host;

// The 5-point Laplacian of a k x k grid (zero values outside) plus a small shift: SPD.
class GridLaplacian final : public LinearOperator {
 public:
  explicit GridLaplacian(index k) : k_(k) {}
  index size() const override { return k_ * k_; }
  index owned() const override { return k_ * k_; }
  void apply(Field& xf, Field& yf) const override {
    auto x = host(xf);
    auto y = host(yf);
    for (index i = 0; i < k_; ++i)
      for (index j = 0; j < k_; ++j) {
        const index c = i * k_ + j;
        real v = 4.01 * x[c];
        if (i > 0) v -= x[c - k_];
        if (i + 1 < k_) v -= x[c + k_];
        if (j > 0) v -= x[c - 1];
        if (j + 1 < k_) v -= x[c + 1];
        y[c] = v;
      }
  }
  void diagonal(Field& d) const override { backend::cpu::CpuBackend().fill(d, 4.01); }

 private:
  index k_;
};

struct Fixture {
  backend::cpu::CpuBackend be;
  GridLaplacian a{12};
  index n = a.size();
  Pcg pcg{be, n};
  std::unique_ptr<Field> b = be.make_field(n), x = be.make_field(n), y = be.make_field(n),
                         ax = be.make_field(n);
  // b = the right-hand side of "time" t: a smooth field that moves
  void rhs(real t) {
    auto h = host(*b);
    for (index c = 0; c < n; ++c)
      h[c] = std::sin(0.3 * c + t) + 0.2 * std::cos(0.05 * c + 3 * t) + 0.1 * t * t * (c % 7);
  }
  void solve(Field& into) {
    ASSERT_TRUE(pcg.solve(a, *b, into, {.relative_tolerance = 1e-14}).converged());
  }
  real a_norm(const Field& v) {
    be.copy(v, *y);
    a.apply(*y, *ax);
    return std::sqrt(be.dot(v, *ax, n));
  }
  real a_dot(Field& u, const Field& v) {
    a.apply(u, *ax);
    return be.dot(*ax, v, n);
  }
};

TEST(SolutionProjection, BasisIsAOrthonormal) {
  Fixture f;
  SolutionProjection p(f.be, f.n, f.n, 6);
  for (int step = 0; step < 5; ++step) {
    f.rhs(0.1 * step);
    p.guess(*f.b, *f.x);
    f.solve(*f.x);
    p.add(f.a, *f.x);
  }
  ASSERT_EQ(p.size(), 5);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      EXPECT_NEAR(f.a_dot(p.basis(i), p.basis(j)), i == j ? 1.0 : 0.0, 1e-8) << i << " " << j;
}

TEST(SolutionProjection, RightHandSideInTheSpanIsSolvedByTheGuess) {
  Fixture f;
  SolutionProjection p(f.be, f.n, f.n, 8);
  std::vector<std::unique_ptr<Field>> bs, xs;
  for (int step = 0; step < 2; ++step) {
    f.rhs(1.0 + step);
    p.guess(*f.b, *f.x);
    f.solve(*f.x);
    p.add(f.a, *f.x);
    bs.push_back(f.be.make_field(f.n));
    xs.push_back(f.be.make_field(f.n));
    f.be.copy(*f.b, *bs.back());
    f.be.copy(*f.x, *xs.back());
  }
  // b = 2 b_1 - 0.5 b_0: the guess is 2 x_1 - 0.5 x_0, and PCG has nothing left to do
  f.be.scale(2, *bs[1], *f.b);
  f.be.axpy(-0.5, *bs[0], *f.b);
  f.be.fill(*f.x, 0);
  p.guess(*f.b, *f.x);
  f.be.scale(2, *xs[1], *f.y);
  f.be.axpy(-0.5, *xs[0], *f.y);
  f.be.axpy(-1, *f.x, *f.y);
  auto error = f.be.make_field(f.n);
  f.be.copy(*f.y, *error);
  EXPECT_LT(f.a_norm(*error), 1e-10 * f.a_norm(*xs[1]));
  const SolveResult r = f.pcg.solve(f.a, *f.b, *f.x, {.relative_tolerance = 1e-9});
  EXPECT_EQ(r.iterations, 0) << r.message;
}

// The guess is the A-norm-closest point of a span that holds the last solution: never farther
// from the new solution than that solution is; and it keeps the same once the basis restarts.
TEST(SolutionProjection, GuessIsNoFartherThanTheLastSolution) {
  Fixture f;
  SolutionProjection p(f.be, f.n, f.n, 4);
  auto last = f.be.make_field(f.n), exact = f.be.make_field(f.n), e = f.be.make_field(f.n);
  for (int step = 0; step < 12; ++step) {
    f.rhs(0.05 * step);
    f.be.copy(*f.x, *last);
    p.guess(*f.b, *f.x);
    f.be.copy(*last, *exact);
    f.solve(*exact);
    if (step > 0) {
      f.be.copy(*exact, *e);
      f.be.axpy(-1, *f.x, *e);
      const real guess_error = f.a_norm(*e);
      f.be.copy(*exact, *e);
      f.be.axpy(-1, *last, *e);
      EXPECT_LE(guess_error, f.a_norm(*e) * (1 + 1e-12)) << "step " << step;
      if (step >= 3) {  // far closer once the span knows a few steps
        EXPECT_LT(guess_error, 0.1 * f.a_norm(*e)) << "step " << step;
      }
    }
    f.be.copy(*exact, *f.x);
    p.add(f.a, *f.x);
    EXPECT_GE(p.size(), 1);
    EXPECT_LE(p.size(), 4);
  }
}

TEST(SolutionProjection, FullBasisStartsAgainFromTheLastThreeSolutions) {
  Fixture f;
  SolutionProjection p(f.be, f.n, f.n, 3);
  std::vector<std::unique_ptr<Field>> xs;
  for (int step = 0; step < 4; ++step) {
    f.rhs(0.7 * step);
    p.guess(*f.b, *f.x);
    f.solve(*f.x);
    p.add(f.a, *f.x);
    xs.push_back(f.be.make_field(f.n));
    f.be.copy(*f.x, *xs.back());
  }
  ASSERT_EQ(p.size(), 3);  // the fourth add found the basis full: x_1, x_2, x_3 again
  // x_1 is in the span, x_0 (no longer) only as far as the three reach
  for (int k : {1, 2, 3}) {
    f.a.apply(*xs[static_cast<std::size_t>(k)], *f.b);
    p.guess(*f.b, *f.x);
    f.be.axpy(-1, *xs[static_cast<std::size_t>(k)], *f.x);
    EXPECT_LT(f.a_norm(*f.x), 1e-10 * f.a_norm(*xs[static_cast<std::size_t>(k)])) << k;
  }
}

TEST(SolutionProjection, EmptyBasisLeavesTheGuessAlone) {
  Fixture f;
  SolutionProjection p(f.be, f.n, f.n, 3);
  f.rhs(0);
  f.be.fill(*f.x, 0.25);
  p.guess(*f.b, *f.x);
  for (real v : host(*f.x)) ASSERT_EQ(v, 0.25);
}

}  // namespace
}  // namespace scfd::solvers
