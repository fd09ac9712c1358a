// The matrices of the two SPD systems the models solve, assembled on the host for the multigrid
// hierarchy (amg.hpp): one rank's owned rows, with a column for every local entity (the owned ones
// first, then the ghosts: the couplings to other ranks, which make_amg uses for the global coarse
// level).
#pragma once

#include <span>

#include "backend/sparse_matrix.hpp"
#include "topology/mesh.hpp"

namespace scfd::solvers {

// Backend::node_system's operator: row i = d_i + b sum_e w_e on the diagonal and -b w_e for the
// free node across edge e when i is free; the identity row when i is fixed.
backend::SparseMatrix node_system_matrix(const topology::Mesh& m, std::span<const real> d, real b,
                                         std::span<const real> w, std::span<const real> fixed);

// The cell pressure system -D diag(mobility) G0 of the Navier–Stokes models: per face f of cell
// c, mobility_f on the diagonal and -mobility_f for the cell across f (none on a boundary face,
// where the pressure correction is 0).
backend::SparseMatrix cell_laplacian_matrix(const topology::Mesh& m,
                                            std::span<const real> mobility);

}  // namespace scfd::solvers
