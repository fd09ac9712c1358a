// The solvers of non-symmetric systems on the cpu backend, their scalars kept in Backend::Scalars.
// BiCGStab: solves a non-symmetric (convection-diffusion) system to tolerance, checked against
// the true residual; reports non-convergence; checks every k iterations change where a solve
// stops, never the iterates; restarts when r0·r vanishes, reports a breakdown a restart cannot
// mend; a zero right-hand side gives x = 0. GMRES: the same system in fewer products, with and
// without restarts; the check interval changes nothing at all; an invariant subspace ends the
// solve exactly; the relTol stop, non-convergence and a zero right-hand side as BiCGStab's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "solvers/bicgstab.hpp"
#include "solvers/gmres.hpp"

namespace scfd::solvers {
namespace {

using backend::Field;
using backend::cpu::host;

// 1D convection-diffusion: tridiagonal, diagonal 2 + shift, off-diagonals -1 -+ c (upwind-free
// central convection): non-symmetric for c != 0.
class ConvectionDiffusion final : public LinearOperator {
 public:
  ConvectionDiffusion(index n, real shift, real c) : n_(n), shift_(shift), c_(c) {}
  index size() const override { return n_; }
  index owned() const override { return n_; }
  void apply(Field& xf, Field& yf) const override {
    auto x = host(xf);
    auto y = host(yf);
    for (index i = 0; i < n_; ++i) {
      real v = (2 + shift_) * x[i];
      if (i > 0) v -= (1 + c_) * x[i - 1];
      if (i + 1 < n_) v -= (1 - c_) * x[i + 1];
      y[i] = v;
    }
  }
  void diagonal(Field& df) const override {
    for (real& d : host(df)) d = 2 + shift_;
  }

 private:
  index n_;
  real shift_, c_;
};

struct Problem {
  backend::cpu::CpuBackend be;
  index n = 300;
  std::unique_ptr<Field> b = be.make_field(n), x = be.make_field(n), r = be.make_field(n);
  Problem() {
    auto bh = host(*b);
    for (index i = 0; i < n; ++i) bh[i] = std::cos(0.07 * i) + 0.2;
  }
  real true_residual(const LinearOperator& a) {
    a.apply(*x, *r);
    be.xpay(*b, -1, *r);
    return std::sqrt(be.dot(*r, *r, n) / be.dot(*b, *b, n));
  }
};

TEST(BiCgStab, ConvergesOnANonSymmetricSystem) {
  Problem p;
  ConvectionDiffusion a(p.n, 0.05, 0.4);
  BiCgStab solver(p.be, p.n);
  const SolveResult res = solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-10});
  ASSERT_TRUE(res.converged()) << res.message;
  EXPECT_LT(p.true_residual(a), 1e-9);
  EXPECT_GT(res.iterations, 5);
  // r0·r falls to 1e-10 |r0| |r| here; the restarts cut 313 iterations to 188.
  EXPECT_GE(res.restarts, 1);
  EXPECT_LT(res.iterations, 250);
}

// OpenFOAM's relTol (the momentum solve's solver.momentum_reduction): from a guess close to the
// solution (the answer to 1e-4) the solve stops once the residual has fallen by the factor, in
// fewer iterations than the strict tolerance it was also given.
template <class Solver>
void expect_initial_tolerance_stop() {
  Problem p;
  ConvectionDiffusion a(p.n, 0.05, 0.4);
  Solver solver(p.be, p.n);
  ASSERT_TRUE(solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-4}).converged());
  std::vector<real> guess(host(*p.x).begin(), host(*p.x).end());
  a.apply(*p.x, *p.r);
  p.be.xpay(*p.b, -1, *p.r);
  const real r0 = std::sqrt(p.be.dot(*p.r, *p.r, p.n));
  const SolveResult reduced =
      solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12, .initial_tolerance = 1e-3});
  ASSERT_TRUE(reduced.converged()) << reduced.message;
  EXPECT_LE(reduced.residual, 1e-3 * r0);
  EXPECT_GT(reduced.relative_residual, 1e-12);
  std::copy(guess.begin(), guess.end(), host(*p.x).begin());
  const SolveResult strict = solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12});
  EXPECT_LT(reduced.iterations, strict.iterations);
}

