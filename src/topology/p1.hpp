// The linear (P1) finite-element functions of a simplex mesh: the gradients of the barycentric
// coordinates of a cell, and the stiffness weights of the edges for a conductivity per cell.
// Host-side geometry for set-up and post-processing (heat's edge weights and heat flux,
// ns post-processing: vorticity, probe interpolation); the solvers apply the weights through
// the backend's node operators.
#pragma once

#include <array>
#include <span>

#include "topology/mesh.hpp"

namespace scfd::topology {

// grad(phi_k) of cell c for its k-th node (k < cell_width(); the rest zero):
// -s A_f n_f / (d V_c), with f = cell_faces[k] the face opposite node k and s = +1 where n_f
// points out of c. The gradients sum to zero; phi_k(x) = 1 + grad(phi_k)·(x - x_k).
std::array<Vec3, 4> barycentric_gradients(const Mesh& m, index c);

// P1 stiffness weights for a per-cell conductivity: w_e = -sum over the cells c containing
// e = (i, j) of k_c V_c grad(phi_i)·grad(phi_j), for every local edge whose cells are local
// (all of them on a rank's mesh). With k = 1 it reproduces mesh.edge_stiffness to round-off.
void edge_weights(const Mesh& m, std::span<const real> k_cell, std::span<real> edge_weight);

}  // namespace scfd::topology
