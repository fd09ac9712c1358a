// solvers::ResidualProjection (the caller's guess corrected by the least-residual combination of
// earlier solutions) on the cpu backend, with a fixed non-symmetric operator (so the kept images
// are exact): a right-hand side in the span of the images gets its combination back; the
// corrected extrapolation leaves a residual far below the extrapolation's; a repeated solution
// adds nothing and breaks nothing; the oldest leaves when the capacity is full; solutions are
// kept only from an expensive solve on, a guess good enough already is left alone and declines
// stop the keeping; corrections that do not pay retire it.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "solvers/residual_projection.hpp"

namespace scfd::solvers {
namespace {

using backend::Field;
using backend::cpu::host;

// A 1D convection-diffusion stencil on n points: 2.2 x_i - 1.3 x_(i-1) - 0.7 x_(i+1),
// non-symmetric.
class Convection final : public LinearOperator {
 public:
  explicit Convection(index n) : n_(n) {}
  index size() const override { return n_; }
  index owned() const override { return n_; }
  void apply(Field& xf, Field& yf) const override {
    auto x = host(xf);
    auto y = host(yf);
    for (index i = 0; i < n_; ++i)
      y[i] = 2.2 * x[i] - (i > 0 ? 1.3 * x[i - 1] : 0) - (i + 1 < n_ ? 0.7 * x[i + 1] : 0);
  }
  void diagonal(Field& d) const override { backend::cpu::CpuBackend().fill(d, 2.2); }

 private:
  index n_;
};

constexpr int kMany = ResidualProjection::kStartIterations;  // a solve that starts the keeping

struct Fixture {
  backend::cpu::CpuBackend be;
  Convection a{200};
  index n = a.size();
  std::unique_ptr<Field> x = be.make_field(n), y = be.make_field(n), b = be.make_field(n);
  std::vector<std::unique_ptr<Field>> xs;
  // Keeps the solutions at t = 0, dt, ..., (count - 1) dt, each from an expensive solve.
  void keep(ResidualProjection& p, int count, real dt) {
    for (int k = 0; k < count; ++k) {
      xs.push_back(be.make_field(n));
      solution(dt * k, *xs.back());
      p.solved(a, *xs.back(), kMany);
    }
  }
  // The "solution at time t": a smooth field that moves.
  void solution(real t, Field& f) const {
    auto h = host(f);
    for (index i = 0; i < n; ++i)
      h[i] = std::sin(0.05 * i + t) + 0.3 * t * std::cos(0.11 * i) + 0.05 * t * t;
  }
  real residual(Field& guess) {
    a.apply(guess, *y);
    real s = 0;
    for (index i = 0; i < n; ++i) s += (host(*b)[i] - host(*y)[i]) * (host(*b)[i] - host(*y)[i]);
    return std::sqrt(s);
  }
};

TEST(ResidualProjection, RightHandSideInTheSpanGetsItsCombination) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 4, 0);
  f.keep(p, 3, 0.1);
  // b = A (0.5 x_0 - 2 x_1 + 1.5 x_2); the caller's guess: the newest solution x_2
  f.be.scale(0.5, *f.xs[0], *f.y);
  f.be.axpy(-2, *f.xs[1], *f.y);
  f.be.axpy(1.5, *f.xs[2], *f.y);
  f.a.apply(*f.y, *f.b);
  f.be.copy(*f.xs[2], *f.x);
  const std::vector<real> newest{1};
  ASSERT_TRUE(p.guess(*f.b, newest, *f.x));
  auto zero = f.be.make_field(f.n);
  EXPECT_LT(f.residual(*f.x), 1e-9 * f.residual(*zero));
  EXPECT_LT(p.last_promised_residual(), 1e-9 * p.last_base_residual());
}

