// Mesh: the unstructured simplicial mesh with every entity, connectivity list and geometric
// quantity that the discrete-calculus operators gather over (docs/architecture.md §2).
//
// Entities: nodes, edges (node pairs), faces ((dim-1)-simplices: triangle sides in 2D,
// triangles in 3D) and cells (triangles / tetrahedra). Fixed orientations:
//  - a cell's nodes are positively oriented (signed volume > 0); local face k is opposite local
//    node k;
//  - a face's normal points from c1 = face_cells[2f] to c2 = face_cells[2f+1]; boundary faces have
//    c2 = kNone and an outward normal. In 3D the normal is the direction of
//    (x1-x0)×(x2-x0) of face_nodes; in 2D it is (x1-x0) turned by -90°, i.e. (dy, -dx);
//  - an edge points from edge_nodes[2e] to edge_nodes[2e+1], and edge_nodes[2e] < edge_nodes[2e+1]
//    in the serial (global) numbering; a rank's mesh keeps the global direction, so there the
//    order holds for node_gid, not necessarily for the local indices.
// Interior faces are numbered first, boundary faces last (f >= n_interior_faces), so boundary
// values are one contiguous range. Within each kind, entities are numbered for memory locality
// (see build.hpp).
//
// Curl lists: the streamfunction of the exact fractional step lives on edges in 3D and on nodes
// in 2D ("curl entities", n_curl() of them). face_curl lists, per face, the curl entities whose
// signed sum is the curl C: in 3D the 3 edges of the face, sign +1 when the edge direction
// follows the face's circulation (right-handed about its normal); in 2D the 2 nodes of the face,
// sign -1 for face_nodes[0] and +1 for face_nodes[1] (so C s = s(x1) - s(x0) is the flux of the
// 2D velocity (ds/dy, -ds/dx) through the face). curl_faces is the transpose (for R = C^T).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace scfd::topology {

// Compressed rows of a one-to-many map, with an optional sign per entry.
struct Csr {
  std::vector<index> offset;      // n_rows + 1 entries, offset[0] = 0
  std::vector<index> item;        // offset[n_rows] entries
  std::vector<std::int8_t> sign;  // empty, or one +-1 per item

  index n_rows() const { return offset.empty() ? 0 : static_cast<index>(offset.size()) - 1; }
  std::span<const index> row(index i) const {
    return {item.data() + offset[i], static_cast<std::size_t>(offset[i + 1] - offset[i])};
  }
  std::span<const std::int8_t> row_sign(index i) const {
    return {sign.data() + offset[i], static_cast<std::size_t>(offset[i + 1] - offset[i])};
  }
};

// A boundary patch: the faces of one physical group of dimension dim-1.
struct Patch {
  std::string name;
  int tag = 0;               // physical tag in the mesh file
  std::vector<index> faces;  // ascending
  std::vector<index> edges;  // every edge of those faces, ascending (2D: the faces themselves)
  std::vector<index> nodes;  // every node of those faces, ascending
};

// A region: the cells of one physical group of dimension dim (or "default" if the file has none).
struct Region {
  std::string name;
  int tag = 0;
  index n_cells = 0;
};

struct Mesh {
  std::string source;  // the mesh file, for messages
  int dim = 0;         // 2 or 3
  index n_nodes = 0, n_edges = 0, n_faces = 0, n_cells = 0;
  index n_interior_faces = 0;  // faces [0, n_interior_faces) are interior, the rest boundary

  // --- nodes
  std::vector<Vec3> node_x;
  std::vector<std::int64_t> node_tag;  // node number in the file

  // --- cells
  std::vector<index> cell_nodes;            // (dim+1) per cell, positively oriented
  std::vector<index> cell_faces;            // (dim+1) per cell; local face k opposite local node k
  std::vector<std::int8_t> cell_face_sign;  // +1 where the face normal points out of the cell
  std::vector<int> cell_region;             // index into regions
  std::vector<std::int64_t> cell_tag;       // element number in the file

  // --- faces
  std::vector<index> face_nodes;  // dim per face, ordered as described above
  std::vector<index> face_cells;  // 2 per face: c1, c2 (c2 = kNone on boundary faces)
  std::vector<int> face_patch;    // index into patches for boundary faces, -1 for interior

  // --- edges (node pairs in both dimensions; in 2D edge e and face e are the same segment)
  std::vector<index> edge_nodes;  // 2 per edge, lower global node first (see above)

  // --- curl lists (see the header comment)
  std::vector<index> face_curl;             // curl_width() per face
  std::vector<std::int8_t> face_curl_sign;  // +-1 per entry
  Csr curl_faces;                           // per curl entity: faces, with the same signs

  // --- node adjacency (for node-based gathers)
  Csr node_cells;  // per node: cells containing it (unsigned)
  Csr node_edges;  // per node: incident edges; sign +1 if the node is the edge's first node

