// Step 4 of build_mesh: edges, curl lists, node adjacency and patch lists.
//
// Edges (3D): the six local edges of each tetrahedron are matched by sort (slot_sort.hpp) and
// numbered in order of first appearance while walking the cells; an edge points from its lower
// to its higher node. In 2D the edges are the faces (same numbers).
// Curl C (edge -> face in 3D): for a face with nodes (n0, n1, n2), circulating n0 -> n1 -> n2 ->
// n0 is right-handed about its normal (x1-x0)×(x2-x0), so
//   (C s)_f = sum over the sides (a, b) of sign(a, b) s_edge(a,b),  sign = +1 if a < b else -1,
// which is Stokes' theorem for the circulation of a field with edge integrals s. In 2D
// (C s)_f = s(n1) - s(n0) on the face's nodes. R = C^T (curl_faces) is the CSR transpose.
// Reference: Bochev & Hyman, "Principles of mimetic discretizations of differential operators"
// (2006); Perot, "Conservation properties of unstructured staggered mesh schemes", JCP 159 (2000).
#include <algorithm>
#include <array>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "topology/build_steps.hpp"
#include "topology/slot_sort.hpp"

namespace scfd::topology::detail {

Csr transpose(index n_cols, int width, const std::vector<index>& items,
              const std::vector<std::int8_t>& sign) {
  Csr t;
  t.offset.assign(static_cast<std::size_t>(n_cols) + 1, 0);
  // The columns cut among the host threads: each thread walks every item and takes those of its
  // columns, so a column's items stay in item order (the output of one walk, on any count).
  const std::vector<index> columns = chunk_bounds(n_cols);
  const auto in = [](index col, index begin, index end) { return col >= begin && col < end; };
  for_chunks(columns, [&](std::size_t, index begin, index end) {
    for (const index col : items)
      if (in(col, begin, end)) ++t.offset[col + 1];
  });
  for (index c = 0; c < n_cols; ++c) t.offset[c + 1] += t.offset[c];
  t.item.resize(items.size());
  if (!sign.empty()) t.sign.resize(items.size());
  for_chunks(columns, [&](std::size_t, index begin, index end) {
    std::vector<index> next(t.offset.begin() + begin, t.offset.begin() + end);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!in(items[i], begin, end)) continue;
      const index pos = next[items[i] - begin]++;
      t.item[pos] = static_cast<index>(i / width);
      if (!sign.empty()) t.sign[pos] = sign[i];
    }
  });
  return t;
}

std::vector<index> build_edges(Mesh& m) {
  if (m.dim == 2) {
    m.n_edges = m.n_faces;
    m.edge_nodes.resize(static_cast<std::size_t>(m.n_faces) * 2);
    for (std::size_t f = 0; f < static_cast<std::size_t>(m.n_faces); ++f) {
      m.edge_nodes[2 * f] = std::min(m.face_nodes[2 * f], m.face_nodes[2 * f + 1]);
      m.edge_nodes[2 * f + 1] = std::max(m.face_nodes[2 * f], m.face_nodes[2 * f + 1]);
    }
    return m.cell_faces;
  }
  const auto n_slots = static_cast<std::uint32_t>(m.n_cells) * 6;
  auto ends = [&](std::uint32_t s) {
    const std::size_t c = s / 6, e = s % 6;
    const index a = m.cell_nodes[c * 4 + kTetEdge[e][0]], b = m.cell_nodes[c * 4 + kTetEdge[e][1]];
    return std::pair<index, index>{std::min(a, b), std::max(a, b)};
  };
  const SortedSlots sorted = sort_slots(
      n_slots, m.n_nodes, [&](std::uint32_t s, std::uint32_t& bucket, std::uint64_t& key) {
        const auto [a, b] = ends(s);
        bucket = static_cast<std::uint32_t>(a);
        key = static_cast<std::uint64_t>(b);
      });
  // cell_edges first holds each slot's group leader (its lowest slot), then the edge number:
  // walking the slots in order, a leader is always replaced before its followers read it.
  std::vector<index> cell_edges(n_slots);
  sorted.for_each_group([&](const SlotKey* first, const SlotKey* last) {
    for (const SlotKey* r = first; r < last; ++r)
      cell_edges[r->slot] = static_cast<index>(first->slot);
  });
  index n_edges = 0;
  m.edge_nodes.clear();
  m.edge_nodes.reserve(static_cast<std::size_t>(m.n_cells) * 3);  // ~1.2 edges per tet
  for (std::uint32_t s = 0; s < n_slots; ++s) {
    const auto leader = static_cast<std::uint32_t>(cell_edges[s]);
    if (leader == s) {
      const auto [a, b] = ends(s);
      m.edge_nodes.push_back(a);
      m.edge_nodes.push_back(b);
      cell_edges[s] = n_edges++;
    } else {
      cell_edges[s] = cell_edges[leader];
    }
  }
  m.edge_nodes.shrink_to_fit();
  m.n_edges = n_edges;
  return cell_edges;
}

