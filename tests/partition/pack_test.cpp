// pack / unpack: a round trip keeps every field (compared field by field, and as bytes:
// pack(unpack(pack(m))) == pack(m)) on serial and per-rank meshes; a damaged buffer is refused.
// The size guard below fails when a field is added to Mesh: add it to pack.cpp's visit_mesh and
// to expect_mesh_equal (mesh_equal.cpp), then update kMeshSize.
#include <gtest/gtest.h>

#include "partition/extract.hpp"
#include "partition/fixtures.hpp"
#include "partition/pack.hpp"

namespace scfd::partition::testing {
namespace {

// sizeof(topology::Mesh) when pack.cpp and mesh_equal.cpp were last brought up to date
// (x86-64, libstdc++).
constexpr std::size_t kMeshSize = 1096;

TEST(PartitionPack, MeshLayoutUnchanged) {
  EXPECT_EQ(sizeof(Mesh), kMeshSize)
      << "topology::Mesh changed: list the new field in pack.cpp (visit_mesh) and in "
         "tests/partition/mesh_equal.cpp, then update kMeshSize";
}

void expect_round_trip(const Mesh& m) {
  const std::vector<std::byte> bytes = pack(m);
  const Mesh back = unpack(bytes);
  expect_mesh_equal(back, m);
  EXPECT_TRUE(pack(back) == bytes);
}

TEST(PartitionPack, RoundTripSerialMeshes) {
  for (const std::string& name : mesh_names()) {
    SCOPED_TRACE(name);
    expect_round_trip(test_mesh(name));
  }
}

TEST(PartitionPack, RoundTripRankMeshes) {
  for (const std::string& name : {std::string("square_jitter"), std::string("gmsh_part")}) {
    for (int rank = 0; rank < 3; ++rank) {
      SCOPED_TRACE(name + " rank " + std::to_string(rank));
      const Mesh local = extract_local(test_mesh(name), test_parts(name, 3), rank);
      ASSERT_TRUE(local.distributed());
      expect_round_trip(local);
    }
  }
}

TEST(PartitionPack, EqualityHelperSeesEveryKindOfChange) {
  const Mesh& m = test_mesh("cube_jitter");
  Mesh changed = m;
  changed.edge_dual_normal[3].z += 1e-9;
  EXPECT_FALSE(pack(changed) == pack(m));
  changed = m;
  changed.patches[1].nodes.pop_back();
  EXPECT_FALSE(pack(changed) == pack(m));
}

using PartitionPackDeathTest = ::testing::Test;

TEST_F(PartitionPackDeathTest, DamagedBufferIsRefused) {
  std::vector<std::byte> bytes = pack(test_mesh("square_jitter"));
  std::vector<std::byte> truncated(bytes.begin(), bytes.end() - 5);
  EXPECT_DEATH(unpack(truncated), "truncated|exceeds");
  bytes.push_back(std::byte{0});
  EXPECT_DEATH(unpack(bytes), "left over");
  bytes[0] = std::byte{0};
  EXPECT_DEATH(unpack(bytes), "not a packed mesh");
}

}  // namespace
}  // namespace scfd::partition::testing
