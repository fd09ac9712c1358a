// The Krylov solvers across ranks, on a cell system of a box (a 7-point Laplacian of an n^3 box
// with face weights that vary, Neumann walls) dealt out to the ranks in blocks, so that each
// rank's cells lie in many pieces, at np = 1..4:
// - the multigrid's iterations do not grow with the ranks (the pressure system: singular, as that
//   of a closed cavity). Aggregates stay within each rank's rows; the prolongation must reach
//   across the interfaces (smoothed with the whole operator), or the iterations grow: 29-31 at
//   np 2-4 with P smoothed by each rank's owned block, against 19 on one rank;
// - PCG takes one sum over the ranks per iteration, BiCGStab and GMRES two (on the system with a
//   diagonal shift and an upwind convection), with the iterations of one rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu/cpu_backend.hpp"
#include "core/collectives.hpp"
#include "core/counters.hpp"
#include "core/error.hpp"
#include "halo/halo_plan.hpp"
#include "solvers/amg.hpp"
#include "solvers/bicgstab.hpp"
#include "solvers/gmres.hpp"
#include "solvers/pcg.hpp"

namespace scfd::solvers {
namespace {

using backend::Field;
using backend::SparseMatrix;

constexpr index kN = 24;  // cells per side
constexpr int kSerialIterations = 19;
constexpr int kSerialBicgstabIterations = 38;
constexpr int kSerialGmresIterations = 78;

index cell(index i, index j, index k) {
  return (i * kN + j) * kN + k;
}
// The weight of the face between cells a and b, the same on every rank count.
real weight(index a, index b) {
  return 1 + 0.5 * std::sin(0.1 * static_cast<real>(a + b));
}

// The rank that owns a cell: blocks of 4 x 6 x 5 cells dealt out to the ranks in turn, so that
// every rank's cells lie in many pieces with interfaces in all three directions.
int owner_of(index i, index j, index k, int ranks) {
  return static_cast<int>((i / 4 + 3 * (j / 6) + 5 * (k / 5)) % ranks);
}

// The cell operator A x = b restricted to this rank's rows, ghosts refreshed before a product.
class BlockOperator final : public LinearOperator {
 public:
  BlockOperator(const backend::Backend& be, const SparseMatrix& a, halo::HaloPlan& plan)
      : be_(be), a_(be.make_matrix(a)), plan_(plan), n_(plan.n_local()), owned_(a.rows) {
    std::vector<real> d(static_cast<std::size_t>(n_), 1);
    for (index i = 0; i < a.rows; ++i)
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
        if (a.column[k] == i) d[i] = a.value[k];
    diag_ = be.make_field_from(d);
  }
  index size() const override { return n_; }
  index owned() const override { return owned_; }
  void apply(Field& x, Field& y) const override {
    plan_.exchange(be_, x);
    be_.matrix_apply(*a_, x, y);
  }
  void diagonal(Field& d) const override { be_.copy(*diag_, d); }

