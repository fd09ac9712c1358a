// The multigrid's iterations do not grow with the ranks: AMG-PCG on a cell pressure system (a
// 7-point Laplacian of an n^3 box with face weights that vary, Neumann walls: singular, as the
// pressure of a closed cavity) dealt out to the ranks in blocks, so that each rank's cells lie in
// many pieces, at np = 1..4. Aggregates stay within each rank's rows; the prolongation must reach
// across the interfaces (smoothed with the whole operator), or the iterations grow with the ranks:
// 29-31 at np 2-4 with P smoothed by each rank's owned block, against 19 on one rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "core/collectives.hpp"
#include "halo/halo_plan.hpp"
#include "solvers/amg.hpp"
#include "solvers/pcg.hpp"

namespace scfd::solvers {
namespace {

using backend::Field;
using backend::SparseMatrix;

constexpr index kN = 24;  // cells per side
constexpr int kSerialIterations = 19;

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

TEST(AmgRanks, PressureIterationsDoNotGrowWithTheRanks) {
  const int me = world_rank(), ranks = world_size();
  // Local numbering: owned cells in global order, then the ghosts (the cells across an owned
  // cell's faces that another rank owns) by owner, then global number.
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
        for (const auto& [di, dj, dk] : kFaces)
          if (inside(i + di, j + dj, k + dk) && owner_of(i + di, j + dj, k + dk, ranks) != me)
            ghosts.emplace_back(owner_of(i + di, j + dj, k + dk, ranks),
                                cell(i + di, j + dj, k + dk));
      }
  const auto n_owned = static_cast<index>(gid.size());
  ASSERT_GT(n_owned, 0);
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  std::vector<int> owner;
  for (const auto& [rank, g] : ghosts) {
    local[static_cast<std::size_t>(g)] = static_cast<index>(gid.size());
    gid.push_back(g);
    owner.push_back(rank);
  }
  if (ranks == 1) gid.clear();  // a serial plan: everything owned
  halo::HaloPlan plan =
      halo::HaloPlan::build(halo::Entity::cell, n_owned, gid, owner, MPI_COMM_WORLD);
  SparseMatrix a;
  a.rows = n_owned;
  a.cols = plan.n_local();
  std::vector<real> b(static_cast<std::size_t>(plan.n_local()), 0);
  real mean = 0;  // of the right-hand side over every cell: subtracted (a compatible system)
  for (index g = 0; g < kN * kN * kN; ++g) mean += std::cos(0.37 * static_cast<real>(g));
  mean /= kN * kN * kN;
  for (index i = 0; i < kN; ++i)
    for (index j = 0; j < kN; ++j)
      for (index k = 0; k < kN; ++k) {
        const index g = cell(i, j, k);
        const index row = local[static_cast<std::size_t>(g)];
        if (row < 0 || row >= n_owned) continue;
        real diagonal = 0;
        const index at = a.entries();
        a.column.push_back(row);
        a.value.push_back(0);
        for (const auto& [di, dj, dk] : kFaces) {
          if (!inside(i + di, j + dj, k + dk)) continue;
          const index n = cell(i + di, j + dj, k + dk);
          const real w = weight(g, n);
          a.column.push_back(local[static_cast<std::size_t>(n)]);
          a.value.push_back(-w);
          diagonal += w;
        }
        a.value[static_cast<std::size_t>(at)] = diagonal;
        a.offset.push_back(a.entries());
        b[static_cast<std::size_t>(row)] = std::cos(0.37 * static_cast<real>(g)) - mean;
      }

  backend::cpu::CpuBackend be;
  // Gathered below 200 rows in all, so that three levels are distributed (a case's default,
  // options.gather_size, is for meshes of 10^5 cells and more).
  AmgOptions options = amg_options(be);
  options.gather_size = 200;
  AmgHierarchy h = ranks > 1 ? build_amg(a, plan, options) : build_amg(a, options);
  if (ranks > 1) {
    ASSERT_TRUE(h.gathered.has_value());
    EXPECT_GE(h.levels.size(), 3U) << h.describe();
  }
  const auto amg = std::make_unique<Amg>(be, std::move(h), plan.n_local(), options.sweeps, &plan);
  const BlockOperator op(be, a, plan);
  const auto bf = be.make_field_from(b);
  auto x = be.make_field(a.cols);
  be.fill(*x, 0);
  SolveOptions solve;
  solve.relative_tolerance = 1e-8;
  Pcg pcg(be, a.cols);
  const SolveResult r = pcg.solve(op, *bf, *x, solve, true, amg.get());
  ASSERT_EQ(r.status, SolveStatus::converged) << r.message;
  if (ranks == 1) {
    EXPECT_EQ(r.iterations, kSerialIterations) << "update kSerialIterations";
  }
  EXPECT_LE(r.iterations, 1.2 * kSerialIterations) << ranks << " ranks";
  if (me == 0) std::printf("AMG-PCG at %d ranks: %d iterations\n", ranks, r.iterations);
}

}  // namespace
}  // namespace scfd::solvers
