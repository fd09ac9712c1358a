// The matrices of the two SPD systems the models solve, assembled on the host for the multigrid
// hierarchy (amg.hpp): one rank's owned rows, with a column for every local entity (the owned ones
// first, then the ghosts: the couplings to other ranks, which make_amg uses for the global coarse
// level).
#pragma once

#include <span>

#include "backend/sparse_matrix.hpp"
#include "topology/mesh.hpp"

namespace scfd::solvers {

// The node system's matrix is backend::node_system_matrix (backend/operator_matrices.hpp).

// The cell pressure system -D diag(mobility) G0 of the Navier–Stokes models: per face f of cell
// c, mobility_f on the diagonal and -mobility_f for the cell across f (none on a boundary face,
// where the pressure correction is 0).
backend::SparseMatrix cell_laplacian_matrix(const topology::Mesh& m,
                                            std::span<const real> mobility);

}  // namespace scfd::solvers
