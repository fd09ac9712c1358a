// Invariants every Mesh must satisfy (see invariants.hpp), checked from first principles.
// Divergence theorem for a constant field on a cell: sum over its faces of sign_f A_f n_f = 0.
// Stokes for a face: the signed edges of face_curl form a closed loop whose vector area
// (1/2) sum x_tail × x_head equals A_f n_f (right-handed circulation).
#include "topology/invariants.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace scfd::topology::testing {
namespace {

std::vector<index> sorted_face_nodes(const Mesh& m, index f) {
  std::vector<index> v(m.face_nodes.begin() + std::ptrdiff_t(f) * m.dim,
                       m.face_nodes.begin() + std::ptrdiff_t(f + 1) * m.dim);
  std::sort(v.begin(), v.end());
  return v;
}

Vec3 centroid_of_cell(const Mesh& m, index c) {
  Vec3 s{};
  const int w = m.cell_width();
  for (int k = 0; k < w; ++k) s += m.node_x[m.cell_nodes[std::size_t(c) * w + k]];
  return s / double(w);
}

// Area vector from face_nodes by the convention of mesh.hpp.
Vec3 area_vector(const Mesh& m, index f) {
  const Vec3& x0 = m.node_x[m.face_nodes[std::size_t(f) * m.dim]];
  const Vec3& x1 = m.node_x[m.face_nodes[std::size_t(f) * m.dim + 1]];
  if (m.dim == 2) return Vec3{x1.y - x0.y, -(x1.x - x0.x), 0};
  const Vec3& x2 = m.node_x[m.face_nodes[std::size_t(f) * m.dim + 2]];
  return 0.5 * cross(x1 - x0, x2 - x0);
}

double length_scale(const Mesh& m) {
  return std::pow(total_volume(m) / m.n_cells, 1.0 / m.dim);
}

}  // namespace

double total_volume(const Mesh& m) {
  double v = 0;
  for (double x : m.cell_volume) v += x;
  return v;
}

void expect_sizes(const Mesh& m) {
  const auto nn = std::size_t(m.n_nodes), ne = std::size_t(m.n_edges), nf = std::size_t(m.n_faces),
             nc = std::size_t(m.n_cells), w = std::size_t(m.cell_width()), d = std::size_t(m.dim);
  EXPECT_EQ(m.node_x.size(), nn);
  EXPECT_EQ(m.node_tag.size(), nn);
  EXPECT_EQ(m.cell_nodes.size(), nc * w);
  EXPECT_EQ(m.cell_faces.size(), nc * w);
  EXPECT_EQ(m.cell_face_sign.size(), nc * w);
  EXPECT_EQ(m.cell_region.size(), nc);
  EXPECT_EQ(m.cell_tag.size(), nc);
  EXPECT_EQ(m.face_nodes.size(), nf * d);
  EXPECT_EQ(m.face_cells.size(), nf * 2);
  EXPECT_EQ(m.face_patch.size(), nf);
  EXPECT_EQ(m.edge_nodes.size(), ne * 2);
  EXPECT_EQ(m.face_curl.size(), nf * std::size_t(m.curl_width()));
  EXPECT_EQ(m.face_curl_sign.size(), m.face_curl.size());
  EXPECT_EQ(m.curl_faces.n_rows(), m.n_curl());
  EXPECT_EQ(m.node_cells.n_rows(), m.n_nodes);
  EXPECT_EQ(m.node_edges.n_rows(), m.n_nodes);
  for (const auto& v : {m.cell_volume, m.face_area, m.face_dist}) EXPECT_FALSE(v.empty());
  EXPECT_EQ(m.cell_volume.size(), nc);
  EXPECT_EQ(m.cell_centroid.size(), nc);
  EXPECT_EQ(m.cell_circumcentre.size(), nc);
  EXPECT_EQ(m.face_area.size(), nf);
  EXPECT_EQ(m.face_normal.size(), nf);
  EXPECT_EQ(m.face_centre.size(), nf);
  EXPECT_EQ(m.face_dist.size(), nf);
  EXPECT_EQ(m.node_dual_volume.size(), nn);
  EXPECT_EQ(m.edge_dual_normal.size(), ne);
  EXPECT_EQ(m.edge_stiffness.size(), ne);
  if (m.dim == 2) {
    EXPECT_EQ(m.n_edges, m.n_faces);
  }
}

void expect_cell_faces(const Mesh& m) {
  const int w = m.cell_width();
  std::vector<int> uses(std::size_t(m.n_faces), 0);
  for (index c = 0; c < m.n_cells; ++c) {
    for (int k = 0; k < w; ++k) {
      const std::size_t s = std::size_t(c) * w + k;
      const index f = m.cell_faces[s];
      ASSERT_GE(f, 0);
      ASSERT_LT(f, m.n_faces);
      ++uses[f];
      std::vector<index> expect;
      for (int j = 0; j < w; ++j)
        if (j != k) expect.push_back(m.cell_nodes[std::size_t(c) * w + j]);
      std::sort(expect.begin(), expect.end());
      EXPECT_EQ(sorted_face_nodes(m, f), expect) << "cell " << c << " local face " << k;
      const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
      if (m.cell_face_sign[s] == 1) {
        EXPECT_EQ(c1, c);
      } else {
        EXPECT_EQ(m.cell_face_sign[s], -1);
        EXPECT_EQ(c2, c);
      }
    }
  }
  for (index f = 0; f < m.n_faces; ++f) {
    const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
    EXPECT_EQ(uses[f], m.is_boundary_face(f) ? 1 : 2) << "face " << f;
    if (m.is_boundary_face(f)) {
      EXPECT_EQ(c2, kNone);
    } else {
      EXPECT_LT(c1, c2) << "face " << f;
    }
  }
}

