// extract_local (extract.hpp): owners of the global entities, selection of the rank's cells (owned
// plus the node-neighbour layer) and of their nodes, edges and faces, and the local numbering:
// owned first (inner, then interface), ghosts grouped by owner rank. The field re-indexing is in
// extract_fields.cpp.
#include <algorithm>

#include "core/error.hpp"
#include "partition/extract.hpp"
#include "partition/local_numbering.hpp"

namespace scfd::partition::detail {
namespace {

using topology::Mesh;

std::size_t sz(index i) {
  return static_cast<std::size_t>(i);
}

// Owned entities (owner == rank): the inner ones, then the others, each in global order; then
// ghosts ordered by (owner, global id).
Numbering number_kind(const std::vector<char>& is_local, std::span<const int> owner, int rank,
                      const std::vector<char>& inner) {
  Numbering n;
  std::vector<index> ghosts, interface;
  for (std::size_t g = 0; g < is_local.size(); ++g) {
    if (!is_local[g]) continue;
    if (owner[g] != rank)
      ghosts.push_back(static_cast<index>(g));
    else
      (inner[g] ? n.gid : interface).push_back(static_cast<index>(g));
  }
  n.n_inner = static_cast<index>(n.gid.size());
  n.gid.insert(n.gid.end(), interface.begin(), interface.end());
  n.n_owned = static_cast<index>(n.gid.size());
  std::stable_sort(ghosts.begin(), ghosts.end(),
                   [&](index a, index b) { return owner[sz(a)] < owner[sz(b)]; });
  n.gid.insert(n.gid.end(), ghosts.begin(), ghosts.end());
  n.ghost_owner.reserve(ghosts.size());
  for (index g : ghosts) n.ghost_owner.push_back(owner[sz(g)]);
  n.local.assign(is_local.size(), kNone);
  for (std::size_t i = 0; i < n.gid.size(); ++i) n.local[sz(n.gid[i])] = static_cast<index>(i);
  return n;
}

// Owned cells and every cell sharing a node with one of them.
std::vector<char> local_cells(const Mesh& g, std::span<const int> part, int rank) {
  std::vector<char> is_local(sz(g.n_cells), 0);
  const int w = g.cell_width();
  for (index c = 0; c < g.n_cells; ++c) {
    if (part[sz(c)] != rank) continue;
    for (int k = 0; k < w; ++k)
      for (index other : g.node_cells.row(g.cell_nodes[sz(c) * w + k])) is_local[sz(other)] = 1;
  }
  return is_local;
}

// The items of every local row of a fixed-width list (cell_nodes of local cells...).
std::vector<char> mark_items(const std::vector<char>& rows, const std::vector<index>& items,
                             int width, index n_items) {
  std::vector<char> is_local(sz(n_items), 0);
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (rows[r])
      for (int k = 0; k < width; ++k) is_local[sz(items[r * width + k])] = 1;
  return is_local;
}

// The inner entities of RANK (Mesh::n_inner_X), as flags over the global entities. A cell is clean
// when it is owned and so are its nodes, edges and faces; a node, edge or face is inner when every
// cell around it is clean (a face: an interior face with two clean cells), a cell when it is clean
// and its face neighbours are owned.
struct Inner {
  std::vector<char> node, edge, face, cell;
};
Inner inner_entities(const Mesh& g, std::span<const int> part, const Owners& owners, int rank) {
  const int w = g.cell_width();
  std::vector<char> clean(sz(g.n_cells), 0);
  for (index c = 0; c < g.n_cells; ++c) {
    if (part[sz(c)] != rank) continue;
    bool ok = true;
    for (int k = 0; k < w && ok; ++k) {
      const index f = g.cell_faces[sz(c) * w + k];
      ok = owners.node[sz(g.cell_nodes[sz(c) * w + k])] == rank && owners.face[sz(f)] == rank;
      if (g.dim == 3)
        for (int j = 0; j < 3 && ok; ++j) ok = owners.edge[sz(g.face_curl[sz(f) * 3 + j])] == rank;
    }
    clean[sz(c)] = ok;
  }
  Inner in;
  in.node.assign(sz(g.n_nodes), 1);
  for (index n = 0; n < g.n_nodes; ++n)
    for (index c : g.node_cells.row(n)) in.node[sz(n)] &= clean[sz(c)];
  in.face.assign(sz(g.n_faces), 0);
  for (index f = 0; f < g.n_interior_faces; ++f)
    in.face[sz(f)] = clean[sz(g.face_cells[2 * sz(f)])] && clean[sz(g.face_cells[2 * sz(f) + 1])];
  if (g.dim == 2) {
    in.edge = in.face;  // edge e is face e
  } else {
    // The cells around an edge are the cells of the faces around it.
    in.edge.assign(sz(g.n_edges), 1);
    for (index e = 0; e < g.n_edges; ++e)
      for (index f : g.curl_faces.row(e))
        for (int k = 0; k < 2; ++k) {
          const index c = g.face_cells[2 * sz(f) + sz(k)];
          if (c != kNone) in.edge[sz(e)] &= clean[sz(c)];
        }
  }
  in.cell = clean;
  for (index c = 0; c < g.n_cells; ++c) {
    if (!clean[sz(c)]) continue;
    for (int k = 0; k < w; ++k) {
      const index f = g.cell_faces[sz(c) * w + k];
      for (int j = 0; j < 2; ++j) {
        const index other = g.face_cells[2 * sz(f) + sz(j)];
        if (other != kNone && part[sz(other)] != rank) in.cell[sz(c)] = 0;
      }
    }
  }
  return in;
}

}  // namespace

Owners compute_owners(const Mesh& g, std::span<const int> part) {
  Owners o;
  o.node.resize(sz(g.n_nodes));
  for (index n = 0; n < g.n_nodes; ++n) {
    int lowest = -1;
    for (index c : g.node_cells.row(n))
      lowest = lowest < 0 ? part[sz(c)] : std::min(lowest, part[sz(c)]);
    SCFD_CHECK(lowest >= 0, "node {} lies in no cell", n);
    o.node[sz(n)] = lowest;
  }
  o.face.resize(sz(g.n_faces));
  for (index f = 0; f < g.n_faces; ++f) {
    const index c1 = g.face_cells[2 * sz(f)], c2 = g.face_cells[2 * sz(f) + 1];
    o.face[sz(f)] = c2 == kNone ? part[sz(c1)] : std::min(part[sz(c1)], part[sz(c2)]);
  }
  if (g.dim == 2) {  // edge e is face e
    o.edge = o.face;
    return o;
  }
  // The cells around an edge are the cells of the faces around it (each such cell has two faces
  // through the edge), so the lowest part over those faces' owners is the lowest over the cells.
  o.edge.resize(sz(g.n_edges));
  for (index e = 0; e < g.n_edges; ++e) {
    int lowest = -1;
    for (index f : g.curl_faces.row(e))
      lowest = lowest < 0 ? o.face[sz(f)] : std::min(lowest, o.face[sz(f)]);
    SCFD_CHECK(lowest >= 0, "edge {} lies on no face", e);
    o.edge[sz(e)] = lowest;
  }
  return o;
}

LocalNumbering number_local(const Mesh& g, std::span<const int> part, const Owners& owners,
                            int rank) {
  LocalNumbering ln;
  const std::vector<char> cells = local_cells(g, part, rank);
  const std::vector<char> faces = mark_items(cells, g.cell_faces, g.cell_width(), g.n_faces);
  const std::vector<char> nodes = mark_items(cells, g.cell_nodes, g.cell_width(), g.n_nodes);
  const Inner inner = inner_entities(g, part, owners, rank);
  ln.cell = number_kind(cells, part, rank, inner.cell);
  ln.face = number_kind(faces, owners.face, rank, inner.face);
  ln.node = number_kind(nodes, owners.node, rank, inner.node);
  // Every edge of a local cell lies on a face of that cell (3D: face_curl lists a face's edges).
  ln.edge = g.dim == 2 ? number_kind(faces, owners.edge, rank, inner.edge)
                       : number_kind(mark_items(faces, g.face_curl, 3, g.n_edges), owners.edge,
                                     rank, inner.edge);
  for (index i = 0; i < ln.face.n_owned; ++i)
    ln.n_interior_faces += ln.face.gid[sz(i)] < g.n_interior_faces;
  return ln;
}

Mesh extract_rank(const Mesh& g, std::span<const int> part, const Owners& owners, int rank) {
  return build_local_mesh(g, number_local(g, part, owners, rank));
}

}  // namespace scfd::partition::detail

namespace scfd::partition {

topology::Mesh extract_local(const topology::Mesh& global, std::span<const int> part, int rank) {
  SCFD_CHECK(!global.distributed(), "extract_local: the mesh must be the serial mesh");
  SCFD_CHECK(part.size() == static_cast<std::size_t>(global.n_cells) && rank >= 0,
             "extract_local: {} parts for {} cells, rank {}", part.size(), global.n_cells, rank);
  for (int p : part) SCFD_CHECK(p >= 0, "extract_local: negative part {}", p);
  return detail::extract_rank(global, part, detail::compute_owners(global, part), rank);
}

}  // namespace scfd::partition
