// The input checks of build_mesh: one hand-made bad RawMesh per kind of error, each expected to
// throw InputError whose one-line message names the file and the offending element / nodes by
// their file numbers; and the reorientation of a mesh whose cells are all negative.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "topology/build.hpp"
#include "topology/fixtures.hpp"
#include "topology/invariants.hpp"

namespace scfd::topology::testing {
namespace {

// Message of the InputError thrown by build_mesh(raw), or "" if none.
std::string error_of(const RawMesh& raw) {
  try {
    build_mesh(raw);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_MESSAGE(raw, ...)                                                          \
  do {                                                                                    \
    const std::string msg = error_of(raw);                                                \
    EXPECT_NE(msg.find("test.msh: "), std::string::npos) << msg;                          \
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;                                  \
    for (const char* part : {__VA_ARGS__})                                                \
      EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg; \
  } while (false)

// Two triangles (0 1 2) (0 2 3) of the unit square.
RawMesh two_triangles() {
  return make_raw(2, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {0, 1, 2, 0, 2, 3});
}

TEST(TopologyChecks, GoodMeshesPass) {
  EXPECT_EQ(error_of(two_triangles()), "");
  EXPECT_EQ(error_of(grid_cube(2, 2, 2)), "");
}

TEST(TopologyChecks, NotPlanar) {
  RawMesh raw = two_triangles();
  raw.nodes[2].z = 0.1;
  EXPECT_MESSAGE(raw, "not planar", "node 12");
}

TEST(TopologyChecks, ZeroVolume) {
  RawMesh raw = two_triangles();
  raw.nodes[3] = {2, 2, 0};  // triangle (0 2 3) is now flat
  EXPECT_MESSAGE(raw, "element 1001", "zero area");
  RawMesh cube = grid_cube(1, 1, 1);
  const index n0 = cube.cells[0];
  cube.cells[1] = n0;  // repeated node
  EXPECT_MESSAGE(cube, "element 1000", "zero volume");
}

TEST(TopologyChecks, InvertedCell) {
  RawMesh raw = grid_square(3, 3);
  std::swap(raw.cells[3 * 4], raw.cells[3 * 4 + 1]);  // cell 4 (file number 1004)
  EXPECT_MESSAGE(raw, "element 1004", "inverted");
}

// The volumes are checked on the host threads: the element named is the first bad one, as in a
// serial loop, on any thread count (48,000 cells: three chunks on three threads).
TEST(TopologyChecks, TheFirstBadElementIsNamedOnAnyThreadCount) {
  for (const int threads : {1, 3}) {
    set_host_threads(threads);
    RawMesh flat = grid_cube(20, 20, 20);
    flat.cells[4 * 40000 + 1] = flat.cells[4 * 40000];  // repeated nodes: zero volume
    flat.cells[4 * 30000 + 1] = flat.cells[4 * 30000];
    EXPECT_MESSAGE(flat, "element 31000", "zero volume");
    RawMesh inverted = grid_cube(20, 20, 20);
    std::swap(inverted.cells[4 * 45000], inverted.cells[4 * 45000 + 1]);
    std::swap(inverted.cells[4 * 20000], inverted.cells[4 * 20000 + 1]);
    EXPECT_MESSAGE(inverted, "element 21000", "inverted");
  }
  set_host_threads(1);
}

TEST(TopologyChecks, AllNegativeIsReoriented) {
  RawMesh raw = grid_square(4, 3);
  for (std::size_t c = 0; c < raw.cell_tags.size(); ++c)
    std::swap(raw.cells[3 * c], raw.cells[3 * c + 2]);
  std::vector<std::string> notes;
  const Mesh m = build_mesh(raw, {}, &notes);
  ASSERT_EQ(notes.size(), 1U);
  EXPECT_NE(notes[0].find("reoriented"), std::string::npos) << notes[0];
  EXPECT_NEAR(total_volume(m), 1.0, 1e-14);
  expect_valid_mesh(m);
}

TEST(TopologyChecks, DuplicateNodes) {
  // Triangle (0 1 2) and triangle (4 2' 3) where node 4 duplicates node 0.
  RawMesh raw =
      make_raw(2, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 0}}, {0, 1, 2, 4, 2, 3});
  EXPECT_MESSAGE(raw, "nodes 10 and 14", "duplicate");
}

TEST(TopologyChecks, UnusedNodes) {
  RawMesh raw = two_triangles();
  raw.nodes.push_back({5, 5, 0});
  raw.node_tags.push_back(77);
  raw.nodes.push_back({6, 5, 0});
  raw.node_tags.push_back(78);
  EXPECT_MESSAGE(raw, "node 77", "used by no element", "2 unused");
}

TEST(TopologyChecks, FaceSharedByThreeCells) {
  // Three triangles on the segment (0 1), fanned around it.
  RawMesh raw = make_raw(2, {{0, 0, 0}, {1, 0, 0}, {0.5, 1, 0}, {0.5, -1, 0}, {0.6, 2, 0}},
                         {0, 1, 2, 1, 0, 3, 0, 1, 4});
  EXPECT_MESSAGE(raw, "face (nodes", "shared by 3 elements", "1000", "1001", "1002");
}

TEST(TopologyChecks, BoundaryFaceInNoGroup) {
  RawMesh raw = grid_cube(1, 1, 1);
  raw.bfaces.erase(raw.bfaces.begin(), raw.bfaces.begin() + 3);
  raw.bface_tags.erase(raw.bface_tags.begin());
  raw.bface_group.erase(raw.bface_group.begin());
  EXPECT_MESSAGE(raw, "boundary face (nodes", "is in no physical group");
}

TEST(TopologyChecks, BoundaryElementInside) {
  RawMesh raw = two_triangles();
  raw.bfaces.insert(raw.bfaces.end(), {0, 2});  // the diagonal: an interior face
  raw.bface_tags.push_back(999);
  raw.bface_group.push_back(9);
  EXPECT_MESSAGE(raw, "boundary element 999", "not on the boundary", "1000", "1001");
}

TEST(TopologyChecks, BoundaryElementNotAFace) {
  RawMesh raw = grid_cube(1, 1, 1);
  raw.bfaces.insert(raw.bfaces.end(), {0, 1, 6});
  raw.bface_tags.push_back(998);
  raw.bface_group.push_back(9);
  EXPECT_MESSAGE(raw, "boundary element 998", "not a face of any element");
}

TEST(TopologyChecks, BoundaryFaceCoveredTwice) {
  RawMesh raw = two_triangles();
  raw.bfaces.insert(raw.bfaces.end(), {raw.bfaces[1], raw.bfaces[0]});
  raw.bface_tags.push_back(997);
  raw.bface_group.push_back(1);
  EXPECT_MESSAGE(raw, "997", "cover the same face");
}

TEST(TopologyChecks, UnsupportedDimension) {
  RawMesh raw = two_triangles();
  raw.dim = 1;
  EXPECT_MESSAGE(raw, "dimension 1");
}

}  // namespace
}  // namespace scfd::topology::testing
