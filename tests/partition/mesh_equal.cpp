// expect_mesh_equal (fixtures.hpp): every field of topology::Mesh compared by name, written
// independently of pack.cpp's field list. pack_test.cpp guards sizeof(Mesh) so that a field added
// to Mesh must be added here and to pack.cpp.
#include <vector>

#include "partition/fixtures.hpp"

namespace scfd::partition::testing {
namespace {

bool equal(const Vec3& a, const Vec3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}
template <typename T>
bool equal(const T& a, const T& b) {
  return a == b;
}

// Equal values; for vectors, the first differing entry is named (not the whole array).
template <typename T>
::testing::AssertionResult same(const T& a, const T& b) {
  if (equal(a, b)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "values differ";
}
template <typename T>
::testing::AssertionResult same(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!equal(a[i], b[i])) return ::testing::AssertionFailure() << "entry " << i << " differs";
  return ::testing::AssertionSuccess();
}

void expect_csr_equal(const topology::Csr& a, const topology::Csr& b, const char* what) {
  EXPECT_TRUE(same(a.offset, b.offset)) << what << ".offset";
  EXPECT_TRUE(same(a.item, b.item)) << what << ".item";
  EXPECT_TRUE(same(a.sign, b.sign)) << what << ".sign";
}

void expect_patches_regions_equal(const Mesh& a, const Mesh& b) {
  ASSERT_EQ(a.patches.size(), b.patches.size()) << "patches";
  for (std::size_t p = 0; p < a.patches.size(); ++p) {
    EXPECT_EQ(a.patches[p].name, b.patches[p].name) << "patch " << p;
    EXPECT_EQ(a.patches[p].tag, b.patches[p].tag) << "patch " << p;
    EXPECT_TRUE(same(a.patches[p].faces, b.patches[p].faces)) << "patch " << p << " faces";
    EXPECT_TRUE(same(a.patches[p].edges, b.patches[p].edges)) << "patch " << p << " edges";
    EXPECT_TRUE(same(a.patches[p].nodes, b.patches[p].nodes)) << "patch " << p << " nodes";
  }
  ASSERT_EQ(a.regions.size(), b.regions.size()) << "regions";
  for (std::size_t r = 0; r < a.regions.size(); ++r) {
    EXPECT_EQ(a.regions[r].name, b.regions[r].name) << "region " << r;
    EXPECT_EQ(a.regions[r].tag, b.regions[r].tag) << "region " << r;
    EXPECT_EQ(a.regions[r].n_cells, b.regions[r].n_cells) << "region " << r;
  }
}

}  // namespace

#define SCFD_EXPECT_FIELD(f) EXPECT_TRUE(same(a.f, b.f)) << #f

void expect_mesh_equal(const Mesh& a, const Mesh& b) {
  SCFD_EXPECT_FIELD(source);
  SCFD_EXPECT_FIELD(dim);
  SCFD_EXPECT_FIELD(n_nodes);
  SCFD_EXPECT_FIELD(n_edges);
  SCFD_EXPECT_FIELD(n_faces);
  SCFD_EXPECT_FIELD(n_cells);
  SCFD_EXPECT_FIELD(n_interior_faces);
  SCFD_EXPECT_FIELD(node_x);
  SCFD_EXPECT_FIELD(node_tag);
  SCFD_EXPECT_FIELD(cell_nodes);
  SCFD_EXPECT_FIELD(cell_faces);
  SCFD_EXPECT_FIELD(cell_face_sign);
  SCFD_EXPECT_FIELD(cell_region);
  SCFD_EXPECT_FIELD(cell_tag);
  SCFD_EXPECT_FIELD(face_nodes);
  SCFD_EXPECT_FIELD(face_cells);
  SCFD_EXPECT_FIELD(face_patch);
  SCFD_EXPECT_FIELD(edge_nodes);
  SCFD_EXPECT_FIELD(face_curl);
  SCFD_EXPECT_FIELD(face_curl_sign);
  expect_csr_equal(a.curl_faces, b.curl_faces, "curl_faces");
  expect_csr_equal(a.node_cells, b.node_cells, "node_cells");
  expect_csr_equal(a.node_edges, b.node_edges, "node_edges");
  SCFD_EXPECT_FIELD(cell_volume);
  SCFD_EXPECT_FIELD(cell_centroid);
  SCFD_EXPECT_FIELD(cell_circumcentre);
  SCFD_EXPECT_FIELD(face_area);
  SCFD_EXPECT_FIELD(face_normal);
  SCFD_EXPECT_FIELD(face_centre);
  SCFD_EXPECT_FIELD(face_dist);
  SCFD_EXPECT_FIELD(node_dual_volume);
  SCFD_EXPECT_FIELD(edge_dual_normal);
  SCFD_EXPECT_FIELD(edge_stiffness);
  expect_patches_regions_equal(a, b);
  SCFD_EXPECT_FIELD(n_owned_nodes);
  SCFD_EXPECT_FIELD(n_owned_edges);
  SCFD_EXPECT_FIELD(n_owned_faces);
  SCFD_EXPECT_FIELD(n_owned_cells);
  SCFD_EXPECT_FIELD(n_inner_nodes);
  SCFD_EXPECT_FIELD(n_inner_edges);
  SCFD_EXPECT_FIELD(n_inner_faces);
  SCFD_EXPECT_FIELD(n_inner_cells);
  SCFD_EXPECT_FIELD(node_gid);
  SCFD_EXPECT_FIELD(edge_gid);
  SCFD_EXPECT_FIELD(face_gid);
  SCFD_EXPECT_FIELD(cell_gid);
  SCFD_EXPECT_FIELD(node_ghost_owner);
  SCFD_EXPECT_FIELD(edge_ghost_owner);
  SCFD_EXPECT_FIELD(face_ghost_owner);
  SCFD_EXPECT_FIELD(cell_ghost_owner);
}

}  // namespace scfd::partition::testing
