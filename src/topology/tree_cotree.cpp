// Tree-cotree decomposition of a triangulated surface (see tree_cotree.hpp).
#include "topology/tree_cotree.hpp"

#include <numeric>

#include "core/error.hpp"

namespace scfd::topology {
namespace {

// Union-find over dense indices.
struct Forest {
  std::vector<index> parent;
  explicit Forest(index n) : parent(static_cast<std::size_t>(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  index find(index i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  bool join(index a, index b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent[std::max(a, b)] = std::min(a, b);
    return true;
  }
};

}  // namespace

TreeCotree tree_cotree(const Surface& s) {
  const auto ne = static_cast<index>(s.edge_nodes.size());
  const auto nf = static_cast<index>(s.face_edges.size());
  SCFD_CHECK(s.rim.size() == s.edge_nodes.size() && s.face_signs.size() == s.face_edges.size(),
             "surface of {} edges, {} rim flags, {} faces, {} sign triples", ne, s.rim.size(), nf,
             s.face_signs.size());
  std::vector<std::vector<index>> faces_of(static_cast<std::size_t>(ne));
  for (index f = 0; f < nf; ++f)
    for (index e : s.face_edges[f]) faces_of[e].push_back(f);
  TreeCotree t;
  t.kind.assign(static_cast<std::size_t>(ne), 0);
  // T: rim edges first.
  Forest nodes(s.n_nodes);
  for (int pass = 0; pass < 2; ++pass)
    for (index e = 0; e < ne; ++e)
      if ((s.rim[e] != 0) == (pass == 0) && nodes.join(s.edge_nodes[e][0], s.edge_nodes[e][1]))
        t.kind[e] = TreeCotree::tree;
  // T*: breadth first from the rim, then from the first unreached face of each closed component.
  t.parent_edge.assign(static_cast<std::size_t>(nf), kNone);
  std::vector<char> reached(static_cast<std::size_t>(nf), 0);
  const auto reach = [&](index f, index through) {
    reached[f] = 1;
    t.parent_edge[f] = through;
    if (through != kNone) t.kind[through] = TreeCotree::cotree;
    t.order.push_back(f);
  };
  const auto grow = [&](std::size_t from) {
    for (std::size_t i = from; i < t.order.size(); ++i)
      for (index e : s.face_edges[t.order[i]]) {
        if (t.kind[e] != 0) continue;
        for (index f : faces_of[e])
          if (!reached[f]) reach(f, e);
      }
  };
  for (index e = 0; e < ne; ++e)
    if (s.rim[e] != 0 && t.kind[e] == 0 && faces_of[e].size() == 1 && !reached[faces_of[e][0]]) {
      reach(faces_of[e][0], e);
      grow(t.order.size() - 1);
    }
  for (index f = 0; f < nf; ++f)
    if (!reached[f]) {
      t.root_faces.push_back(f);
      reach(f, kNone);
      grow(t.order.size() - 1);
    }
  for (index e = 0; e < ne; ++e)
    if (t.kind[e] == 0) {
      t.kind[e] = TreeCotree::generator;
      t.generators.push_back(e);
    }
  return t;
}

std::vector<real> surface_edge_values(const Surface& s, const TreeCotree& t,
                                      std::span<const real> data, index generator) {
  SCFD_CHECK(data.empty() || data.size() == s.face_edges.size(), "{} face values for {} faces",
             data.size(), s.face_edges.size());
  std::vector<real> v(s.edge_nodes.size(), 0);
  if (generator != kNone) v[t.generators.at(static_cast<std::size_t>(generator))] = 1;
  for (std::size_t i = t.order.size(); i-- > 0;) {
    const index f = t.order[i];
    const index parent = t.parent_edge[f];
    if (parent == kNone) continue;
    real rest = data.empty() ? 0 : data[f];
    real own = 0;
    for (int j = 0; j < 3; ++j) {
      const index e = s.face_edges[f][j];
      if (e == parent)
        own = s.face_signs[f][j];
      else
        rest -= s.face_signs[f][j] * v[e];
    }
    v[parent] = rest / own;
  }
  return v;
}

}  // namespace scfd::topology
