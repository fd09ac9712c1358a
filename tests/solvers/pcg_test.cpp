// Jacobi-PCG on the cpu backend: solves a small SPD system to tolerance (checked against the
// true residual), reports non-convergence and breakdown instead of returning garbage, and gives
// the same iterations and bits on repeated solves. Convergence checks every k iterations change
// where a solve stops (by fewer than k iterations), never the iterates; the automatic interval
// of a device comes closer as the residual nears its target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "solvers/pcg.hpp"

namespace scfd::solvers {
namespace {

using backend::Field;
using backend::cpu::host;

// A 1D Laplacian with a variable diagonal shift: tridiagonal, SPD when shift >= 0 everywhere.
class Tridiagonal final : public LinearOperator {
 public:
  Tridiagonal(index n, real shift) : n_(n), shift_(shift) {}
  index size() const override { return n_; }
  index owned() const override { return n_; }
  void apply(Field& xf, Field& yf) const override {
    auto x = host(xf);
    auto y = host(yf);
    for (index i = 0; i < n_; ++i) {
      real v = (2 + shift_ * (1 + i % 3)) * x[i];
      if (i > 0) v -= x[i - 1];
      if (i + 1 < n_) v -= x[i + 1];
      y[i] = v;
    }
  }
  void diagonal(Field& df) const override {
    auto d = host(df);
    for (index i = 0; i < n_; ++i) d[i] = 2 + shift_ * (1 + i % 3);
  }

 private:
  index n_;
  real shift_;
};

struct Problem {
  backend::cpu::CpuBackend be;
  index n = 200;
  std::unique_ptr<Field> b = be.make_field(n), x = be.make_field(n), r = be.make_field(n);
  Problem() {
    auto bh = host(*b);
    for (index i = 0; i < n; ++i) bh[i] = std::sin(0.1 * i) + 0.5;
  }
  real true_residual(const LinearOperator& a) {
    a.apply(*x, *r);
    be.xpay(*b, -1, *r);
    return std::sqrt(be.dot(*r, *r, n) / be.dot(*b, *b, n));
  }
};

TEST(Pcg, ConvergesToTolerance) {
  Problem p;
  Tridiagonal a(p.n, 0.01);
  Pcg pcg(p.be, p.n);
  const SolveResult res = pcg.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-10});
  ASSERT_TRUE(res.converged()) << res.message;
  EXPECT_LE(res.relative_residual, 1e-10);
  EXPECT_LT(p.true_residual(a), 1e-9);
  EXPECT_GT(res.iterations, 5);
  EXPECT_LE(res.iterations, p.n);
}

TEST(Pcg, IsDeterministic) {
  Problem p1, p2;
  Tridiagonal a(p1.n, 0.01);
  Pcg pcg1(p1.be, p1.n), pcg2(p2.be, p2.n);
  const auto r1 = pcg1.solve(a, *p1.b, *p1.x, {});
  const auto r2 = pcg2.solve(a, *p2.b, *p2.x, {});
  EXPECT_EQ(r1.iterations, r2.iterations);
  auto x1 = host(*p1.x), x2 = host(*p2.x);
  for (index i = 0; i < p1.n; ++i) ASSERT_EQ(x1[i], x2[i]);
}

TEST(Pcg, ReportsNonConvergence) {
  Problem p;
  Tridiagonal a(p.n, 0.0001);
  Pcg pcg(p.be, p.n);
  const SolveResult res =
      pcg.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12, .max_iterations = 3});
  EXPECT_EQ(res.status, SolveStatus::max_iterations);
  EXPECT_EQ(res.iterations, 3);
  EXPECT_NE(res.message.find("did not converge in 3 iterations"), std::string::npos) << res.message;
}

TEST(Pcg, DetectsBreakdownOnIndefiniteOperator) {
  Problem p;
  Tridiagonal a(p.n, -1.5);  // diagonal 2 - 1.5 k: indefinite
  Pcg pcg(p.be, p.n);
  const SolveResult res = pcg.solve(a, *p.b, *p.x, {});
  EXPECT_EQ(res.status, SolveStatus::breakdown) << res.message;
  EXPECT_NE(res.message.find("not positive definite"), std::string::npos) << res.message;
}

TEST(Pcg, ZeroRightHandSideGivesZero) {
  Problem p;
  Tridiagonal a(p.n, 0.01);
  p.be.fill(*p.b, 0);
  p.be.fill(*p.x, 3);
  Pcg pcg(p.be, p.n);
  const SolveResult res = pcg.solve(a, *p.b, *p.x, {});
  EXPECT_TRUE(res.converged());
  EXPECT_EQ(p.be.dot(*p.x, *p.x, p.n), 0);
}

TEST(Pcg, AbsoluteToleranceStopsEarly) {
  Problem p;
  Tridiagonal a(p.n, 0.01);
  Pcg pcg(p.be, p.n);
  const auto strict = pcg.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12});
  p.be.fill(*p.x, 0);
  const auto loose =
      pcg.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12, .absolute_tolerance = 1e-2});
  EXPECT_TRUE(loose.converged());
  EXPECT_LT(loose.iterations, strict.iterations);
}

// OpenFOAM's relTol: from a guess close to the solution the solve stops once the residual has
// fallen by the factor, well above relative_tolerance |b|.
TEST(Pcg, InitialToleranceStopsAtAReductionOfTheFirstResidual) {
  Problem p;
  Tridiagonal a(p.n, 0.01);
  Pcg pcg(p.be, p.n);
  ASSERT_TRUE(pcg.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-4}).converged());
  std::vector<real> guess(host(*p.x).begin(), host(*p.x).end());
  a.apply(*p.x, *p.r);
  p.be.xpay(*p.b, -1, *p.r);
  const real r0 = std::sqrt(p.be.dot(*p.r, *p.r, p.n));
  const auto reduced =
      pcg.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12, .initial_tolerance = 1e-3});
  ASSERT_TRUE(reduced.converged()) << reduced.message;
  EXPECT_LE(reduced.residual, 1e-3 * r0);
  EXPECT_GT(reduced.relative_residual, 1e-12);
  std::copy(guess.begin(), guess.end(), host(*p.x).begin());
  const auto strict = pcg.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12});
  EXPECT_LT(reduced.iterations, strict.iterations);
}

