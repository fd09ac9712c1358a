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

#include <span>

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

// Backend::node_system's operator: row i = d_i + b sum_e w_e on the diagonal and -b w_e for the
// free node across edge e when i is free; the identity row when i is fixed (n_owned_nodes x
// n_nodes; inner = n_inner_nodes). The multigrid of the heat model is built from it too.
SparseMatrix node_system_matrix(const topology::Mesh& m, std::span<const real> d, real b,
                                std::span<const real> w, std::span<const real> fixed);

}  // namespace scfd::backend
