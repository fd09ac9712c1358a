// Connectivity of build_mesh: every invariant of mesh.hpp (invariants.cpp) on hand-built,
// generated, jittered and strongly distorted meshes; Euler characteristic V - E + F - C (3D) or
// V - E + C (2D) = 1 - (number of holes / handles) + (number of cavities); patches and regions.
#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "mesh_io/generate.hpp"
#include "topology/build.hpp"
#include "topology/fixtures.hpp"
#include "topology/invariants.hpp"

namespace scfd::topology::testing {
namespace {

TEST(TopologyConnectivity, SingleTriangle) {
  const Mesh m = build_mesh(make_raw(2, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2}));
  EXPECT_EQ(m.n_nodes, 3);
  EXPECT_EQ(m.n_edges, 3);
  EXPECT_EQ(m.n_faces, 3);
  EXPECT_EQ(m.n_interior_faces, 0);
  EXPECT_EQ(m.euler_characteristic(), 1);
  expect_valid_mesh(m);
}

TEST(TopologyConnectivity, SingleTetrahedron) {
  const Mesh m =
      build_mesh(make_raw(3, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 1, 2, 3}));
  EXPECT_EQ(m.n_edges, 6);
  EXPECT_EQ(m.n_faces, 4);
  EXPECT_EQ(m.n_interior_faces, 0);
  EXPECT_EQ(m.euler_characteristic(), 1);
  expect_valid_mesh(m);
}

TEST(TopologyConnectivity, TwoTetrahedraShareOneFace) {
  const Mesh m = build_mesh(make_raw(3, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}},
                                     {0, 1, 2, 3, 1, 2, 3, 4}),
                            {.renumber = false});
  EXPECT_EQ(m.n_faces, 7);
  EXPECT_EQ(m.n_interior_faces, 1);
  EXPECT_EQ(m.face_cells[0], 0);
  EXPECT_EQ(m.face_cells[1], 1);
  EXPECT_EQ(m.n_edges, 9);
  expect_valid_mesh(m);
}

TEST(TopologyConnectivity, GeneratedSquares) {
  for (double jitter : {0.0, 0.25, 0.5}) {
    SCOPED_TRACE(jitter);
    const Mesh m = build_mesh(mesh_io::generate_square(9, 7, jitter, 3));
    EXPECT_EQ(m.n_cells, 2 * 9 * 7);
    EXPECT_EQ(m.n_nodes, 10 * 8);
    EXPECT_EQ(m.n_boundary_faces(), 2 * (9 + 7));
    EXPECT_EQ(m.euler_characteristic(), 1);
    expect_valid_mesh(m);
  }
}

TEST(TopologyConnectivity, GeneratedCubes) {
  for (double jitter : {0.0, 0.25, 0.5}) {
    SCOPED_TRACE(jitter);
    const Mesh m = build_mesh(mesh_io::generate_cube(4, 5, 3, jitter, 5));
    EXPECT_EQ(m.n_cells, 6 * 4 * 5 * 3);
    EXPECT_EQ(m.n_boundary_faces(), 4 * (4 * 5 + 5 * 3 + 4 * 3));
    EXPECT_EQ(m.euler_characteristic(), 1);
    expect_valid_mesh(m);
  }
}

TEST(TopologyConnectivity, DistortedMeshes) {
  RawMesh square = grid_square(12, 10);
  distort(square);
  expect_valid_mesh(build_mesh(square));
  RawMesh cube = grid_cube(6, 5, 7);
  distort(cube);
  expect_valid_mesh(build_mesh(cube));
}

TEST(TopologyConnectivity, EulerSquareWithHole) {
  const Mesh m = build_mesh(
      grid_square(6, 6, [](int i, int j) { return !(i >= 2 && i <= 3 && j >= 2 && j <= 3); }));
  EXPECT_EQ(m.euler_characteristic(), 0);
  expect_valid_mesh(m);
}

TEST(TopologyConnectivity, EulerCubeWithThroughHoles) {
  const std::set<std::pair<int, int>> columns = {{1, 1}, {4, 4}, {1, 4}};
  for (std::size_t k = 1; k <= columns.size(); ++k) {
    const auto removed = std::set(columns.begin(), std::next(columns.begin(), std::ptrdiff_t(k)));
    const Mesh m = build_mesh(grid_cube(6, 6, 3, [&](int i, int j, int) {
      return removed.count({i, j}) == 0;
    }));
    EXPECT_EQ(m.euler_characteristic(), 1 - static_cast<long long>(k)) << k << " holes";
    expect_valid_mesh(m);
  }
}