void build_curl(const std::vector<index>& cell_edges, Mesh& m) {
  const std::size_t nf = static_cast<std::size_t>(m.n_faces);
  const int cw = m.curl_width();
  m.face_curl.resize(nf * cw);
  m.face_curl_sign.resize(nf * cw);
  if (m.dim == 2) {
    for (std::size_t f = 0; f < nf; ++f) {
      m.face_curl[2 * f] = m.face_nodes[2 * f];
      m.face_curl[2 * f + 1] = m.face_nodes[2 * f + 1];
      m.face_curl_sign[2 * f] = -1;
      m.face_curl_sign[2 * f + 1] = 1;
    }
  } else {
    // Each face is visited from c1 (sign +1), where its nodes are c1's local face.
    for (std::size_t s = 0; s < m.cell_faces.size(); ++s) {
      if (m.cell_face_sign[s] < 0) continue;
      const std::size_t c = s / 4, f = static_cast<std::size_t>(m.cell_faces[s]);
      const std::array<int, 3>& local = kTetFace[s % 4];
      int r = 0;
      while (m.cell_nodes[c * 4 + local[r]] != m.face_nodes[3 * f]) ++r;
      for (int i = 0; i < 3; ++i) {
        const int a = local[(r + i) % 3], b = local[(r + i + 1) % 3];
        m.face_curl[3 * f + i] = cell_edges[c * 6 + kTetEdgeOf[a][b]];
        m.face_curl_sign[3 * f + i] = m.cell_nodes[c * 4 + a] < m.cell_nodes[c * 4 + b] ? 1 : -1;
      }
    }
  }
  m.curl_faces = transpose(m.n_curl(), cw, m.face_curl, m.face_curl_sign);
}

void build_adjacency(Mesh& m) {
  m.node_cells = transpose(m.n_nodes, m.cell_width(), m.cell_nodes, {});
  std::vector<std::int8_t> sign(m.edge_nodes.size());
  for (std::size_t i = 0; i < sign.size(); ++i) sign[i] = i % 2 == 0 ? 1 : -1;
  m.node_edges = transpose(m.n_nodes, 2, m.edge_nodes, sign);
}

void build_patch_lists(Mesh& m) {
  const int d = m.dim;
  for (index f = m.n_interior_faces; f < m.n_faces; ++f) {
    SCFD_CHECK(m.face_patch[f] >= 0, "boundary face {} has no patch", f);
    m.patches[m.face_patch[f]].faces.push_back(f);
  }
  for (Patch& p : m.patches) {
    for (index f : p.faces) {
      for (int i = 0; i < d; ++i) p.nodes.push_back(m.face_nodes[std::size_t(f) * d + i]);
      if (d == 3)
        for (int i = 0; i < 3; ++i) p.edges.push_back(m.face_curl[std::size_t(f) * 3 + i]);
    }
    if (d == 2) p.edges = p.faces;
    for (std::vector<index>* v : {&p.nodes, &p.edges}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
      v->shrink_to_fit();
    }
  }
}

}  // namespace scfd::topology::detail
