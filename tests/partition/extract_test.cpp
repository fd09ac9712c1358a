// extract_local for every rank of np = 2, 3, 4 on generated and Gmsh meshes, checked against the
// global mesh from first principles: owned entities partition the global ones and match the
// owners recomputed from the cells around each entity; the local entities are exactly the
// node-neighbour ghost layer and its entities; numbering (owned in global order, faces interior
// then boundary, ghosts by owner); every connectivity list, sign, CSR row, geometric value, tag,
// patch and region maps back to the global mesh through the gids; owned stencils are complete;
// owned volumes sum to the global volume.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "partition/extract.hpp"
#include "partition/fixtures.hpp"

namespace scfd::partition::testing {
namespace {

std::size_t sz(index i) {
  return static_cast<std::size_t>(i);
}

// Global -> local maps of one rank's mesh.
struct RankMaps {
  std::vector<index> node, edge, face, cell;
};

std::vector<index> inverse(const std::vector<index>& gid, index n_global) {
  std::vector<index> local(sz(n_global), kNone);
  for (std::size_t i = 0; i < gid.size(); ++i) local[sz(gid[i])] = static_cast<index>(i);
  return local;
}

class PartitionExtract : public ::testing::TestWithParam<MeshParts> {
 protected:
  void SetUp() override {
    const auto& [name, np] = GetParam();
    g_ = &test_mesh(name);
    part_ = test_parts(name, np);
    owners_ = owners_from_cells(*g_, part_);
    for (int r = 0; r < np; ++r) {
      local_.push_back(extract_local(*g_, part_, r));
      const Mesh& m = local_.back();
      maps_.push_back({inverse(m.node_gid, g_->n_nodes), inverse(m.edge_gid, g_->n_edges),
                       inverse(m.face_gid, g_->n_faces), inverse(m.cell_gid, g_->n_cells)});
    }
  }
  int np() const { return std::get<1>(GetParam()); }
  const Mesh& g() const { return *g_; }

