// Sums over all ranks (MPI_Allreduce on MPI_COMM_WORLD; the plain value when MPI is not running):
// the only communication a Krylov iteration needs besides halo exchanges. Pairs are reduced in
// one message.
#pragma once

#include <utility>

#include "core/types.hpp"

namespace scfd::solvers {

real global_sum(real local);
std::pair<real, real> global_sum(std::pair<real, real> local);
real global_min(real local);
real global_max(real local);

}  // namespace scfd::solvers