TEST(ResidualProjection, CorrectedExtrapolationLeavesFarLess) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 6, 0);
  f.keep(p, 5, 0.1);
  auto exact = f.be.make_field(f.n);
  f.solution(0.5, *exact);
  f.a.apply(*exact, *f.b);
  // the caller's guess: the quadratic extrapolation through the last three (equal steps)
  const std::vector<real> weights{3, -3, 1};
  f.be.scale(3, *f.xs[4], *f.x);
  f.be.axpy(-3, *f.xs[3], *f.x);
  f.be.axpy(1, *f.xs[2], *f.x);
  const real extrapolated = f.residual(*f.x);
  ASSERT_TRUE(p.guess(*f.b, weights, *f.x));
  EXPECT_NEAR(p.last_base_residual(), extrapolated, 1e-9 * extrapolated);
  EXPECT_LE(f.residual(*f.x), 1e-3 * extrapolated);  // smooth in time: the 5 span it far better
  EXPECT_LE(f.residual(*f.x), 1e-3 * f.residual(*f.xs[4]));
}

// Steps so short that the kept solutions are nearly parallel and the extrapolation is accurate to
// round-off's neighbourhood: the correction, solved from the extrapolation's residual, must not
// spoil it (solved for the whole combination from W^T b, the cancellation left 400 times the
// extrapolation's residual here, and 2-4 times the iterations on DFG 2D-1's late steps).
TEST(ResidualProjection, NoWorseWhereTheExtrapolationIsAccurate) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 6, 0);
  const real dt = 3e-4;
  f.keep(p, 6, dt);
  auto exact = f.be.make_field(f.n);
  f.solution(6 * dt, *exact);
  f.a.apply(*exact, *f.b);
  const std::vector<real> weights{3, -3, 1};
  f.be.scale(3, *f.xs[5], *f.x);
  f.be.axpy(-3, *f.xs[4], *f.x);
  f.be.axpy(1, *f.xs[3], *f.x);
  const real extrapolated = f.residual(*f.x);
  auto zero = f.be.make_field(f.n);
  ASSERT_LT(extrapolated, 1e-8 * f.residual(*zero));
  ASSERT_TRUE(p.guess(*f.b, weights, *f.x));
  EXPECT_LE(f.residual(*f.x), extrapolated);
}

TEST(ResidualProjection, ARepeatedSolutionIsLeftOut) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 4, 0);
  auto x0 = f.be.make_field(f.n), x1 = f.be.make_field(f.n);
  f.solution(0, *x0);
  f.solution(0.3, *x1);
  p.solved(f.a, *x0, kMany);
  p.solved(f.a, *x1, kMany);
  p.solved(f.a, *x1, kMany);  // the same again: its image is in the span of the newer one
  f.be.scale(2, *x0, *f.y);
  f.be.axpy(-1, *x1, *f.y);
  f.a.apply(*f.y, *f.b);
  f.be.copy(*x1, *f.x);
  const std::vector<real> newest{1};
  ASSERT_TRUE(p.guess(*f.b, newest, *f.x));
  for (index i = 0; i < f.n; ++i) ASSERT_TRUE(std::isfinite(host(*f.x)[i]));
  auto zero = f.be.make_field(f.n);
  EXPECT_LT(f.residual(*f.x), 1e-9 * f.residual(*zero));
}

TEST(ResidualProjection, TheOldestLeavesWhenFull) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 3, 0);
  auto x0 = f.be.make_field(f.n), x1 = f.be.make_field(f.n), x2 = f.be.make_field(f.n),
       x3 = f.be.make_field(f.n);
  f.solution(0, *x0);
  f.solution(0.7, *x1);
  f.solution(1.9, *x2);
  f.solution(3.2, *x3);
  for (Field* x : {x0.get(), x1.get(), x2.get(), x3.get()}) p.solved(f.a, *x, kMany);
  EXPECT_EQ(p.size(), 3);
  const std::vector<real> newest{1};
  // b = A x0 is not in the span of x1, x2, x3: the guess leaves a residual
  f.a.apply(*x0, *f.b);
  f.be.copy(*x3, *f.x);
  ASSERT_TRUE(p.guess(*f.b, newest, *f.x));
  EXPECT_GT(f.residual(*f.x), 1e-3 * f.residual(*x3));
  // b = A (x1 + x2) is
  f.be.copy(*x1, *f.y);
  f.be.axpy(1, *x2, *f.y);
  f.a.apply(*f.y, *f.b);
  f.be.copy(*x3, *f.x);
  ASSERT_TRUE(p.guess(*f.b, newest, *f.x));
  auto zero = f.be.make_field(f.n);
  EXPECT_LT(f.residual(*f.x), 1e-9 * f.residual(*zero));
}