  const Mesh* g_ = nullptr;
  std::vector<int> part_;
  GlobalOwners owners_;
  std::vector<Mesh> local_;
  std::vector<RankMaps> maps_;
};

// Each global entity is owned by exactly one rank: the one the first-principles owner names.
void expect_owned_once(const std::vector<Mesh>& local, const std::vector<int>& owner,
                       const std::vector<index> Mesh::*gid, index Mesh::*n_owned,
                       const char* what) {
  std::vector<int> owned_by(owner.size(), -1);
  for (std::size_t r = 0; r < local.size(); ++r) {
    const Mesh& m = local[r];
    for (index i = 0; i < m.*n_owned; ++i) {
      const index gi = (m.*gid)[sz(i)];
      EXPECT_EQ(owned_by[sz(gi)], -1) << what << " " << gi << " owned twice";
      owned_by[sz(gi)] = static_cast<int>(r);
    }
  }
  EXPECT_EQ(owned_by, owner) << what << ": owners differ from the lowest part around them";
}

TEST_P(PartitionExtract, OwnedEntitiesPartitionTheGlobalMesh) {
  expect_owned_once(local_, part_, &Mesh::cell_gid, &Mesh::n_owned_cells, "cell");
  expect_owned_once(local_, owners_.node, &Mesh::node_gid, &Mesh::n_owned_nodes, "node");
  expect_owned_once(local_, owners_.edge, &Mesh::edge_gid, &Mesh::n_owned_edges, "edge");
  expect_owned_once(local_, owners_.face, &Mesh::face_gid, &Mesh::n_owned_faces, "face");
}

// The entities a rank must hold, from the definition: owned cells, cells sharing a node with
// them, and every node, edge (node pair) and face of those cells.
TEST_P(PartitionExtract, LocalEntitiesAreTheGhostLayer) {
  const Mesh& G = g();
  const int w = G.cell_width();
  std::map<std::pair<index, index>, index> edge_of;
  for (index e = 0; e < G.n_edges; ++e) edge_of[{G.edge_nodes[2 * e], G.edge_nodes[2 * e + 1]}] = e;
  for (int r = 0; r < np(); ++r) {
    std::set<index> owned_nodes, cells, nodes, edges, faces;
    for (index c = 0; c < G.n_cells; ++c)
      if (part_[sz(c)] == r)
        for (int k = 0; k < w; ++k) owned_nodes.insert(G.cell_nodes[sz(c) * w + k]);
    for (index c = 0; c < G.n_cells; ++c)
      for (int k = 0; k < w; ++k)
        if (owned_nodes.count(G.cell_nodes[sz(c) * w + k])) cells.insert(c);
    for (index c : cells)
      for (int k = 0; k < w; ++k) {
        faces.insert(G.cell_faces[sz(c) * w + k]);
        for (int l = 0; l < w; ++l) {
          const index a = G.cell_nodes[sz(c) * w + k], b = G.cell_nodes[sz(c) * w + l];
          nodes.insert(a);
          if (a < b) edges.insert(edge_of.at({a, b}));
        }
      }
    const Mesh& m = local_[sz(r)];
    auto as_set = [](const std::vector<index>& v) { return std::set<index>(v.begin(), v.end()); };
    EXPECT_EQ(as_set(m.cell_gid), cells) << "rank " << r;
    EXPECT_EQ(as_set(m.node_gid), nodes) << "rank " << r;
    EXPECT_EQ(as_set(m.edge_gid), edges) << "rank " << r;
    EXPECT_EQ(as_set(m.face_gid), faces) << "rank " << r;
    EXPECT_EQ(m.cell_gid.size(), cells.size()) << "duplicate cells";
    EXPECT_EQ(sz(m.n_cells), cells.size());
    EXPECT_EQ(sz(m.n_nodes), nodes.size());
    EXPECT_EQ(sz(m.n_edges), edges.size());
    EXPECT_EQ(sz(m.n_faces), faces.size());
  }
}

// Owned gids ascending; ghosts ascending by (owner, gid) with the first-principles owner.
void expect_ordering(const std::vector<index>& gid, index n_inner, index n_owned,
                     const std::vector<int>& ghost_owner, const std::vector<int>& owner, int rank,
                     const char* what) {
  ASSERT_EQ(ghost_owner.size(), gid.size() - sz(n_owned)) << what;
  ASSERT_LE(n_inner, n_owned) << what;
  // Inner then interface, each in global order.
  for (index i = 1; i < n_owned; ++i) {
    if (i != n_inner) {
      EXPECT_LT(gid[sz(i) - 1], gid[sz(i)]) << what << " " << i;
    }
  }
  for (std::size_t k = 0; k < ghost_owner.size(); ++k) {
    const index gi = gid[sz(n_owned) + k];
    EXPECT_EQ(ghost_owner[k], owner[sz(gi)]) << what << " ghost " << k;
    EXPECT_NE(ghost_owner[k], rank) << what << " ghost " << k;
    if (k > 0) {
      EXPECT_LT(std::make_pair(ghost_owner[k - 1], gid[sz(n_owned) + k - 1]),
                std::make_pair(ghost_owner[k], gi))
          << what << " ghost " << k;
    }
  }
}

TEST_P(PartitionExtract, NumberingOwnedFirstGhostsByOwner) {
  for (int r = 0; r < np(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const Mesh& m = local_[sz(r)];
    EXPECT_TRUE(m.distributed());
    expect_ordering(m.cell_gid, m.n_inner_cells, m.n_owned_cells, m.cell_ghost_owner, part_, r,
                    "cell");
    expect_ordering(m.node_gid, m.n_inner_nodes, m.n_owned_nodes, m.node_ghost_owner, owners_.node,
                    r, "node");
    expect_ordering(m.edge_gid, m.n_inner_edges, m.n_owned_edges, m.edge_ghost_owner, owners_.edge,
                    r, "edge");
    expect_ordering(m.face_gid, m.n_inner_faces, m.n_owned_faces, m.face_ghost_owner, owners_.face,
                    r, "face");
    ASSERT_LE(m.n_interior_faces, m.n_owned_faces);
    for (index f = 0; f < m.n_owned_faces; ++f) {
      EXPECT_EQ(f < m.n_interior_faces, m.face_gid[sz(f)] < g().n_interior_faces) << "face " << f;
      EXPECT_EQ(m.is_boundary_face(f), f >= m.n_interior_faces) << "face " << f;
    }
    for (index f = 0; f < m.n_faces; ++f)
      EXPECT_EQ(m.is_boundary_face(f), g().is_boundary_face(m.face_gid[sz(f)])) << "face " << f;
    if (m.dim == 2) {
      EXPECT_EQ(m.edge_gid, m.face_gid) << "2D: edge e is face e";
    }
  }
}

// The inner entities (Mesh::n_inner_X) read no ghost through any stencil an operator uses: the
// cells around them and those cells' nodes, edges and faces (and a cell's face neighbours) are
// owned. Every rank of these partitions has some.
TEST_P(PartitionExtract, InnerEntitiesReadNoGhost) {
  for (int r = 0; r < np(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const Mesh& m = local_[sz(r)];
    const int w = m.cell_width();
    const auto owned_cell = [&](index c) {
      if (c == kNone || c >= m.n_owned_cells) return false;
      for (int k = 0; k < w; ++k) {
        const index f = m.cell_faces[sz(c) * w + k];
        if (m.cell_nodes[sz(c) * w + k] >= m.n_owned_nodes || f >= m.n_owned_faces) return false;
        for (int j = 0; j < m.curl_width(); ++j)
          if (m.face_curl[sz(f) * m.curl_width() + j] >= m.n_owned_curl()) return false;
      }
      return true;
    };
    EXPECT_GT(m.n_inner_cells, 0);
    EXPECT_GT(m.n_inner_faces, 0);
    EXPECT_GT(m.n_inner_nodes, 0);
    for (index n = 0; n < m.n_inner_nodes; ++n)
      for (index c : m.node_cells.row(n)) EXPECT_TRUE(owned_cell(c)) << "node " << n;
    ASSERT_LE(m.n_inner_faces, m.n_interior_faces);
    for (index f = 0; f < m.n_inner_faces; ++f)
      for (int k = 0; k < 2; ++k)
        EXPECT_TRUE(owned_cell(m.face_cells[2 * sz(f) + sz(k)])) << "face " << f;
    for (index e = 0; e < m.n_inner_curl(); ++e)
      for (index f : m.curl_faces.row(e))
        for (int k = 0; k < 2; ++k) {
          const index c = m.face_cells[2 * sz(f) + sz(k)];
          if (m.is_boundary_face(f) && k == 1) continue;
          EXPECT_TRUE(owned_cell(c)) << "curl entity " << e;
        }
    for (index c = 0; c < m.n_inner_cells; ++c) {
      EXPECT_TRUE(owned_cell(c)) << "cell " << c;
      for (int k = 0; k < w; ++k) {
        const index f = m.cell_faces[sz(c) * w + k];
        for (int j = 0; j < 2; ++j) {
          const index other = m.face_cells[2 * sz(f) + sz(j)];
          EXPECT_TRUE(other == kNone || other < m.n_owned_cells) << "cell " << c;
        }
      }
    }
  }
}

// Local references equal the global ones through the gids (same order, same signs).
void expect_list_maps(const std::vector<index>& local_list, const std::vector<index>& to_gid,
                      const std::vector<index>& global_list, const std::vector<index>& from_gid,
                      int width, const char* what) {
  for (std::size_t i = 0; i < from_gid.size(); ++i)
    for (int k = 0; k < width; ++k) {
      const index l = local_list[i * width + k];
      ASSERT_NE(l, kNone) << what << " row " << i;
      ASSERT_EQ(to_gid[sz(l)], global_list[sz(from_gid[i]) * width + k]) << what << " row " << i;
    }
}

template <typename T>
void expect_values_map(const std::vector<T>& local, const std::vector<T>& global,
                       const std::vector<index>& gid, int width, const char* what) {
  ASSERT_EQ(local.size(), gid.size() * width) << what;
  for (std::size_t i = 0; i < gid.size(); ++i)
    for (int k = 0; k < width; ++k)
      ASSERT_EQ(local[i * width + k], global[sz(gid[i]) * width + k]) << what << " row " << i;
}

// Row i of LOCAL equals the global row of gid i restricted to local items, in order.
void expect_csr_maps(const topology::Csr& local, const std::vector<index>& row_gid,
                     const std::vector<index>& item_gid, const topology::Csr& global,
                     const std::vector<index>& item_local, const char* what) {
  ASSERT_EQ(sz(local.n_rows()), row_gid.size()) << what;
  for (std::size_t i = 0; i < row_gid.size(); ++i) {
    std::vector<index> want, got;
    std::vector<std::int8_t> want_sign, got_sign;
    const index gr = row_gid[i];
    for (index k = global.offset[sz(gr)]; k < global.offset[sz(gr) + 1]; ++k)
      if (item_local[sz(global.item[sz(k)])] != kNone) {
        want.push_back(global.item[sz(k)]);
        if (!global.sign.empty()) want_sign.push_back(global.sign[sz(k)]);
      }
    for (index k = local.offset[i]; k < local.offset[i + 1]; ++k) {
      got.push_back(item_gid[sz(local.item[sz(k)])]);
      if (!local.sign.empty()) got_sign.push_back(local.sign[sz(k)]);
    }
    ASSERT_EQ(got, want) << what << " row " << i;
    ASSERT_EQ(got_sign, want_sign) << what << " row " << i;
  }
}

TEST_P(PartitionExtract, ConnectivityMapsToGlobal) {
  const Mesh& G = g();
  for (int r = 0; r < np(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const Mesh& m = local_[sz(r)];
    const RankMaps& mp = maps_[sz(r)];
    const int w = G.cell_width();
    const std::vector<index>& curl_gid = G.dim == 3 ? m.edge_gid : m.node_gid;
    expect_list_maps(m.cell_nodes, m.node_gid, G.cell_nodes, m.cell_gid, w, "cell_nodes");
    expect_list_maps(m.cell_faces, m.face_gid, G.cell_faces, m.cell_gid, w, "cell_faces");
    expect_values_map(m.cell_face_sign, G.cell_face_sign, m.cell_gid, w, "cell_face_sign");
    expect_list_maps(m.face_nodes, m.node_gid, G.face_nodes, m.face_gid, G.face_width(),
                     "face_nodes");
    expect_list_maps(m.face_curl, curl_gid, G.face_curl, m.face_gid, G.curl_width(), "face_curl");
    expect_values_map(m.face_curl_sign, G.face_curl_sign, m.face_gid, G.curl_width(),
                      "face_curl_sign");
    expect_list_maps(m.edge_nodes, m.node_gid, G.edge_nodes, m.edge_gid, 2, "edge_nodes");
    for (std::size_t f = 0; f < m.face_gid.size(); ++f)
      for (int s = 0; s < 2; ++s) {
        const index gc = G.face_cells[2 * sz(m.face_gid[f]) + s];
        const index lc = m.face_cells[2 * f + s];
        ASSERT_EQ(lc, gc == kNone ? kNone : mp.cell[sz(gc)]) << "face_cells of face " << f;
      }
    expect_csr_maps(m.node_cells, m.node_gid, m.cell_gid, G.node_cells, mp.cell, "node_cells");
    expect_csr_maps(m.node_edges, m.node_gid, m.edge_gid, G.node_edges, mp.edge, "node_edges");
    expect_csr_maps(m.curl_faces, curl_gid, m.face_gid, G.curl_faces, mp.face, "curl_faces");
  }
}

TEST_P(PartitionExtract, OwnedStencilsAreComplete) {
  const Mesh& G = g();
  for (int r = 0; r < np(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const Mesh& m = local_[sz(r)];
    for (index n = 0; n < m.n_owned_nodes; ++n) {
      const index gn = m.node_gid[sz(n)];
      ASSERT_EQ(m.node_cells.row(n).size(), G.node_cells.row(gn).size()) << "node " << n;
      ASSERT_EQ(m.node_edges.row(n).size(), G.node_edges.row(gn).size()) << "node " << n;
    }
    const std::vector<index>& curl_gid = G.dim == 3 ? m.edge_gid : m.node_gid;
    for (index k = 0; k < m.n_owned_curl(); ++k)
      ASSERT_EQ(m.curl_faces.row(k).size(), G.curl_faces.row(curl_gid[sz(k)]).size())
          << "curl entity " << k;
    for (index f = 0; f < m.n_owned_faces; ++f) {
      ASSERT_NE(m.face_cells[2 * sz(f)], kNone) << "face " << f;
      ASSERT_EQ(m.face_cells[2 * sz(f) + 1] == kNone, f >= m.n_interior_faces) << "face " << f;
    }
  }
}

void expect_vec3_map(const std::vector<Vec3>& local, const std::vector<Vec3>& global,
                     const std::vector<index>& gid, const char* what) {
  ASSERT_EQ(local.size(), gid.size()) << what;
  for (std::size_t i = 0; i < gid.size(); ++i) {
    const Vec3& a = local[i];
    const Vec3& b = global[sz(gid[i])];
    ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << what << " " << i;
  }
}

TEST_P(PartitionExtract, GeometryTagsAndLabelsByGid) {
  const Mesh& G = g();
  for (int r = 0; r < np(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const Mesh& m = local_[sz(r)];
    EXPECT_EQ(m.dim, G.dim);
    EXPECT_EQ(m.source, G.source);
    expect_vec3_map(m.node_x, G.node_x, m.node_gid, "node_x");
    expect_values_map(m.node_tag, G.node_tag, m.node_gid, 1, "node_tag");
    expect_values_map(m.node_dual_volume, G.node_dual_volume, m.node_gid, 1, "node_dual_volume");
    expect_values_map(m.cell_region, G.cell_region, m.cell_gid, 1, "cell_region");
    expect_values_map(m.cell_tag, G.cell_tag, m.cell_gid, 1, "cell_tag");
    expect_values_map(m.cell_volume, G.cell_volume, m.cell_gid, 1, "cell_volume");
    expect_vec3_map(m.cell_centroid, G.cell_centroid, m.cell_gid, "cell_centroid");
    expect_vec3_map(m.cell_circumcentre, G.cell_circumcentre, m.cell_gid, "cell_circumcentre");
    expect_values_map(m.face_patch, G.face_patch, m.face_gid, 1, "face_patch");
    expect_values_map(m.face_area, G.face_area, m.face_gid, 1, "face_area");
    expect_vec3_map(m.face_normal, G.face_normal, m.face_gid, "face_normal");
    expect_vec3_map(m.face_centre, G.face_centre, m.face_gid, "face_centre");
    expect_values_map(m.face_dist, G.face_dist, m.face_gid, 1, "face_dist");
    expect_vec3_map(m.edge_dual_normal, G.edge_dual_normal, m.edge_gid, "edge_dual_normal");
    expect_values_map(m.edge_stiffness, G.edge_stiffness, m.edge_gid, 1, "edge_stiffness");
  }
}

// The local entities of a global patch list, as ascending local indices.
std::vector<index> expected_list(const std::vector<index>& global, const std::vector<index>& map) {
  std::vector<index> out;
  for (index gi : global)
    if (map[sz(gi)] != kNone) out.push_back(map[sz(gi)]);
  std::sort(out.begin(), out.end());
  return out;
}

TEST_P(PartitionExtract, PatchesRegionsAndVolumes) {
  const Mesh& G = g();
  double global_volume = 0, owned_volume = 0;
  for (real v : G.cell_volume) global_volume += v;
  std::vector<index> region_cells(G.regions.size(), 0);
  std::vector<std::size_t> patch_faces(G.patches.size(), 0);
  for (int r = 0; r < np(); ++r) {
    const Mesh& m = local_[sz(r)];
    const RankMaps& mp = maps_[sz(r)];
    for (index c = 0; c < m.n_owned_cells; ++c) owned_volume += m.cell_volume[sz(c)];
    ASSERT_EQ(m.regions.size(), G.regions.size());
    for (std::size_t k = 0; k < G.regions.size(); ++k) {
      EXPECT_EQ(m.regions[k].name, G.regions[k].name);
      EXPECT_EQ(m.regions[k].tag, G.regions[k].tag);
      region_cells[k] += m.regions[k].n_cells;
    }
    ASSERT_EQ(m.patches.size(), G.patches.size());
    for (std::size_t p = 0; p < G.patches.size(); ++p) {
      const topology::Patch& lp = m.patches[p];
      EXPECT_EQ(lp.name, G.patches[p].name);
      EXPECT_EQ(lp.tag, G.patches[p].tag);
      EXPECT_EQ(lp.faces, expected_list(G.patches[p].faces, mp.face)) << lp.name << " rank " << r;
      EXPECT_EQ(lp.edges, expected_list(G.patches[p].edges, mp.edge)) << lp.name << " rank " << r;
      EXPECT_EQ(lp.nodes, expected_list(G.patches[p].nodes, mp.node)) << lp.name << " rank " << r;
      for (index f : lp.faces) patch_faces[p] += f < m.n_owned_faces;
    }
  }
  EXPECT_NEAR(owned_volume, global_volume, 1e-13 * global_volume);
  for (std::size_t k = 0; k < G.regions.size(); ++k)
    EXPECT_EQ(region_cells[k], G.regions[k].n_cells) << G.regions[k].name;
  for (std::size_t p = 0; p < G.patches.size(); ++p)
    EXPECT_EQ(patch_faces[p], G.patches[p].faces.size()) << G.patches[p].name;
}

SCFD_INSTANTIATE_PARTITION_TESTS(PartitionExtract);

TEST(PartitionExtractSingle, OnePartOwnsEverythingInGlobalOrder) {
  const Mesh& G = test_mesh("cube_jitter");
  const std::vector<int> part(sz(G.n_cells), 0);
  const Mesh m = extract_local(G, part, 0);
  EXPECT_EQ(m.n_owned_cells, G.n_cells);
  EXPECT_EQ(m.n_owned_faces, G.n_faces);
  EXPECT_EQ(m.n_interior_faces, G.n_interior_faces);
  EXPECT_TRUE(m.cell_ghost_owner.empty() && m.face_ghost_owner.empty());
  EXPECT_EQ(m.cell_nodes, G.cell_nodes);
  EXPECT_EQ(m.face_cells, G.face_cells);
  EXPECT_EQ(m.node_edges.item, G.node_edges.item);
}

}  // namespace
}  // namespace scfd::partition::testing
