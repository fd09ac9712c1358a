// `streamcfd info MESH` end to end: every broken mesh of tests/data/bad exits with code 2 and one
// line on stderr naming the file and the problem (tests/data/bad/README.md), whether the reader
// or topology::build_mesh finds it; a good mesh exits 0, and `--json` prints one JSON object
// with the right cell count.
#include <gtest/gtest.h>

#include <string>

#include "common/run_command.hpp"

namespace {

// Runs `streamcfd ARGS` with stdout and stderr captured.
scfd::test::CommandResult run_streamcfd(const std::string& args) {
  return scfd::test::run_command(std::string("'") + SCFD_BINARY + "' " + args);
}

std::string data(const std::string& rel) {
  return std::string(SCFD_SOURCE_DIR) + "/tests/data/" + rel;
}

struct BadMesh {
  const char* file;    // in tests/data/bad
  const char* phrase;  // expected in the error line
};

// Kept in step with tests/data/bad/README.md. The last seven are found by topology::build_mesh.
const BadMesh kBadMeshes[] = {
    {"empty.msh", "the file is empty"},
    {"truncated-nodes.msh", "truncated"},
    {"malformed-number.msh", "found '1.0.5'"},
    {"missing-end-elements.msh", "$EndElements"},
    {"version-4.0.msh", "save the mesh as 4.1 or 2.2"},
    {"unknown-node.msh", "element 6 references node 99"},
    {"quad-2d.msh", "only triangles (2D) and tetrahedra (3D)"},
    {"hexahedron.msh", "8-node hexahedron"},
    {"second-order-triangle.msh", "gmsh -order 1"},
    {"no-triangles-or-tetrahedra.msh", "no triangles or tetrahedra"},
    {"binary-truncated.msh", "byte 2404"},
    {"unknown-element-type.msh", "type 999"},
    {"negative-count.msh", "number of nodes is -4"},
    {"huge-count.msh", "number of elements is 999999999999"},
    {"duplicate-node-tag.msh", "node tag 3 is defined twice"},
    {"unterminated-section.msh", "has no $EndComments"},
    {"inverted-tet.msh", "is inverted"},
    {"zero-volume-tet.msh", "zero volume"},
    {"duplicate-nodes.msh", "duplicate"},
    {"unused-node.msh", "used by no element"},
    {"face-three-tets.msh", "shared by 3 elements"},
    {"untagged-boundary-face.msh", "in no physical group"},
    {"nonplanar-triangles.msh", "not planar"},
    {"empty-group.msh", "physical group 'inlet' (tag 3) contains no boundary lines"},
    {"duplicate-group-name.msh", "physical groups 1 and 3 are both named 'walls'"},
    {"non-utf8-name.msh", "physical group name is not UTF-8 text"},
    {"tiny-coordinates.msh", "the mesh extends over 1.41e-160"},
    {"huge-coordinates.msh", "coordinates up to 1e+100"},
};

// Shows the file name, not the bytes, in test names and failure messages.
void PrintTo(const BadMesh& b, std::ostream* os) {
  *os << b.file;
}

class InfoBadMesh : public testing::TestWithParam<BadMesh> {};

TEST_P(InfoBadMesh, ExitsWithOneLineError) {
  const BadMesh& b = GetParam();
  const auto r = run_streamcfd("info '" + data(std::string("bad/") + b.file) + "'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "stderr must be exactly one line:\n" << r.err;
  EXPECT_NE(r.err.find(b.file), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(b.phrase), std::string::npos) << "expected '" << b.phrase << "' in\n"
                                                     << r.err;
}

std::string case_name(const testing::TestParamInfo<BadMesh>& info) {
  std::string s = info.param.file;
  s = s.substr(0, s.rfind(".msh"));
  for (char& c : s)
    if (c == '-' || c == '.') c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(BadMeshes, InfoBadMesh, testing::ValuesIn(kBadMeshes), case_name);

TEST(Info, GoodMeshExitsZero) {
  const auto r = run_streamcfd("info '" + data("gmsh/square-msh41.msh") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("66"), std::string::npos) << r.out;  // 66 triangles
}

// Braces and brackets balance outside strings; strings close.
bool looks_like_json_object(const std::string& s) {
  if (s.empty() || s.front() != '{') return false;
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (depth < 0) return false;
    if (depth == 0 && c == '}' && s.find_first_not_of(" \n", i + 1) != std::string::npos)
      return false;
  }
  return depth == 0 && !in_string;
}

TEST(Info, JsonHasTheCellCount) {
  const auto r = run_streamcfd("info --json '" + data("gmsh/cube-msh41.msh") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(looks_like_json_object(r.out)) << r.out;
  EXPECT_NE(r.out.find("\"cells\": 1125"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"dim\": 3"), std::string::npos) << r.out;
}

}  // namespace
