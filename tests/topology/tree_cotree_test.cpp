// topology::tree_cotree on surfaces whose topology is known: the generator count must be
// 2g + b - 1 (b > 0 rim loops) or 2g (closed), computed here from the Euler characteristic
// V - E + F = 2 - 2g - b of each surface; the edge values must reproduce the face data on every
// face but the roots, and, for data with zero net flux through a closed surface, on the roots too.
//
// Surfaces: a torus (closed, g = 1), a tube (a torus cut open along one circle: two rim loops),
// a plate with two holes (b = 3, every boundary loop a rim), and the boundary of a block with
// two holes through it (closed, g = 2), built from unit squares split into two triangles.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "topology/tree_cotree.hpp"

namespace scfd::topology {
namespace {

using Point = std::tuple<int, int, int>;

// A surface from triangles given by lattice points: nodes and edges numbered in first-seen order,
// edge orientation from the smaller node, the face sign +1 where the edge runs along the
// triangle's (a, b, c) order. Rim: edges of exactly one triangle when `open`.
Surface from_triangles(const std::vector<std::array<Point, 3>>& tris, bool open) {
  std::map<Point, index> node;
  std::map<std::pair<index, index>, index> edge;
  Surface s;
  std::vector<int> uses;
  for (const auto& t : tris) {
    std::array<index, 3> n{};
    for (int k = 0; k < 3; ++k)
      n[k] = node.emplace(t[k], static_cast<index>(node.size())).first->second;
    std::array<index, 3> edges{};
    std::array<real, 3> signs{};
    for (int k = 0; k < 3; ++k) {
      const index a = n[k], b = n[(k + 1) % 3];
      const auto key = std::minmax(a, b);
      auto [it, added] = edge.emplace(key, static_cast<index>(edge.size()));
      if (added) {
        s.edge_nodes.push_back({key.first, key.second});
        uses.push_back(0);
      }
      ++uses[it->second];
      edges[k] = it->second;
      signs[k] = a < b ? 1 : -1;
    }
    s.face_edges.push_back(edges);
    s.face_signs.push_back(signs);
  }
  s.n_nodes = static_cast<index>(node.size());
  for (int u : uses) s.rim.push_back(open && u == 1 ? 1 : 0);
  return s;
}

// Two triangles of the unit square at (i, j) in the plane spanned by axes a and b, at c = level.
void add_square(std::vector<std::array<Point, 3>>& tris, int a, int b, int i, int j, int level) {
  const auto p = [&](int u, int v) {
    int x[3] = {0, 0, 0};
    x[a] = u;
    x[b] = v;
    x[3 - a - b] = level;
    return Point{x[0], x[1], x[2]};
  };
  tris.push_back({p(i, j), p(i + 1, j), p(i + 1, j + 1)});
  tris.push_back({p(i, j), p(i + 1, j + 1), p(i, j + 1)});
}

// An n x m grid of squares on a periodic lattice (torus: both directions wrap; tube: only u).
Surface torus(int n, int m, bool wrap_v) {
  std::vector<std::array<Point, 3>> tris;
  const auto p = [&](int u, int v) { return Point{u % n, wrap_v ? v % m : v, 0}; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      tris.push_back({p(i, j), p(i + 1, j), p(i + 1, j + 1)});
      tris.push_back({p(i, j), p(i + 1, j + 1), p(i, j + 1)});
    }
  return from_triangles(tris, !wrap_v);
}

// A 7 x 3 plate of squares without the squares (1, 1) and (5, 1): two holes.
Surface plate_with_two_holes() {
  std::vector<std::array<Point, 3>> tris;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 3; ++j)
      if (!(j == 1 && (i == 1 || i == 5))) add_square(tris, 0, 1, i, j, 0);
  return from_triangles(tris, true);
}

// The boundary of the solid made of unit cubes (i, j, 0), i < 5, j < 3, without (1, 1) and
// (3, 1): a block with two holes through it, a closed surface of genus 2.
Surface block_with_two_holes() {
  std::set<std::pair<int, int>> solid;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j)
      if (!(j == 1 && (i == 1 || i == 3))) solid.insert({i, j});
  const auto in = [&](int i, int j) { return solid.count({i, j}) != 0; };
  std::vector<std::array<Point, 3>> tris;
  for (const auto& [i, j] : solid) {
    add_square(tris, 0, 1, i, j, 0);  // bottom and top
    add_square(tris, 0, 1, i, j, 1);
    if (!in(i - 1, j)) add_square(tris, 1, 2, j, 0, i);  // x faces: plane x = i
    if (!in(i + 1, j)) add_square(tris, 1, 2, j, 0, i + 1);
    if (!in(i, j - 1)) add_square(tris, 0, 2, i, 0, j);  // y faces: plane y = j
    if (!in(i, j + 1)) add_square(tris, 0, 2, i, 0, j + 1);
  }
  return from_triangles(tris, false);
}

