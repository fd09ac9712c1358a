// Jacobi-PCG on the cpu backend: solves a small SPD system to tolerance (checked against the
// true residual), reports non-convergence and breakdown instead of returning garbage, and gives
// the same iterations and bits on repeated solves.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace scfd::solvers