TEST(ResidualProjection, KeepsOnlyFromAnExpensiveSolve) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 4, 0);
  f.solution(0, *f.y);
  for (int k = 0; k < 3; ++k) p.solved(f.a, *f.y, kMany - 1);
  EXPECT_EQ(p.size(), 0);
  EXPECT_FALSE(p.active());
  f.be.fill(*f.x, 7);
  f.solution(0.2, *f.b);
  const std::vector<real> newest{1};
  EXPECT_FALSE(p.guess(*f.b, newest, *f.x));
  p.solved(f.a, *f.y, kMany);  // from here on, whatever the later solves take
  f.solution(0.1, *f.y);
  p.solved(f.a, *f.y, 1);
  EXPECT_TRUE(p.active());
  EXPECT_EQ(p.size(), 2);
  // weights on more solutions than are kept: left alone
  const std::vector<real> three{3, -3, 1};
  EXPECT_FALSE(p.guess(*f.b, three, *f.x));
  for (index i = 0; i < f.n; ++i) ASSERT_EQ(host(*f.x)[i], 7);
  p.clear();
  EXPECT_EQ(p.size(), 0);
  EXPECT_FALSE(p.active());
}

TEST(ResidualProjection, AGoodGuessIsLeftAloneAndDeclinesStopTheKeeping) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 4, 1e-6);
  f.keep(p, 3, 0.1);
  // the caller's guess is the solution itself: nothing worth correcting
  f.a.apply(*f.xs[2], *f.b);
  const std::vector<real> newest{1};
  for (int k = 0; k < ResidualProjection::kDeclines; ++k) {
    f.be.copy(*f.xs[2], *f.x);
    EXPECT_FALSE(p.guess(*f.b, newest, *f.x));
    for (index i = 0; i < f.n; ++i) ASSERT_EQ(host(*f.x)[i], host(*f.xs[2])[i]);
    EXPECT_TRUE(p.active());
    p.solved(f.a, *f.xs[2], kMany - 1);
  }
  EXPECT_FALSE(p.active());
  EXPECT_EQ(p.size(), 0);
}

TEST(ResidualProjection, RetiresWhereCorrectionsDoNotPay) {
  Fixture f;
  ResidualProjection p(f.be, f.n, f.n, 4, 0);
  f.keep(p, 3, 0.1);  // the last uncorrected solve took kMany
  auto exact = f.be.make_field(f.n);
  f.solution(0.3, *exact);
  f.a.apply(*exact, *f.b);
  const std::vector<real> newest{1};
  const auto corrected_solve = [&](int iterations) {
    f.be.copy(*f.xs.back(), *f.x);
    const bool corrected = p.guess(*f.b, newest, *f.x);
    p.solved(f.a, *exact, iterations);
    return corrected;
  };
  EXPECT_TRUE(corrected_solve(kMany));      // as many as without: one failure
  EXPECT_TRUE(corrected_solve(kMany - 1));  // fewer: the count starts again
  EXPECT_TRUE(corrected_solve(kMany));
  EXPECT_FALSE(p.retired());
  EXPECT_TRUE(corrected_solve(kMany + 3));  // the second in a row
  EXPECT_TRUE(p.retired());
  EXPECT_FALSE(corrected_solve(3 * kMany));  // for good
  EXPECT_FALSE(p.active());
  EXPECT_EQ(p.size(), 0);
}

}  // namespace
}  // namespace scfd::solvers
