// The mesh of one rank (docs/architecture.md §5), cut from the serial mesh by a cell partition: the
// cells the rank owns plus one layer of ghost cells, numbered as the "parallel decomposition" block
// of topology/mesh.hpp requires.
//
//  - Owned cells: part[c] == rank. Ghost cells: every other cell sharing at least one node with
//    an owned cell. Local nodes, edges and faces: every entity of a local cell.
//  - Owner of a node, edge or face: the lowest part among the cells of the GLOBAL mesh that
//    contain it; owner of a cell: its part. Each entity has exactly one owner.
//  - Numbering: owned entities first, the inner ones (Mesh::n_inner_X: no stencil from them
//    reaches a ghost) before the others, each group in global order (keeping the Morton locality
//    of build_mesh); faces as owned interior (inner first), owned boundary, ghosts; ghosts grouped
//    by owner rank ascending, global order within a group. In 2D edge e and face e stay the same
//    segment.
//  - Every array of Mesh is re-indexed: connectivity and signs of local cells are complete; rows
//    of ghost entities keep only their local items (face_cells: kNone for a cell that is not
//    local, on either side; CSR rows: absent), in global order; geometry, tags, face_patch and
//    cell_region are copied by global id; patch lists hold the local entities of the patch in
//    ascending local order; a region's n_cells counts the rank's owned cells.
//  - Edges keep their global direction, so edge_nodes[2e] < edge_nodes[2e+1] holds for the
//    global ids (node_gid) but not necessarily for the local indices.
// Stencils of owned entities are complete: an owned node lies in an owned cell, and every cell
// around the node shares it, so all of them are local (likewise its edges, and the cells and
// faces around an owned edge; both cells of an owned face). Operators that compute owned outputs
// from local inputs therefore give the serial result there.
#pragma once

#include <span>

#include "topology/mesh.hpp"

namespace scfd::partition {

// GLOBAL must be a serial mesh; PART has one entry >= 0 per global cell. A rank that owns no
// cell gets an empty mesh.
topology::Mesh extract_local(const topology::Mesh& global, std::span<const int> part, int rank);

}  // namespace scfd::partition