TEST(BiCgStab, InitialToleranceStopsAtAReductionOfTheFirstResidual) {
  expect_initial_tolerance_stop<BiCgStab>();
}

// z = T^-1 r, T the symmetric part of ConvectionDiffusion (tridiagonal 2 + shift, -1): an exact
// solve (Thomas algorithm), the kind of preconditioner ns-exact's multigrid approximates.
class SymmetricPartInverse final : public Preconditioner {
 public:
  SymmetricPartInverse(index n, real shift) : n_(n), shift_(shift) {}
  void apply(Field& rf, Field& zf) const override {
    const auto r = host(rf);
    auto z = host(zf);
    std::vector<real> c(static_cast<std::size_t>(n_));
    real denom = 2 + shift_;
    c[0] = -1 / denom;
    z[0] = r[0] / denom;
    for (index i = 1; i < n_; ++i) {
      denom = 2 + shift_ + c[i - 1];
      c[i] = -1 / denom;
      z[i] = (r[i] + z[i - 1]) / denom;
    }
    for (index i = n_ - 2; i >= 0; --i) z[i] -= c[i] * z[i + 1];
  }

 private:
  index n_;
  real shift_;
};

TEST(BiCgStab, TakesAPreconditioner) {
  Problem p;
  ConvectionDiffusion a(p.n, 0.05, 0.4);
  const SymmetricPartInverse m(p.n, 0.05);
  BiCgStab solver(p.be, p.n);
  const SolveResult res = solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-10}, &m);
  ASSERT_TRUE(res.converged()) << res.message;
  EXPECT_LT(p.true_residual(a), 1e-9);
  EXPECT_LT(res.iterations, 40) << res.message;  // Jacobi: 188 (ConvergesOnANonSymmetricSystem)
}

TEST(BiCgStab, ReportsNonConvergence) {
  Problem p;
  ConvectionDiffusion a(p.n, 0.0001, 0.4);
  BiCgStab solver(p.be, p.n);
  const SolveResult res =
      solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-12, .max_iterations = 3});
  EXPECT_EQ(res.status, SolveStatus::max_iterations);
  EXPECT_EQ(res.iterations, 3);
  EXPECT_NE(res.message.find("did not converge in 3 iterations"), std::string::npos) << res.message;
}

TEST(BiCgStab, CheckIntervalChangesWhereItStopsNotTheIterates) {
  Problem p1, p2;
  ConvectionDiffusion a(p1.n, 0.0001, 0.4);
  BiCgStab s1(p1.be, p1.n), s2(p2.be, p2.n);
  // Both run exactly 18 iterations (not a multiple of 4: the last check comes at the cap), short
  // of the restart at iteration 21 (a restart comes at a check, so after one the iterates
  // depend on the interval).
  const auto r1 = s1.solve(a, *p1.b, *p1.x, {.relative_tolerance = 1e-14, .max_iterations = 18});
  const auto r2 = s2.solve(a, *p2.b, *p2.x,
                           {.relative_tolerance = 1e-14, .max_iterations = 18, .check_every = 4});
  EXPECT_EQ(r1.status, SolveStatus::max_iterations);
  EXPECT_EQ(r2.status, SolveStatus::max_iterations);
  EXPECT_EQ(r1.restarts, 0);
  EXPECT_EQ(r2.restarts, 0);
  EXPECT_EQ(r2.iterations, 18);
  EXPECT_EQ(r1.residual, r2.residual);
  auto x1 = host(*p1.x), x2 = host(*p2.x);
  for (index i = 0; i < p1.n; ++i) ASSERT_EQ(x1[i], x2[i]);
  // Converging with checks every 4 stops within 3 iterations after the every-iteration solve
  // (on a system that needs no restart).
  p1.be.fill(*p1.x, 0);
  p2.be.fill(*p2.x, 0);
  ConvectionDiffusion easier(p1.n, 1.0, 0.4);
  const auto c1 = s1.solve(easier, *p1.b, *p1.x, {.relative_tolerance = 1e-9});
  const auto c2 = s2.solve(easier, *p2.b, *p2.x, {.relative_tolerance = 1e-9, .check_every = 4});
  ASSERT_TRUE(c1.converged() && c2.converged()) << c1.message << " / " << c2.message;
  EXPECT_EQ(c1.restarts + c2.restarts, 0);
  EXPECT_GE(c2.iterations, c1.iterations);
  EXPECT_LT(c2.iterations, c1.iterations + 4);
  EXPECT_EQ(c2.iterations % 4, 0);
}

