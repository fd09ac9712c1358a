// build_mesh on the committed Gmsh meshes (meshes/README.md): every invariant of mesh.hpp, the
// Euler characteristic of each geometry (square, cube: 1; 2D channel with a cylinder: 0; 3D
// channel with a cylinder through it: 0; the bracket with two through-holes: -1), the domain
// measure from cells and from median-dual volumes, and the patch names.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "mesh_io/gmsh.hpp"
#include "topology/build.hpp"
#include "topology/invariants.hpp"
#include "topology/quality.hpp"

namespace scfd::topology::testing {
namespace {

struct Case {
  const char* file;
  long long euler;
  double volume;  // of the meshed (polygonal) domain, to rel_tol
  double rel_tol;
  const char* patch;  // one patch that must exist
};

const double kPi = std::acos(-1.0);

class TopologyGmshMeshes : public ::testing::TestWithParam<Case> {};

TEST_P(TopologyGmshMeshes, BuildsAValidMesh) {
  const Case& k = GetParam();
  const Mesh m = build_mesh(mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/" + k.file));
  expect_valid_mesh(m);
  EXPECT_EQ(m.euler_characteristic(), k.euler);
  EXPECT_NEAR(total_volume(m), k.volume, k.rel_tol * k.volume);
  double dual = 0;
  for (double v : m.node_dual_volume) dual += v;
  EXPECT_NEAR(dual, total_volume(m), 1e-12 * k.volume);
  bool found = false;
  for (const Patch& p : m.patches) found = found || p.name == k.patch;
  EXPECT_TRUE(found) << k.patch;
}

INSTANTIATE_TEST_SUITE_P(Committed, TopologyGmshMeshes,
                         ::testing::Values(Case{"square-1.msh", 1, 1.0, 1e-12, "left"},
                                           Case{"square-3.msh", 1, 1.0, 1e-12, "top"},
                                           Case{"cube-1.msh", 1, 1.0, 1e-12, "front"},
                                           Case{"cube-2.msh", 1, 1.0, 1e-12, "back"},
                                           Case{"channel2d-cylinder-1.msh", 0,
                                                2.2 * 0.41 - kPi * 0.05 * 0.05, 1e-4, "cylinder"},
                                           Case{"channel3d-cylinder-1.msh", 0,
                                                (2.5 * 0.41 - kPi * 0.05 * 0.05) * 0.41, 1e-3,
                                                "cylinder"},
                                           Case{"part-1.msh", -1, 5.90, 1e-2, "hot"}),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           std::string name = param_info.param.file;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

// The circumcentric dual of the Gmsh cavity tetrahedra (meshes/cavity3d-1.msh): some interior
// faces have a negative dual length (non-Delaunay pairs), which `streamcfd info` counts; the
// centroid distance is positive everywhere. The structured-like 2D cavity mesh is Delaunay.
TEST(TopologyDual, CountsNegativeDualLengths) {
  const auto load = [](const char* f) {
    return build_mesh(mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/" + f));
  };
  const Mesh m = load("cavity3d-1.msh");
  const DualStats s = dual_stats(m);
  EXPECT_EQ(s.faces, m.n_faces);
  EXPECT_GT(s.negative, 0);
  index negative = 0;
  for (index f = 0; f < m.n_faces; ++f) {
    negative += m.face_dist[f] < 0 ? 1 : 0;
    EXPECT_GT(centroid_distance(m, f), 0) << f;
  }
  EXPECT_EQ(negative, s.negative);
  EXPECT_EQ(dual_stats(load("cavity-2.msh")).negative, 0);
}

}  // namespace
}  // namespace scfd::topology::testing