 private:
  const backend::Backend& be_;
  std::unique_ptr<backend::Matrix> a_;
  halo::HaloPlan& plan_;
  index n_, owned_;
  std::unique_ptr<Field> diag_;
};

// This rank's rows of the system, a column per local entity of `plan` (owned first), and b.
// shift > 0 adds shift to the diagonal, convection > 0 an upwind convection along +x (a
// non-symmetric system). depth: the ghosts are the other ranks' cells within this many faces of
// an owned cell (2: as deep as a mesh's node-sharing layer reaches through faces).
struct BlockSystem {
  halo::HaloPlan plan;
  SparseMatrix a;
  std::vector<real> b;
};
BlockSystem block_system(real shift = 0, real convection = 0, int depth = 1) {
  const int me = world_rank(), ranks = world_size();
  // Local numbering: owned cells in global order, then the ghosts (the cells within `depth` faces
  // of an owned cell that another rank owns) by owner, then global number.
  constexpr std::array<std::array<index, 3>, 6> kFaces{
      {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}}};
  const auto inside = [](index i, index j, index k) {
    return i >= 0 && i < kN && j >= 0 && j < kN && k >= 0 && k < kN;
  };
  std::vector<index> gid, local(static_cast<std::size_t>(kN * kN * kN), -1);
  std::vector<std::pair<int, index>> ghosts;  // (owner, global number)
  for (index i = 0; i < kN; ++i)
    for (index j = 0; j < kN; ++j)
      for (index k = 0; k < kN; ++k) {
        if (owner_of(i, j, k, ranks) != me) continue;
        local[static_cast<std::size_t>(cell(i, j, k))] = static_cast<index>(gid.size());
        gid.push_back(cell(i, j, k));
        std::vector<std::array<index, 3>> near{{i, j, k}};
        for (int d = 0; d < depth; ++d)
          for (std::size_t n = near.size(), c = 0; c < n; ++c)
            for (const auto& [di, dj, dk] : kFaces)
              near.push_back({near[c][0] + di, near[c][1] + dj, near[c][2] + dk});
        for (const auto& [ni, nj, nk] : near)
          if (inside(ni, nj, nk) && owner_of(ni, nj, nk, ranks) != me)
            ghosts.emplace_back(owner_of(ni, nj, nk, ranks), cell(ni, nj, nk));
      }
  const auto n_owned = static_cast<index>(gid.size());
  SCFD_CHECK(n_owned > 0, "rank {} owns no cell", me);
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  std::vector<int> owner;
  for (const auto& [rank, g] : ghosts) {
    local[static_cast<std::size_t>(g)] = static_cast<index>(gid.size());
    gid.push_back(g);
    owner.push_back(rank);
  }
  if (ranks == 1) gid.clear();  // a serial plan: everything owned
  BlockSystem sys{
      halo::HaloPlan::build(halo::Entity::cell, n_owned, gid, owner, MPI_COMM_WORLD), {}, {}};
  SparseMatrix& a = sys.a;
  a.rows = n_owned;
  a.cols = sys.plan.n_local();
  std::vector<real>& b = sys.b;
  b.assign(static_cast<std::size_t>(a.cols), 0);
  real mean = 0;  // of the right-hand side over every cell: subtracted (a compatible system)
  for (index g = 0; g < kN * kN * kN; ++g) mean += std::cos(0.37 * static_cast<real>(g));
  mean /= kN * kN * kN;
  for (index i = 0; i < kN; ++i)
    for (index j = 0; j < kN; ++j)
      for (index k = 0; k < kN; ++k) {
        const index g = cell(i, j, k);
        const index row = local[static_cast<std::size_t>(g)];
        if (row < 0 || row >= n_owned) continue;
        real diagonal = shift;
        const index at = a.entries();
        a.column.push_back(row);
        a.value.push_back(0);
        for (const auto& [di, dj, dk] : kFaces) {
          if (!inside(i + di, j + dj, k + dk)) continue;
          const index n = cell(i + di, j + dj, k + dk);
          const real w = weight(g, n), upwind = di == -1 ? convection : 0;
          a.column.push_back(local[static_cast<std::size_t>(n)]);
          a.value.push_back(-w - upwind);
          diagonal += w + upwind;
        }
        a.value[static_cast<std::size_t>(at)] = diagonal;
        a.offset.push_back(a.entries());
        b[static_cast<std::size_t>(row)] = std::cos(0.37 * static_cast<real>(g)) - mean;
      }
  return sys;
}

TEST(AmgRanks, PressureIterationsDoNotGrowWithTheRanks) {
  const int me = world_rank(), ranks = world_size();
  BlockSystem sys = block_system();
  const SparseMatrix& a = sys.a;
  halo::HaloPlan& plan = sys.plan;
  backend::cpu::CpuBackend be;
  // Gathered below 200 rows in all, so that three levels are distributed (a case's default,
  // options.gather_size, is for meshes of 10^5 cells and more).
  AmgOptions options = amg_options(be);
  options.gather_size = 200;
  AmgHierarchy h = ranks > 1 ? build_amg(a, plan, options) : build_amg(a, options);
  if (ranks > 1) {
    ASSERT_TRUE(h.gathered.has_value());
    ASSERT_GE(h.levels.size(), 3U) << h.describe();
    EXPECT_EQ(h.levels[0].a_halo.rows, 0);  // the plan is one face deep
    for (std::size_t l = 1; l + 1 < h.levels.size(); ++l)
      EXPECT_EQ(h.levels[l].a_halo.rows, h.levels[l].a.cols) << "level " << l;
  }
  const std::size_t levels = h.levels.size();
  const auto amg = std::make_unique<Amg>(be, std::move(h), plan.n_local(), options.sweeps, &plan);
  const BlockOperator op(be, a, plan);
  const auto bf = be.make_field_from(sys.b);
  auto x = be.make_field(a.cols);
  if (ranks > 1) {  // one cycle: per distributed level above the gathered one, the exchange of
    // the right-hand side and of the prolongated correction (none into the gathered level, whose
    // cycle writes its ghosts; none before the post-smoothing sweep, which reads A P). The finest
    // level, whose ghosts lie one face deep, has no rows at the ghosts (AmgLevel::a_halo): it
    // exchanges the smoothed iterate and the residual instead of the right-hand side.
    const counters::Snapshot c0 = counters::snapshot();
    amg->apply(*bf, *x);
    const counters::Snapshot d = counters::snapshot() - c0;
    EXPECT_EQ(d[counters::Kind::halo_exchange], 2 * (levels - 1));
    EXPECT_EQ(d[counters::Kind::coarse_gather], 1U);
  }
  be.fill(*x, 0);
  SolveOptions solve;
  solve.relative_tolerance = 1e-8;
  Pcg pcg(be, a.cols);
  const counters::Snapshot before = counters::snapshot();
  const SolveResult r = pcg.solve(op, *bf, *x, solve, true, amg.get());
  const std::uint64_t sums = (counters::snapshot() - before)[counters::Kind::reduction];
  ASSERT_EQ(r.status, SolveStatus::converged) << r.message;
  if (ranks > 1) {  // |b|, then one per iteration (Chronopoulos-Gear), the last one's included
    EXPECT_EQ(sums, static_cast<std::uint64_t>(r.iterations) + 2);
  }
  if (ranks == 1) {
    EXPECT_EQ(r.iterations, kSerialIterations) << "update kSerialIterations";
  }
  EXPECT_LE(r.iterations, 1.2 * kSerialIterations) << ranks << " ranks";
  if (me == 0) std::printf("AMG-PCG at %d ranks: %d iterations\n", ranks, r.iterations);
}

// With the ghosts two faces deep (as a mesh's node-sharing layer) every distributed level above
// the gathered one computes its residual at the ghosts the restriction reads (AmgLevel::a_halo):
// a cycle exchanges each level's right-hand side once and the correction once, and gives what the
// cycle that exchanges the smoothed iterate and the residual gives, to rounding.
TEST(AmgRanks, GhostRowsSaveAnExchangePerLevel) {
  const int ranks = world_size();
  if (ranks == 1) GTEST_SKIP() << "one rank has no ghosts";
  backend::cpu::CpuBackend be;
  AmgOptions options = amg_options(be);
  options.gather_size = 200;
  std::vector<std::vector<real>> z;
  for (const int depth : {1, 2}) {
    BlockSystem sys = block_system(0, 0, depth);
    AmgHierarchy h = build_amg(sys.a, sys.plan, options);
    const std::size_t levels = h.levels.size();
    ASSERT_GE(levels, 3U) << h.describe();
    EXPECT_EQ(h.levels[0].a_halo.rows > 0, depth == 2);
    const auto amg =
        std::make_unique<Amg>(be, std::move(h), sys.plan.n_local(), options.sweeps, &sys.plan);
    const auto bf = be.make_field_from(sys.b);
    auto x = be.make_field(sys.a.cols);
    const counters::Snapshot c0 = counters::snapshot();
    amg->apply(*bf, *x);
    const counters::Snapshot d = counters::snapshot() - c0;
    EXPECT_EQ(d[counters::Kind::halo_exchange], 2 * (levels - 1) - 1 + (depth == 1 ? 1 : 0))
        << "ghosts " << depth << " faces deep";
    z.emplace_back(static_cast<std::size_t>(sys.a.cols));
    be.download(*x, z.back());
    z.back().resize(static_cast<std::size_t>(sys.a.rows));  // the owned entries
  }
  real scale = 0, diff = 0;
  for (std::size_t i = 0; i < z[0].size(); ++i) {
    scale = std::max(scale, std::abs(z[0][i]));
    diff = std::max(diff, std::abs(z[1][i] - z[0][i]));
  }
  EXPECT_LE(global_max(diff), 1e-12 * global_max(scale));
}

// The finest level's right-hand side, exchanged two faces deep (AmgLevel::a_halo), comes while
// the rows of its residual that read no ghost are computed (halo/overlap.hpp): with the plan's
// overlap on, a cycle gives the bits it gives with it off, on the cpu and on gl-compute, and
// gl-compute the cpu's to rounding.
TEST(AmgRanks, RightHandSideComesWhileTheInnerRowsAreComputed) {
  if (world_size() == 1) GTEST_SKIP() << "one rank has no ghosts";
  BlockSystem sys = block_system(0, 0, 2);
  backend::BackendOptions debug;
  debug.debug = true;
  std::vector<real> ref;
  for (const char* name : {"cpu", "gl-compute"}) {
    const auto be = backend::make_backend(name, debug);
    std::vector<std::vector<real>> z;
    for (const bool on : {false, true}) {
      sys.plan.set_overlap(on);
      AmgOptions options = amg_options(*be);
      options.gather_size = 200;
      options.coarse_size = 64;
      AmgHierarchy h = build_amg(sys.a, sys.plan, options);
      const AmgLevel& fine = h.levels[0];
      ASSERT_GT(fine.a_halo.rows, fine.a.rows);
      // Some rank's level has rows before its first ghost column: the split is not empty.
      const index inner = backend::leading_rows_below(fine.a_halo, fine.a.rows);
      EXPECT_GT(global_max(static_cast<real>(inner)), 0);
      EXPECT_LT(inner, fine.a.rows);
      const Amg amg(*be, std::move(h), sys.plan.n_local(), options.sweeps, &sys.plan);
      const auto bf = be->make_field_from(sys.b);
      auto x = be->make_field(sys.a.cols);
      amg.apply(*bf, *x);
      z.emplace_back(static_cast<std::size_t>(sys.a.cols));
      be->download(*x, z.back());
      z.back().resize(static_cast<std::size_t>(sys.a.rows));  // the owned entries
    }
    EXPECT_EQ(z[0], z[1]) << name << ": overlap on and off";
    if (ref.empty()) {
      ref = z[0];
      continue;
    }
    real scale = 0, diff = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      scale = std::max(scale, std::abs(ref[i]));
      diff = std::max(diff, std::abs(z[0][i] - ref[i]));
    }
    EXPECT_LE(global_max(diff), 1e-12 * global_max(scale)) << name << " against the cpu";
  }
}

