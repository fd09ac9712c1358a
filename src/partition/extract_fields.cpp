// build_local_mesh: every field of topology::Mesh re-indexed for one rank (extract.hpp). Values
// attached to an entity (geometry, tags, signs, face_patch, cell_region) are copied by global id;
// entity references are mapped to local indices. References from local cells and faces are
// always local (SCFD_CHECK); face_cells and CSR rows of ghosts keep only what is local.
#include <algorithm>

#include "core/error.hpp"
#include "partition/local_numbering.hpp"

namespace scfd::partition::detail {
namespace {

using topology::Csr;
using topology::Mesh;

std::size_t sz(index i) {
  return static_cast<std::size_t>(i);
}

// WIDTH values per entity, for the entities listed in GID.
template <typename T>
std::vector<T> gather(const std::vector<T>& src, const std::vector<index>& gid, int width = 1) {
  std::vector<T> out;
  out.reserve(gid.size() * sz(width));
  for (index g : gid)
    for (int k = 0; k < width; ++k) out.push_back(src[sz(g) * width + k]);
  return out;
}

// Global references -> local ones (kNone stays kNone; references to entities that are not
// local become kNone, and are an error when COMPLETE).
std::vector<index> relabel(std::vector<index> items, const Numbering& to, bool complete,
                           const char* what) {
  for (index& i : items) {
    const index local = i == kNone ? kNone : to.local[sz(i)];
    SCFD_CHECK(!complete || local != kNone, "{}: global {} is not local", what, i);
    i = local;
  }
  return items;
}

// The rows of the local entities ROWS, with only the items that are local in ITEMS, in the
// global order of each row.
Csr restrict_rows(const Csr& g, const Numbering& rows, const Numbering& items) {
  Csr out;
  const bool signed_rows = !g.sign.empty();
  out.offset.reserve(rows.gid.size() + 1);
  out.offset.push_back(0);
  for (index r : rows.gid) {
    for (index k = g.offset[sz(r)]; k < g.offset[sz(r) + 1]; ++k) {
      const index local = items.local[sz(g.item[sz(k)])];
      if (local == kNone) continue;
      out.item.push_back(local);
      if (signed_rows) out.sign.push_back(g.sign[sz(k)]);
    }
    out.offset.push_back(static_cast<index>(out.item.size()));
  }
  return out;
}

// The local entities of a patch list, ascending.
std::vector<index> local_list(const std::vector<index>& global_list, const Numbering& to) {
  std::vector<index> out;
  for (index g : global_list)
    if (to.local[sz(g)] != kNone) out.push_back(to.local[sz(g)]);
  std::sort(out.begin(), out.end());
  return out;
}

void copy_counts_and_ids(const LocalNumbering& ln, Mesh& m) {
  m.n_nodes = static_cast<index>(ln.node.gid.size());
  m.n_edges = static_cast<index>(ln.edge.gid.size());
  m.n_faces = static_cast<index>(ln.face.gid.size());
  m.n_cells = static_cast<index>(ln.cell.gid.size());
  m.n_interior_faces = ln.n_interior_faces;
  m.n_owned_nodes = ln.node.n_owned;
  m.n_owned_edges = ln.edge.n_owned;
  m.n_owned_faces = ln.face.n_owned;
  m.n_owned_cells = ln.cell.n_owned;
  m.n_inner_nodes = ln.node.n_inner;
  m.n_inner_edges = ln.edge.n_inner;
  m.n_inner_faces = ln.face.n_inner;
  m.n_inner_cells = ln.cell.n_inner;
  m.node_gid = ln.node.gid;
  m.edge_gid = ln.edge.gid;
  m.face_gid = ln.face.gid;
  m.cell_gid = ln.cell.gid;
  m.node_ghost_owner = ln.node.ghost_owner;
  m.edge_ghost_owner = ln.edge.ghost_owner;
  m.face_ghost_owner = ln.face.ghost_owner;
  m.cell_ghost_owner = ln.cell.ghost_owner;
}

void copy_nodes_and_cells(const Mesh& g, const LocalNumbering& ln, Mesh& m) {
  const std::vector<index>& nodes = ln.node.gid;
  const std::vector<index>& cells = ln.cell.gid;
  const int w = g.cell_width();
  m.node_x = gather(g.node_x, nodes);
  m.node_tag = gather(g.node_tag, nodes);
  m.node_dual_volume = gather(g.node_dual_volume, nodes);
  m.cell_nodes = relabel(gather(g.cell_nodes, cells, w), ln.node, true, "cell_nodes");
  m.cell_faces = relabel(gather(g.cell_faces, cells, w), ln.face, true, "cell_faces");
  m.cell_face_sign = gather(g.cell_face_sign, cells, w);
  m.cell_region = gather(g.cell_region, cells);
  m.cell_tag = gather(g.cell_tag, cells);
  m.cell_volume = gather(g.cell_volume, cells);
  m.cell_centroid = gather(g.cell_centroid, cells);
  m.cell_circumcentre = gather(g.cell_circumcentre, cells);
}

void copy_faces_and_edges(const Mesh& g, const LocalNumbering& ln, Mesh& m) {
  const std::vector<index>& faces = ln.face.gid;
  const std::vector<index>& edges = ln.edge.gid;
  const Numbering& curl_kind = g.dim == 3 ? ln.edge : ln.node;
  m.face_nodes = relabel(gather(g.face_nodes, faces, g.face_width()), ln.node, true, "face_nodes");
  m.face_cells = relabel(gather(g.face_cells, faces, 2), ln.cell, false, "face_cells");
  m.face_patch = gather(g.face_patch, faces);
  m.face_curl = relabel(gather(g.face_curl, faces, g.curl_width()), curl_kind, true, "face_curl");
  m.face_curl_sign = gather(g.face_curl_sign, faces, g.curl_width());
  m.face_area = gather(g.face_area, faces);
  m.face_normal = gather(g.face_normal, faces);
  m.face_centre = gather(g.face_centre, faces);
  m.face_dist = gather(g.face_dist, faces);
  m.edge_nodes = relabel(gather(g.edge_nodes, edges, 2), ln.node, true, "edge_nodes");
  m.edge_dual_normal = gather(g.edge_dual_normal, edges);
  m.edge_stiffness = gather(g.edge_stiffness, edges);
  m.curl_faces = restrict_rows(g.curl_faces, curl_kind, ln.face);
  m.node_cells = restrict_rows(g.node_cells, ln.node, ln.cell);
  m.node_edges = restrict_rows(g.node_edges, ln.node, ln.edge);
}

void copy_patches_and_regions(const Mesh& g, const LocalNumbering& ln, Mesh& m) {
  m.patches.reserve(g.patches.size());
  for (const topology::Patch& p : g.patches)
    m.patches.push_back({.name = p.name,
                         .tag = p.tag,
                         .faces = local_list(p.faces, ln.face),
                         .edges = local_list(p.edges, ln.edge),
                         .nodes = local_list(p.nodes, ln.node)});
  m.regions = g.regions;
  for (topology::Region& r : m.regions) r.n_cells = 0;
  for (index c = 0; c < m.n_owned_cells; ++c) ++m.regions[sz(m.cell_region[sz(c)])].n_cells;
}

}  // namespace

Mesh build_local_mesh(const Mesh& g, const LocalNumbering& ln) {
  Mesh m;
  m.source = g.source;
  m.dim = g.dim;
  copy_counts_and_ids(ln, m);
  copy_nodes_and_cells(g, ln, m);
  copy_faces_and_edges(g, ln, m);
  copy_patches_and_regions(g, ln, m);
  return m;
}

}  // namespace scfd::partition::detail
