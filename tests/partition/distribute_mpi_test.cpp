// distribute() under mpirun (np = 2, 3, 4): every rank receives exactly the mesh that
// extract_local cuts for it (all fields, and the same bytes when packed), the quality figures are
// the same on every rank, and a mesh with fewer cells than ranks gives the same InputError on
// every rank without hanging; the same when rank 0 cuts the meshes on several threads.
#include <gtest/gtest.h>
#include <mpi.h>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "partition/distribute.hpp"
#include "partition/extract.hpp"
#include "partition/fixtures.hpp"
#include "partition/pack.hpp"

namespace scfd::partition::testing {
namespace {

int comm_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int comm_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

class PartitionDistribute : public ::testing::TestWithParam<std::string> {};

TEST_P(PartitionDistribute, EachRankGetsItsExtractedMesh) {
  // Every rank builds the global mesh here only to compute the expected result.
  const Mesh& global = test_mesh(GetParam());
  PartitionQuality q;
  const Mesh mine = distribute(comm_rank() == 0 ? &global : nullptr, MPI_COMM_WORLD, &q);
  const Mesh want = extract_local(global, test_parts(GetParam(), comm_size()), comm_rank());
  expect_mesh_equal(mine, want);
  EXPECT_TRUE(pack(mine) == pack(want));
  EXPECT_EQ(q.parts, comm_size());
  EXPECT_EQ(q.cells, global.n_cells);
  double figures[2] = {q.imbalance, static_cast<double>(q.edge_cut)}, low[2], high[2];
  MPI_Allreduce(figures, low, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(figures, high, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(low[0], high[0]);
  EXPECT_EQ(low[1], high[1]);
}

// Rank 0 cuts and packs two ranks' meshes at a time on two threads (in two waves at np 3 and 4):
// every rank still receives exactly its extracted mesh.
TEST_P(PartitionDistribute, RanksCutOnThreadsGetTheirExtractedMeshes) {
  const Mesh& global = test_mesh(GetParam());
  const int threads = host_threads();
  set_host_threads(2);
  const Mesh mine = distribute(comm_rank() == 0 ? &global : nullptr, MPI_COMM_WORLD);
  set_host_threads(threads);
  const Mesh want = extract_local(global, test_parts(GetParam(), comm_size()), comm_rank());
  expect_mesh_equal(mine, want);
  EXPECT_TRUE(pack(mine) == pack(want));
}

INSTANTIATE_TEST_SUITE_P(partition, PartitionDistribute,
                         ::testing::Values("square_jitter", "cube_jitter", "gmsh_part"));

// On one rank (MPI_COMM_SELF here) the serial mesh comes back unchanged, without gids.
TEST(PartitionDistributeSelf, OneRankKeepsTheSerialMesh) {
  const Mesh& global = test_mesh("cube_jitter");
  PartitionQuality q;
  const Mesh same = distribute(&global, MPI_COMM_SELF, &q);
  expect_mesh_equal(same, global);
  EXPECT_FALSE(same.distributed());
  EXPECT_EQ(q.parts, 1);
  EXPECT_EQ(q.edge_cut, 0);
}

// A mesh of (ranks - 1) or fewer cells cannot give every rank a cell.
TEST(PartitionDistributeErrors, TooFewCellsFailOnEveryRank) {
  const Mesh tiny = tiny_mesh(comm_size() >= 3 ? 2 : 1);
  std::string message = "no error";
  try {
    distribute(comm_rank() == 0 ? &tiny : nullptr, MPI_COMM_WORLD);
  } catch (const InputError& e) {
    message = e.what();
  }
  const std::string want = "tiny.msh: cannot split " + std::to_string(tiny.n_cells) +
                           " cells into " + std::to_string(comm_size()) + " parts: part " +
                           std::to_string(tiny.n_cells) + " is empty; use fewer ranks";
  EXPECT_EQ(message, want) << "rank " << comm_rank();
  // The communicator is still usable: no rank is left inside distribute.
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, comm_size());
}

}  // namespace
}  // namespace scfd::partition::testing