// The distributed cycle (transfers across the interfaces, their exchanges, the gathered level
// writing its ghosts) on the GL backends (Mesa llvmpipe in CI) as on the cpu: the same iterations
// to one, and the same solution to the solver's tolerance.
TEST(AmgRanks, GlBackendsCycleAsTheCpu) {
  const int me = world_rank(), ranks = world_size();
  BlockSystem sys = block_system();
  const auto solve = [&](const backend::Backend& be, std::vector<real>& x_host) {
    AmgOptions options = amg_options(be);
    options.gather_size = 200;
    options.coarse_size = 64;  // as on the cpu, whatever the device (amg_options)
    AmgHierarchy h = ranks > 1 ? build_amg(sys.a, sys.plan, options) : build_amg(sys.a, options);
    const auto amg =
        std::make_unique<Amg>(be, std::move(h), sys.plan.n_local(), options.sweeps, &sys.plan);
    const BlockOperator op(be, sys.a, sys.plan);
    const auto bf = be.make_field_from(sys.b);
    auto x = be.make_field(sys.a.cols);
    be.fill(*x, 0);
    SolveOptions tolerance;
    tolerance.relative_tolerance = 1e-10;
    tolerance.check_every = 1;
    Pcg pcg(be, sys.a.cols);
    const SolveResult r = pcg.solve(op, *bf, *x, tolerance, true, amg.get());
    EXPECT_EQ(r.status, SolveStatus::converged) << be.name() << ": " << r.message;
    // One more cycle: no read-back or whole-field upload (each drains the GPU's queue), the
    // gathered level's included; gl-raster's packs are read-backs (one per exchange, and the
    // gathered level's right-hand side).
    auto z = be.make_field(sys.a.cols);
    const counters::Snapshot c0 = counters::snapshot();
    amg->apply(*bf, *z);
    const counters::Snapshot d = counters::snapshot() - c0;
    const std::uint64_t packs =
        be.name() == "gl-raster" && ranks > 1 ? d[counters::Kind::halo_exchange] + 1 : 0;
    EXPECT_LE(d[counters::Kind::gpu_drain], packs) << be.name();
    x_host.resize(static_cast<std::size_t>(sys.a.cols));
    be.download(*x, x_host);
    x_host.resize(static_cast<std::size_t>(sys.a.rows));
    return r.iterations;
  };
  std::vector<real> x_cpu, x_gl;
  const int cpu_iterations = solve(*backend::make_backend("cpu"), x_cpu);
  // The solution is fixed up to a constant (Neumann walls): compare with the means removed.
  const auto centred = [&](std::vector<real> x) {
    real mean = 0;
    for (const real v : x) mean += v;
    mean = global_sum(mean) / (kN * kN * kN);
    for (real& v : x) v -= mean;
    return x;
  };
  const std::vector<real> ref = centred(x_cpu);
  real scale = 0;
  for (const real v : ref) scale = std::max(scale, std::abs(v));
  scale = global_max(scale);
  for (const char* name : {"gl-compute", "gl-raster"}) {
    backend::BackendOptions options;
    options.debug = true;
    const int iterations = solve(*backend::make_backend(name, options), x_gl);
    EXPECT_NEAR(iterations, cpu_iterations, 1) << name << ", " << ranks << " ranks";
    const std::vector<real> x = centred(x_gl);
    real diff = 0;
    for (std::size_t i = 0; i < x.size(); ++i) diff = std::max(diff, std::abs(x[i] - ref[i]));
    EXPECT_LE(global_max(diff), 1e-7 * scale) << name << ", " << ranks << " ranks";
    if (me == 0)
      std::printf("AMG-PCG on %s at %d ranks: %d iterations (cpu %d)\n", name, ranks, iterations,
                  cpu_iterations);
  }
}

