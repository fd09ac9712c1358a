// The part of a topology::Mesh that the gl-compute operator kernels gather over, copied once into
// GPU buffers (connectivity as int32, geometry in the backend's precision). Built lazily by
// GlBackend the first time an operator sees a mesh.
//
// Layouts are chosen for bandwidth (the kernels are memory bound, docs/architecture.md §11):
//  - Only the rows of OWNED output entities are uploaded (operators write owned outputs only);
//    their entries index every local entity, ghosts included.
//  - Fixed-width lists are stored as planes: entry k of row i at k * n_rows + i, so that each
//    load of a work group is one contiguous, coalesced run.
//  - A +-1 sign travels in the index itself: i for +1, ~i (= -i - 1) for -1.
//  - Variable-width rows (faces around a curl entity, edges around a node) use the sliced ELL
//    layout SELL-C (C = kSellChunk rows per slice): entry k of row i lies at
//    slice_start[i / C] + k * C + i % C, rows padded to the longest of their slice; the row lengths
//    are 16-bit, two per uint. A warp of C rows reads each step k as one coalesced run and never
//    reads the padding.
//  - Geometry is premultiplied per entity (interpolate, integrate) so a kernel reads each value
//    it needs exactly once, in stream order.
#pragma once

#include <memory>

#include "backend/sparse_matrix.hpp"
#include "backend/traffic.hpp"
#include "gl/buffer.hpp"
#include "gl/program.hpp"
#include "gl/upload.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend::opengl {

// Rows per SELL slice: the warp width of NVIDIA GPUs (a wider wavefront still reads whole runs).
inline constexpr index kSellChunk = 32;
static_assert(kSellChunk == kTrafficSellChunk, "the traffic model assumes this layout");

class DeviceMesh {
 public:
  // The SELL lists go through `up` (gl/upload.hpp).
  DeviceMesh(const topology::Mesh& m, scfd::gl::Precision p, scfd::gl::Uploader& up);

  const topology::Mesh& mesh() const { return *mesh_; }
  // True when this copy was made from `m` (same object and the same entity counts).
  bool matches(const topology::Mesh& m) const;
  // Bytes of GPU memory held (for `streamcfd bench` and the memory report).
  std::size_t bytes() const;

  // The buffers themselves, public so that operators.cpp can bind them; the layout of each is
  // stated below and built in device_mesh.cpp.
  struct Buffers;
  const Buffers& buffers() const { return *buffers_; }

 private:
  const topology::Mesh* mesh_;
  index n_nodes_, n_edges_, n_faces_, n_cells_;
  std::shared_ptr<const Buffers> buffers_;
};

// Rows of variable width in the SELL-C layout described at the top of this file.
struct SellRows {
  scfd::gl::Buffer slice;   // uint per slice: position of entry 0 of its first row
  scfd::gl::Buffer length;  // uint per 2 rows: row 2r in the low 16 bits, 2r+1 in the high
  scfd::gl::Buffer item;    // int per padded entry
  scfd::gl::Buffer item2;   // int per padded entry, or empty (a second list with the same shape)
};

// A sparse matrix (Backend::make_matrix) in the SELL-C layout: rows.item holds the column of each
// padded entry, `value` its coefficient (precision p), both 0 in the padding (never read).
struct SellMatrix {
  index rows = 0, cols = 0;
  SellRows layout;
  scfd::gl::Buffer value;
  std::size_t bytes() const;
};
// Through `up`: the host threads write the layout into its staging buffers.
SellMatrix make_sell_matrix(const SparseMatrix& a, scfd::gl::Precision p, scfd::gl::Uploader& up);

struct DeviceMesh::Buffers {
  scfd::gl::Precision precision = scfd::gl::Precision::fp64;
  // int, (dim+1) planes of n_owned_cells: face of local face k of cell c, ~face where the face
  // normal points into the cell (divergence, interpolate).
  scfd::gl::Buffer cell_faces;
  // real, (dim+1)*dim planes of n_owned_cells: plane k*dim+j holds component j of
  // s(c,f) (x_f - x_c) / V_c for local face k (interpolate; x_c Mesh::cell_centre, x_f centroid).
  scfd::gl::Buffer cell_interp;
  // int, (dim+1) planes of n_owned_cells: for local face k of cell c (the face of cell_faces) the
  // cell on its other side, or ~b on a boundary face, b = f - n_interior_faces its index into
  // boundary-value arrays (convection). Cell-indexed rather than read through face_cells, which
  // holds owned faces only while a cell's faces may be ghosts.
  scfd::gl::Buffer cell_neighbours;
  // real, one per owned cell: 1 / V_c (convection).
  scfd::gl::Buffer cell_inv_volume;
  // int, 2 planes of n_owned_faces: c1, then c2 (-1 on boundary faces) (gradient, integrate).
  scfd::gl::Buffer face_cells;
  // real, 2*dim planes of n_owned_faces: x_f - x_c1 (planes 0..dim-1), x_f - x_c2 (planes
  // dim..2dim-1; 0 on boundary faces, never read there) (integrate).
  scfd::gl::Buffer face_integ;
  // int, curl_width planes of n_owned_faces: curl entity, ~entity where the sign is -1 (curl).
  scfd::gl::Buffer face_curl;
  // Rows: owned curl entities; item: face, ~face where the sign is -1 (rotation).
  SellRows curl_faces;
  // Rows: owned nodes; item: incident edge, item2: the node at its other end (node operators).
  SellRows node_edges;
};

}  // namespace scfd::backend::opengl