TEST(Pcg, CheckIntervalChangesWhereItStopsNotTheIterates) {
  Problem p1, p2;
  Tridiagonal a(p1.n, 0.0001);
  Pcg pcg1(p1.be, p1.n), pcg2(p2.be, p2.n);
  // Both run exactly 21 iterations (21 is not a multiple of 4: the last check comes at the cap).
  const auto r1 = pcg1.solve(a, *p1.b, *p1.x, {.relative_tolerance = 1e-14, .max_iterations = 21});
  const auto r2 = pcg2.solve(a, *p2.b, *p2.x,
                             {.relative_tolerance = 1e-14, .max_iterations = 21, .check_every = 4});
  EXPECT_EQ(r1.status, SolveStatus::max_iterations);
  EXPECT_EQ(r2.status, SolveStatus::max_iterations);
  EXPECT_EQ(r2.iterations, 21);
  EXPECT_EQ(r1.residual, r2.residual);
  auto x1 = host(*p1.x), x2 = host(*p2.x);
  for (index i = 0; i < p1.n; ++i) ASSERT_EQ(x1[i], x2[i]);
  // Converging with checks every 5: stops at the first check past the every-iteration stop.
  p1.be.fill(*p1.x, 0);
  p2.be.fill(*p2.x, 0);
  const auto every = pcg1.solve(a, *p1.b, *p1.x, {.relative_tolerance = 1e-8});
  const auto fifth = pcg2.solve(a, *p2.b, *p2.x, {.relative_tolerance = 1e-8, .check_every = 5});
  ASSERT_TRUE(every.converged() && fifth.converged()) << every.message << fifth.message;
  EXPECT_EQ(fifth.iterations % 5, 0);
  EXPECT_GE(fifth.iterations, every.iterations);
  EXPECT_LT(fifth.iterations, every.iterations + 5);
}

TEST(Pcg, BreakdownWithSparseChecksReportsItsIterationAndKeepsX) {
  Problem p1, p2;
  Tridiagonal a(p1.n, -1.5);
  Pcg pcg1(p1.be, p1.n), pcg2(p2.be, p2.n);
  const auto every = pcg1.solve(a, *p1.b, *p1.x, {});
  const auto sparse = pcg2.solve(a, *p2.b, *p2.x, {.check_every = 50});
  ASSERT_EQ(every.status, SolveStatus::breakdown) << every.message;
  ASSERT_EQ(sparse.status, SolveStatus::breakdown) << sparse.message;
  EXPECT_EQ(sparse.iterations, every.iterations);
  EXPECT_EQ(sparse.message, every.message);
  auto x1 = host(*p1.x), x2 = host(*p2.x);
  for (index i = 0; i < p1.n; ++i) ASSERT_EQ(x1[i], x2[i]);  // x as at the breakdown
}

TEST(Pcg, AutomaticCheckInterval) {
  // Fixed, and the host (every iteration).
  EXPECT_EQ(next_check_interval(3, true, 10, 1e-3, 5, 1e-2, 1e-9), 3);
  EXPECT_EQ(next_check_interval(0, false, 10, 1e-3, 5, 1e-2, 1e-9), 1);
  // A device: 8 before a rate is known; the next iteration after a residual that did not fall
  // (BiCGStab's rises at times); then half the predicted rest.
  EXPECT_EQ(next_check_interval(0, true, 0, 1.0, -1, 0, 1e-9), 8);
  EXPECT_EQ(next_check_interval(0, true, 16, 1.0, 8, 1.0, 1e-9), 1);
  EXPECT_EQ(next_check_interval(0, true, 14, 5e-6, 13, 7e-8, 1e-9), 1);
  // The previous solve of the system took 5 iterations: the first check after 4 (not after 8
  // when it took 20), then by the rate as before.
  EXPECT_EQ(next_check_interval(0, true, 0, 1.0, -1, 0, 1e-9, 5), 4);
  EXPECT_EQ(next_check_interval(0, true, 0, 1.0, -1, 0, 1e-9, 1), 1);
  EXPECT_EQ(next_check_interval(0, true, 0, 1.0, -1, 0, 1e-9, 20), 8);
  EXPECT_NEAR(next_check_interval(0, true, 40, 1e-3, 30, 1e-2, 1e-9, 5), 30, 1);
  // 1e-2 -> 1e-3 in 10 iterations: 60 more to 1e-9, so the next check in 30 ...
  EXPECT_NEAR(next_check_interval(0, true, 40, 1e-3, 30, 1e-2, 1e-9), 30, 1);  // rounding
  // ... but no more iterations than done so far (at least 8).
  EXPECT_EQ(next_check_interval(0, true, 20, 1e-3, 10, 1e-2, 1e-9), 20);
  EXPECT_EQ(next_check_interval(0, true, 4, 0.5, 2, 1.0, 1e-9), 8);
  // Near the target: every iteration; far from it: at most 64.
  EXPECT_EQ(next_check_interval(0, true, 20, 1.1e-9, 10, 1e-8, 1e-9), 1);
  EXPECT_EQ(next_check_interval(0, true, 100, 0.9, 90, 1.0, 1e-9), 64);
}

}  // namespace
}  // namespace scfd::solvers
