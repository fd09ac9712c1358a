// Meshes, partitions and independent checks shared by the partition tests: jittered generated
// squares and cubes and the committed Gmsh meshes, each partitioned for np = 2, 3, 4 and cached;
// owners recomputed from first principles (the cells around each entity in the GLOBAL mesh); a
// field-by-field Mesh comparison.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "topology/mesh.hpp"

namespace scfd::partition::testing {

using topology::Mesh;

// Generated (square_jitter, cube_jitter) and Gmsh (gmsh_*) meshes.
std::vector<std::string> mesh_names();
// The mesh of that name, built once per process.
const Mesh& test_mesh(const std::string& name);
// partition_cells(test_mesh(name), np), cached.
const std::vector<int>& test_parts(const std::string& name, int np);

// A triangle mesh of N_CELLS (1 or 2) cells, every side in patch "wall".
Mesh tiny_mesh(int n_cells);

// Owner of every global entity recomputed from the cells that contain it: nodes through
// node_cells, edges through the cells of node_cells(first node) that contain the second node,
// faces through face_cells.
struct GlobalOwners {
  std::vector<int> node, edge, face;
};
GlobalOwners owners_from_cells(const Mesh& g, const std::vector<int>& part);

// Every field of A equals the same field of B (EXPECTs naming the field).
void expect_mesh_equal(const Mesh& a, const Mesh& b);

// (mesh name, number of parts)
using MeshParts = std::tuple<std::string, int>;
std::string mesh_parts_name(const ::testing::TestParamInfo<MeshParts>& info);

}  // namespace scfd::partition::testing

#define SCFD_INSTANTIATE_PARTITION_TESTS(Suite)                                       \
  INSTANTIATE_TEST_SUITE_P(                                                           \
      partition, Suite,                                                               \
      ::testing::Combine(::testing::ValuesIn(scfd::partition::testing::mesh_names()), \
                         ::testing::Values(2, 3, 4)),                                 \
      scfd::partition::testing::mesh_parts_name)