struct Case {
  const char* name;
  Surface s;
  int genus;
  int rims;
};

// Euler characteristic of a surface.
long euler(const Surface& s) {
  return static_cast<long>(s.n_nodes) - static_cast<long>(s.edge_nodes.size()) +
         static_cast<long>(s.face_edges.size());
}

std::vector<Case> cases() {
  return {{"torus", torus(6, 5, true), 1, 0},
          {"tube", torus(6, 5, false), 0, 2},
          {"plate with two holes", plate_with_two_holes(), 0, 3},
          {"block with two holes", block_with_two_holes(), 2, 0}};
}

TEST(TreeCotree, GeneratorCountFollowsTheEulerCharacteristic) {
  for (const Case& c : cases()) {
    const long chi = euler(c.s);
    EXPECT_EQ(chi, 2 - 2 * c.genus - c.rims) << c.name << ": the surface itself is wrong";
    const TreeCotree t = tree_cotree(c.s);
    const long expected = c.rims > 0 ? 1 - chi : 2 - chi;
    EXPECT_EQ(static_cast<long>(t.generators.size()), expected) << c.name;
    EXPECT_EQ(t.generators.size(), static_cast<std::size_t>(2 * c.genus + std::max(c.rims - 1, 0)))
        << c.name;
    EXPECT_EQ(t.root_faces.size(), c.rims > 0 ? 0u : 1u) << c.name;
    EXPECT_EQ(t.order.size(), c.s.face_edges.size()) << c.name << ": T* reaches every face";
    // T is a spanning tree of a connected graph: V - 1 edges.
    const auto tree = std::count(t.kind.begin(), t.kind.end(), TreeCotree::tree);
    EXPECT_EQ(tree, c.s.n_nodes - 1) << c.name;
  }
}

// Face data in the range of the coboundary (d v for random v) is reproduced on every face,
// roots included; random data on the non-root faces only.
TEST(TreeCotree, EdgeValuesReproduceTheFaceData) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<real> u(-1, 1);
  for (const Case& c : cases()) {
    const TreeCotree t = tree_cotree(c.s);
    const auto face_sum = [&](const std::vector<real>& v, std::size_t f) {
      real sum = 0;
      for (int j = 0; j < 3; ++j) sum += c.s.face_signs[f][j] * v[c.s.face_edges[f][j]];
      return sum;
    };
    std::vector<real> w(c.s.edge_nodes.size());
    for (real& x : w) x = u(rng);
    std::vector<real> exact(c.s.face_edges.size()), random(exact.size());
    for (std::size_t f = 0; f < exact.size(); ++f) {
      exact[f] = face_sum(w, f);
      random[f] = u(rng);
    }
    const std::vector<real> v = surface_edge_values(c.s, t, exact);
    const std::vector<real> r = surface_edge_values(c.s, t, random);
    for (std::size_t f = 0; f < exact.size(); ++f) {
      EXPECT_NEAR(face_sum(v, f), exact[f], 1e-12) << c.name << " face " << f;
      if (t.parent_edge[f] != kNone) {
        EXPECT_NEAR(face_sum(r, f), random[f], 1e-12) << c.name;
      }
    }
    for (std::size_t e = 0; e < v.size(); ++e)
      if (t.kind[e] != TreeCotree::cotree) {
        EXPECT_EQ(v[e], 0.0) << c.name << " edge " << e;
      }
    // A generator's values: 1 on it, and no face sum anywhere but the roots.
    for (std::size_t q = 0; q < t.generators.size(); ++q) {
      const std::vector<real> h = surface_edge_values(c.s, t, {}, static_cast<index>(q));
      EXPECT_EQ(h[t.generators[q]], 1.0);
      for (std::size_t f = 0; f < exact.size(); ++f)
        if (t.parent_edge[f] != kNone) {
          EXPECT_NEAR(face_sum(h, f), 0.0, 1e-12) << c.name;
        }
    }
  }
}

}  // namespace
}  // namespace scfd::topology
