// Meshes, random fields and tolerances shared by the cpu operator tests (docs/architecture.md §10:
// the identities of §2 to round-off on structured, irregular and strongly distorted meshes, 2D and
// 3D). Every test suite is a value-parameterised test over the mesh names below, instantiated
// with the prefix "operators" so that `ctest -R operators` selects them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "topology/mesh.hpp"

namespace scfd::test {

using topology::Mesh;

// Relative tolerance for exact identities in fp64: a few hundred ulps, enough for sums of tens
// of terms whose magnitudes are given with each check.
inline constexpr real kRoundOff = 1e-12;

// Generated meshes (square_*, cube_*: structured, irregular, distorted, sheared) and the
// committed Gmsh meshes (gmsh_*), which may be missing.
std::vector<std::string> mesh_names();

// The mesh of that name, built once per process; nullptr when its Gmsh file is missing.
const Mesh* find_mesh(const std::string& name);

// Uniform random values in [lo, hi), deterministic from seed.
std::vector<real> random_field(std::size_t n, std::uint64_t seed, real lo = -1, real hi = 1);
std::vector<Vec3> random_vectors(std::size_t n, int dim, std::uint64_t seed);

real max_abs(std::span<const real> v);
real inner(std::span<const real> a, std::span<const real> b);
// Diameter of the bounding box of the mesh nodes.
real mesh_size(const Mesh& m);
// Circumcentre of face f (segment midpoint in 2D, triangle circumcentre in 3D).
Vec3 face_circumcentre(const Mesh& m, index f);
// True for nodes on no boundary face.
std::vector<bool> interior_nodes(const Mesh& m);

// Prints the largest relative error of a check, for the record (visible with --gtest output).
void report(const std::string& what, real relative_error);

// Base of every operator test: skips when the mesh is missing.
class MeshTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override;
  const Mesh& mesh() const { return *mesh_; }
  std::string label(const std::string& what) const { return what + " on " + GetParam(); }

 private:
  const Mesh* mesh_ = nullptr;
};

}  // namespace scfd::test

#define SCFD_INSTANTIATE_MESH_TESTS(Suite)                                                  \
  INSTANTIATE_TEST_SUITE_P(operators, Suite, ::testing::ValuesIn(scfd::test::mesh_names()), \
                           [](const auto& p) { return p.param; })