// A small dense operator with unit diagonal (the Jacobi preconditioner is the identity).
class Dense final : public LinearOperator {
 public:
  explicit Dense(std::vector<std::vector<real>> a) : a_(std::move(a)) {}
  index size() const override { return static_cast<index>(a_.size()); }
  index owned() const override { return size(); }
  void apply(Field& xf, Field& yf) const override {
    auto x = host(xf);
    auto y = host(yf);
    for (std::size_t i = 0; i < a_.size(); ++i) {
      y[i] = 0;
      for (std::size_t j = 0; j < a_.size(); ++j) y[i] += a_[i][j] * x[j];
    }
  }
  void diagonal(Field& df) const override {
    for (real& d : host(df)) d = 1;
  }

 private:
  std::vector<std::vector<real>> a_;
};

// From b = e1: alpha_0 = 1, s = (0, -1, -1), t = (0, -2, 0), omega_0 = 1/2, r1 = (0, 0, -1),
// exactly orthogonal to r0 = b, so rho_1 = 0 and the textbook loop breaks down; the restart
// (r0 = r1) goes on to the solution (1, 0, -1).
TEST(BiCgStab, RestartsWhenTheShadowResidualIsOrthogonal) {
  backend::cpu::CpuBackend be;
  const Dense a({{1, 0, 0}, {1, 1, 1}, {1, -1, 1}});
  const auto b = be.make_field_from(std::vector<real>{1, 0, 0}), x = be.make_field(3);
  BiCgStab solver(be, 3);
  const SolveResult res = solver.solve(a, *b, *x, {.relative_tolerance = 1e-12});
  ASSERT_TRUE(res.converged()) << res.message;
  EXPECT_GE(res.restarts, 1);
  const std::vector<real> want{1, 0, -1};
  auto xs = host(*x);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(xs[i], want[i], 1e-12) << i;
}

// b = (1, 1) with b·Ab = 0: alpha and omega are 0 from the start, the restart at iteration 1
// changes nothing: a breakdown at iteration 2, never a NaN or a loop to the iteration cap.
TEST(BiCgStab, ReportsABreakdownARestartCannotMend) {
  backend::cpu::CpuBackend be;
  const Dense a({{1, 2}, {-4, 1}});
  const auto b = be.make_field_from(std::vector<real>{1, 1}), x = be.make_field(2);
  BiCgStab solver(be, 2);
  const SolveResult res = solver.solve(a, *b, *x, {});
  EXPECT_EQ(res.status, SolveStatus::breakdown);
  EXPECT_EQ(res.iterations, 2);
  EXPECT_EQ(res.restarts, 1);
  EXPECT_NE(res.message.find("no progress since the restart"), std::string::npos) << res.message;
  for (const real v : host(*x)) EXPECT_TRUE(std::isfinite(v));
}

TEST(BiCgStab, ZeroRightHandSideGivesZero) {
  Problem p;
  ConvectionDiffusion a(p.n, 0.05, 0.4);
  p.be.fill(*p.b, 0);
  p.be.fill(*p.x, 3);
  BiCgStab solver(p.be, p.n);
  EXPECT_TRUE(solver.solve(a, *p.b, *p.x, {}).converged());
  EXPECT_EQ(p.be.dot(*p.x, *p.x, p.n), 0);
}

// Jacobi-GMRES on the system BiCGStab takes 188 iterations (376 products) for: with the default
// restart of 30 and with restarts every 10, the true residual at the tolerance and the reported
// least-squares residual equal to it.
TEST(Gmres, ConvergesOnANonSymmetricSystemInFewerProducts) {
  for (const int restart : {Gmres::kDefaultRestart, 10}) {
    Problem p;
    ConvectionDiffusion a(p.n, 0.05, 0.4);
    Gmres solver(p.be, p.n, restart);
    const SolveResult res = solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-10});
    ASSERT_TRUE(res.converged()) << res.message;
    const real true_residual = p.true_residual(a);
    EXPECT_LT(true_residual, 1.01e-10) << restart;
    EXPECT_NEAR(res.relative_residual, true_residual, 1e-3 * true_residual) << restart;
    EXPECT_GE(res.restarts, 1) << restart;
    EXPECT_LT(res.iterations, 376) << restart;
  }
}

