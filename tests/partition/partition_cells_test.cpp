// partition_cells: one part without METIS, deterministic parts, every part non-empty and
// reasonably balanced, quality figures recomputed independently, and the InputErrors for a
// part count below 1 or a part that would be empty.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "partition/fixtures.hpp"
#include "partition/partition.hpp"

namespace scfd::partition::testing {
namespace {

TEST(PartitionCells, OnePartIsAllZerosWithoutMetis) {
  const Mesh& m = test_mesh("cube_jitter");
  PartitionQuality q;
  const std::vector<int> part = partition_cells(m, 1, &q);
  EXPECT_EQ(part, std::vector<int>(static_cast<std::size_t>(m.n_cells), 0));
  EXPECT_EQ(q.parts, 1);
  EXPECT_EQ(q.edge_cut, 0);
  EXPECT_EQ(q.imbalance, 1.0);
  EXPECT_EQ(q.min_cells, m.n_cells);
  EXPECT_EQ(q.max_cells, m.n_cells);
}

TEST(PartitionCells, DeterministicBalancedAndNonEmpty) {
  for (const std::string& name : mesh_names()) {
    for (int np : {2, 3, 4, 7}) {
      SCOPED_TRACE(name + " np " + std::to_string(np));
      const Mesh& m = test_mesh(name);
      PartitionQuality q;
      const std::vector<int> part = partition_cells(m, np, &q);
      EXPECT_EQ(part, partition_cells(m, np));
      std::vector<index> count(static_cast<std::size_t>(np), 0);
      for (int p : part) {
        ASSERT_TRUE(p >= 0 && p < np) << p;
        ++count[static_cast<std::size_t>(p)];
      }
      index cut = 0;
      for (index f = 0; f < m.n_faces; ++f)
        cut += m.face_cells[2 * f + 1] != kNone &&
               part[m.face_cells[2 * f]] != part[m.face_cells[2 * f + 1]];
      EXPECT_EQ(q.parts, np);
      EXPECT_EQ(q.cells, m.n_cells);
      EXPECT_EQ(q.edge_cut, cut);
      EXPECT_GT(q.edge_cut, 0);
      EXPECT_DOUBLE_EQ(q.cut_fraction, static_cast<double>(cut) / m.n_interior_faces);
      EXPECT_EQ(q.min_cells, *std::min_element(count.begin(), count.end()));
      EXPECT_EQ(q.max_cells, *std::max_element(count.begin(), count.end()));
      EXPECT_GT(q.min_cells, 0);
      EXPECT_DOUBLE_EQ(q.imbalance, q.max_cells / (static_cast<double>(m.n_cells) / np));
      EXPECT_LT(q.imbalance, 1.1);  // METIS's default tolerance is 1.03 (+ rounding on tiny meshes)
      EXPECT_GE(q.seconds, 0.0);
    }
  }
}

std::string error_of(const Mesh& m, int np) {
  try {
    partition_cells(m, np);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PartitionCells, BadPartCountsAreInputErrors) {
  const Mesh two = tiny_mesh(2);
  EXPECT_EQ(error_of(two, 3),
            "tiny.msh: cannot split 2 cells into 3 parts: part 2 is empty; use fewer ranks");
  EXPECT_EQ(error_of(tiny_mesh(1), 2),
            "tiny.msh: cannot split 1 cells into 2 parts: part 1 is empty; use fewer ranks");
  EXPECT_NE(error_of(two, 0).find("the number of parts must be >= 1"), std::string::npos);
  EXPECT_NE(error_of(two, -3).find("cannot split 2 cells into -3 parts"), std::string::npos);
  EXPECT_EQ(error_of(tiny_mesh(1), 1), "no error");
}

TEST(PartitionCells, QualityOfAGivenPartition) {
  const Mesh two = tiny_mesh(2);
  const std::vector<int> part = {1, 0};
  const PartitionQuality q = partition_quality(two, part, 3);
  EXPECT_EQ(q.edge_cut, 1);
  EXPECT_EQ(q.interior_faces, 1);
  EXPECT_EQ(q.cut_fraction, 1.0);
  EXPECT_EQ(q.min_cells, 0);
  EXPECT_EQ(q.max_cells, 1);
  EXPECT_DOUBLE_EQ(q.imbalance, 1.5);
}

}  // namespace
}  // namespace scfd::partition::testing