// |f| over all ranks' rows of sys.
real norm(const backend::Backend& be, const BlockSystem& sys, const Field& f) {
  return std::sqrt(global_sum(be.dot(f, f, sys.a.rows)));
}

// |b - A x| over all ranks: the true residual, not a solver's recurrence.
real true_residual(const backend::Backend& be, const BlockOperator& op, const BlockSystem& sys,
                   const Field& b, Field& x) {
  auto r = be.make_field(sys.a.cols);
  op.apply(x, *r);
  be.xpay(b, -1, *r);
  return norm(be, sys, *r);
}

// A solve of the non-symmetric block system (a diagonal shift, an upwind convection) from x = 0 to
// 1e-10 by the solver make(backend, n) gives: its result, the sums over the ranks it took, and
// the true residual |b - A x| (not the recurrence's) with |b|.
struct NonsymmetricSolve {
  SolveResult result;
  std::uint64_t sums = 0;
  real residual = 0, b_norm = 0;
};
template <class Make>
NonsymmetricSolve solve_nonsymmetric(Make make) {
  BlockSystem sys = block_system(0.5, 2.0);
  backend::cpu::CpuBackend be;
  const BlockOperator op(be, sys.a, sys.plan);
  const auto bf = be.make_field_from(sys.b);
  auto x = be.make_field(sys.a.cols);
  be.fill(*x, 0);
  SolveOptions solve;
  solve.relative_tolerance = 1e-10;
  auto solver = make(be, sys.a.cols);
  NonsymmetricSolve out;
  const counters::Snapshot before = counters::snapshot();
  out.result = solver.solve(op, *bf, *x, solve);
  out.sums = (counters::snapshot() - before)[counters::Kind::reduction];
  out.residual = true_residual(be, op, sys, *bf, *x);
  out.b_norm = norm(be, sys, *bf);
  return out;
}

