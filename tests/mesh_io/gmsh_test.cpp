// read_gmsh on good files: the same geometry saved by gmsh 4.8 as MSH 2.2 and 4.1, ASCII and
// binary (tests/data/gmsh/*.geo) gives one identical RawMesh, with the counts gmsh reports, the
// named groups and the notes on ignored elements; small hand-written files check sparse node
// tags, untagged boundary elements, entities in several physical groups, parametric nodes and
// skipped sections.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "core/error.hpp"
#include "mesh_io/gmsh.hpp"

namespace scfd::mesh_io {
namespace {

std::string data_file(const std::string& name) {
  return std::string(SCFD_SOURCE_DIR) + "/tests/data/gmsh/" + name;
}

// Writes `text` to a fresh file in the test temp folder and returns its path.
std::string write_temp(const std::string& name, const std::string& text) {
  return test::temp_file("gmsh_test_" + name, text);
}

bool has_note(const RawMesh& m, const std::string& phrase) {
  for (const auto& n : m.notes)
    if (n.find(phrase) != std::string::npos) return true;
  return false;
}

void expect_same_mesh(const RawMesh& a, const RawMesh& b) {
  EXPECT_EQ(a.dim, b.dim);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i)
    for (int k = 0; k < 3; ++k)  // gmsh writes ASCII with 16 digits: not always the same bits
      ASSERT_NEAR(a.nodes[i][k], b.nodes[i][k], 1e-15 * (1 + std::abs(a.nodes[i][k]))) << i;
  EXPECT_EQ(a.node_tags, b.node_tags);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_EQ(a.cell_tags, b.cell_tags);
  EXPECT_EQ(a.cell_group, b.cell_group);
  EXPECT_EQ(a.bfaces, b.bfaces);
  EXPECT_EQ(a.bface_tags, b.bface_tags);
  EXPECT_EQ(a.bface_group, b.bface_group);
  ASSERT_EQ(a.groups.size(), b.groups.size());
  for (std::size_t i = 0; i < a.groups.size(); ++i) {
    EXPECT_EQ(a.groups[i].dim, b.groups[i].dim);
    EXPECT_EQ(a.groups[i].tag, b.groups[i].tag);
    EXPECT_EQ(a.groups[i].name, b.groups[i].name);
  }
  EXPECT_EQ(a.notes, b.notes);
}

const char* const kFormats[] = {"msh22", "msh22-bin", "msh41", "msh41-bin"};

TEST(GmshReader, SquareSameInAllFourFormats) {
  const RawMesh ref = read_gmsh(data_file("square-msh41.msh"));
  // gmsh -2 square.geo: "44 nodes 90 elements" (4 points, 20 lines, 66 triangles); the file holds
  // the elements of physical groups: 1 point, 20 lines, 66 triangles.
  EXPECT_EQ(ref.dim, 2);
  EXPECT_EQ(ref.n_nodes(), 44);
  EXPECT_EQ(ref.n_cells(), 66);
  EXPECT_EQ(ref.n_bfaces(), 20);
  EXPECT_EQ(ref.cells.size(), 3u * 66);
  EXPECT_EQ(ref.bfaces.size(), 2u * 20);
  for (int g : ref.cell_group) EXPECT_EQ(g, 15);
  for (const auto& x : ref.nodes) EXPECT_EQ(x.z, 0.0);
  ASSERT_EQ(ref.groups.size(), 5u);  // the physical point (dim 0) is not listed
  EXPECT_EQ(ref.groups[0].name, "bottom");
  EXPECT_EQ(ref.groups[3].name, "group14");  // unnamed
  EXPECT_EQ(ref.groups[3].tag, 14);
  EXPECT_EQ(ref.groups[4].name, "fluid");
  EXPECT_EQ(ref.groups[4].dim, 2);
  EXPECT_TRUE(has_note(ref, "ignored 1 point elements")) << ref.notes.size();
  for (const char* f : kFormats) {
    SCOPED_TRACE(f);
    expect_same_mesh(read_gmsh(data_file(std::string("square-") + f + ".msh")), ref);
  }
}

TEST(GmshReader, CubeSameInAllFourFormats) {
  const RawMesh ref = read_gmsh(data_file("cube-msh22.msh"));
  // gmsh -3 cube.geo: "339 nodes 1745 elements"; saved: 1 point, 6 lines, 540 triangles in the
  // three surface groups, 1125 tetrahedra.
  EXPECT_EQ(ref.dim, 3);
  EXPECT_EQ(ref.n_nodes(), 339);
  EXPECT_EQ(ref.n_cells(), 1125);
  EXPECT_EQ(ref.n_bfaces(), 540);
  EXPECT_EQ(ref.source, data_file("cube-msh22.msh"));
  ASSERT_EQ(ref.groups.size(), 4u);
  const char* names[] = {"inlet", "outlet", "walls", "fluid"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ref.groups[i].name, names[i]);
    EXPECT_EQ(ref.groups[i].dim, i < 3 ? 2 : 3);
  }
  for (int g : ref.bface_group)
    EXPECT_TRUE(g == ref.groups[0].tag || g == ref.groups[1].tag || g == ref.groups[2].tag);
  EXPECT_TRUE(has_note(ref, "ignored 1 point elements and 6 line elements"));
  for (const char* f : kFormats) {
    SCOPED_TRACE(f);
    expect_same_mesh(read_gmsh(data_file(std::string("cube-") + f + ".msh")), ref);
  }
}

