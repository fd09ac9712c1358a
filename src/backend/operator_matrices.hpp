// The discrete-calculus operators of backend/cpu/operators.hpp as sparse matrices, built once from
// a mesh: the generic form that Backend's default operator methods apply with the backend's own
// sparse products, where a backend brings no kernel of its own (docs/architecture.md, "Adding a
// backend"). Rows are the owned outputs, columns every local input (ghosts included), entries in
// the order the cpu kernels sum them; `inner` is the mesh's split for halo overlap
// (Mesh::n_inner_X), so Rows::inner and Rows::interface mean what they mean for the kernels.
//
// Bits: a product with G, D, C or R gives the kernel's bits (the same terms added in the same
// order); interpolation and integration differ in the last bits (the kernels divide by the
// volume after the sum, and sum the dot products of whole vectors).
#pragma once

#include "backend/sparse_matrix.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend {

struct OperatorMatrices {
  SparseMatrix gradient;           // G on cells: n_owned_faces x n_cells, -1 behind, +1 in front
  SparseMatrix gradient_boundary;  // G on boundary values: n_owned_faces x n_boundary_faces
  SparseMatrix divergence;         // D: n_owned_cells x n_faces
  SparseMatrix curl;               // C: n_owned_faces x n_curl
  SparseMatrix rotation;           // R: n_owned_curl x n_faces
  SparseMatrix interpolate;        // 3 n_owned_cells x n_faces (x, y, z of each cell in turn)
  SparseMatrix integrate;          // n_owned_faces x 3 n_cells
};

OperatorMatrices operator_matrices(const topology::Mesh& m);

}  // namespace scfd::backend