void expect_face_orientation(const Mesh& m) {
  const int w = m.cell_width();
  const double h = length_scale(m);
  for (index f = 0; f < m.n_faces; ++f) {
    const Vec3 a = area_vector(m, f);
    EXPECT_NEAR(norm(a), m.face_area[f], 1e-12 * std::pow(h, m.dim - 1));
    EXPECT_NEAR(norm(m.face_normal[f]), 1.0, 1e-12);
    EXPECT_GT(dot(a, m.face_normal[f]), 0) << "face " << f;
    const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
    const Vec3 to = c2 == kNone ? m.face_centre[f] : centroid_of_cell(m, c2);
    EXPECT_GT(dot(m.face_normal[f], to - centroid_of_cell(m, c1)), 0) << "face " << f;
  }
  for (index c = 0; c < m.n_cells; ++c) {
    Vec3 sum{};
    double scale = 0;
    for (int k = 0; k < w; ++k) {
      const std::size_t s = std::size_t(c) * w + k;
      sum += double(m.cell_face_sign[s]) * m.face_area[m.cell_faces[s]] *
             m.face_normal[m.cell_faces[s]];
      scale += m.face_area[m.cell_faces[s]];
    }
    EXPECT_LT(norm(sum), 1e-13 * scale) << "cell " << c;
  }
}

void expect_first_appearance(const Mesh& m) {
  const int w = m.cell_width();
  std::map<std::pair<index, index>, index> edge_of;
  for (index e = 0; e < m.n_edges; ++e) {
    const index a = m.edge_nodes[2 * e], b = m.edge_nodes[2 * e + 1];
    EXPECT_LT(a, b) << "edge " << e;
    EXPECT_TRUE(edge_of.emplace(std::pair{a, b}, e).second) << "duplicate edge " << e;
  }
  index next_interior = 0, next_boundary = m.n_interior_faces, next_edge = 0;
  std::vector<char> face_seen(std::size_t(m.n_faces), 0), edge_seen(std::size_t(m.n_edges), 0);
  for (index c = 0; c < m.n_cells; ++c) {
    for (int k = 0; k < w; ++k) {
      const index f = m.cell_faces[std::size_t(c) * w + k];
      if (face_seen[f]) continue;
      face_seen[f] = 1;
      EXPECT_EQ(f, m.is_boundary_face(f) ? next_boundary++ : next_interior++);
    }
    std::set<index> fresh;
    for (int i = 0; i < w; ++i) {
      for (int j = i + 1; j < w; ++j) {
        index a = m.cell_nodes[std::size_t(c) * w + i], b = m.cell_nodes[std::size_t(c) * w + j];
        const auto it = edge_of.find({std::min(a, b), std::max(a, b)});
        ASSERT_NE(it, edge_of.end()) << "cell " << c << " has an edge missing from edge_nodes";
        if (!edge_seen[it->second]) fresh.insert(it->second);
        edge_seen[it->second] = 1;
      }
    }
    // 3D edges are numbered by first appearance; 2D edges are the faces (same numbers).
    if (m.dim == 2) continue;
    for (index e : fresh) EXPECT_EQ(e, next_edge++) << "edges are not in first-appearance order";
  }
  EXPECT_EQ(next_interior, m.n_interior_faces);
  EXPECT_EQ(next_boundary, m.n_faces);
  if (m.dim == 3) {
    EXPECT_EQ(next_edge, m.n_edges);
    return;
  }
  for (index e = 0; e < m.n_edges; ++e)
    EXPECT_EQ(std::vector<index>(m.edge_nodes.begin() + 2 * e, m.edge_nodes.begin() + 2 * e + 2),
              sorted_face_nodes(m, e));
}