TEST(TopologyConnectivity, EulerCubeWithCavity) {
  const Mesh m = build_mesh(
      grid_cube(5, 5, 5, [](int i, int j, int k) { return !(i == 2 && j == 2 && k == 2); }));
  EXPECT_EQ(m.euler_characteristic(), 2);
  expect_valid_mesh(m);
}

TEST(TopologyConnectivity, PatchesOfGeneratedCube) {
  const Mesh m = build_mesh(mesh_io::generate_cube(3, 4, 5));
  ASSERT_EQ(m.patches.size(), 6U);
  const std::size_t expect[6] = {2 * 4 * 5, 2 * 4 * 5, 2 * 3 * 5, 2 * 3 * 5, 2 * 3 * 4, 2 * 3 * 4};
  const char* names[6] = {"left", "right", "bottom", "top", "front", "back"};
  for (int p = 0; p < 6; ++p) {
    EXPECT_EQ(m.patches[p].name, names[p]);
    EXPECT_EQ(m.patches[p].faces.size(), expect[p]) << names[p];
  }
  EXPECT_EQ(m.patches[0].nodes.size(), std::size_t(5 * 6));  // the x = 0 grid of nodes
  ASSERT_EQ(m.regions.size(), 1U);
  EXPECT_EQ(m.regions[0].name, "domain");
  EXPECT_EQ(m.regions[0].n_cells, m.n_cells);
}

TEST(TopologyConnectivity, RegionsFromCellGroups) {
  RawMesh raw = grid_square(4, 4);
  for (std::size_t c = 0; c < raw.cell_group.size(); ++c) raw.cell_group[c] = c < 10 ? 0 : 8;
  std::erase_if(raw.groups, [](const auto& g) { return g.dim == 2; });  // no cell is in "fluid"
  raw.groups.push_back({2, 8, "solid"});
  const Mesh m = build_mesh(raw, {.renumber = false});
  ASSERT_EQ(m.regions.size(), 2U);  // solid, default
  EXPECT_EQ(m.regions[0].name, "solid");
  EXPECT_EQ(m.regions[0].n_cells, m.n_cells - 10);
  EXPECT_EQ(m.regions[1].name, "default");
  EXPECT_EQ(m.regions[1].tag, 0);
  EXPECT_EQ(m.cell_region[0], 1);
  EXPECT_EQ(m.cell_region[10], 0);
  expect_valid_mesh(m);
}

// A case names patches and regions: a group with no faces (cells), or two groups of one name,
// would silently apply a condition to nothing or to the wrong faces.
TEST(TopologyConnectivity, EmptyOrDuplicateGroupsAreInputErrors) {
  const auto error = [](const RawMesh& raw) {
    try {
      build_mesh(raw);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  RawMesh empty_patch = grid_square(3, 3);
  empty_patch.groups.push_back({1, 42, "inlet"});
  EXPECT_EQ(error(empty_patch),
            "test.msh: physical group 'inlet' (tag 42) contains no boundary lines: a boundary "
            "patch needs at least one (give it some or remove the group from the mesh)");
  RawMesh empty_region = grid_square(3, 3);
  empty_region.groups.push_back({2, 43, "solid"});
  EXPECT_NE(error(empty_region).find("physical group 'solid' (tag 43) contains no triangles"),
            std::string::npos);
  RawMesh twice = grid_square(3, 3);
  for (auto& g : twice.groups)
    if (g.name == "right") g.name = "left";
  EXPECT_NE(error(twice).find("physical groups 1 and 2 are both named 'left'"), std::string::npos)
      << error(twice);
}

TEST(TopologyConnectivity, PlaneAwayFromZeroAndTags) {
  RawMesh raw = grid_square(3, 2);
  for (Vec3& p : raw.nodes) p.z = 5;
  const Mesh m = build_mesh(raw);
  expect_valid_mesh(m);
  // File numbers travel with their entities through the renumbering.
  for (index n = 0; n < m.n_nodes; ++n) {
    const auto file_index = std::size_t(m.node_tag[n] - kNodeTag0);
    EXPECT_EQ(m.node_x[n].x, raw.nodes[file_index].x);
    EXPECT_EQ(m.node_x[n].y, raw.nodes[file_index].y);
  }
}

}  // namespace
}  // namespace scfd::topology::testing
