// The node system operator of node-based diffusion (heat), cpu reference: the node Laplacian
// plus a diagonal, with Dirichlet rows and columns eliminated so that the operator stays
// symmetric positive definite for PCG. See Backend::node_system for the formula.
#pragma once

#include <span>

#include "core/types.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend::cpu {

// y_i = d_i x_i + b sum_{e=(i,j)} w_e (x_i - (1 - fixed_j) x_j) on free nodes; y_i = x_i on fixed.
void node_system(const topology::Mesh& m, std::span<const real> d, real b, std::span<const real> w,
                 std::span<const real> fixed, std::span<const real> x, std::span<real> y);

// diag_i = d_i + b sum_{e∋i} w_e on free nodes, 1 on fixed nodes.
void node_system_diagonal(const topology::Mesh& m, std::span<const real> d, real b,
                          std::span<const real> w, std::span<const real> fixed,
                          std::span<real> diag);

}  // namespace scfd::backend::cpu