TEST(GmshReader, NodeIndicesAreInRange) {
  for (const char* f : kFormats) {
    const RawMesh m = read_gmsh(data_file(std::string("cube-") + f + ".msh"));
    for (index n : m.cells) ASSERT_TRUE(n >= 0 && n < m.n_nodes());
    for (index n : m.bfaces) ASSERT_TRUE(n >= 0 && n < m.n_nodes());
  }
}

// A hand-written MSH 2.2 square: sparse node tags, an untagged boundary line, several tags, a
// line in two physical groups (written twice).
constexpr const char* kSparse22 = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$Comments
anything at all, even $Nodes in the middle of a line
$EndComments
$Nodes
4
10 0 0 0
2000 1 0 0
7 1 1 0
900000000000 0 1 0
$EndNodes
$Elements
8
1 15 2 5 1 10
11 1 2 3 1 10 2000
15 1 2 9 1 10 2000
12 1 3 3 1 9 2000 7
13 1 2 3 1 7 900000000000
14 1 0 900000000000 10
21 2 2 4 1 10 2000 7
22 2 0 10 7 900000000000
$EndElements
)";

TEST(GmshReader, SparseTagsAndUntaggedElements22) {
  const RawMesh m = read_gmsh(write_temp("sparse22.msh", kSparse22));
  EXPECT_EQ(m.dim, 2);
  EXPECT_EQ(m.node_tags, (std::vector<std::int64_t>{10, 2000, 7, 900000000000}));
  EXPECT_EQ(m.cells, (std::vector<index>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(m.cell_tags, (std::vector<std::int64_t>{21, 22}));
  EXPECT_EQ(m.cell_group, (std::vector<int>{4, 0}));
  // Line 14 has no tags: dropped. Lines 11-13 are kept with their first tag.
  EXPECT_EQ(m.bface_tags, (std::vector<std::int64_t>{11, 12, 13}));
  EXPECT_EQ(m.bface_group, (std::vector<int>{3, 3, 3}));
  EXPECT_EQ(m.bfaces, (std::vector<index>{0, 1, 1, 2, 2, 3}));
  // Element 15 repeats element 11 in group 9: how MSH 2.2 puts one element in two groups.
  ASSERT_EQ(m.groups.size(), 3u);
  EXPECT_EQ(m.groups[0].name, "group3");
  EXPECT_EQ(m.groups[1].name, "group9");
  EXPECT_EQ(m.groups[2].name, "group4");
  EXPECT_TRUE(has_note(m, "1 elements are in several physical groups"));
  EXPECT_TRUE(has_note(m, "ignored 1 point elements"));
  EXPECT_TRUE(has_note(m, "dropped 1 boundary lines in no physical group"));
  EXPECT_TRUE(has_note(m, "skipped section $Comments"));
}

// A hand-written MSH 4.1 tetrahedron: parametric nodes, an entity in two physical groups, an
// untagged surface, a line and point entity, CRLF line ends and a $Periodic section to skip.
constexpr const char* kTet41 = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
3
2 5 "wall"
3 7 "solid"
3 8 "other"
$EndPhysicalNames
$Entities
1 1 2 1
1 0 0 0 0
1 0 0 0 1 0 0 0 2 1 -1
1 0 0 0 1 1 0 1 5 0
2 0 0 0 1 1 1 0 0
1 0 0 0 1 1 1 2 7 8 2 1 2
$EndEntities
$Periodic
0
$EndPeriodic
$Nodes
3 4 1 40
0 1 0 1
1
0 0 0
2 1 1 2
20
40
1 0 0 0.5 0.25
0 1 0 0.5 0.75
3 1 0 1
30
0 0 1
$EndNodes
$Elements
5 5 1 9
0 1 15 1
1 1
1 1 1 1
2 1 20
2 1 2 1
3 1 20 40
2 2 2 1
4 1 40 30
3 1 4 1
9 1 20 40 30
$EndElements
)";

TEST(GmshReader, EntitiesParametricNodesAndNotes41) {
  std::string text = kTet41;
  for (std::size_t i = text.find('\n'); i != std::string::npos; i = text.find('\n', i + 2))
    text.replace(i, 1, "\r\n");  // Windows line ends
  const RawMesh m = read_gmsh(write_temp("tet41.msh", text));
  EXPECT_EQ(m.dim, 3);
  EXPECT_EQ(m.node_tags, (std::vector<std::int64_t>{1, 20, 40, 30}));
  EXPECT_EQ(m.nodes[1].x, 1.0);
  EXPECT_EQ(m.nodes[2].y, 1.0);
  EXPECT_EQ(m.nodes[3].z, 1.0);
  EXPECT_EQ(m.cells, (std::vector<index>{0, 1, 2, 3}));
  EXPECT_EQ(m.cell_tags, (std::vector<std::int64_t>{9}));
  EXPECT_EQ(m.cell_group, (std::vector<int>{7}));  // the first of 7 and 8
  EXPECT_EQ(m.bface_tags, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(m.bface_group, (std::vector<int>{5}));
  ASSERT_EQ(m.groups.size(), 3u);
  EXPECT_EQ(m.groups[0].name, "wall");
  EXPECT_EQ(m.groups[1].name, "solid");
  EXPECT_EQ(m.groups[2].name, "other");
  EXPECT_TRUE(has_note(m, "ignored 1 point elements and 1 line elements"));
  EXPECT_TRUE(has_note(m, "1 elements are in several physical groups"));
  EXPECT_TRUE(has_note(m, "dropped 1 boundary triangles in no physical group"));
  EXPECT_TRUE(has_note(m, "skipped section $Periodic"));
}

// Times one large file: SCFD_GMSH_BENCH=big.msh ctest ... --gtest_also_run_disabled_tests.
TEST(GmshReader, DISABLED_ReadLargeFile) {
  const char* path = std::getenv("SCFD_GMSH_BENCH");
  if (!path) GTEST_SKIP() << "set SCFD_GMSH_BENCH to a .msh file";
  const auto t0 = std::chrono::steady_clock::now();
  const RawMesh m = read_gmsh(path);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %d nodes, %d cells, %d boundary elements read in %.3f s\n", path, m.n_nodes(),
              m.n_cells(), m.n_bfaces(), s);
}

}  // namespace
}  // namespace scfd::mesh_io
