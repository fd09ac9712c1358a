// Tests of the in-memory square and cube generators (mesh_io/generate.hpp): counts and numbering,
// positive orientation, total measure 1, conformity (every interior facet shared by exactly two
// cells, the boundary facets being exactly the boundary elements), outward boundary elements with
// the right area per patch, and jitter that is deterministic, bounded and keeps the boundary.
#include "mesh_io/generate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace scfd::mesh_io {
namespace {

// Signed area (2D) or volume (3D) of cell c, computed here independently of the generator.
double cell_measure(const RawMesh& m, index c) {
  const int nv = m.dim + 1;
  const auto& p = [&](int k) { return m.nodes[m.cells[static_cast<std::size_t>(c) * nv + k]]; };
  if (m.dim == 2) {
    return 0.5 * ((p(1).x - p(0).x) * (p(2).y - p(0).y) - (p(1).y - p(0).y) * (p(2).x - p(0).x));
  }
  const Vec3 a = p(1) - p(0), b = p(2) - p(0), d = p(3) - p(0);
  return (a.x * (b.y * d.z - b.z * d.y) - a.y * (b.x * d.z - b.z * d.x) +
          a.z * (b.x * d.y - b.y * d.x)) /
         6.0;
}

// Normal of boundary element f scaled by its length/area; outward if the element is oriented
// as the generator promises (2D: domain on the left; 3D: right-hand rule).
Vec3 bface_normal(const RawMesh& m, index f) {
  const auto& p = [&](int k) { return m.nodes[m.bfaces[static_cast<std::size_t>(f) * m.dim + k]]; };
  if (m.dim == 2) {
    const Vec3 d = p(1) - p(0);
    return {d.y, -d.x, 0.0};
  }
  return 0.5 * cross(p(1) - p(0), p(2) - p(0));
}

using FacetKey = std::vector<index>;

FacetKey sorted_key(std::vector<index> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Occurrences of every facet (sorted node list) among the cells' facets.
std::map<FacetKey, int> facet_counts(const RawMesh& m) {
  const int nv = m.dim + 1;
  std::map<FacetKey, int> counts;
  for (index c = 0; c < m.n_cells(); ++c) {
    for (int skip = 0; skip < nv; ++skip) {
      std::vector<index> f;
      for (int k = 0; k < nv; ++k) {
        if (k != skip) f.push_back(m.cells[static_cast<std::size_t>(c) * nv + k]);
      }
      ++counts[sorted_key(f)];
    }
  }
  return counts;
}

const PhysicalGroup* find_group(const RawMesh& m, const std::string& name) {
  for (const auto& g : m.groups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

struct PatchExpect {
  std::string name;
  int tag;
  int axis;
  int side;
};
const std::array<PatchExpect, 6> kPatches = {{{"left", 1, 0, 0},
                                              {"right", 2, 0, 1},
                                              {"bottom", 3, 1, 0},
                                              {"top", 4, 1, 1},
                                              {"front", 5, 2, 0},
                                              {"back", 6, 2, 1}}};

// Everything that must hold for any generated mesh with n cells per axis.
void check_mesh(const RawMesh& m, int dim, std::array<int, 3> n) {
  ASSERT_EQ(m.dim, dim);
  const int nz = dim == 3 ? n[2] : 1;
  const index n_nodes = (n[0] + 1) * (n[1] + 1) * (dim == 3 ? n[2] + 1 : 1);
  const index n_cells = (dim == 2 ? 2 : 6) * n[0] * n[1] * nz;
  const index n_bfaces =
      dim == 2 ? 2 * (n[0] + n[1]) : 4 * (n[0] * n[1] + n[1] * n[2] + n[0] * n[2]);
  ASSERT_EQ(m.n_nodes(), n_nodes);
  ASSERT_EQ(m.node_tags.size(), m.nodes.size());
  ASSERT_EQ(m.n_cells(), n_cells);
  ASSERT_EQ(m.cells.size(), static_cast<std::size_t>(n_cells) * (dim + 1));
  ASSERT_EQ(m.cell_group.size(), m.cell_tags.size());
  ASSERT_EQ(m.n_bfaces(), n_bfaces);
  ASSERT_EQ(m.bfaces.size(), static_cast<std::size_t>(n_bfaces) * dim);
  ASSERT_EQ(m.bface_group.size(), m.bface_tags.size());

  // Numbering: node tags 1..N; element tags 1-based and unique over cells and boundary elements.
  for (index i = 0; i < m.n_nodes(); ++i) ASSERT_EQ(m.node_tags[i], i + 1);
  std::set<std::int64_t> element_tags(m.cell_tags.begin(), m.cell_tags.end());
  element_tags.insert(m.bface_tags.begin(), m.bface_tags.end());
  EXPECT_EQ(element_tags.size(), static_cast<std::size_t>(n_cells + n_bfaces));
  EXPECT_EQ(*element_tags.begin(), 1);
  for (const index v : m.cells) ASSERT_TRUE(v >= 0 && v < n_nodes);
  for (const index v : m.bfaces) ASSERT_TRUE(v >= 0 && v < n_nodes);

  // Region.
  const PhysicalGroup* domain = find_group(m, "domain");
  ASSERT_NE(domain, nullptr);
  EXPECT_EQ(domain->dim, dim);
  for (const int g : m.cell_group) ASSERT_EQ(g, domain->tag);
  EXPECT_EQ(m.groups.size(), static_cast<std::size_t>(2 * dim + 1));

  // Every cell positive; the measures add up to 1.
  double total = 0;
  for (index c = 0; c < m.n_cells(); ++c) {
    const double s = cell_measure(m, c);
    ASSERT_GT(s, 0) << "cell " << c;
    total += s;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);

  // Patches: group, element count, outward normals on the right plane, total area 1.
  for (int p = 0; p < 2 * dim; ++p) {
    const PatchExpect& e = kPatches[p];
    const PhysicalGroup* g = find_group(m, e.name);
    ASSERT_NE(g, nullptr) << e.name;
    EXPECT_EQ(g->tag, e.tag);
    EXPECT_EQ(g->dim, dim - 1);
    int count = 0;
    double area = 0;
    for (index f = 0; f < m.n_bfaces(); ++f) {
      if (m.bface_group[f] != e.tag) continue;
      ++count;
      for (int k = 0; k < dim; ++k) {
        ASSERT_EQ(m.nodes[m.bfaces[static_cast<std::size_t>(f) * dim + k]][e.axis], e.side);
      }
      const Vec3 normal = bface_normal(m, f);
      const double outward = e.side == 1 ? 1.0 : -1.0;
      ASSERT_GT(normal[e.axis] * outward, 0) << e.name << " element " << f;
      area += norm(normal);
    }
    const int expected = dim == 2 ? n[1 - e.axis] : 2 * n[(e.axis + 1) % 3] * n[(e.axis + 2) % 3];
    EXPECT_EQ(count, expected) << e.name;
    EXPECT_NEAR(area, 1.0, 1e-12) << e.name;
  }
}

// Conformity: interior facets appear in exactly two cells, boundary facets in one, and the
// boundary facets are exactly the boundary elements.
void check_conforming(const RawMesh& m) {
  std::set<FacetKey> boundary;
  for (const auto& [key, count] : facet_counts(m)) {
    ASSERT_TRUE(count == 1 || count == 2) << "facet shared by " << count << " cells";
    if (count == 1) boundary.insert(key);
  }
  std::set<FacetKey> bfaces;
  for (index f = 0; f < m.n_bfaces(); ++f) {
    const auto* b = &m.bfaces[static_cast<std::size_t>(f) * m.dim];
    bfaces.insert(sorted_key(std::vector<index>(b, b + m.dim)));
  }
  EXPECT_EQ(bfaces.size(), static_cast<std::size_t>(m.n_bfaces()));
  EXPECT_EQ(boundary, bfaces);
}

TEST(GenerateSquare, CountsOrientationPatches) {
  const RawMesh m = generate_square(5, 3);
  check_mesh(m, 2, {5, 3, 0});
  check_conforming(m);
  EXPECT_EQ(m.source, "generated:square(5,3,jitter=0,seed=1)");
}

TEST(GenerateCube, CountsOrientationPatches) {
  const RawMesh m = generate_cube(3, 4, 2);
  check_mesh(m, 3, {3, 4, 2});
  check_conforming(m);
}

TEST(GenerateCube, SingleCubeIsSixKuhnTetrahedra) {
  const RawMesh m = generate_cube(1, 1, 1);
  check_mesh(m, 3, {1, 1, 1});
  for (index c = 0; c < m.n_cells(); ++c) EXPECT_NEAR(cell_measure(m, c), 1.0 / 6.0, 1e-15);
  // All six share the main diagonal from node 0 (0,0,0) to node 7 (1,1,1).
  for (index c = 0; c < m.n_cells(); ++c) {
    const auto* v = &m.cells[static_cast<std::size_t>(c) * 4];
    EXPECT_TRUE(std::find(v, v + 4, 0) != v + 4 && std::find(v, v + 4, 7) != v + 4);
  }
}

TEST(GenerateSquare, JitteredStaysValid) {
  const RawMesh m = generate_square(12, 9, 0.3, 42);
  check_mesh(m, 2, {12, 9, 0});
  check_conforming(m);
}

TEST(GenerateCube, JitteredStaysValid) {
  for (const double jitter : {0.2, 0.3, 0.45}) {
    const RawMesh m = generate_cube(7, 6, 5, jitter, 7);
    check_mesh(m, 3, {7, 6, 5});
  }
}

// Jitter moves interior nodes only, by at most jitter * spacing per coordinate, and most of them.
void check_jitter(const RawMesh& plain, const RawMesh& moved, double jitter, std::array<int, 3> n) {
  ASSERT_EQ(plain.nodes.size(), moved.nodes.size());
  EXPECT_EQ(plain.cells, moved.cells);
  EXPECT_EQ(plain.bfaces, moved.bfaces);
  std::size_t n_interior = 0, n_moved = 0;
  for (std::size_t i = 0; i < plain.nodes.size(); ++i) {
    const Vec3& a = plain.nodes[i];
    const Vec3& b = moved.nodes[i];
    bool boundary = false;
    for (int k = 0; k < plain.dim; ++k) boundary = boundary || a[k] == 0.0 || a[k] == 1.0;
    if (boundary) {
      ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << "boundary node " << i << " moved";
      continue;
    }
    ++n_interior;
    n_moved += (a.x != b.x || a.y != b.y || a.z != b.z) ? 1 : 0;
    for (int k = 0; k < plain.dim; ++k) {
      ASSERT_LE(std::abs(b[k] - a[k]), jitter / n[k] * (1 + 1e-12)) << "node " << i;
    }
    if (plain.dim == 2) {
      ASSERT_EQ(b.z, 0.0);
    }
  }
  EXPECT_GT(n_moved, n_interior * 9 / 10);
}

TEST(GenerateSquare, JitterBoundedAndKeepsBoundary) {
  const std::array<int, 3> n = {10, 8, 0};
  check_jitter(generate_square(n[0], n[1]), generate_square(n[0], n[1], 0.25, 3), 0.25, n);
}

TEST(GenerateCube, JitterBoundedAndKeepsBoundary) {
  const std::array<int, 3> n = {6, 5, 4};
  check_jitter(generate_cube(n[0], n[1], n[2]), generate_cube(n[0], n[1], n[2], 0.3, 3), 0.3, n);
}

TEST(GenerateCube, JitterDeterministicPerSeed) {
  const RawMesh a = generate_cube(5, 5, 5, 0.2, 11);
  const RawMesh b = generate_cube(5, 5, 5, 0.2, 11);
  const RawMesh c = generate_cube(5, 5, 5, 0.2, 12);
  std::size_t same_ab = 0, same_ac = 0;
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const auto eq = [](const Vec3& p, const Vec3& q) {
      return p.x == q.x && p.y == q.y && p.z == q.z;
    };
    same_ab += eq(a.nodes[i], b.nodes[i]) ? 1 : 0;
    same_ac += eq(a.nodes[i], c.nodes[i]) ? 1 : 0;
  }
  EXPECT_EQ(same_ab, a.nodes.size());
  // Only the 152 boundary nodes of the 6^3 grid coincide.
  EXPECT_EQ(same_ac, a.nodes.size() - 4u * 4u * 4u);
  EXPECT_NE(a.source, c.source);
}

TEST(GenerateSquare, JitterDeterministicPerSeed) {
  const RawMesh a = generate_square(6, 6, 0.3, 5);
  const RawMesh b = generate_square(6, 6, 0.3, 5);
  const RawMesh c = generate_square(6, 6, 0.3, 6);
  bool all_same_ab = true, any_diff_ac = false;
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    all_same_ab = all_same_ab && a.nodes[i].x == b.nodes[i].x && a.nodes[i].y == b.nodes[i].y;
    any_diff_ac = any_diff_ac || a.nodes[i].x != c.nodes[i].x || a.nodes[i].y != c.nodes[i].y;
  }
  EXPECT_TRUE(all_same_ab);
  EXPECT_TRUE(any_diff_ac);
}

}  // namespace
}  // namespace scfd::mesh_io
