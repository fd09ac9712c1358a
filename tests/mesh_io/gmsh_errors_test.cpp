// read_gmsh on broken files: each file of tests/data/bad that the reader must reject gives one
// InputError naming the file and the line (ASCII) or byte (binary) with the expected phrase
// (tests/data/bad/README.md lists them); the files that only topology can reject read fine; and
// hand-written variants of the header and of binary data are rejected with clear messages.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "core/error.hpp"
#include "mesh_io/gmsh.hpp"

namespace scfd::mesh_io {
namespace {

std::string bad_file(const std::string& name) {
  return std::string(SCFD_SOURCE_DIR) + "/tests/data/bad/" + name;
}

std::string write_temp(const std::string& name, const std::string& text) {
  return test::temp_file("gmsh_errors_" + name, text);
}

// The message of the InputError that reading `path` throws ("" if none).
std::string error_of(const std::string& path) {
  try {
    read_gmsh(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

struct BadCase {
  const char* file;
  const char* where;   // what follows the path: ":LINE:" or ": byte N:" or ":"
  const char* phrase;  // part of the message
};

const BadCase kReaderCases[] = {
    {"empty.msh", ":", "the file is empty"},
    {"truncated-nodes.msh", ":25:", "truncated"},
    {"malformed-number.msh", ":13:", "found '1.0.5'"},
    {"missing-end-elements.msh", ":23:", "file ends before $EndElements"},
    {"version-4.0.msh", ":2:", "save the mesh as 4.1 or 2.2"},
    {"unknown-node.msh", ":23:", "element 6 references node 99"},
    {"quad-2d.msh",
     ":22:", "element 5 has type 3 (4-node quadrangle): only triangles (2D) and tetrahedra (3D)"},
    {"hexahedron.msh", ":22:", "element 1 has type 5 (8-node hexahedron)"},
    {"second-order-triangle.msh", ":21:", "gmsh -order 1"},
    {"no-triangles-or-tetrahedra.msh", ":", "no triangles or tetrahedra"},
    {"binary-truncated.msh", ": byte 2404:", "truncated"},
    {"unknown-element-type.msh", ":23:", "element 6 has type 999"},
    {"negative-count.msh", ":10:", "number of nodes is -4"},
    {"huge-count.msh", ":17:", "number of elements is 999999999999"},
    {"duplicate-node-tag.msh", ":10:", "node tag 3 is defined twice"},
    {"unterminated-section.msh", ":28:", "section $Comments has no $EndComments"},
};

// Broken in ways only topology::build_mesh can see: the reader accepts them.
const char* const kTopologyCases[] = {"inverted-tet.msh",       "zero-volume-tet.msh",
                                      "duplicate-nodes.msh",    "unused-node.msh",
                                      "face-three-tets.msh",    "untagged-boundary-face.msh",
                                      "nonplanar-triangles.msh"};

TEST(GmshErrors, BadFilesGiveOneLineInputError) {
  for (const BadCase& c : kReaderCases) {
    SCOPED_TRACE(c.file);
    const std::string path = bad_file(c.file);
    const std::string msg = error_of(path);
    EXPECT_EQ(msg.rfind(path + c.where, 0), 0u) << msg;
    EXPECT_NE(msg.find(c.phrase), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(GmshErrors, TopologyLevelFilesAreRead) {
  for (const char* f : kTopologyCases) {
    SCOPED_TRACE(f);
    EXPECT_NO_THROW(read_gmsh(bad_file(f)));
  }
}

TEST(GmshErrors, MissingFileAndDirectory) {
  EXPECT_NE(error_of(bad_file("no-such-file.msh")).find("cannot open"), std::string::npos);
  EXPECT_NE(error_of(bad_file("")).find("is a directory"), std::string::npos);
}

constexpr const char* kNodes22 = "$Nodes\n1\n1 0 0 0\n$EndNodes\n";

TEST(GmshErrors, HeaderProblems) {
  struct Case {
    std::string text, phrase;
  };
  const Case cases[] = {
      {"hello\n", ":1: expected $MeshFormat at the start"},
      {"$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", ":2: MSH version '3.0' is not supported"},
      {"$MeshFormat\n4.1 2 8\n$EndMeshFormat\n", ":2: file type is 2, expected 0 to 1"},
      {"$MeshFormat\n4.1 1 4\n$EndMeshFormat\n", ":2: binary data size is 4, expected 8"},
      {"$MeshFormat\n2.2 0 8\n", ":2: file ends before $EndMeshFormat"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\nNodes\n", ":4: expected a section header"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$EndNodes\n", ":4: unexpected $EndNodes"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n", ":3: the file ends without a $Nodes section"},
      {std::string("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n") + kNodes22,
       ":7: the file ends without an $Elements section"},
      {std::string("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n") + kNodes22 + kNodes22,
       ":8: a second $Nodes section"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Elements\n0\n$EndElements\n",
       ":4: $Elements before $Nodes"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 nan 0\n$EndNodes\n",
       ":6: expected node y coordinate (a finite number), found 'nan'"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0\n$EndNodes\n",
       ":6: expected node z coordinate (a finite number), found end of line"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0 0\n$EndNodes\n",
       ":6: node 1: unexpected extra value '0'"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n99999999999999999999 0 0 0\n",
       ":6: node tag is out of range"},
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n2 1 noquotes\n",
       ":6: expected physical group name in double quotes"},
  };
  for (const Case& c : cases) {
    const std::string path = write_temp("header.msh", c.text);
    const std::string msg = error_of(path);
    EXPECT_EQ(msg.rfind(path, 0), 0u) << msg;
    EXPECT_NE(msg.find(c.phrase), std::string::npos) << c.text << "\n -> " << msg;
  }
}

template <typename T>
void put(std::string& s, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  s.append(b, sizeof(T));
}

// A binary MSH 2.2 file with one triangle whose nodes are (int tag, 3 doubles).
std::string binary22(std::int32_t marker, std::int32_t element_type, double y) {
  std::string s = "$MeshFormat\n2.2 1 8\n";
  put(s, marker);
  s += "\n$EndMeshFormat\n$Nodes\n3\n";
  for (int i = 0; i < 3; ++i) {
    put(s, std::int32_t{i + 1});
    put(s, double(i == 1)), put(s, i == 2 ? y : 0.0), put(s, 0.0);
  }
  s += "\n$EndNodes\n$Elements\n1\n";
  for (std::int32_t v : {element_type, 1, 2, 7, 1, 4, 1, 2, 3}) put(s, v);
  return s + "\n$EndElements\n";
}

TEST(GmshErrors, Binary22) {
  const RawMesh m = read_gmsh(write_temp("b22.msh", binary22(1, 2, 1.0)));
  EXPECT_EQ(m.n_cells(), 1);
  EXPECT_EQ(m.cell_tags[0], 7);
  EXPECT_EQ(m.cell_group[0], 1);
  EXPECT_EQ(m.nodes[2].y, 1.0);
  struct Case {
    std::string text, phrase;
  };
  const Case cases[] = {
      {binary22(0x01000000, 2, 1.0), ": byte 20: the file was written with the other byte order"},
      {binary22(7, 2, 1.0), ": byte 20: byte-order marker is 7, expected 1"},
      {binary22(1, 3, 1.0), ": byte 156: element 7 has type 3 (4-node quadrangle)"},
      {binary22(1, 2, std::numeric_limits<double>::infinity()),
       "node 3 has a coordinate that is not a finite number"},
      {binary22(1, 2, 1.0).substr(0, 180), "file ends inside an element block"},
  };
  for (const Case& c : cases) {
    const std::string path = write_temp("b22bad.msh", c.text);
    const std::string msg = error_of(path);
    EXPECT_NE(msg.find(c.phrase), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace scfd::mesh_io