// BiCGStab on a non-symmetric system across the ranks: two sums per iteration (the next r0·r
// and r·r ride on the sum of t·s and t·t) and the iterates of one rank, to rounding.
TEST(AmgRanks, BicgstabTakesTwoSumsPerIteration) {
  const int ranks = world_size();
  const NonsymmetricSolve s =
      solve_nonsymmetric([](const backend::Backend& be, index n) { return BiCgStab(be, n); });
  const SolveResult& r = s.result;
  ASSERT_EQ(r.status, SolveStatus::converged) << r.message;
  EXPECT_NEAR(r.iterations, kSerialBicgstabIterations, 1) << ranks << " ranks";
  if (ranks > 1) {  // |b|, the first r·r, then two per iteration
    EXPECT_LE(s.sums, 2 * static_cast<std::uint64_t>(r.iterations) + 2);
  }
  EXPECT_LE(s.residual, 2e-10 * s.b_norm);
  if (world_rank() == 0)
    std::printf("BiCGStab at %d ranks: %d iterations, %llu sums\n", ranks, r.iterations,
                static_cast<unsigned long long>(s.sums));
}

// GMRES (restart 20, so the solve restarts) on the same system across the ranks: two sums per
// iteration (the Hessenberg column, then the new vector's norm) and one per restart, the
// iterations of one rank, and a residual whose least-squares value is the true one.
TEST(AmgRanks, GmresTakesTwoSumsPerIteration) {
  const int ranks = world_size();
  const NonsymmetricSolve s =
      solve_nonsymmetric([](const backend::Backend& be, index n) { return Gmres(be, n, 20); });
  const SolveResult& r = s.result;
  ASSERT_EQ(r.status, SolveStatus::converged) << r.message;
  EXPECT_GE(r.restarts, 1);
  EXPECT_NEAR(r.iterations, kSerialGmresIterations, 1) << ranks << " ranks";
  if (ranks > 1) {  // |b|, then per cycle |r_0| and two per iteration
    EXPECT_LE(s.sums, 2 * static_cast<std::uint64_t>(r.iterations) + 2 + r.restarts);
  }
  EXPECT_LE(s.residual, 1e-10 * s.b_norm * 1.01);
  EXPECT_NEAR(s.residual, r.residual, 1e-3 * r.residual);
  if (world_rank() == 0)
    std::printf("GMRES at %d ranks: %d iterations, %d restarts, %llu sums\n", ranks, r.iterations,
                r.restarts, static_cast<unsigned long long>(s.sums));
}

}  // namespace
}  // namespace scfd::solvers