void expect_curl(const Mesh& m) {
  const int cw = m.curl_width();
  const double h = length_scale(m);
  for (index f = 0; f < m.n_faces; ++f) {
    const std::size_t o = std::size_t(f) * cw;
    if (m.dim == 2) {
      EXPECT_EQ(m.face_curl[o], m.face_nodes[o]);
      EXPECT_EQ(m.face_curl[o + 1], m.face_nodes[o + 1]);
      EXPECT_EQ(m.face_curl_sign[o], -1);
      EXPECT_EQ(m.face_curl_sign[o + 1], 1);
      continue;
    }
    Vec3 loop{}, circulation{};
    std::multiset<index> tails, heads;
    for (int i = 0; i < 3; ++i) {
      const index e = m.face_curl[o + i];
      index tail = m.edge_nodes[2 * e], head = m.edge_nodes[2 * e + 1];
      if (m.face_curl_sign[o + i] < 0) std::swap(tail, head);
      tails.insert(tail);
      heads.insert(head);
      loop += m.node_x[head] - m.node_x[tail];
      circulation += 0.5 * cross(m.node_x[tail], m.node_x[head]);
    }
    const std::vector<index> fn = sorted_face_nodes(m, f);
    EXPECT_EQ(std::vector<index>(tails.begin(), tails.end()), fn) << "face " << f;
    EXPECT_EQ(std::vector<index>(heads.begin(), heads.end()), fn) << "face " << f;
    EXPECT_LT(norm(loop), 1e-14 * h);
    const Vec3 a = m.face_area[f] * m.face_normal[f];
    EXPECT_LT(norm(circulation - a), 1e-10 * m.face_area[f] + 1e-14) << "face " << f;
  }
  // curl_faces is the transpose of face_curl, rows ascending, same signs.
  std::size_t total = 0;
  for (index r = 0; r < m.curl_faces.n_rows(); ++r) {
    const auto row = m.curl_faces.row(r);
    const auto sign = m.curl_faces.row_sign(r);
    total += row.size();
    EXPECT_TRUE(std::is_sorted(row.begin(), row.end()));
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::size_t o = std::size_t(row[i]) * cw;
      int found = 0;
      for (int j = 0; j < cw; ++j)
        if (m.face_curl[o + j] == r && m.face_curl_sign[o + j] == sign[i]) ++found;
      EXPECT_EQ(found, 1) << "curl entity " << r << " face " << row[i];
    }
  }
  EXPECT_EQ(total, m.face_curl.size());
}

void expect_adjacency(const Mesh& m) {
  const int w = m.cell_width();
  std::size_t total = 0;
  for (index n = 0; n < m.n_nodes; ++n) {
    const auto cells = m.node_cells.row(n);
    total += cells.size();
    EXPECT_FALSE(cells.empty());
    EXPECT_TRUE(std::is_sorted(cells.begin(), cells.end()));
    for (index c : cells) {
      const auto first = m.cell_nodes.begin() + std::ptrdiff_t(c) * w;
      EXPECT_NE(std::find(first, first + w, n), first + w) << "node " << n << " cell " << c;
    }
    const auto edges = m.node_edges.row(n);
    const auto sign = m.node_edges.row_sign(n);
    EXPECT_TRUE(std::is_sorted(edges.begin(), edges.end()));
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const index a = m.edge_nodes[2 * edges[i]], b = m.edge_nodes[2 * edges[i] + 1];
      EXPECT_TRUE(a == n || b == n);
      EXPECT_EQ(sign[i], a == n ? 1 : -1);
    }
  }
  EXPECT_EQ(total, m.cell_nodes.size());
  EXPECT_EQ(m.node_edges.item.size(), m.edge_nodes.size());
}

void expect_patches_regions(const Mesh& m) {
  std::vector<int> patch_of(std::size_t(m.n_faces), -1);
  for (std::size_t p = 0; p < m.patches.size(); ++p) {
    const Patch& patch = m.patches[p];
    EXPECT_TRUE(std::is_sorted(patch.faces.begin(), patch.faces.end()));
    std::set<index> nodes, edges;
    for (index f : patch.faces) {
      EXPECT_TRUE(m.is_boundary_face(f));
      EXPECT_EQ(patch_of[f], -1) << "face " << f << " in two patches";
      patch_of[f] = int(p);
      for (int i = 0; i < m.dim; ++i) nodes.insert(m.face_nodes[std::size_t(f) * m.dim + i]);
      if (m.dim == 3)
        for (int i = 0; i < 3; ++i) edges.insert(m.face_curl[std::size_t(f) * 3 + i]);
      else
        edges.insert(f);
    }
    EXPECT_EQ(patch.nodes, std::vector<index>(nodes.begin(), nodes.end())) << patch.name;
    EXPECT_EQ(patch.edges, std::vector<index>(edges.begin(), edges.end())) << patch.name;
  }
  for (index f = 0; f < m.n_faces; ++f) {
    EXPECT_EQ(m.face_patch[f], patch_of[f]) << "face " << f;
    if (m.is_boundary_face(f)) {
      EXPECT_GE(patch_of[f], 0) << "face " << f;
    }
  }
  std::vector<index> count(m.regions.size(), 0);
  for (int r : m.cell_region) ++count[std::size_t(r)];
  for (std::size_t r = 0; r < m.regions.size(); ++r) EXPECT_EQ(count[r], m.regions[r].n_cells);
}

void expect_valid_mesh(const Mesh& m) {
  expect_sizes(m);
  if (::testing::Test::HasFailure()) return;  // later checks index with these sizes
  expect_cell_faces(m);
  expect_face_orientation(m);
  expect_first_appearance(m);
  expect_curl(m);
  expect_adjacency(m);
  expect_patches_regions(m);
  for (index c = 0; c < m.n_cells; ++c) EXPECT_GT(m.cell_volume[c], 0);
}

}  // namespace scfd::topology::testing
