// Invariants every Mesh must satisfy (mesh.hpp), checked with GoogleTest EXPECTs from first
// principles: array sizes, orientations, cell-face opposition, first-appearance numbering,
// curl loops, CSR transposes, patch lists, and the divergence theorem per cell.
#pragma once

#include "topology/mesh.hpp"

namespace scfd::topology::testing {

// Runs every check below.
void expect_valid_mesh(const Mesh& m);

void expect_sizes(const Mesh& m);
void expect_cell_faces(const Mesh& m);        // local face k opposite node k, signs, c1 < c2
void expect_face_orientation(const Mesh& m);  // normal c1 -> c2, boundary outward, divergence
void expect_first_appearance(const Mesh& m);  // numbering of faces and edges
void expect_curl(const Mesh& m);              // face_curl loops and signs, curl_faces = C^T
void expect_adjacency(const Mesh& m);         // node_cells, node_edges
void expect_patches_regions(const Mesh& m);

// Sum over cells of V_c (the domain measure).
double total_volume(const Mesh& m);

}  // namespace scfd::topology::testing