TEST(Gmres, TakesAPreconditioner) {
  Problem p;
  ConvectionDiffusion a(p.n, 0.05, 0.4);
  const SymmetricPartInverse m(p.n, 0.05);
  Gmres solver(p.be, p.n);
  const SolveResult res = solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-10}, &m);
  ASSERT_TRUE(res.converged()) << res.message;
  EXPECT_LT(p.true_residual(a), 1.01e-10);
  EXPECT_LT(res.iterations, 60) << res.message;  // BiCGStab: under 40 iterations, 80 products
}

// The host finds the first iteration that met the tolerance from the Hessenberg matrix, whenever
// it checks: checks every 7 iterations give the answer of checks every iteration, bit for bit.
TEST(Gmres, CheckIntervalChangesNothing) {
  Problem p1, p2;
  ConvectionDiffusion a(p1.n, 0.05, 0.4);
  const SymmetricPartInverse m(p1.n, 0.05);
  Gmres s1(p1.be, p1.n), s2(p2.be, p2.n);
  const auto r1 = s1.solve(a, *p1.b, *p1.x, {.relative_tolerance = 1e-10}, &m);
  const auto r2 = s2.solve(a, *p2.b, *p2.x, {.relative_tolerance = 1e-10, .check_every = 7}, &m);
  ASSERT_TRUE(r1.converged() && r2.converged()) << r1.message << " / " << r2.message;
  EXPECT_NE(r1.iterations % 7, 0);
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_EQ(r1.residual, r2.residual);
  auto x1 = host(*p1.x), x2 = host(*p2.x);
  for (index i = 0; i < p1.n; ++i) ASSERT_EQ(x1[i], x2[i]) << i;
}

// b = e1 for A = diag(1, 2, 4) + e1 e2^T: A e1 = e1, so the Krylov space is invariant after one
// product (h_10 = 0) and the solve ends exactly there; from b = (1, 1, 1) (every A^k b has equal
// first two entries) after two.
TEST(Gmres, EndsExactlyInAnInvariantSubspace) {
  backend::cpu::CpuBackend be;
  const Dense a({{1, 1, 0}, {0, 2, 0}, {0, 0, 4}});
  for (const auto& [b, iterations, want] :
       {std::tuple{std::vector<real>{1, 0, 0}, 1, std::vector<real>{1, 0, 0}},
        std::tuple{std::vector<real>{1, 1, 1}, 2, std::vector<real>{0.5, 0.5, 0.25}}}) {
    const auto bf = be.make_field_from(b), x = be.make_field(3);
    Gmres solver(be, 3);
    const SolveResult res = solver.solve(a, *bf, *x, {.relative_tolerance = 1e-14});
    ASSERT_TRUE(res.converged()) << res.message;
    EXPECT_EQ(res.iterations, iterations);
    auto xs = host(*x);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(xs[i], want[i], 1e-14) << i;
  }
}

TEST(Gmres, InitialToleranceMaxIterationsAndZeroRightHandSide) {
  Problem p;
  ConvectionDiffusion a(p.n, 0.05, 0.4);
  Gmres solver(p.be, p.n);
  expect_initial_tolerance_stop<Gmres>();

  const SolveResult capped =
      solver.solve(a, *p.b, *p.x, {.relative_tolerance = 1e-14, .max_iterations = 3});
  EXPECT_EQ(capped.status, SolveStatus::max_iterations);
  EXPECT_EQ(capped.iterations, 3);
  EXPECT_NE(capped.message.find("did not converge in 3 iterations"), std::string::npos)
      << capped.message;

  p.be.fill(*p.b, 0);
  p.be.fill(*p.x, 3);
  EXPECT_TRUE(solver.solve(a, *p.b, *p.x, {}).converged());
  EXPECT_EQ(p.be.dot(*p.x, *p.x, p.n), 0);
}

}  // namespace
}  // namespace scfd::solvers
