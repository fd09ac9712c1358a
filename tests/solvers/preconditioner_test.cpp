// The preconditioner table (solvers/preconditioner.hpp): the case-file words, the built-in Jacobi
// that assembles nothing, and the multigrid made through the table being the one a direct
// make_amg gives (the same PCG iterations and bits).
#include "solvers/preconditioner.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "solvers/amg.hpp"
#include "solvers/matrix_operator.hpp"
#include "solvers/pcg.hpp"

namespace scfd::solvers {
namespace {

using backend::Field;
using backend::SparseMatrix;

// The 1D Laplacian of n nodes with both ends held (definite).
SparseMatrix chain(index n) {
  SparseMatrix a;
  a.rows = a.cols = n;
  for (index i = 0; i < n; ++i) {
    for (const index j : {i - 1, i, i + 1}) {
      if (j < 0 || j >= n) continue;
      a.column.push_back(j);
      a.value.push_back(j == i ? 2.0 : -1.0);
    }
    a.offset.push_back(a.entries());
  }
  return a;
}

using test::MatrixOperator;

TEST(Preconditioners, TableHoldsTheCaseFileWords) {
  const std::vector<std::string_view> names(preconditioner_names().begin(),
                                            preconditioner_names().end());
  EXPECT_EQ(names, (std::vector<std::string_view>{"jacobi", "amg"}));
  for (const PreconditionerEntry& e : preconditioner_table())
    EXPECT_EQ(find_preconditioner(e.name).name, e.name);
}

TEST(Preconditioners, JacobiIsPcgsBuiltInAndAssemblesNothing) {
  backend::cpu::CpuBackend be;
  halo::HaloPlan plan = halo::HaloPlan::build(halo::Entity::cell, 8, {}, {}, MPI_COMM_WORLD);
  bool assembled = false;
  const auto matrix = [&] {
    assembled = true;
    return chain(8);
  };
  EXPECT_EQ(make_preconditioner("jacobi", {be, matrix, plan, "test"}), nullptr);
  EXPECT_FALSE(assembled);
}

TEST(Preconditioners, AmgFromTheTableIsMakeAmgs) {
  const index n = 4000;
  backend::cpu::CpuBackend be;
  halo::HaloPlan plan = halo::HaloPlan::build(halo::Entity::cell, n, {}, {}, MPI_COMM_WORLD);
  const SparseMatrix a = chain(n);
  const std::unique_ptr<Preconditioner> table =
      make_preconditioner("amg", {be, [&] { return a; }, plan, "test"});
  ASSERT_NE(table, nullptr);
  const std::unique_ptr<Amg> direct = make_amg(be, a, plan, "test");
  MatrixOperator op(be, a);
  std::vector<real> bh(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) bh[static_cast<std::size_t>(i)] = std::sin(0.01 * i);
  const auto b = be.make_field_from(bh);
  SolveOptions options;
  options.relative_tolerance = 1e-10;
  Pcg pcg(be, n);
  std::vector<real> x[2];
  int iterations[2] = {};
  const Preconditioner* m[2] = {table.get(), direct.get()};
  for (int k = 0; k < 2; ++k) {
    const auto xf = be.make_field(n);
    const SolveResult r = pcg.solve(op, *b, *xf, options, true, m[k]);
    ASSERT_TRUE(r.converged()) << r.message;
    iterations[k] = r.iterations;
    x[k].resize(static_cast<std::size_t>(n));
    be.download(*xf, x[k]);
  }
  EXPECT_EQ(iterations[0], iterations[1]);
  EXPECT_LT(iterations[0], 30);  // Jacobi needs thousands on this chain
  EXPECT_EQ(x[0], x[1]);
}

}  // namespace
}  // namespace scfd::solvers
