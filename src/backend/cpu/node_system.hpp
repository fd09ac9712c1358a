// The node system operator of node-based diffusion (heat), cpu reference: the node Laplacian
// plus a diagonal, with Dirichlet rows and columns eliminated so that the operator stays
// symmetric positive definite for PCG. See Backend::node_system for the formula.
#pragma once

#include <span>
#include <vector>

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

// The same operator assembled (Backend::make_node_system): node_system = node_system_apply after
// node_system_assemble, up to rounding. For the owned rows of node_edges, in CSR order (entry k of
// row i at node_edges.offset[i] + k; offset[n_owned_nodes] entries in all), the coefficient of
// the neighbour j across edge e = (i, j)
//   coef = -b w_e   if i and j are free,   0 otherwise
// (Dirichlet columns dropped, Dirichlet rows empty), and per owned node the diagonal of
// node_system_diagonal (diag has n_owned_nodes entries).
index node_system_entries(const topology::Mesh& m);  // size of coef: node_edges of the owned rows

void node_system_assemble(const topology::Mesh& m, std::span<const real> d, real b,
                          std::span<const real> w, std::span<const real> fixed,
                          std::span<real> coef, std::span<real> diag);

// The column j(k) of every entry of node_system_assemble (the other node of the edge).
std::vector<index> node_system_columns(const topology::Mesh& m);

// y_i = diag_i x_i + sum over the entries k of row i of coef_k x_j(k), for the owned nodes i in
// `rows`. `columns` (node_system_columns, or empty: found from the edges) saves the edge lookups.
void node_system_apply(const topology::Mesh& m, std::span<const real> coef,
                       std::span<const real> diag, std::span<const real> x, std::span<real> y,
                       std::span<const index> columns = {}, RowRange rows = {});

}  // namespace scfd::backend::cpu
