// The multigrid's iterations do not grow with the ranks: AMG-PCG on a cell pressure system (a
// 7-point Laplacian of an n^3 box with face weights that vary, Neumann walls: singular, as the
// pressure of a closed cavity) split into x-slabs of uneven width, at np = 1..4. Aggregates stay
// within each rank's rows; the prolongation must still reproduce the constants at the slabs'
// interfaces, or the iterations multiply with the ranks.
#include <gtest/gtest.h>
#include <mpi.h>

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

// Rank r owns x-planes [first(r), first(r + 1)): uneven widths.
index first_plane(int r, int ranks) {
  return static_cast<index>(std::lround(kN * std::pow(static_cast<double>(r) / ranks, 0.8)));
}

// The cell operator A x = b restricted to this rank's rows, ghosts refreshed before a product.
class SlabOperator final : public LinearOperator {
 public:
  SlabOperator(const backend::Backend& be, const SparseMatrix& a, halo::HaloPlan& plan)
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
  const index i0 = first_plane(me, ranks), i1 = first_plane(me + 1, ranks);
  ASSERT_LT(i0, i1);
  // Local numbering: owned cells in global order, then the ghost planes of the lower and the
  // upper neighbour (ascending owner).
  std::vector<index> gid;
  std::vector<int> owner;
  for (index i = i0; i < i1; ++i)
    for (index j = 0; j < kN; ++j)
      for (index k = 0; k < kN; ++k) gid.push_back(cell(i, j, k));
  const auto n_owned = static_cast<index>(gid.size());
  const auto local = [&](index i, index j, index k) {
    if (i >= i0 && i < i1) return ((i - i0) * kN + j) * kN + k;
    return n_owned + (i < i0 ? 0 : (i0 > 0 ? kN * kN : 0)) + j * kN + k;
  };
  for (const index i : {i0 - 1, i1}) {
    if (i < 0 || i >= kN) continue;
    for (index j = 0; j < kN; ++j)
      for (index k = 0; k < kN; ++k) {
        gid.push_back(cell(i, j, k));
        owner.push_back(i < i0 ? me - 1 : me + 1);
      }
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
  for (index i = i0; i < i1; ++i)
    for (index j = 0; j < kN; ++j)
      for (index k = 0; k < kN; ++k) {
        const index row = local(i, j, k), g = cell(i, j, k);
        real diagonal = 0;
        const index at = a.entries();
        a.column.push_back(row);
        a.value.push_back(0);
        for (const auto& [di, dj, dk] : {std::array<index, 3>{-1, 0, 0},
                                         {1, 0, 0},
                                         {0, -1, 0},
                                         {0, 1, 0},
                                         {0, 0, -1},
                                         {0, 0, 1}}) {
          const index ni = i + di, nj = j + dj, nk = k + dk;
          if (ni < 0 || ni >= kN || nj < 0 || nj >= kN || nk < 0 || nk >= kN) continue;
          const real w = weight(g, cell(ni, nj, nk));
          a.column.push_back(local(ni, nj, nk));
          a.value.push_back(-w);
          diagonal += w;
        }
        a.value[static_cast<std::size_t>(at)] = diagonal;
        a.offset.push_back(a.entries());
        b[static_cast<std::size_t>(row)] = std::cos(0.37 * static_cast<real>(g)) - mean;
      }

  backend::cpu::CpuBackend be;
  // Gathered below 2,000 rows in all, so that the finest level is distributed (a case's
  // default, options.gather_size, is for meshes of 10^5 cells and more).
  AmgOptions options = amg_options(be);
  options.gather_size = 2000;
  AmgHierarchy h = ranks > 1 ? build_amg(a, plan, options) : build_amg(a, options);
  if (ranks > 1) {
    ASSERT_TRUE(h.gathered.has_value());
  }
  const auto amg = std::make_unique<Amg>(be, std::move(h), plan.n_local(), options.sweeps, &plan);
  const SlabOperator op(be, a, plan);
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