  // --- geometry (2D: "volume" is area, "area" is length)
  std::vector<real> cell_volume;
  std::vector<Vec3> cell_centroid;
  std::vector<Vec3> cell_circumcentre;
  std::vector<real> face_area;
  std::vector<Vec3> face_normal;  // unit
  std::vector<Vec3> face_centre;  // centroid
  // Signed distance between neighbouring cell centres along the face normal:
  // (x_c2 - x_c1)·n with circumcentres; boundary faces: (face_centre - x_c1)·n. Positive on a
  // Delaunay mesh; zero or negative marks a non-Delaunay pair.
  std::vector<real> face_dist;
  std::vector<real> node_dual_volume;  // median-dual (barycentric) volume of each node
  // Median-dual face area vector of each edge: the part of the dual-cell boundary between its two
  // nodes, oriented from edge_nodes[2e] to edge_nodes[2e+1].
  std::vector<Vec3> edge_dual_normal;
  // P1 (linear FEM) stiffness weight of each edge for unit conductivity:
  // w_e = -sum over cells c containing e of V_c grad(phi_i)·grad(phi_j). The node Laplacian is
  // (K T)_i = sum over edges e=(i,j) of w_e (T_i - T_j); it equals the median-dual finite-volume
  // diffusion operator.
  std::vector<real> edge_stiffness;

  std::vector<Patch> patches;
  std::vector<Region> regions;

  // --- parallel decomposition (docs/architecture.md §5). A rank's mesh holds its owned entities
  // first and its ghosts last: [0, n_owned_X) are owned, [n_owned_X, n_X) are ghosts, grouped by
  // owner rank in ascending order, so each neighbour's halo is one contiguous range. Faces: owned
  // interior [0, n_interior_faces), owned boundary [n_interior_faces, n_owned_faces), then ghosts.
  // Operators compute owned outputs only; ghost values arrive by halo exchange. The lists of a
  // local cell are complete (all its faces, edges and nodes are local); a ghost face, edge or node
  // may miss neighbours that are not on this rank: those entries are kNone (face_cells, on either
  // side: a ghost face keeps its global orientation, so its c1 may be the missing one) or absent
  // (CSR rows, which otherwise keep the global order). A ghost face's kind follows face_patch, not
  // its position (is_boundary_face). partition/extract.hpp builds such meshes. A serial mesh owns
  // everything and leaves the vectors below empty.
  index n_owned_nodes = 0, n_owned_edges = 0, n_owned_faces = 0, n_owned_cells = 0;
  // Halo overlap (halo/overlap.hpp): the owned entities [0, n_inner_X) come first because no
  // operator's stencil reaches a ghost from them (every cell around them, and every node, edge
  // and face of those cells, is owned; for a cell, also its face neighbours), so they can be
  // computed while the exchange is in flight. Owned interior faces are [0, n_inner_faces) inner,
  // then the rest; boundary faces are never inner. 0 (nothing overlapped) on a serial mesh.
  index n_inner_nodes = 0, n_inner_edges = 0, n_inner_faces = 0, n_inner_cells = 0;
  std::vector<index> node_gid, edge_gid, face_gid, cell_gid;  // global id of each local entity
  // Owner rank of each ghost: X_ghost_owner[g - n_owned_X].
  std::vector<int> node_ghost_owner, edge_ghost_owner, face_ghost_owner, cell_ghost_owner;

  // The cell's vertex of the Navier-Stokes dual mesh, where the pressure lives and about which
  // the velocity is interpolated and integrated: the circumcentre in 2D (Perot's Voronoi dual),
  // the centroid in 3D (the barycentric dual of the consistent 3D stars, docs/methods.md).
  const Vec3& cell_centre(index c) const {
    return dim == 3 ? cell_centroid[c] : cell_circumcentre[c];
  }
  int cell_width() const { return dim + 1; }
  int face_width() const { return dim; }
  int curl_width() const { return dim == 3 ? 3 : 2; }
  index n_curl() const { return dim == 3 ? n_edges : n_nodes; }
  index n_owned_curl() const { return dim == 3 ? n_owned_edges : n_owned_nodes; }
  index n_inner_curl() const { return dim == 3 ? n_inner_edges : n_inner_nodes; }
  // Owned boundary faces (the size of boundary-value arrays).
  index n_boundary_faces() const { return n_owned_faces - n_interior_faces; }
  bool is_boundary_face(index f) const { return face_patch[f] >= 0; }
  bool distributed() const { return !cell_gid.empty(); }

  // V - E + F - C in 3D, V - E + C in 2D (1 for a ball or disc, minus 1 per hole / cavity...).
  long long euler_characteristic() const;

  // Bytes held by this object (connectivity + geometry), for `streamcfd info`.
  std::size_t bytes() const;
};

}  // namespace scfd::topology
